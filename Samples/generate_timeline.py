#!/usr/bin/env python3
"""Generate a synthetic Twitter v1.1 home timeline for graphimport tests and benchmarks.

The output has the shape of GET statuses/home_timeline: tweets with a nested `user`,
`entities` (hashtags, user_mentions, urls), replies, and ~20% retweets that nest a full
`retweeted_status`. Everything is invented; nothing is copied from real accounts.

    python3 Samples/generate_timeline.py --tweets 200 --seed 1 --format json > Samples/tweets.json
    python3 Samples/generate_timeline.py --tweets 1000000 --format jsonl --out /tmp/big.jsonl
    python3 Samples/generate_timeline.py --tweets 1000000 --format jsonl --revision 1 --out /tmp/big-r1.jsonl

Guarantees:
- Deterministic: the same arguments give the same bytes (Python 3 stdlib only).
- Streams: tweets are written one at a time; memory stays bounded for millions of tweets
  (users are derived from their pool index on demand, and only a short window of recent
  tweets is kept for replies and re-retweets).
- `--revision R` (R > 0) keeps every id and the whole structure of revision 0, and changes
  ~10% of tweets (text, favorite_count, retweet_count) and ~10% of users
  (followers_count, description), chosen by hashing (seed, R, id). Use it for update runs.
- Tweet `id`s are Twitter snowflakes (> 2^53) derived from `created_at`, which increases;
  `timestamp_ms` is the snowflake's millisecond. Some user ids are snowflakes too.
- Text carries astral emoji (😀, 🇫🇷, 👩‍💻), U+2029, quotes, backslashes and `&amp;`.
  Every third tweet is written with non-ASCII escaped as \\uXXXX (surrogate pairs for
  astral characters), the others as raw UTF-8, so the same user appears in both forms.
- Hashtags come from a pool of ~50 spellings that differ in case ("Swift", "swift", "SWIFT").
- ~5% of tweets are replies: mostly to a recent tweet in the file, some to a tweet that is
  not in the file (the importer must create a stub).
- ~20% are retweets; about a third of them retweet a recent tweet of the same file
  (the same object appears twice), the rest an older tweet that only exists nested.
"""

import argparse
import functools
import hashlib
import json
import random
import sys
from collections import deque

TWITTER_EPOCH_MS = 1288834974657
FIRST_TWEET_ID = 674674925823787008  # Wed Dec 09 19:40:11 +0000 2015
WORKER_SHIFT = 12
TIME_SHIFT = 22
LOW_BITS = (1 << TIME_SHIFT) - 1
TIMELINE_WORKERS = (0, 511)      # tweets of the timeline itself
ORIGINAL_WORKERS = (512, 767)    # older tweets that only appear as retweeted_status
DANGLING_WORKERS = (768, 1023)   # reply targets that are not in the file
RECENT_WINDOW = 256

DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")

WORDS = (
    "the a to of and in is it you that for on with this was just so be my at me not are "
    "have but what can all get like new time today now one love good day great people "
    "know see think back need work still going really thanks coffee build release swift "
    "json parser import graph sqlite update benchmark morning tonight weekend ship bug fix "
    "test green red deploy merge review docs train rain sun music book read write code"
).split()

UNICODE_WORDS = (
    "café", "naïve", "Zürich", "São Paulo", "façade", "jalapeño", "Ελλάδα", "Привет", "мир",
    "日本語", "東京", "こんにちは", "한국어", "مرحبا", "שלום", "नमस्ते", "ñandú", "smörgåsbord",
    "Ångström", "€5", "½", "→", "…", "–", "“quoted”", "‘single’", "ﬁne",
)

EMOJI = (
    "😀", "😂", "🎉", "🚀", "❤️", "👍🏽", "🇫🇷", "🇯🇵", "👩‍💻", "🐦", "☕", "✨", "🤔", "🙈",
    "𝕏", "𝒜", "🦄",
)

SPECIALS = (
    '"quoted"', 'say "hi"', "C:\\Users\\me", "back\\slash", "it's", "&amp;", "&lt;3", "a\u2029b",
    "line\nbreak", "tab\there", "50%", "<b>", "\\o/", "¯\\_(ツ)_/¯",
)

