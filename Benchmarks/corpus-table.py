#!/usr/bin/env python3
"""Imports every corpus payload with its map into a fresh store and prints the Markdown table
of Mappings/README.md: payload, map, records, objects per entity, wall time (release build).

    python3 Benchmarks/corpus-table.py [path/to/graphimport] [path/to/shared/corpus]
"""
import json, os, subprocess, sys, tempfile, time

PAYLOADS = [
    ("twitter-v1.1/get_home_timeline.json", "twitter-v1.1.map"),
    ("twitter-v1.1/get_user_timeline_count.json", "twitter-v1.1.map"),
    ("twitter-v1.1/get_retweets.json", "twitter-v1.1.map"),
    ("twitter-v1.1/get_search_raw.json", "twitter-v1.1-search.map"),
    ("twitter-v1.1/get_followers_0.json", "twitter-v1.1-followers.map"),
    ("twitter-v2/tweet_quote_tweets_resp.json", "twitter-v2.map"),
    ("twitter-v2/search_tweets_query.json", "twitter-v2.map"),
    ("github/octokit.rb-issues.json", "github-issues.map"),
    ("github/octokit.rb-repo_events.json", "github-events.map"),
    ("github/octokit.rb-public_events.json", "github-events.map"),
    ("github/octokit-fixtures-paginate-issues.json", "github-fixtures-issues.map"),
    ("github/octokit-fixtures-search-issues.json", "github-fixtures-issues.map"),
    ("reddit/subreddit-search-posts.json", "reddit.map"),
    ("reddit/subreddit-list.json", "reddit.map"),
    ("reddit/post-duplicates.json", "reddit.map"),
    ("reddit/post-post.json", "reddit.map"),
    ("reddit/listings-posts-comments-subreddits.json", "reddit.map"),
    ("reddit/user-overview.json", "reddit.map"),
    ("reddit/comment-more.json", "reddit.map"),
    ("mastodon/mastodon4j-public_timeline.json", "mastodon.map"),
    ("mastodon/bigbone-public_timeline.json", "mastodon.map"),
    ("mastodon/mastodon4j-tag.json", "mastodon.map"),
    ("mastodon/bigbone-tag_timeline.json", "mastodon.map"),
    ("mastodon/bigbone-status_with_previewcard.json", "mastodon.map"),
    ("mastodon/mastodon4j-context.json", "mastodon-context.map"),
    ("mastodon/bigbone-context.json", "mastodon-context.map"),
    ("mastodon/mastodon4j-notifications.json", "mastodon-notifications.map"),
    ("jsonapi/complete.json", "jsonapi.map"),
    ("jsonapi/data_and_included-single_resource.json", "jsonapi.map"),
    ("usgs/earthquakes.json", "usgs-earthquakes.map"),
]

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
binary = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, ".build/release/graphimport")
corpus = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(root), "shared/corpus")

print("| payload file | map | records | objects per entity | time |")
print("|---|---|---|---|---|")
for payload, map_name in PAYLOADS:
    with tempfile.TemporaryDirectory() as tmp:
        store = os.path.join(tmp, "store.sqlite")
        args = [binary, os.path.join(corpus, payload), "--map", os.path.join(root, "Mappings", map_name),
                "--store", store, "--json", "--quiet"]
        best = None
        for _ in range(3):  # the best of three fresh imports
            if os.path.exists(store):
                os.remove(store)
            started = time.monotonic()
            done = subprocess.run(args, capture_output=True, text=True)
            elapsed = time.monotonic() - started
            best = elapsed if best is None else min(best, elapsed)
        if done.returncode != 0:
            print(f"| `{payload}` | `{map_name}` | fails (exit {done.returncode}) | {done.stderr.strip()[:80]} | |")
            continue
        summary = json.loads(done.stdout)
        objects = ", ".join(f"{name} {c['inserted']}" for name, c in summary["entities"].items() if c["inserted"])
        meta = ", ".join(summary["meta"].keys())
        print(f"| `{payload}` | `{map_name}` | {summary['records']} | {objects}{f' (meta {meta})' if meta else ''} | {best * 1000:.0f} ms |")
