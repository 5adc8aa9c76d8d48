-- Export: the tables `paipu export` writes as Parquet.

-- name: export-tables
-- The database's own tables (no temporary tables), by name; a lake's tables are views.
SELECT table_name
FROM duckdb_tables()
WHERE NOT temporary AND schema_name = 'main'
UNION ALL
SELECT view_name
FROM duckdb_views()
WHERE NOT internal AND NOT temporary AND schema_name = 'main'
ORDER BY table_name
