-- The sqlite3 CLI's export of the tweets graph: the same nested JSON as
--   graphimport export --map Mappings/tweets.map --store STORE --depth 1
-- in one statement of json_object / json_group_array, for the benchmark's export phase:
--   sqlite3 -readonly STORE < Benchmarks/export.sql
-- Tweets by pk, each with its user, hashtags and mentions nested; a retweeted or replied-to
-- tweet nested one level, its own relationships by key; a stub (a tweet known only by its id)
-- not a record, and by its key where it is linked. Dates back in the feed's forms: created_at
-- as "Wed Dec 09 19:40:11 +0000 2015", timestamp_ms as epoch milliseconds.
WITH
  user_json(pk, value) AS (
    SELECT u.pk, json_object(
      'id', u.id, 'screen_name', u.handle, 'name', u.name, 'description', u.description, 'url', u.url,
      'followers_count', u.followers,
      'created_at', CASE WHEN u.created_at IS NULL THEN NULL ELSE
        substr('SunMonTueWedThuFriSat', 1 + 3 * strftime('%w', u.created_at), 3) || ' ' ||
        substr('JanFebMarAprMayJunJulAugSepOctNovDec', 1 + 3 * (strftime('%m', u.created_at) - 1), 3) ||
        strftime(' %d %H:%M:%S +0000 %Y', u.created_at) END)
    FROM users u)
SELECT json_group_array(json(tweet)) FROM (
  SELECT json_object(
    'id', t.id, 'text', t.text,
    'created_at', substr('SunMonTueWedThuFriSat', 1 + 3 * strftime('%w', t.created_at), 3) || ' ' ||
      substr('JanFebMarAprMayJunJulAugSepOctNovDec', 1 + 3 * (strftime('%m', t.created_at) - 1), 3) ||
      strftime(' %d %H:%M:%S +0000 %Y', t.created_at),
    'timestamp_ms', CASE WHEN t.sent_at IS NULL THEN NULL ELSE strftime('%s', t.sent_at) * 1000 + CAST(substr(t.sent_at, 21, 3) AS INTEGER) END,
    'source', t.source, 'lang', t.lang, 'retweet_count', t.retweet_count, 'favorite_count', t.favorite_count,
    'user', json((SELECT value FROM user_json WHERE pk = t.author_pk)),
    'retweeted_status', (SELECT CASE WHEN o.text IS NULL THEN o.id ELSE json(
        json_object(
          'id', o.id, 'text', o.text,
          'created_at', substr('SunMonTueWedThuFriSat', 1 + 3 * strftime('%w', o.created_at), 3) || ' ' ||
            substr('JanFebMarAprMayJunJulAugSepOctNovDec', 1 + 3 * (strftime('%m', o.created_at) - 1), 3) ||
            strftime(' %d %H:%M:%S +0000 %Y', o.created_at),
          'timestamp_ms', CASE WHEN o.sent_at IS NULL THEN NULL ELSE strftime('%s', o.sent_at) * 1000 + CAST(substr(o.sent_at, 21, 3) AS INTEGER) END,
          'source', o.source, 'lang', o.lang, 'retweet_count', o.retweet_count, 'favorite_count', o.favorite_count,
          'user', (SELECT id FROM users WHERE pk = o.author_pk),
          'retweeted_status', (SELECT id FROM tweets WHERE pk = o.retweet_of_pk),
          'in_reply_to_status_id', (SELECT id FROM tweets WHERE pk = o.reply_to_pk),
          'entities', json_object(
            'hashtags', (SELECT json_group_array(h.text) FROM (SELECT hashtags.text FROM tweets_hashtags JOIN hashtags ON hashtags.pk = hashtags_pk
                          WHERE tweets_pk = o.pk ORDER BY position) h),
            'user_mentions', (SELECT json_group_array(m.id) FROM (SELECT users.id FROM tweets_mentions JOIN users ON users.pk = users_pk
                          WHERE tweets_pk = o.pk ORDER BY position) m)))) END
      FROM tweets o WHERE o.pk = t.retweet_of_pk),
    'in_reply_to_status_id', (SELECT CASE WHEN o.text IS NULL THEN o.id ELSE json(
        json_object(
          'id', o.id, 'text', o.text,
          'created_at', substr('SunMonTueWedThuFriSat', 1 + 3 * strftime('%w', o.created_at), 3) || ' ' ||
            substr('JanFebMarAprMayJunJulAugSepOctNovDec', 1 + 3 * (strftime('%m', o.created_at) - 1), 3) ||
            strftime(' %d %H:%M:%S +0000 %Y', o.created_at),
          'timestamp_ms', CASE WHEN o.sent_at IS NULL THEN NULL ELSE strftime('%s', o.sent_at) * 1000 + CAST(substr(o.sent_at, 21, 3) AS INTEGER) END,
          'source', o.source, 'lang', o.lang, 'retweet_count', o.retweet_count, 'favorite_count', o.favorite_count,
          'user', (SELECT id FROM users WHERE pk = o.author_pk),
          'retweeted_status', (SELECT id FROM tweets WHERE pk = o.retweet_of_pk),
          'in_reply_to_status_id', (SELECT id FROM tweets WHERE pk = o.reply_to_pk),
          'entities', json_object(
            'hashtags', (SELECT json_group_array(h.text) FROM (SELECT hashtags.text FROM tweets_hashtags JOIN hashtags ON hashtags.pk = hashtags_pk
                          WHERE tweets_pk = o.pk ORDER BY position) h),
            'user_mentions', (SELECT json_group_array(m.id) FROM (SELECT users.id FROM tweets_mentions JOIN users ON users.pk = users_pk
                          WHERE tweets_pk = o.pk ORDER BY position) m)))) END
      FROM tweets o WHERE o.pk = t.reply_to_pk),
    'entities', json_object(
      'hashtags', (SELECT json_group_array(json_object('text', h.text)) FROM (SELECT hashtags.text FROM tweets_hashtags JOIN hashtags ON hashtags.pk = hashtags_pk
                    WHERE tweets_pk = t.pk ORDER BY position) h),
      'user_mentions', (SELECT json_group_array(json(m.value)) FROM (SELECT user_json.value FROM tweets_mentions JOIN user_json ON user_json.pk = users_pk
                    WHERE tweets_pk = t.pk ORDER BY position) m))) AS tweet
  FROM tweets t WHERE t.text IS NOT NULL ORDER BY t.pk);
