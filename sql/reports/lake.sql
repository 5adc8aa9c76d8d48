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
