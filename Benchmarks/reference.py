#!/usr/bin/env python3
"""Reference importer in stdlib Python (json + sqlite3): builds the graph that
`graphimport FEED --map Mappings/tweets.map --store STORE` builds, in one transaction.

    python3 Benchmarks/reference.py FEED STORE      # FEED: a JSON array or JSON Lines; - = stdin
    python3 Benchmarks/reference.py --root object.status FEED STORE   # the tweet under each record

Records are read one at a time (a JSON array is decoded element by element with
json.JSONDecoder.raw_decode, so memory does not grow with the feed) and handled in batches of
BATCH records: every object of the batch is collected in feed order, then written with
executemany upserts (INSERT ... ON CONFLICT DO UPDATE ... WHERE a value differs), so rows that
did not change are not written. Semantics follow Benchmarks/reference.sql (see its header).
"""

import datetime
import json
import sqlite3
import sys

BATCH = 5000
CHUNK = 1 << 20
MONTHS = {name: index + 1 for index, name in enumerate(
    ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"))}

SCHEMA = """
CREATE TABLE IF NOT EXISTS "tweets" ("pk" INTEGER PRIMARY KEY, "id" INTEGER NOT NULL, "text" TEXT, "created_at" TEXT, "sent_at" TEXT, "source" TEXT, "lang" TEXT, "retweet_count" INTEGER, "favorite_count" INTEGER, "author_pk" INTEGER REFERENCES "users"("pk") ON DELETE SET NULL DEFERRABLE INITIALLY DEFERRED, "retweet_of_pk" INTEGER REFERENCES "tweets"("pk") ON DELETE SET NULL DEFERRABLE INITIALLY DEFERRED, "reply_to_pk" INTEGER REFERENCES "tweets"("pk") ON DELETE SET NULL DEFERRABLE INITIALLY DEFERRED) STRICT;
CREATE UNIQUE INDEX IF NOT EXISTS "tweets_id" ON "tweets"("id");
CREATE INDEX IF NOT EXISTS "tweets_author_pk_index" ON "tweets"("author_pk");
CREATE INDEX IF NOT EXISTS "tweets_retweet_of_pk_index" ON "tweets"("retweet_of_pk");
CREATE INDEX IF NOT EXISTS "tweets_reply_to_pk_index" ON "tweets"("reply_to_pk");
CREATE TABLE IF NOT EXISTS "users" ("pk" INTEGER PRIMARY KEY, "id" INTEGER NOT NULL, "handle" TEXT, "name" TEXT, "description" TEXT, "url" TEXT, "followers" INTEGER, "created_at" TEXT) STRICT;
CREATE UNIQUE INDEX IF NOT EXISTS "users_id" ON "users"("id");
CREATE TABLE IF NOT EXISTS "hashtags" ("pk" INTEGER PRIMARY KEY, "text" TEXT NOT NULL) STRICT;
CREATE UNIQUE INDEX IF NOT EXISTS "hashtags_text" ON "hashtags"("text");
CREATE TABLE IF NOT EXISTS "tweets_hashtags" ("tweets_pk" INTEGER NOT NULL REFERENCES "tweets"("pk") ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED, "hashtags_pk" INTEGER NOT NULL REFERENCES "hashtags"("pk") ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED, "position" INTEGER NOT NULL, PRIMARY KEY ("tweets_pk", "hashtags_pk")) STRICT, WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS "tweets_hashtags_hashtags_pk_index" ON "tweets_hashtags"("hashtags_pk");
CREATE TABLE IF NOT EXISTS "tweets_mentions" ("tweets_pk" INTEGER NOT NULL REFERENCES "tweets"("pk") ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED, "users_pk" INTEGER NOT NULL REFERENCES "users"("pk") ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED, "position" INTEGER NOT NULL, PRIMARY KEY ("tweets_pk", "users_pk")) STRICT, WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS "tweets_mentions_users_pk_index" ON "tweets_mentions"("users_pk");
"""

UPSERT_MENTIONED_USER = """
INSERT INTO users (id, handle, name) VALUES (?, ?, ?)
ON CONFLICT (id) DO UPDATE SET handle = excluded.handle, name = excluded.name
WHERE users.handle IS NOT excluded.handle OR users.name IS NOT excluded.name"""

UPSERT_USER = """
INSERT INTO users (id, handle, name, description, url, followers, created_at)
VALUES (?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (id) DO UPDATE SET
    handle = excluded.handle, name = excluded.name, description = excluded.description,
    url = excluded.url, followers = excluded.followers, created_at = excluded.created_at
WHERE users.handle IS NOT excluded.handle OR users.name IS NOT excluded.name
   OR users.description IS NOT excluded.description OR users.url IS NOT excluded.url
   OR users.followers IS NOT excluded.followers OR users.created_at IS NOT excluded.created_at"""

INSERT_HASHTAG = "INSERT INTO hashtags (text) VALUES (?) ON CONFLICT (text) DO NOTHING"
INSERT_STUB = "INSERT INTO tweets (id) VALUES (?) ON CONFLICT (id) DO NOTHING"

TWEET_COLUMNS = ("text", "created_at", "sent_at", "source", "lang", "retweet_count",
                 "favorite_count", "author_pk", "reply_to_pk")


def upsert_tweet(with_retweet):
    """The tweet upsert; retweet_of_pk is written only for objects that hold retweeted_status."""
    columns = TWEET_COLUMNS + (("retweet_of_pk",) if with_retweet else ())
    values = ["?"] * 7 + ["(SELECT pk FROM users WHERE id = ?)", "(SELECT pk FROM tweets WHERE id = ?)"]
    if with_retweet:
        values.append("(SELECT pk FROM tweets WHERE id = ?)")
    return "INSERT INTO tweets (id, %s) VALUES (?, %s) ON CONFLICT (id) DO UPDATE SET %s WHERE %s" % (
        ", ".join(columns), ", ".join(values),
        ", ".join("%s = excluded.%s" % (c, c) for c in columns),
        " OR ".join("tweets.%s IS NOT excluded.%s" % (c, c) for c in columns))


UPSERT_TWEET = upsert_tweet(False)
UPSERT_RETWEET = upsert_tweet(True)


def twitter_date(text):
    """'Wed Dec 09 19:40:11 +0000 2015' -> '2015-12-09T19:40:11.000Z'."""
    if text is None:
        return None
    month = MONTHS[text[4:7]]
    offset = text[20:25]
    if offset == "+0000":
        return "%s-%02d-%sT%s.000Z" % (text[26:30], month, text[8:10], text[11:19])
    moment = datetime.datetime(int(text[26:30]), month, int(text[8:10]), int(text[11:13]),
                               int(text[14:16]), int(text[17:19]))
    minutes = int(offset[1:3]) * 60 + int(offset[3:5])
    moment -= datetime.timedelta(minutes=minutes if offset[0] == "+" else -minutes)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.000Z")


def epoch_millis(value):
    """1449690011827 or '1449690011827' -> '2015-12-09T19:40:11.827Z'."""
    if value is None:
        return None
    milliseconds = int(value)
    moment = datetime.datetime(1970, 1, 1) + datetime.timedelta(milliseconds=milliseconds)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (milliseconds % 1000)


def records(stream):
    """Each element of a top-level array, or each value of a JSON Lines stream, one at a time."""
    decoder = json.JSONDecoder()
    buffer = ""
    position = 0
    at_end = False
    inside_array = None

    def refill():
        nonlocal buffer, position, at_end
        chunk = stream.read(CHUNK)
        buffer = buffer[position:] + chunk
        position = 0
        at_end = not chunk

    while True:
        while position < len(buffer) and buffer[position] in " \t\r\n,":
            position += 1
        if position == len(buffer):
            if at_end:
                return
            refill()
            continue
        if inside_array is None:
            inside_array = buffer[position] == "["
            position += inside_array
            continue
        if inside_array and buffer[position] == "]":
            return
        try:
            value, end = decoder.raw_decode(buffer, position)
        except json.JSONDecodeError:
            if at_end:
                raise
            refill()
            continue
        if end == len(buffer) and not at_end:
            refill()  # a number may go on in the next chunk: decode it again with more text
            continue
        position = end
        yield value


class Batch:
    """Objects of a run of records in feed order, ready for executemany."""

    def __init__(self):
        self.mentioned_users = []
        self.users = []
        self.hashtags = {}
        self.stubs = []
        self.tweets = []
        self.retweets = []
        self.hashtag_lists = {}
        self.mention_lists = {}

    def add_tweet(self, tweet):
        """Collects `tweet`, its nested objects first, as graphimport walks them."""
        user = tweet.get("user")
        if user is not None:
            self.users.append((
                user["id"], user.get("screen_name"), user.get("name"), user.get("description"),
                user.get("url"), user.get("followers_count"), twitter_date(user.get("created_at"))))
        retweeted = tweet.get("retweeted_status")
        if retweeted is not None:
            self.add_tweet(retweeted)
        reply = tweet.get("in_reply_to_status_id")
        if reply is not None:
            self.stubs.append((reply,))
        entities = tweet.get("entities") or {}
        if "hashtags" in entities:
            tags = []
            for hashtag in entities["hashtags"] or ():
                text = hashtag["text"].lower()
                self.hashtags[text] = None
                if text not in tags:
                    tags.append(text)
            self.hashtag_lists[tweet["id"]] = tags
        if "user_mentions" in entities:
            users = []
            for mention in entities["user_mentions"] or ():
                self.mentioned_users.append((mention["id"], mention.get("screen_name"), mention.get("name")))
                if mention["id"] not in users:
                    users.append(mention["id"])
            self.mention_lists[tweet["id"]] = users
        row = (
            tweet["id"], tweet.get("text"), twitter_date(tweet.get("created_at")),
            epoch_millis(tweet.get("timestamp_ms")), tweet.get("source"), tweet.get("lang"),
            tweet.get("retweet_count"), tweet.get("favorite_count"),
            user["id"] if user is not None else None, reply)
        if "retweeted_status" in tweet:
            self.retweets.append(row + (retweeted["id"] if retweeted is not None else None,))
        else:
            self.tweets.append(row)


def pks(cursor, table, column, keys):
    """{key: pk} for `keys`, in one query through json_each."""
    found = {}
    keys = list(keys)
    for start in range(0, len(keys), 50000):
        chunk = json.dumps(keys[start:start + 50000])
        for key, pk in cursor.execute(
                "SELECT %s, pk FROM %s WHERE %s IN (SELECT value FROM json_each(?))" % (column, table, column),
                (chunk,)):
            found[key] = pk
    return found


def write_lists(cursor, table, target_column, lists, tweet_pks, target_pks):
    """Replaces each owner's stored list when it differs from the feed's."""
    owners = [tweet_pks[tweet_id] for tweet_id in lists]
    stored = {}
    for start in range(0, len(owners), 50000):
        for owner, target in cursor.execute(
                "SELECT tweets_pk, %s FROM %s WHERE tweets_pk IN (SELECT value FROM json_each(?)) "
                "ORDER BY tweets_pk, position" % (target_column, table),
                (json.dumps(owners[start:start + 50000]),)):
            stored.setdefault(owner, []).append(target)
    deletes = []
    inserts = []
    for tweet_id, keys in lists.items():
        owner = tweet_pks[tweet_id]
        wanted = [target_pks[key] for key in keys]
        have = stored.get(owner, [])
        if have != wanted:
            if have:
                deletes.append((owner,))
            inserts.extend((owner, target, position) for position, target in enumerate(wanted))
    cursor.executemany("DELETE FROM %s WHERE tweets_pk = ?" % table, deletes)
    cursor.executemany("INSERT INTO %s (tweets_pk, %s, position) VALUES (?, ?, ?)" % (table, target_column), inserts)


def flush(cursor, batch):
    cursor.executemany(UPSERT_MENTIONED_USER, batch.mentioned_users)
    cursor.executemany(UPSERT_USER, batch.users)
    cursor.executemany(INSERT_HASHTAG, ((text,) for text in batch.hashtags))
    cursor.executemany(INSERT_STUB, batch.stubs)
    cursor.executemany(UPSERT_TWEET, batch.tweets)
    cursor.executemany(UPSERT_RETWEET, batch.retweets)
    owners = set(batch.hashtag_lists) | set(batch.mention_lists)
    tweet_pks = pks(cursor, "tweets", "id", owners)
    hashtag_pks = pks(cursor, "hashtags", "text", batch.hashtags)
    user_pks = pks(cursor, "users", "id", {key for keys in batch.mention_lists.values() for key in keys})
    write_lists(cursor, "tweets_hashtags", "hashtags_pk", batch.hashtag_lists, tweet_pks, hashtag_pks)
    write_lists(cursor, "tweets_mentions", "users_pk", batch.mention_lists, tweet_pks, user_pks)


def main(argv):
    root = []
    if argv[:1] == ["--root"] and len(argv) >= 2:
        root, argv = argv[1].split("."), argv[2:]
    if len(argv) != 2:
        sys.stderr.write("usage: reference.py [--root PATH] FEED STORE\n")
        return 64
    feed, store = argv
    connection = sqlite3.connect(store, isolation_level=None)
    # The pragmas graphimport sets (Sources/GraphImportStore/Database.swift), the cache and
    # temp_store at its earlier settings (Benchmarks/README.md); rollback journal.
    connection.executescript(
        "PRAGMA foreign_keys = ON; PRAGMA cache_size = -65536; PRAGMA temp_store = MEMORY;")
    cursor = connection.cursor()
    cursor.execute("BEGIN")
    for statement in SCHEMA.split(";\n"):
        if statement.strip():
            cursor.execute(statement)
    stream = sys.stdin if feed == "-" else open(feed, encoding="utf-8")
    with stream:
        batch = Batch()
        count = 0
        for record in records(stream):
            for step in root:  # --root: where the tweet sits in each record
                record = record[step]
            batch.add_tweet(record)
            count += 1
            if count % BATCH == 0:
                flush(cursor, batch)
                batch = Batch()
        flush(cursor, batch)
    cursor.execute("COMMIT")
    connection.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
