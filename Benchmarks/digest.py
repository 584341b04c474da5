#!/usr/bin/env python3
"""Print a digest of a tweets.map store that does not depend on pk values, so stores built by
graphimport, Benchmarks/reference.sql and Benchmarks/reference.py can be compared line by line.

    python3 Benchmarks/digest.py STORE            # one line per table: name, rows, sha256
    python3 Benchmarks/digest.py --rows STORE     # the canonical rows themselves (for diff)

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
import sqlite3
import sys

GRAPH_TABLES = ("tweets", "users", "hashtags", "tweets_hashtags", "tweets_mentions")
BOOKKEEPING_COLUMNS = ("inserted_run", "changed_run")

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


def digest(store, show_rows):
    connection = sqlite3.connect("file:%s?mode=ro" % store, uri=True)
    connection.text_factory = lambda data: data.decode("utf-8", "surrogateescape")
    for name, query in [("schema", None)] + list(QUERIES.items()):
        hasher = hashlib.sha256()
        count = 0
        for row in schema_rows(connection) if query is None else connection.execute(query):
            line = canonical(row)
            if show_rows:
                print("%s\t%s" % (name, line))
            hasher.update(line.encode("utf-8", "surrogateescape"))
            hasher.update(b"\n")
            count += 1
        if not show_rows:
            print("%-16s %9d  %s" % (name, count, hasher.hexdigest()[:32]))
    connection.close()


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
