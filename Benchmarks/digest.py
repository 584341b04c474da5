#!/usr/bin/env python3
"""Print a digest of a tweets.map store that does not depend on pk values, so stores built by
graphimport, Benchmarks/reference.sql and Benchmarks/reference.py can be compared line by line.

    python3 Benchmarks/digest.py STORE            # one line per table: name, rows, sha256
    python3 Benchmarks/digest.py --rows STORE     # the canonical rows themselves (for diff)
    python3 Benchmarks/digest.py 'host=/tmp/x user=postgres dbname=bench'   # a PostgreSQL store
    DUCKDB_PYTHON Benchmarks/digest.py STORE.duckdb   # a DuckDB store (Benchmarks/duckdb-import)

A STORE that is a libpq connection string (`postgresql://…`, `postgres://…`, or keywords such as
`host=… dbname=…`) is read through `psql` (no driver needed): the same queries, each row built
by the server as a JSON array and re-encoded here, so a PostgreSQL store's table lines equal a
SQLite store's when they hold the same graph (text is compared in byte order, COLLATE "C", as
SQLite's BINARY). Its `schema` line digests the tables as PostgreSQL's catalog describes them
(column types, NOT NULL, primary key, indexes, foreign keys with their delete rule and
deferral), so it can only equal another PostgreSQL store's; `run` compares it with graphimport's
PostgreSQL store and the other lines with graphimport's SQLite store. `foreign_keys` lists the
rows whose foreign key names no row (none expected).

A STORE whose name ends in `.duckdb` is a DuckDB database (Benchmarks/duckdb-import's), read with
the `duckdb` module (so run this with a Python that has it: Benchmarks/run uses its virtual
environment's): the same queries, but for `foreign_keys` (DUCKDB_FOREIGN_KEYS: the references
that name no row, as for PostgreSQL) and `schema` (DuckDB's catalog: columns, NOT NULL and the
key constraints), which can equal no SQLite store's; `run` compares its other lines.

Every row goes through the same canonical form: pk columns are replaced by the key of the row
they point to (a tweet's author by the user's id, a join row by owner id, target key, position),
rows are sorted by those keys, and values keep their SQLite type (1 and '1' differ).
`schema` digests the graph's tables as SQLite describes them (columns with type, NOT NULL and
primary key, STRICT, indexes, foreign keys), not the CREATE text. graphimport's own bookkeeping
is left out: its graphimport_* tables and the per-row run columns it adds (BOOKKEEPING_COLUMNS),
which the references do not keep. `foreign_keys` lists violations (none expected).
"""

import hashlib
import json
import os
import re
import sqlite3
import subprocess
import sys

GRAPH_TABLES = ("tweets", "users", "hashtags", "tweets_hashtags", "tweets_mentions")
BOOKKEEPING_COLUMNS = ("inserted_run", "changed_run", "stub_run", "content_digest")

QUERIES = {
    "tweets": """
        SELECT t.id, t.text, t.created_at, t.sent_at, t.source, t.lang, t.retweet_count,
               t.favorite_count, author.id, retweet_of.id, reply_to.id
        FROM tweets AS t
        LEFT JOIN users AS author ON author.pk = t.author_pk
        LEFT JOIN tweets AS retweet_of ON retweet_of.pk = t.retweet_of_pk
        LEFT JOIN tweets AS reply_to ON reply_to.pk = t.reply_to_pk
        ORDER BY t.id""",
    "users": """
        SELECT id, handle, name, description, url, followers, created_at FROM users ORDER BY id""",
    "hashtags": "SELECT text FROM hashtags ORDER BY text",
    "tweets_hashtags": """
        SELECT t.id, h.text, j.position
        FROM tweets_hashtags AS j
        JOIN tweets AS t ON t.pk = j.tweets_pk JOIN hashtags AS h ON h.pk = j.hashtags_pk
        ORDER BY t.id, j.position, h.text""",
    "tweets_mentions": """
        SELECT t.id, u.id, j.position
        FROM tweets_mentions AS j
        JOIN tweets AS t ON t.pk = j.tweets_pk JOIN users AS u ON u.pk = j.users_pk
        ORDER BY t.id, j.position, u.id""",
    "foreign_keys": "PRAGMA foreign_key_check",
}


