-- Reference importer for the stock sqlite3 CLI: builds the graph that
-- `graphimport FEED --map Mappings/tweets.map` builds, in pure SQL, in one transaction.
--
-- It expects the feed already loaded, one tweet (top-level record) per row, in
--     TEMP TABLE feed(j TEXT)        -- rowid = the record's position in the feed, from 1
-- Benchmarks/sqlite-import does that (readfile() + json_each() for a JSON array up to 1 GB,
-- `.import` of JSON Lines otherwise) and sets the pragmas graphimport uses (the cache and
-- temp_store at graphimport's earlier settings; see Benchmarks/README.md):
--     foreign_keys = ON, cache_size = -65536, temp_store = MEMORY, rollback journal (DELETE).
--
-- What it reproduces of the map's semantics (enough for Samples/generate_timeline.py feeds):
-- - tweets from each record and from its nested `retweeted_status`; the last occurrence of a
--   tweet (in feed order, the nested one before its retweet) gives its values;
-- - in_reply_to_status_id links to the tweet with that id, creating a stub (id only) if new;
-- - users from `user` (every column) and from `entities.user_mentions` (only handle and name;
--   the other columns are missing there, so they are kept or left NULL);
-- - hashtags lowercased (SQLite's lower() folds ASCII only; the generator's non-ASCII hashtags
--   have no case, so this equals Swift's lowercased() on those feeds);
-- - to-many lists replaced by the feed's list, duplicates dropped (first one kept),
--   position = 0-based index in the deduplicated list;
-- - an upsert writes a row only when a value differs, so re-importing an unchanged feed
--   changes nothing; dates become 'YYYY-MM-DDTHH:MM:SS.sssZ' in UTC.
-- Not reproduced: deeper nesting than one retweeted_status, type checks and error reports,
-- the graphimport_schema table, keys other than those of tweets.map.

BEGIN;

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

-- 1. The last occurrence of every tweet. seq orders occurrences as graphimport meets them:
--    record r's nested retweeted_status is 2r, the record itself 2r+1. All json_extract calls
--    of one row share SQLite's parse cache, so each record's JSON is parsed once here.
CREATE TEMP TABLE tl AS
SELECT id, max(seq) AS seq, has_rt, text, created_raw, ms_raw, source, lang, retweet_count,
       favorite_count, user_id, user_j, reply_id, rt_id, hashtags_type, hashtags_j,
       mentions_type, mentions_j
FROM (
    SELECT rowid * 2 + 1 AS seq,
           json_type(j, '$.retweeted_status') IS NOT NULL AS has_rt,
           json_extract(j, '$.id') AS id,
           json_extract(j, '$.text') AS text,
           json_extract(j, '$.created_at') AS created_raw,
           json_extract(j, '$.timestamp_ms') AS ms_raw,
           json_extract(j, '$.source') AS source,
           json_extract(j, '$.lang') AS lang,
           json_extract(j, '$.retweet_count') AS retweet_count,
           json_extract(j, '$.favorite_count') AS favorite_count,
           json_extract(j, '$.user.id') AS user_id,
           json_extract(j, '$.user') AS user_j,
           json_extract(j, '$.in_reply_to_status_id') AS reply_id,
           json_extract(j, '$.retweeted_status.id') AS rt_id,
           json_type(j, '$.entities.hashtags') AS hashtags_type,
           json_extract(j, '$.entities.hashtags') AS hashtags_j,
           json_type(j, '$.entities.user_mentions') AS mentions_type,
           json_extract(j, '$.entities.user_mentions') AS mentions_j
    FROM feed
    UNION ALL
    SELECT rowid * 2,
           json_type(j, '$.retweeted_status.retweeted_status') IS NOT NULL,
           json_extract(j, '$.retweeted_status.id'),
           json_extract(j, '$.retweeted_status.text'),
           json_extract(j, '$.retweeted_status.created_at'),
           json_extract(j, '$.retweeted_status.timestamp_ms'),
           json_extract(j, '$.retweeted_status.source'),
           json_extract(j, '$.retweeted_status.lang'),
           json_extract(j, '$.retweeted_status.retweet_count'),
           json_extract(j, '$.retweeted_status.favorite_count'),
           json_extract(j, '$.retweeted_status.user.id'),
           json_extract(j, '$.retweeted_status.user'),
           json_extract(j, '$.retweeted_status.in_reply_to_status_id'),
           json_extract(j, '$.retweeted_status.retweeted_status.id'),
           json_type(j, '$.retweeted_status.entities.hashtags'),
           json_extract(j, '$.retweeted_status.entities.hashtags'),
           json_type(j, '$.retweeted_status.entities.user_mentions'),
           json_extract(j, '$.retweeted_status.entities.user_mentions')
    FROM feed
    WHERE json_type(j, '$.retweeted_status') = 'object'
)
GROUP BY id;

-- 2. Mentioned users and hashtags of those occurrences, with their index in the list.
CREATE TEMP TABLE mo AS
SELECT tl.id AS tweet_id, tl.seq AS seq, e.key AS pos,
       json_extract(e.value, '$.id') AS user_id,
       json_extract(e.value, '$.screen_name') AS handle,
       json_extract(e.value, '$.name') AS name
FROM tl, json_each(tl.mentions_j) AS e;

CREATE TEMP TABLE ho AS
SELECT tl.id AS tweet_id, e.key AS pos, lower(json_extract(e.value, '$.text')) AS text
FROM tl, json_each(tl.hashtags_j) AS e;

-- 3. Users: mentions set handle and name only; then full `user` objects set every column.
INSERT INTO users (id, handle, name)
SELECT user_id, handle, name
FROM (SELECT user_id, max(seq * 4096 + pos), handle, name FROM mo GROUP BY user_id)
WHERE true
ON CONFLICT (id) DO UPDATE SET handle = excluded.handle, name = excluded.name
WHERE users.handle IS NOT excluded.handle OR users.name IS NOT excluded.name;

INSERT INTO users (id, handle, name, description, url, followers, created_at)
SELECT json_extract(u, '$.id'), json_extract(u, '$.screen_name'), json_extract(u, '$.name'),
       json_extract(u, '$.description'), json_extract(u, '$.url'),
       json_extract(u, '$.followers_count'),
       strftime('%Y-%m-%dT%H:%M:%fZ',
           printf('%s-%02d-%s %s', substr(c, 27, 4),
               (instr('JanFebMarAprMayJunJulAugSepOctNovDec', substr(c, 5, 3)) + 2) / 3,
               substr(c, 9, 2), substr(c, 12, 8)),
           printf('%+d minutes', (CASE substr(c, 21, 1) WHEN '-' THEN 1 ELSE -1 END)
               * (substr(c, 22, 2) * 60 + substr(c, 24, 2))))
FROM (SELECT user_j AS u, json_extract(user_j, '$.created_at') AS c
      FROM (SELECT user_id, max(seq), user_j FROM tl WHERE user_j IS NOT NULL GROUP BY user_id))
WHERE true
ON CONFLICT (id) DO UPDATE SET
    handle = excluded.handle, name = excluded.name, description = excluded.description,
    url = excluded.url, followers = excluded.followers, created_at = excluded.created_at
WHERE users.handle IS NOT excluded.handle OR users.name IS NOT excluded.name
   OR users.description IS NOT excluded.description OR users.url IS NOT excluded.url
   OR users.followers IS NOT excluded.followers OR users.created_at IS NOT excluded.created_at;

-- 4. Hashtags: the key is the only column.
INSERT INTO hashtags (text) SELECT DISTINCT text FROM ho WHERE true ON CONFLICT (text) DO NOTHING;

-- 5. Tweets: stubs for reply targets, then tweets without a retweeted_status key (which keep
--    their stored retweet_of_pk), then retweets (whose nested tweet now exists).
INSERT INTO tweets (id) SELECT DISTINCT reply_id FROM tl WHERE reply_id IS NOT NULL
ON CONFLICT (id) DO NOTHING;

CREATE TEMP TABLE tc AS
SELECT id, has_rt, text,
       strftime('%Y-%m-%dT%H:%M:%fZ',
           printf('%s-%02d-%s %s', substr(created_raw, 27, 4),
               (instr('JanFebMarAprMayJunJulAugSepOctNovDec', substr(created_raw, 5, 3)) + 2) / 3,
               substr(created_raw, 9, 2), substr(created_raw, 12, 8)),
           printf('%+d minutes', (CASE substr(created_raw, 21, 1) WHEN '-' THEN 1 ELSE -1 END)
               * (substr(created_raw, 22, 2) * 60 + substr(created_raw, 24, 2)))) AS created_at,
       CASE WHEN ms_raw IS NOT NULL THEN
           strftime('%Y-%m-%dT%H:%M:%S', CAST(ms_raw AS INTEGER) / 1000, 'unixepoch')
           || printf('.%03dZ', CAST(ms_raw AS INTEGER) % 1000) END AS sent_at,
       source, lang, retweet_count, favorite_count,
       (SELECT pk FROM users WHERE users.id = tl.user_id) AS author_pk,
       (SELECT pk FROM tweets WHERE tweets.id = tl.reply_id) AS reply_to_pk,
       rt_id
FROM tl;

INSERT INTO tweets (id, text, created_at, sent_at, source, lang, retweet_count, favorite_count,
                    author_pk, reply_to_pk)
SELECT id, text, created_at, sent_at, source, lang, retweet_count, favorite_count,
       author_pk, reply_to_pk
FROM tc WHERE NOT has_rt
ON CONFLICT (id) DO UPDATE SET
    text = excluded.text, created_at = excluded.created_at, sent_at = excluded.sent_at,
    source = excluded.source, lang = excluded.lang, retweet_count = excluded.retweet_count,
    favorite_count = excluded.favorite_count, author_pk = excluded.author_pk,
    reply_to_pk = excluded.reply_to_pk
WHERE tweets.text IS NOT excluded.text OR tweets.created_at IS NOT excluded.created_at
   OR tweets.sent_at IS NOT excluded.sent_at OR tweets.source IS NOT excluded.source
   OR tweets.lang IS NOT excluded.lang OR tweets.retweet_count IS NOT excluded.retweet_count
   OR tweets.favorite_count IS NOT excluded.favorite_count
   OR tweets.author_pk IS NOT excluded.author_pk OR tweets.reply_to_pk IS NOT excluded.reply_to_pk;

INSERT INTO tweets (id, text, created_at, sent_at, source, lang, retweet_count, favorite_count,
                    author_pk, reply_to_pk, retweet_of_pk)
SELECT id, text, created_at, sent_at, source, lang, retweet_count, favorite_count,
       author_pk, reply_to_pk, (SELECT pk FROM tweets WHERE tweets.id = tc.rt_id)
FROM tc WHERE has_rt
ON CONFLICT (id) DO UPDATE SET
    text = excluded.text, created_at = excluded.created_at, sent_at = excluded.sent_at,
    source = excluded.source, lang = excluded.lang, retweet_count = excluded.retweet_count,
    favorite_count = excluded.favorite_count, author_pk = excluded.author_pk,
    reply_to_pk = excluded.reply_to_pk, retweet_of_pk = excluded.retweet_of_pk
WHERE tweets.text IS NOT excluded.text OR tweets.created_at IS NOT excluded.created_at
   OR tweets.sent_at IS NOT excluded.sent_at OR tweets.source IS NOT excluded.source
   OR tweets.lang IS NOT excluded.lang OR tweets.retweet_count IS NOT excluded.retweet_count
   OR tweets.favorite_count IS NOT excluded.favorite_count
   OR tweets.author_pk IS NOT excluded.author_pk OR tweets.reply_to_pk IS NOT excluded.reply_to_pk
   OR tweets.retweet_of_pk IS NOT excluded.retweet_of_pk;

-- 6. To-many lists: the wanted rows (duplicates dropped, positions renumbered), then delete
--    the stored rows a listed owner no longer has, and upsert the wanted ones.
CREATE TEMP TABLE dh (tweets_pk INTEGER, hashtags_pk INTEGER, position INTEGER,
                      PRIMARY KEY (tweets_pk, hashtags_pk)) WITHOUT ROWID;
INSERT INTO dh
SELECT t.pk, h.pk, row_number() OVER (PARTITION BY t.pk ORDER BY min(ho.pos)) - 1
FROM ho JOIN tweets AS t ON t.id = ho.tweet_id JOIN hashtags AS h ON h.text = ho.text
GROUP BY t.pk, h.pk;

DELETE FROM tweets_hashtags
WHERE tweets_pk IN (SELECT t.pk FROM tl JOIN tweets AS t ON t.id = tl.id
                    WHERE tl.hashtags_type IN ('array', 'null'))
  AND NOT EXISTS (SELECT 1 FROM dh WHERE dh.tweets_pk = tweets_hashtags.tweets_pk
                                     AND dh.hashtags_pk = tweets_hashtags.hashtags_pk);

INSERT INTO tweets_hashtags (tweets_pk, hashtags_pk, position)
SELECT tweets_pk, hashtags_pk, position FROM dh WHERE true
ON CONFLICT (tweets_pk, hashtags_pk) DO UPDATE SET position = excluded.position
WHERE tweets_hashtags.position IS NOT excluded.position;

CREATE TEMP TABLE dm (tweets_pk INTEGER, users_pk INTEGER, position INTEGER,
                      PRIMARY KEY (tweets_pk, users_pk)) WITHOUT ROWID;
INSERT INTO dm
SELECT t.pk, u.pk, row_number() OVER (PARTITION BY t.pk ORDER BY min(mo.pos)) - 1
FROM mo JOIN tweets AS t ON t.id = mo.tweet_id JOIN users AS u ON u.id = mo.user_id
GROUP BY t.pk, u.pk;

DELETE FROM tweets_mentions
WHERE tweets_pk IN (SELECT t.pk FROM tl JOIN tweets AS t ON t.id = tl.id
                    WHERE tl.mentions_type IN ('array', 'null'))
  AND NOT EXISTS (SELECT 1 FROM dm WHERE dm.tweets_pk = tweets_mentions.tweets_pk
                                     AND dm.users_pk = tweets_mentions.users_pk);

INSERT INTO tweets_mentions (tweets_pk, users_pk, position)
SELECT tweets_pk, users_pk, position FROM dm WHERE true
ON CONFLICT (tweets_pk, users_pk) DO UPDATE SET position = excluded.position
WHERE tweets_mentions.position IS NOT excluded.position;

COMMIT;
