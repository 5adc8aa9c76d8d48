-- The lake's COPY statements (pipeline/lake.py): a run's tables, or a re-ingest's kept rows,
-- written as the lake's Parquet files (the columns of sql/reports/lake.sql). Apart from the
-- report queries because they run against a run's database and its `lake_keys` table
-- (query `lake-hand-keys`), with paths as parameters. Each COPY writes one plain file (one
-- partition of one table, `variant` and `month` in its folder's name, not in the file):
-- DuckDB streams a plain COPY under the connection's memory limit, where its PARTITION_BY
-- write ran out of a 128 MB budget on 1.2 million discards. Row groups of 4,096 rows keep
-- a column chunk of `hands.record` (a hand's whole log line, about 3 KB) small.

-- name: lake-partitions
-- The partitions (variant, month) the run's hands fall in.
SELECT DISTINCT
    variant,
    month
FROM lake_keys
ORDER BY ALL

-- name: lake-copy-hands
-- The run's hands of partition ($variant, $month) into the file $path, with their source
-- file as `_source` (from their own row: a join would hash their records); the count.
COPY (
    SELECT
        * EXCLUDE (variant),
        source_file AS _source
    FROM hands
    WHERE variant = $variant AND coalesce(strftime(time, '%Y-%m'), 'unknown') = $month
) TO $path (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 4096)

-- name: lake-copy-table
-- The rows of table $table of the run's hands of partition ($variant, $month) into the file
-- $path, with `_source`; the count. The natural join matches on game and hand, and on
-- variant where the table has one (the hand's own), so `variant` appears once.
COPY (
    SELECT * EXCLUDE (variant, month)
    FROM query_table($table)
    NATURAL JOIN lake_keys
    WHERE variant = $variant AND month = $month
) TO $path (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 4096)

-- name: lake-copy-rejects
-- The run's rejected hands into one unpartitioned file ($path), with their source file as
-- `_source`; the count of rows written.
COPY (
    SELECT
        *,
        source AS _source
    FROM rejects
) TO $path (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 4096)

-- name: lake-rewrite-file
-- A re-ingest: the rows of one lake file ($file) whose source file is not one of $sources,
-- into the file $path (in the same partition); the count.
COPY (
    SELECT *
    FROM read_parquet($file)
    WHERE _source NOT IN (SELECT unnest($sources))
) TO $path (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 4096)