# The same rows from PostgreSQL: each query returns one JSON array per row (json_build_array
# keeps bigint as a JSON number, which Python reads back exactly, and text as a string).
PG_QUERIES = {
    "tweets": """
        SELECT json_build_array(t.id, t.text, t.created_at, t.sent_at, t.source, t.lang,
               t.retweet_count, t.favorite_count, author.id, retweet_of.id, reply_to.id)
        FROM tweets AS t
        LEFT JOIN users AS author ON author.pk = t.author_pk
        LEFT JOIN tweets AS retweet_of ON retweet_of.pk = t.retweet_of_pk
        LEFT JOIN tweets AS reply_to ON reply_to.pk = t.reply_to_pk
        ORDER BY t.id""",
    "users": """
        SELECT json_build_array(id, handle, name, description, url, followers, created_at)
        FROM users ORDER BY id""",
    "hashtags": 'SELECT json_build_array(text) FROM hashtags ORDER BY text COLLATE "C"',
    "tweets_hashtags": """
        SELECT json_build_array(t.id, h.text, j.position)
        FROM tweets_hashtags AS j
        JOIN tweets AS t ON t.pk = j.tweets_pk JOIN hashtags AS h ON h.pk = j.hashtags_pk
        ORDER BY t.id, j.position, h.text COLLATE "C" """,
    "tweets_mentions": """
        SELECT json_build_array(t.id, u.id, j.position)
        FROM tweets_mentions AS j
        JOIN tweets AS t ON t.pk = j.tweets_pk JOIN users AS u ON u.pk = j.users_pk
        ORDER BY t.id, j.position, u.id""",
    # The deferred foreign keys are checked at COMMIT; this finds any row that escaped them.
    "foreign_keys": """
        SELECT json_build_array('tweets', t.pk, c.name) FROM tweets AS t,
            LATERAL (VALUES ('author_pk', t.author_pk IS NOT NULL AND NOT EXISTS (SELECT 1 FROM users WHERE pk = t.author_pk)),
                            ('retweet_of_pk', t.retweet_of_pk IS NOT NULL AND NOT EXISTS (SELECT 1 FROM tweets AS r WHERE r.pk = t.retweet_of_pk)),
                            ('reply_to_pk', t.reply_to_pk IS NOT NULL AND NOT EXISTS (SELECT 1 FROM tweets AS r WHERE r.pk = t.reply_to_pk))) AS c(name, bad)
            WHERE c.bad
        UNION ALL SELECT json_build_array('tweets_hashtags', j.tweets_pk, j.hashtags_pk) FROM tweets_hashtags AS j
            WHERE NOT EXISTS (SELECT 1 FROM tweets WHERE pk = j.tweets_pk) OR NOT EXISTS (SELECT 1 FROM hashtags WHERE pk = j.hashtags_pk)
        UNION ALL SELECT json_build_array('tweets_mentions', j.tweets_pk, j.users_pk) FROM tweets_mentions AS j
            WHERE NOT EXISTS (SELECT 1 FROM tweets WHERE pk = j.tweets_pk) OR NOT EXISTS (SELECT 1 FROM users WHERE pk = j.users_pk)""",
}

# DuckDB (no deferred foreign keys, so duckdb-import declares none): the references that name no
# row, the rows of SQLite's `PRAGMA foreign_key_check` for a store without them (none expected).
DUCKDB_FOREIGN_KEYS = """
    SELECT 'tweets', t.pk, 'author_pk' FROM tweets AS t
        WHERE t.author_pk IS NOT NULL AND NOT EXISTS (SELECT 1 FROM users AS u WHERE u.pk = t.author_pk)
    UNION ALL SELECT 'tweets', t.pk, 'retweet_of_pk' FROM tweets AS t
        WHERE t.retweet_of_pk IS NOT NULL AND NOT EXISTS (SELECT 1 FROM tweets AS r WHERE r.pk = t.retweet_of_pk)
    UNION ALL SELECT 'tweets', t.pk, 'reply_to_pk' FROM tweets AS t
        WHERE t.reply_to_pk IS NOT NULL AND NOT EXISTS (SELECT 1 FROM tweets AS r WHERE r.pk = t.reply_to_pk)
    UNION ALL SELECT 'tweets_hashtags', j.tweets_pk, j.hashtags_pk FROM tweets_hashtags AS j
        WHERE NOT EXISTS (SELECT 1 FROM tweets AS t WHERE t.pk = j.tweets_pk)
           OR NOT EXISTS (SELECT 1 FROM hashtags AS h WHERE h.pk = j.hashtags_pk)
    UNION ALL SELECT 'tweets_mentions', j.tweets_pk, j.users_pk FROM tweets_mentions AS j
        WHERE NOT EXISTS (SELECT 1 FROM tweets AS t WHERE t.pk = j.tweets_pk)
           OR NOT EXISTS (SELECT 1 FROM users AS u WHERE u.pk = j.users_pk)"""

