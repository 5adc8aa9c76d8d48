-- Queries of the Parquet lake (pipeline/lake.py). A lake file holds a table's rows with two
-- columns more: `month` (YYYY-MM of the hand's time, 'unknown' without one) and `_source`
-- (the file the hand was ingested from), and `variant` where the table has none; `variant`
-- and `month` are the hive partitions of the folder, `_source` is what a re-ingest of a file
-- replaces.

-- name: lake-hand-keys
-- Per hand of the run's database: where its rows go in the lake (joined by every table).
CREATE OR REPLACE TEMP TABLE lake_keys AS
SELECT
    game,
    hand,
    variant,
    coalesce(strftime(time, '%Y-%m'), 'unknown') AS month,
    source_file AS _source
FROM hands

-- name: lake-columns
-- The columns of a table of the schema, in order (the views of a lake show exactly these).
SELECT column_name
FROM duckdb_columns()
WHERE table_name = $table AND schema_name = 'main' AND database_name = current_database()
ORDER BY column_index

-- name: lake-copy-table
-- A table's rows of the run's database, with their lake columns, written into the table's
-- folder ($folder) as hive partitions by variant and month, file names from $pattern
-- (`run-<id>-{uuid}`). Straight from the table (no intermediate table), so DuckDB streams
-- it under the connection's memory limit. The natural join matches on game and hand, and
-- on variant where the table has one (the hand's own), so `variant` appears once.
COPY (
    SELECT *
    FROM query_table($table)
    NATURAL JOIN lake_keys
) TO $folder (FORMAT parquet, COMPRESSION zstd, PARTITION_BY (variant, month), APPEND,
    FILENAME_PATTERN $pattern)

-- name: lake-copy-rejects
-- The run's rejected hands into one unpartitioned file ($path), with their source file as
-- `_source`; the count of rows written.
COPY (
    SELECT
        *,
        source AS _source
    FROM rejects
) TO $path (FORMAT parquet, COMPRESSION zstd)

-- name: lake-rewrite-table
-- A re-ingest: the rows of a run's files ($files, of one table) whose source file is not
-- one of $sources, written back as partitions like `lake-copy-table`.
COPY (
    SELECT *
    FROM read_parquet(
        $files, hive_partitioning = TRUE, hive_types_autocast = FALSE, union_by_name = TRUE
    )
    WHERE _source NOT IN (SELECT unnest($sources))
) TO $folder (FORMAT parquet, COMPRESSION zstd, PARTITION_BY (variant, month), APPEND,
    FILENAME_PATTERN $pattern)

-- name: lake-rewrite-rejects
-- A re-ingest: the rejects of a run's file ($files) not from one of $sources, as one file.
COPY (
    SELECT *
    FROM read_parquet($files, union_by_name = TRUE)
    WHERE _source NOT IN (SELECT unnest($sources))
) TO $path (FORMAT parquet, COMPRESSION zstd)
