-- Export: the tables `paipu export` writes as Parquet.

-- name: export-tables
-- The database's own tables (no views, no temporary tables), by name.
SELECT table_name
FROM duckdb_tables()
WHERE NOT temporary AND schema_name = 'main'
ORDER BY table_name