# The graph's tables as DuckDB's catalog describes them.
DUCKDB_SCHEMA = """
    SELECT 'column', table_name, column_name, data_type, is_nullable, column_index
    FROM duckdb_columns() WHERE table_name IN ({tables}) AND database_name = current_database()
    UNION ALL
    SELECT 'constraint', table_name, constraint_type, array_to_string(constraint_column_names, ','), NULL, NULL
    FROM duckdb_constraints() WHERE table_name IN ({tables}) AND database_name = current_database()
        AND constraint_type IN ('PRIMARY KEY', 'UNIQUE', 'FOREIGN KEY')
    ORDER BY 2, 1, 6, 3, 4"""

# The graph's tables as PostgreSQL's catalog describes them, one JSON array per line, in the
# schema of the connection's search_path; graphimport's bookkeeping columns and the indexes on
# them left out. Index and constraint names are PostgreSQL's own (graphimport names its indexes
# as on SQLite; the reference uses graphimport's DDL).
PG_SCHEMA = """
    WITH graph(name) AS (SELECT unnest(%(tables)s::text[])),
    rel AS (SELECT c.oid, c.relname FROM pg_class AS c JOIN graph AS g ON g.name = c.relname
            WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'r'),
    skip(name) AS (SELECT unnest(%(bookkeeping)s::text[]))
    SELECT line FROM (
        SELECT 1 AS part, r.relname AS t, a.attnum::text AS n, json_build_array('column', r.relname, a.attname,
               format_type(a.atttypid, a.atttypmod), a.attnotnull, a.attidentity,
               EXISTS (SELECT 1 FROM pg_index AS i WHERE i.indrelid = r.oid AND i.indisprimary AND a.attnum = ANY (i.indkey))) AS line
        FROM rel AS r JOIN pg_attribute AS a ON a.attrelid = r.oid
        WHERE a.attnum > 0 AND NOT a.attisdropped AND a.attname NOT IN (SELECT name FROM skip)
        UNION ALL
        SELECT 2, r.relname, i.relname, json_build_array('index', r.relname, i.relname, x.indisunique, x.indisprimary,
               (SELECT string_agg(a.attname, ',' ORDER BY k.ord) FROM unnest(x.indkey) WITH ORDINALITY AS k(attnum, ord)
                JOIN pg_attribute AS a ON a.attrelid = r.oid AND a.attnum = k.attnum))
        FROM rel AS r JOIN pg_index AS x ON x.indrelid = r.oid JOIN pg_class AS i ON i.oid = x.indexrelid
        WHERE NOT EXISTS (SELECT 1 FROM unnest(x.indkey) AS k(attnum) JOIN pg_attribute AS a ON a.attrelid = r.oid AND a.attnum = k.attnum
                          WHERE a.attname IN (SELECT name FROM skip))
        UNION ALL
        SELECT 3, r.relname, pg_get_constraintdef(c.oid), json_build_array('foreign_key', r.relname, pg_get_constraintdef(c.oid))
        FROM rel AS r JOIN pg_constraint AS c ON c.conrelid = r.oid AND c.contype = 'f'
    ) AS s
    ORDER BY t COLLATE "C", part, n COLLATE "C", line::text COLLATE "C"
"""


def is_postgres(store):
    """A libpq connection URI or keyword string, as graphimport tells one from a SQLite file."""
    return bool(re.match(r"^(postgres|postgresql)://", store)) or bool(
        re.match(r"^\s*(host|hostaddr|port|dbname|user|password|service|sslmode|options)\s*=", store))


