"""SQL lives in named ``.sql`` files; this loads it and runs it.

Schema files ``sql/schema/NNN_*.sql`` are applied in order (each statement idempotent).
Report queries ``sql/reports/<topic>.sql`` hold blocks headed ``-- name: <query-name>``
followed by comment lines that document the query; parameters are DuckDB ``$name``s.

>>> queries = load_queries()
>>> all(q.sql.strip() for q in queries.values())
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any

import duckdb

if TYPE_CHECKING:  # the frames' library, imported by DuckDB's .pl() when a query runs
    import polars as pl

_NAME = re.compile(r"^--\s*name:\s*([a-z0-9_-]+)\s*$")


class QueryError(ValueError):
    """A malformed query file or an unknown query name."""


@dataclass(frozen=True, slots=True)
class Query:
    name: str
    doc: str
    sql: str
    source: str


def _sql_files(folder: str) -> list[tuple[str, str]]:
    root = resources.files("paipu.sql") / folder
    if not root.is_dir():
        return []
    return sorted(
        (p.name, p.read_text(encoding="utf-8")) for p in root.iterdir() if p.name.endswith(".sql")
    )


def apply_schema(con: duckdb.DuckDBPyConnection) -> None:
    """Create every table that does not exist yet."""
    for _name, text in _sql_files("schema"):
        con.execute(text)


@cache
def load_queries(folder: str = "reports") -> dict[str, Query]:
    """Every named query of ``sql/<folder>`` (``sql/reports`` by default; ``sql/lake``
    holds the lake's ``COPY`` statements, which need the tables of a run, not the schema);
    duplicate names are an error."""
    queries: dict[str, Query] = {}
    for file_name, text in _sql_files(folder):
        for query in _split(text, file_name):
            if query.name in queries:
                raise QueryError(
                    f"query {query.name!r} is defined in {queries[query.name].source}"
                    f" and in {file_name}"
                )
            queries[query.name] = query
    return queries


def _split(text: str, source: str) -> list[Query]:
    out: list[Query] = []
    name: str | None = None
    doc: list[str] = []
    body: list[str] = []

    def close() -> None:
        if name is not None:
            sql = "\n".join(body).strip().rstrip(";")
            if not sql:
                raise QueryError(f"{source}: query {name!r} has no SQL")
            out.append(Query(name, "\n".join(doc).strip(), sql, source))

    for line in text.splitlines():
        match = _NAME.match(line)
        if match:
            close()
            name, doc, body = match.group(1), [], []
        elif name is not None and not body and line.startswith("--"):
            doc.append(line[2:].strip())
        elif name is not None:
            body.append(line)
        elif line.strip() and not line.startswith("--"):
            raise QueryError(f"{source}: SQL before the first '-- name:' header")
    close()
    return out


def run(con: duckdb.DuckDBPyConnection, name: str, **params: Any) -> pl.DataFrame:
    """Run a named query with ``$params`` and return a Polars frame."""
    queries = load_queries()
    if name not in queries:
        raise QueryError(f"no query named {name!r}")
    sql = queries[name].sql
    used = {p for p in params if f"${p}" in sql}
    return con.sql(sql, params={p: params[p] for p in used}).pl()
