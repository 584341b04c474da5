#!/usr/bin/env python3
"""Generate a synthetic activity-stream export: the tweets of Samples/generate_timeline.py, each
wrapped in an event envelope and widened, as JSON Lines. A second feed shape for the benchmark
(Benchmarks/activity.map reads it into the same graph as Mappings/tweets.map):

- many keys per object of which the map reads few: the envelope (~20 keys, none read), the
  tweet (~60 keys, 12 read), its user (~45 keys, 7 read), media, annotations, metrics;
- deeper nesting: the tweet is at `object.status` of each line, its user one level further,
  its hashtags at `object.status.entities.hashtags`, and unread structures go 5 to 7 levels down;
- long texts with escapes: the tweet's `text` (read) carries a few paragraphs (line breaks,
  quotes, backslashes, HTML entities, emoji), and unread texts (`html`, `user.bio_html`,
  `annotations`) are as long; every third line escapes non-ASCII as \\uXXXX, as the timeline
  generator does;
- JSON Lines: one event per line (`--format json` writes the same lines as one array).

    python3 Samples/generate_activity.py --tweets 100000 --seed 1 --out /tmp/activity.jsonl
    python3 Samples/generate_activity.py --tweets 100000 --seed 1 --revision 1 --out /tmp/activity-r1.jsonl

The graph is the timeline generator's for the same --tweets, --seed and --revision, but for the
longer texts: the same ids, users, hashtags, mentions, replies and retweets, and --revision R
changes the same ~10% of tweets and users. What is added to an object is drawn from a hash of
(seed, its id), so an object that appears twice (a retweeted tweet that is also in the feed, a
user) is written the same way both times. Deterministic, stdlib only, streams.
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from generate_timeline import (  # noqa: E402  (the timeline generator beside this file)
    EMOJI, SPECIALS, UNICODE_WORDS, WORDS, Timeline, base36, derived_rng, snowflake_ms, twitter_date)

SIZES = (("thumb", 150, 150, "crop"), ("small", 680, 383, "fit"), ("medium", 1200, 675, "fit"),
         ("large", 2048, 1152, "fit"))
DOMAINS = (("46", "Business Taxonomy", "Categories within Brand Verticals that narrow down the scope of Brands"),
           ("47", "Brand", "Brands and Companies"), ("65", "Interests and Hobbies Vertical", "Top level interests and hobbies groupings, like Food or Travel"),
           ("66", "Interests and Hobbies Category", "A grouping of interests and hobbies entities, like Novelty Food or Destinations"),
           ("131", "Unified Twitter Taxonomy", "A taxonomy view into the Semantic Core knowledge graph"))
QUOTES = ('"Shipped it," she said.', "'Hold on' \\ wait", "path C:\\tmp\\feed.json", "a \"nested 'quote'\"",
          "tab\tseparated", "x < y && y > z", "50% off &amp; more", "emoji \U0001F680 \u2764\ufe0f")


def paragraph(rng, words):
    """About `words` words: plain words mostly, some Unicode, emoji and characters JSON escapes."""
    tokens = []
    for _ in range(words):
        roll = rng.random()
        if roll < 0.72:
            tokens.append(rng.choice(WORDS))
        elif roll < 0.82:
            tokens.append(rng.choice(UNICODE_WORDS))
        elif roll < 0.90:
            tokens.append(rng.choice(EMOJI))
        elif roll < 0.96:
            tokens.append(rng.choice(SPECIALS))
        else:
            tokens.append(rng.choice(QUOTES))
    return " ".join(tokens)


def long_text(rng, low, high):
    """Two to five paragraphs separated by blank lines, `low` to `high` words in all."""
    count = rng.randint(2, 5)
    words = rng.randint(low, high)
    return "\n\n".join(paragraph(rng, max(3, words // count)) for _ in range(count))


def html_of(text):
    return "<p>" + text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace(
        "\n\n", "</p><p>").replace("\n", "<br/>") + "</p>"


def uuid_like(rng):
    digits = "%032x" % rng.getrandbits(128)
    return "-".join((digits[:8], digits[8:12], "4" + digits[13:16], "a" + digits[17:20], digits[20:]))


class Widener:
    """Rebuilds the timeline's objects with the extra keys; the timeline's own values unchanged."""

    def __init__(self, seed):
        self.seed = seed

    def user(self, user):
        rng = derived_rng(self.seed, "activity-user", user["id"])
        bio = long_text(rng, 10, 30)
        wide = {
            "id": user["id"], "id_str": user["id_str"],
            "profile": {"theme": {"background": {"color": "%06X" % rng.getrandbits(24), "tile": rng.random() < 0.2,
                                                 "image": {"url": "https://abs.twimg.com/images/themes/theme%d/bg.png" % rng.randint(1, 19),
                                                           "https": True, "size": {"w": 1500, "h": 500}}},
                                  "link_color": "%06X" % rng.getrandbits(24), "sidebar": {"border": "C0DEED", "fill": "DDEEF6"},
                                  "text_color": "333333"},
                        "banner_url": "https://pbs.twimg.com/profile_banners/%d/%d" % (user["id"], rng.getrandbits(31)),
                        "use_background_image": True, "default_image": rng.random() < 0.1},
            "bio_html": html_of(bio),
            "pinned_tweet_ids": [rng.getrandbits(62) for _ in range(rng.randint(0, 3))],
            "withheld_in_countries": [],
            "translator_type": "none",
            "is_translation_enabled": False,
            "has_extended_profile": rng.random() < 0.5,
            "contributors_enabled": False,
            "is_translator": False,
            "following": None, "follow_request_sent": None, "notifications": None,
        }
        wide.update(user)  # the mapped keys (and the timeline's unmapped ones) after the bulk
        wide.update({
            "entities": {"url": {"urls": [{"url": user["url"], "expanded_url": "https://example.org/~%s" % user["screen_name"],
                                           "display_url": "example.org/~%s" % user["screen_name"], "indices": [0, 23]}]
                                 if user["url"] else []},
                         "description": {"urls": []}},
            "counts": {"media": rng.randint(0, 900), "lists": {"owned": rng.randint(0, 9), "member": rng.randint(0, 90)},
                       "tweets": {"total": user["statuses_count"], "replies": rng.randint(0, 500)}},
            "badges": [{"kind": "label", "label": {"text": paragraph(rng, 3), "url": None}}] if rng.random() < 0.1 else [],
        })
        return wide

    def status(self, status):
        rng = derived_rng(self.seed, "activity-status", status["id"])
        text = status["text"] + "\n\n" + long_text(rng, 20, 70)
        media = [{
            "id": rng.getrandbits(62), "media_key": "3_%d" % rng.getrandbits(40), "type": rng.choice(("photo", "video", "animated_gif")),
            "media_url_https": "https://pbs.twimg.com/media/%s.jpg" % base36(rng.getrandbits(50)),
            "ext_alt_text": paragraph(rng, rng.randint(4, 20)) if rng.random() < 0.4 else None,
            "sizes": {name: {"w": w, "h": h, "resize": resize} for name, w, h, resize in SIZES},
            "original_info": {"width": 4032, "height": 3024, "focus_rects": [
                {"x": 0, "y": rng.randint(0, 900), "w": 4032, "h": 2258}, {"x": rng.randint(0, 500), "y": 0, "w": 3024, "h": 3024}]},
            "video_info": {"aspect_ratio": [16, 9], "duration_millis": rng.randint(1000, 140000), "variants": [
                {"bitrate": rate, "content_type": "video/mp4", "url": "https://video.twimg.com/%d/%d.mp4" % (status["id"], rate)}
                for rate in (256000, 832000, 2176000)]},
        } for _ in range(rng.choice((0, 0, 0, 0, 0, 1)))]
        annotations = [{"domain": {"id": domain[0], "name": domain[1], "description": domain[2]},
                        "entity": {"id": str(rng.getrandbits(60)), "name": rng.choice(WORDS).title(),
                                   "description": paragraph(rng, rng.randint(3, 8))},
                        "confidence": {"score": round(rng.random(), 4), "model": {"name": "ner", "version": "2.%d" % rng.randint(0, 9)}}}
                       for domain in rng.sample(DOMAINS, rng.randint(0, 2))]
        wide = {
            "id": status["id"], "id_str": status["id_str"],
            "conversation_id": str(status["in_reply_to_status_id"] or status["id"]),
            "edit_history": {"tweet_ids": [str(status["id"])], "editable_until": twitter_date(snowflake_ms(status["id"]) + 3_600_000), "edits_remaining": 5},
            "display_text_range": [0, len(text)],
            "html": html_of(text),
            "reply_settings": "everyone",
            "possibly_sensitive": rng.random() < 0.02,
            "filter_level": "low",
            "matching_rules": [{"tag": "rule-%d" % rng.randint(0, 40), "id": rng.getrandbits(40)} for _ in range(rng.randint(0, 2))],
            "metrics": {"public": {"impressions": rng.randint(0, 10 ** 6), "quotes": rng.randint(0, 50),
                                   "bookmarks": rng.randint(0, 90)},
                        "organic": {"profile_clicks": rng.randint(0, 100), "url_link_clicks": None}},
            "annotations": annotations,
            "extended_entities": {"media": media},
            "withheld": {"copyright": False, "country_codes": []},
        }
        wide.update(status)  # the mapped keys after the bulk
        wide["text"] = text
        wide["user"] = self.user(status["user"])
        if "retweeted_status" in status:
            wide["retweeted_status"] = self.status(status["retweeted_status"])
        wide["entities"] = dict(status["entities"], urls=[{
            "url": "https://t.co/%s" % base36(rng.getrandbits(40)), "expanded_url": "https://example.com/%s" % base36(rng.getrandbits(40)),
            "unwound": {"status": 200, "title": paragraph(rng, 6), "description": paragraph(rng, 20)},
            "indices": [0, 23]} for _ in range(rng.choice((0, 0, 1)))])
        wide["place"] = None if rng.random() < 0.9 else {
            "id": "%016x" % rng.getrandbits(64), "place_type": "city", "name": rng.choice(UNICODE_WORDS), "country_code": "FR",
            "bounding_box": {"type": "Polygon", "coordinates": [[[round(rng.uniform(-180, 180), 6), round(rng.uniform(-85, 85), 6)]
                                                                   for _ in range(4)]]}}
        return wide

    def event(self, index, status):
        rng = derived_rng(self.seed, "activity-event", index)
        return {
            "event_id": uuid_like(rng),
            "kind": "status.created" if "retweeted_status" not in status else "status.reposted",
            "schema_version": 7,
            "received_at": status["created_at"],
            "ingest": {"pipeline": "firehose-%d" % rng.randint(1, 8), "shard": rng.randint(0, 255), "attempt": 1,
                       "trace": {"trace_id": "%032x" % rng.getrandbits(128), "span_id": "%016x" % rng.getrandbits(64),
                                 "sampled": rng.random() < 0.01, "baggage": {"region": rng.choice(("eu-west", "us-east", "ap-south")),
                                                                             "tier": {"name": "standard", "limits": {"rps": 900, "burst": 1800}}}},
                       "hosts": ["ingest-%02d.internal" % rng.randint(0, 40) for _ in range(2)]},
            "actor": {"id_str": status["user"]["id_str"], "type": "user"},
            "object": {"type": "status", "status": self.status(status)},
            "audience": {"visibility": "public", "lists": [], "circles": None},
            "delivery": {"attempts": [{"at": status["created_at"], "code": 200, "latency_ms": rng.randint(1, 900)}],
                         "partition": rng.randint(0, 63), "offset": index},
        }


def main(argv=None):
    parser = argparse.ArgumentParser(description="Generate a synthetic activity-stream export (JSON Lines).")
    parser.add_argument("--tweets", type=int, default=200, help="number of events, one tweet each (default 200)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument("--format", choices=("jsonl", "json"), default="jsonl",
                        help="jsonl: JSON Lines (the default); json: the same lines as one array")
    parser.add_argument("--revision", type=int, default=0,
                        help="0 = base; R > 0 changes ~10%% of tweets and users, keeping ids")
    parser.add_argument("--out", default="-", help="output path (default stdout)")
    args = parser.parse_args(argv)
    if args.tweets < 0 or args.revision < 0:
        parser.error("--tweets and --revision must not be negative")
    from generate_timeline import write
    timeline = Timeline(args.seed, args.tweets, args.revision)
    widener = Widener(args.seed)
    events = (widener.event(index, status) for index, status in enumerate(timeline.tweets(args.tweets)))
    if args.out == "-":
        out = open(sys.stdout.fileno(), "w", encoding="utf-8", newline="\n", closefd=False, buffering=1 << 20)
    else:
        out = open(args.out, "w", encoding="utf-8", newline="\n", buffering=1 << 20)
    with out:
        write(out, events, args.format)


if __name__ == "__main__":
    try:
        main()
    except BrokenPipeError:  # e.g. `| head`: stop quietly
        sys.stderr.close()
        sys.exit(1)