def psql_rows(store, query):
    """The rows of `query` (one JSON value per row) read through psql (PSQL, or psql on PATH)."""
    output = subprocess.run(
        [os.environ.get("PSQL", "psql"), "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-d", store, "-c", query],
        check=True, stdout=subprocess.PIPE).stdout.decode("utf-8")
    return [json.loads(line) for line in output.split("\n") if line]


def canonical(row):
    """One line per row; bytes are shown as hex so that every value has one spelling."""
    return json.dumps([value.hex() if isinstance(value, bytes) else value for value in row],
                      ensure_ascii=False, separators=(",", ":"))


def schema_rows(connection):
    """The graph's tables as SQLite's pragmas describe them, without graphimport's bookkeeping."""
    for table in GRAPH_TABLES:
        for entry in connection.execute("PRAGMA table_list(%s)" % table):
            yield ("table", table, "strict" if entry[5] else "not strict")
        for _, name, kind, not_null, _, pk in connection.execute("PRAGMA table_info(%s)" % table):
            if name not in BOOKKEEPING_COLUMNS:
                yield ("column", table, name, kind, not_null, pk)
        indexes = []
        for _, index, unique, origin, _ in connection.execute("PRAGMA index_list(%s)" % table):
            columns = [row[2] for row in connection.execute("PRAGMA index_info(%s)" % index)]
            if not set(columns) <= set(BOOKKEEPING_COLUMNS):
                indexes.append(("index", table, index if origin == "c" else "(%s)" % origin, unique, ",".join(columns)))
        yield from sorted(indexes)
        for row in sorted(connection.execute("PRAGMA foreign_key_list(%s)" % table)):
            yield ("foreign_key", table, row[3], row[2], row[4], row[5], row[6])


def postgres_tables(store):
    """(name, rows) per line of the digest, read from a PostgreSQL store."""
    array = lambda names: "ARRAY[%s]" % ", ".join("'%s'" % name for name in names)
    yield "schema", psql_rows(store, PG_SCHEMA % {"tables": array(GRAPH_TABLES), "bookkeeping": array(BOOKKEEPING_COLUMNS)})
    for name, query in PG_QUERIES.items():
        yield name, psql_rows(store, query)


def sqlite_tables(store):
    """(name, rows) per line of the digest, read from a SQLite store."""
    connection = sqlite3.connect("file:%s?mode=ro" % store, uri=True)
    connection.text_factory = lambda data: data.decode("utf-8", "surrogateescape")
    yield "schema", schema_rows(connection)
    for name, query in QUERIES.items():
        yield name, connection.execute(query)
    connection.close()


def duckdb_tables(store):
    """(name, rows) per line of the digest, read from a DuckDB store."""
    import duckdb  # only here: a SQLite or PostgreSQL store needs no module beyond the stdlib
    connection = duckdb.connect(store, read_only=True)
    tables = ", ".join("'%s'" % table for table in GRAPH_TABLES)
    yield "schema", connection.execute(DUCKDB_SCHEMA.format(tables=tables)).fetchall()
    for name, query in QUERIES.items():
        yield name, connection.execute(DUCKDB_FOREIGN_KEYS if name == "foreign_keys" else query).fetchall()
    connection.close()


def digest(store, show_rows):
    if is_postgres(store):
        tables = postgres_tables(store)
    elif store.endswith(".duckdb"):
        tables = duckdb_tables(store)
    else:
        tables = sqlite_tables(store)
    for name, rows in tables:
        hasher = hashlib.sha256()
        count = 0
        for row in rows:
            line = canonical(row)
            if show_rows:
                print("%s\t%s" % (name, line))
            hasher.update(line.encode("utf-8", "surrogateescape"))
            hasher.update(b"\n")
            count += 1
        if not show_rows:
            print("%-16s %9d  %s" % (name, count, hasher.hexdigest()[:32]))


def main(argv):
    show_rows = "--rows" in argv
    paths = [argument for argument in argv if argument != "--rows"]
    if len(paths) != 1:
        sys.stderr.write("usage: digest.py [--rows] STORE\n")
        return 64
    digest(paths[0], show_rows)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