HASHTAGS = (
    "Swift", "swift", "SWIFT", "SwiftLang", "swiftlang", "JSON", "json", "Json", "SQLite", "sqlite",
    "iOS", "ios", "IOS", "macOS", "macos", "Linux", "linux", "OpenSource", "opensource",
    "100DaysOfCode", "100daysofcode", "WWDC", "wwdc", "TDD", "tdd", "Coffee", "coffee",
    "Café", "café", "Paris", "paris", "Tokyo", "東京", "Mondays", "FridayFeeling", "fridayfeeling",
    "TBT", "tbt", "Music", "music", "NowPlaying", "nowplaying", "Data", "data", "BigData", "bigdata",
    "GraphQL", "graphql", "Rust", "rust",
)

FIRST_NAMES = (
    "Ana", "José", "Zoë", "Søren", "Chloé", "Björk", "Łukasz", "Ngozi", "Mei", "Hiroshi", "Aarav",
    "Olga", "Δημήτρης", "Иван", "محمد", "李", "さくら", "Émile", "Nuño", "Fatima", "Liam", "Mara",
    "Kai", "Ines", "Omar", "Noor", "Pablo", "Yuki", "Amara", "Sven",
)
LAST_NAMES = (
    "García", "Müller", "O'Brien", "Nguyễn", "Kowalski", "Dubois", "Søndergaard", "Smith", "Rossi",
    "Tanaka", "Ivanova", "Papadopoulos", "Haddad", "雷", "山田", "Okafor", "da Silva", "van Dijk",
    "Åberg", "Ñúñez", "Lee", "Kim", "Patel", "Cohen",
)
HANDLE_WORDS = (
    "ana", "jose", "zoe", "soren", "chloe", "bjork", "lukasz", "ngozi", "mei", "hiro", "aarav",
    "olga", "dimi", "ivan", "mo", "li", "sakura", "emile", "nuno", "fatima", "liam", "mara", "kai",
    "ines", "omar", "noor", "pablo", "yuki", "amara", "sven", "dev", "swiftie", "coder", "Data",
    "Team", "The", "Real", "news", "daily", "cafe",
)
DESCRIPTIONS = (
    "Swift & server-side. Opinions are my own.",
    "Développeuse iOS à Paris 🇫🇷 — café ☕ et code",
    "東京在住のエンジニア。JSON と SQLite が好き。",
    "Writing about data, graphs and \"boring\" databases.",
    "Dad, runner, occasional C:\\ programmer \\o/",
    "🚀 Shipping things. ✨ Breaking things. 🙈",
    "Reporter. Tips: DM open.\u2029PGP on request.",
    "Музыка, книги и кофе.",
    "مطور برمجيات | Software developer",
    "Line one\nLine two",
    "",
)
LOCATIONS = ("Paris, France", "東京", "Berlin", "São Paulo", "", "Lagos", "Earth 🌍", "NYC", "Zürich")
SOURCES = (
    '<a href="http://twitter.com/download/iphone" rel="nofollow">Twitter for iPhone</a>',
    '<a href="http://twitter.com/download/android" rel="nofollow">Twitter for Android</a>',
    '<a href="http://twitter.com" rel="nofollow">Twitter Web Client</a>',
    '<a href="https://about.twitter.com/products/tweetdeck" rel="nofollow">TweetDeck</a>',
    '<a href="http://example.com/bot" rel="nofollow">graph-bot "beta"</a>',
)
LANGS = (("en", 70), ("fr", 8), ("ja", 7), ("de", 4), ("es", 4), ("ru", 2), ("ar", 2), ("und", 3))


def derived_rng(*parts):
    """A Random seeded from a hash of `parts`, so a draw never shifts the main stream."""
    digest = hashlib.sha256(":".join(str(p) for p in parts).encode()).digest()
    return random.Random(int.from_bytes(digest[:16], "big"))


def unit_hash(*parts):
    """A number in [0, 1) from a hash of `parts`; used to pick what a revision changes."""
    digest = hashlib.sha256(":".join(str(p) for p in parts).encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2.0 ** 64


def twitter_date(ms):
    """`Wed Dec 09 19:40:11 +0000 2015`, independent of the locale."""
    seconds = ms // 1000
    days, rest = divmod(seconds, 86400)
    hour, rest = divmod(rest, 3600)
    minute, second = divmod(rest, 60)
    year, month, day = civil_from_days(days)
    weekday = DAYS[(days + 3) % 7]  # 1970-01-01 was a Thursday
    return "%s %s %02d %02d:%02d:%02d +0000 %04d" % (
        weekday, MONTHS[month - 1], day, hour, minute, second, year)


def civil_from_days(days):
    """Proleptic Gregorian (year, month, day) of a day count since 1970-01-01 (H. Hinnant)."""
    days += 719468
    era = days // 146097
    doe = days - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    year = yoe + era * 400
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    day = doy - (153 * mp + 2) // 5 + 1
    month = mp + 3 if mp < 10 else mp - 9
    return (year + 1 if month <= 2 else year), month, day


def snowflake(ms, worker, sequence):
    return ((ms - TWITTER_EPOCH_MS) << TIME_SHIFT) | (worker << WORKER_SHIFT) | sequence


def snowflake_ms(tweet_id):
    return (tweet_id >> TIME_SHIFT) + TWITTER_EPOCH_MS


class Users:
    """The user pool; user `index` is rebuilt on demand from (seed, index, revision)."""

    OLD_START_MS = 1142974214000   # 2006-03-21, the first accounts
    SNOWFLAKE_START_MS = 1433116800000  # 2015-06-01: later accounts get snowflake ids
    END_MS = 1448928000000          # 2015-12-01

    def __init__(self, seed, count, revision):
        if count >= 1 << TIME_SHIFT:
            raise ValueError("user pool too large for unique ids")
        self.seed = seed
        self.count = count
        self.revision = revision
        self.get = functools.lru_cache(maxsize=8192)(self._make)

    def _make(self, index):
        rng = derived_rng(self.seed, "user", index)
        if rng.random() < 0.25:
            created = rng.randrange(self.SNOWFLAKE_START_MS, self.END_MS)
            user_id = ((created - TWITTER_EPOCH_MS) << TIME_SHIFT) | index
        else:
            created = rng.randrange(self.OLD_START_MS, self.SNOWFLAKE_START_MS)
            fraction = (created - self.OLD_START_MS) / (self.SNOWFLAKE_START_MS - self.OLD_START_MS)
            approximate = int(12 + fraction * 3_300_000_000)
            user_id = ((approximate >> TIME_SHIFT) << TIME_SHIFT) | index
        name = rng.choice(FIRST_NAMES) + " " + rng.choice(LAST_NAMES)
        if rng.random() < 0.1:
            name = rng.choice(EMOJI) + " " + name
        if rng.random() < 0.05:
            name = name + ' "' + rng.choice(HANDLE_WORDS) + '"'
        # Unique by construction: one underscore, then the index in base 36.
        screen_name = (rng.choice(HANDLE_WORDS) + rng.choice(("", "", "x", "Dev", "42")))[:9] + "_" + base36(index)
        description = self._description(rng)
        url = None if rng.random() < 0.6 else "https://t.co/" + "".join(
            rng.choice("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") for _ in range(10))
        followers = int(rng.paretovariate(1.2) * 40) - 40
        if self.revision and unit_hash(self.seed, self.revision, "user", user_id) < 0.1:
            change = derived_rng(self.seed, self.revision, "user", user_id)
            followers = max(0, followers + change.randint(-50, 500))
            description = self._description(change)
        return {
            "id": user_id,
            "id_str": str(user_id),
            "name": name,
            "screen_name": screen_name,
            "location": rng.choice(LOCATIONS),
            "description": description,
            "url": url,
            "protected": False,
            "followers_count": followers,
            "friends_count": rng.randrange(0, 2000),
            "listed_count": rng.randrange(0, 50),
            "created_at": twitter_date(created),
            "favourites_count": rng.randrange(0, 10000),
            "utc_offset": None,
            "time_zone": None,
            "geo_enabled": rng.random() < 0.3,
            "verified": rng.random() < 0.05,
            "statuses_count": rng.randrange(1, 50000),
            "lang": "en",
            "profile_image_url_https": "https://pbs.twimg.com/profile_images/%d/avatar_normal.png" % user_id,
            "default_profile": rng.random() < 0.5,
        }

    @staticmethod
    def _description(rng):
        roll = rng.random()
        if roll < 0.15:
            return None
        return rng.choice(DESCRIPTIONS)


def base36(number):
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    text = ""
    while True:
        number, digit = divmod(number, 36)
        text = digits[digit] + text
        if number == 0:
            return text


def body_tokens(rng):
    """4-14 words; some unicode, emoji and characters that need escaping in JSON."""
    tokens = []
    for _ in range(rng.randint(4, 14)):
        roll = rng.random()
        if roll < 0.70:
            tokens.append(rng.choice(WORDS))
        elif roll < 0.82:
            tokens.append(rng.choice(UNICODE_WORDS))
        elif roll < 0.94:
            tokens.append(rng.choice(EMOJI))
        else:
            tokens.append(rng.choice(SPECIALS))
    return tokens


class Timeline:
    """Builds tweet objects in order; all structural draws come from one seeded stream."""

    def __init__(self, seed, count, revision):
        self.seed = seed
        self.revision = revision
        self.rng = random.Random(seed)
        self.users = Users(seed, max(8, count // 6), revision)
        self.recent = deque(maxlen=RECENT_WINDOW)  # (tweet object, author index)
        self.taken_ids = set()
        self.ms = snowflake_ms(FIRST_TWEET_ID)
        self.first_ms = self.ms

    def pick_user(self, rng, avoid=None):
        """Skewed towards low indexes, so some users tweet a lot."""
        while True:
            index = int(self.users.count * rng.random() ** 2)
            if index != avoid:
                return index

    def tweets(self, count):
        for index in range(count):
            yield self.next_tweet(index)

    def next_tweet(self, index):
        rng = self.rng
        if index == 0:
            tweet_id = FIRST_TWEET_ID
        else:
            self.ms += rng.randint(1000, 120000)
            tweet_id = snowflake(self.ms, rng.randint(*TIMELINE_WORKERS), rng.randrange(4096))
        author = self.pick_user(rng)
        roll = rng.random()
        if roll < 0.20:
            tweet = self.retweet(rng, tweet_id, author)
        else:
            reply = None
            if roll < 0.25:
                reply = self.reply_target(rng, author)
            tweet = self.original(rng, tweet_id, author, reply)
        if "retweeted_status" not in tweet:
            self.recent.append((tweet, author))
        return tweet

    def reply_target(self, rng, author):
        """(status id, user index) of a recent tweet, or of one outside the file (~25%)."""
        candidates = [(t["id"], a) for t, a in self.recent if a != author]
        if candidates and rng.random() < 0.75:
            return rng.choice(candidates)
        ms = self.first_ms - rng.randint(3_600_000, 30 * 86_400_000)
        return (self.unique_id(rng, ms, DANGLING_WORKERS), self.pick_user(rng, avoid=author))

    def unique_id(self, rng, ms, workers):
        tweet_id = snowflake(ms, rng.randint(*workers), rng.randrange(4096))
        while tweet_id in self.taken_ids:
            tweet_id += 1
        self.taken_ids.add(tweet_id)
        return tweet_id

    def retweet(self, rng, tweet_id, author):
        candidates = [t for t, a in self.recent if a != author]
        if candidates and rng.random() < 0.35:
            original = rng.choice(candidates)
        else:
            original_author = self.pick_user(rng, avoid=author)
            ms = snowflake_ms(tweet_id) - rng.randint(60_000, 3 * 86_400_000)
            original = self.original(rng, self.unique_id(rng, ms, ORIGINAL_WORKERS), original_author, None)
        original_user = original["user"]
        prefix = "RT @%s: " % original_user["screen_name"]
        shift = len(prefix)
        mentions = [mention(original_user, 3)] + [
            dict(m, indices=[m["indices"][0] + shift, m["indices"][1] + shift])
            for m in original["entities"]["user_mentions"]]
        hashtags = [
            {"text": h["text"], "indices": [h["indices"][0] + shift, h["indices"][1] + shift]}
            for h in original["entities"]["hashtags"]]
        lang = original["lang"]
        source = rng.choice(SOURCES)
        return self.assemble(
            tweet_id, prefix + original["text"], source, None, author, hashtags, mentions,
            original["retweet_count"], 0, lang, None, original)

    def original(self, rng, tweet_id, author, reply):
        """A tweet that is not a retweet; `reply` is (status id, user index) or None."""
        tokens = body_tokens(rng)
        mentioned = []
        if reply is not None:
            mentioned.append(reply[1])
        for _ in range(rng.choice((0, 0, 0, 1, 1, 2)) - len(mentioned)):
            other = self.pick_user(rng, avoid=author)
            if other not in mentioned:
                mentioned.append(other)
        tags = [rng.choice(HASHTAGS) for _ in range(rng.choice((0, 0, 1, 1, 2, 3)))]
        retweets = int(rng.paretovariate(1.5)) - 1
        favorites = int(rng.paretovariate(1.3)) - 1
        lang = weighted(rng, LANGS)
        source = rng.choice(SOURCES)
        coordinates = None
        if rng.random() < 0.03:
            coordinates = {"type": "Point", "coordinates": [
                round(rng.uniform(-180, 180), 6), round(rng.uniform(-85, 85), 6)]}
        if self.revision and unit_hash(self.seed, self.revision, "tweet", tweet_id) < 0.1:
            change = derived_rng(self.seed, self.revision, "tweet", tweet_id)
            tokens = body_tokens(change) + ["(edited)"]
            retweets += change.randint(1, 40)
            favorites += change.randint(1, 120)
        text, mentions, hashtags = self.compose(mentioned, tokens, tags)
        return self.assemble(
            tweet_id, text, source, reply, author, hashtags, mentions,
            retweets, favorites, lang, coordinates, None)

    def compose(self, mentioned, tokens, tags):
        """Text plus entities whose indices count code points, as Twitter's do."""
        text = ""
        mentions = []
        for user_index in mentioned:
            user = self.users.get(user_index)
            mentions.append(mention(user, len(text)))
            text += "@" + user["screen_name"] + " "
        text += " ".join(tokens)
        hashtags = []
        for tag in tags:
            text += " "
            hashtags.append({"text": tag, "indices": [len(text), len(text) + 1 + len(tag)]})
            text += "#" + tag
        return text, mentions, hashtags

    def assemble(self, tweet_id, text, source, reply, author, hashtags, mentions,
                 retweets, favorites, lang, coordinates, retweeted):
        ms = snowflake_ms(tweet_id)
        reply_user = self.users.get(reply[1]) if reply else None
        tweet = {
            "created_at": twitter_date(ms),
            "id": tweet_id,
            "id_str": str(tweet_id),
            "text": text,
            "source": source,
            "truncated": False,
            "in_reply_to_status_id": reply[0] if reply else None,
            "in_reply_to_status_id_str": str(reply[0]) if reply else None,
            "in_reply_to_user_id": reply_user["id"] if reply_user else None,
            "in_reply_to_user_id_str": reply_user["id_str"] if reply_user else None,
            "in_reply_to_screen_name": reply_user["screen_name"] if reply_user else None,
            "user": self.users.get(author),
            "geo": None,
            "coordinates": coordinates,
            "place": None,
            "contributors": None,
        }
        if retweeted is not None:
            tweet["retweeted_status"] = retweeted
        tweet.update({
            "is_quote_status": False,
            "retweet_count": retweets,
            "favorite_count": favorites,
            "entities": {"hashtags": hashtags, "symbols": [], "user_mentions": mentions, "urls": []},
            "favorited": False,
            "retweeted": False,
            "lang": lang,
            "timestamp_ms": str(ms),
        })
        return tweet


def mention(user, start):
    return {
        "screen_name": user["screen_name"],
        "name": user["name"],
        "id": user["id"],
        "id_str": user["id_str"],
        "indices": [start, start + 1 + len(user["screen_name"])],
    }


def weighted(rng, pairs):
    total = sum(weight for _, weight in pairs)
    roll = rng.randrange(total)
    for value, weight in pairs:
        if roll < weight:
            return value
        roll -= weight
    return pairs[-1][0]


def encode(tweet, index):
    """Compact JSON; every third tweet escapes non-ASCII so readers meet both forms."""
    return json.dumps(tweet, ensure_ascii=(index % 3 == 0), separators=(",", ":"))


def write(out, tweets, form):
    if form == "jsonl":
        for index, tweet in enumerate(tweets):
            out.write(encode(tweet, index))
            out.write("\n")
        return
    out.write("[")
    for index, tweet in enumerate(tweets):
        out.write("\n" if index == 0 else ",\n")
        out.write(encode(tweet, index))
    out.write("\n]\n")


def main(argv=None):
    parser = argparse.ArgumentParser(description="Generate a synthetic Twitter v1.1 timeline.")
    parser.add_argument("--tweets", type=int, default=200, help="number of top-level tweets (default 200)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument("--format", choices=("json", "jsonl"), default="json",
                        help="json: one top-level array, one tweet per line; jsonl: JSON Lines")
    parser.add_argument("--revision", type=int, default=0,
                        help="0 = base; R > 0 changes ~10%% of tweets and users, keeping ids")
    parser.add_argument("--out", default="-", help="output path (default stdout)")
    args = parser.parse_args(argv)
    if args.tweets < 0 or args.revision < 0:
        parser.error("--tweets and --revision must not be negative")
    timeline = Timeline(args.seed, args.tweets, args.revision)
    if args.out == "-":
        out = open(sys.stdout.fileno(), "w", encoding="utf-8", newline="\n", closefd=False,
                   buffering=1 << 20)
    else:
        out = open(args.out, "w", encoding="utf-8", newline="\n", buffering=1 << 20)
    with out:
        write(out, timeline.tweets(args.tweets), args.format)


if __name__ == "__main__":
    try:
        main()
    except BrokenPipeError:  # e.g. `| head`: stop quietly
        sys.stderr.close()
        sys.exit(1)
