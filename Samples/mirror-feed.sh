#!/usr/bin/env bash
# Mirror a JSON feed into a graphimport store; made to be called from cron:
#
#   */15 * * * *  FEED_URL=https://api.example.com/timeline.json MAP=/srv/feeds/timeline.map /srv/feeds/mirror-feed.sh >>/var/log/mirror-feed.log 2>&1
#
# One run fetches the feed with curl, sending the ETag of the last successful run as
# If-None-Match, so an unchanged feed costs one 304 and no import. A new body is imported with
# its ETag as --set-meta, so the ETag is stored in the same transaction as the data: a failed
# import leaves both the data and the old ETag, and the next run fetches and tries again.
#
# Paging: when the map keeps the response's cursor (`meta cursor <- next : String?`) and
# PAGE_URL or CURSOR_PARAM says how a cursor becomes a URL, the run follows the cursor page by
# page until the map stores none (the response said null), at most MAX_PAGES pages. A walk cut
# short (the page limit, a failed page, a busy store) resumes at the stored cursor next run.
#
# Environment:
#   FEED_URL      the feed, or its first page (required); file:// URLs work too
#   MAP           the .map file (required); the store is beside it unless STORE is set
#   STORE         the store file (default: the map's, MAP with .sqlite for .map)
#   GRAPHIMPORT   the graphimport executable (default: graphimport from PATH)
#   PAGE_URL      a following page's URL with {cursor} where the cursor goes
#   CURSOR_PARAM  or: the query parameter that carries the cursor on FEED_URL (?after=CURSOR)
#   CURSOR_KEY    the meta key of the cursor (default: cursor)
#   ETAG_KEY      the meta key of the ETag (default: etag)
#   MAX_PAGES     pages per run at most (default: 100)
#   WAIT          seconds to wait for another import's lock before exiting 75 (default: 60)
#   IF_CHANGED    1 (default) skips a body identical to the last imported one; 0 imports it
#   ALLOW_EMPTY   1 accepts an empty body; 0 (default) treats it as a failed download
#   CURL_CONFIG   a curl config file (-K) for headers and credentials, kept out of crontab and ps
#
# Exit status: 0 when imported, unchanged or not modified (304); curl's status when the
# download fails (22: HTTP error, 6/7: cannot connect, 28: timeout); otherwise graphimport's:
# 65 bad data (nothing imported), 75 the store was busy (retry later), 78 the map is wrong.
# Standard output has graphimport's --json summary, one line per page; messages go to stderr.
set -euo pipefail

: "${FEED_URL:?set FEED_URL to the URL of the feed}"
: "${MAP:?set MAP to the .map file}"
GRAPHIMPORT=${GRAPHIMPORT:-graphimport}
STORE=${STORE:-}
PAGE_URL=${PAGE_URL:-}
CURSOR_PARAM=${CURSOR_PARAM:-}
CURSOR_KEY=${CURSOR_KEY:-cursor}
ETAG_KEY=${ETAG_KEY:-etag}
MAX_PAGES=${MAX_PAGES:-100}
WAIT=${WAIT:-60}
IF_CHANGED=${IF_CHANGED:-1}
ALLOW_EMPTY=${ALLOW_EMPTY:-0}
CURL_CONFIG=${CURL_CONFIG:-}

store_args=(--map "$MAP")
if [[ -n $STORE ]]; then store_args+=(--store "$STORE"); fi

work=$(mktemp -d "${TMPDIR:-/tmp}/mirror-feed.XXXXXX")
trap 'rm -rf "$work"' EXIT

say() { printf 'mirror-feed: %s\n' "$*" >&2; }

# The stored value of a meta key, or nothing.
meta_get() { "$GRAPHIMPORT" meta get "$1" --default '' "${store_args[@]}"; }

# Percent-encodes $1 for a URL, byte by byte.
urlencode() {
    local LC_ALL=C text=$1 out='' char i
    for ((i = 0; i < ${#text}; i++)); do
        char=${text:i:1}
        case $char in
            [A-Za-z0-9._~-]) out+=$char ;;
            *) printf -v char '%%%02X' "'$char"; out+=$char ;;
        esac
    done
    printf '%s\n' "$out"
}

# The URL of the page after cursor $1.
page_url() {
    local cursor
    cursor=$(urlencode "$1")
    if [[ -n $PAGE_URL ]]; then
        printf '%s\n' "${PAGE_URL//'{cursor}'/$cursor}"
    else
        local separator='?'
        if [[ $FEED_URL == *'?'* ]]; then separator='&'; fi
        printf '%s%s%s=%s\n' "$FEED_URL" "$separator" "$CURSOR_PARAM" "$cursor"
    fi
}

# Fetches $1 into $work/body, sending If-None-Match $2 when given; sets http_code and new_etag.
# A file:// URL has no status (000) and no ETag.
fetch() {
    local url=$1 etag=${2:-} status=0
    local args=(-sfS -L --compressed -D "$work/headers" -o "$work/body" -w '%{http_code}')
    if [[ -n $etag ]]; then args+=(-H "If-None-Match: $etag"); fi
    if [[ -n $CURL_CONFIG ]]; then args+=(-K "$CURL_CONFIG"); fi
    : >"$work/headers"
    http_code=$(curl "${args[@]}" "$url") || status=$?
    if ((status != 0)); then
        say "cannot fetch $url (curl exit $status); nothing was imported"
        exit "$status"
    fi
    # After redirects (-L) the last ETag is the final response's.
    new_etag=$(sed -n 's/^[Ee][Tt][Aa][Gg]:[[:space:]]*//p' "$work/headers" | tr -d '\r' | tail -n 1)
}

# Imports $work/body, storing ETag $1 (when given) in the same transaction; prints the summary.
import_body() {
    local etag=$1 summary status=0
    local args=(--json --quiet --wait "$WAIT" "${store_args[@]}")
    if [[ -n $etag ]]; then args+=(--set-meta "$ETAG_KEY=$etag"); fi
    if [[ $IF_CHANGED == 1 ]]; then args+=(--if-changed); fi
    if [[ $ALLOW_EMPTY == 1 ]]; then args+=(--allow-empty); fi
    summary=$("$GRAPHIMPORT" "${args[@]}" <"$work/body") || status=$?
    if [[ -n $summary ]]; then printf '%s\n' "$summary"; fi
    if ((status != 0)); then
        say "import of $url failed (graphimport exit $status)"
        exit "$status"
    fi
    # A body skipped by --if-changed wrote nothing; keep the server's new ETag all the same.
    if [[ -n $etag && $summary == *'"unchanged_input":true'* ]]; then
        "$GRAPHIMPORT" meta set "$ETAG_KEY" "$etag" --wait "$WAIT" "${store_args[@]}"
    fi
}

paging=0
if [[ -n $PAGE_URL || -n $CURSOR_PARAM ]]; then paging=1; fi

cursor=''
if ((paging)); then cursor=$(meta_get "$CURSOR_KEY"); fi
if [[ -n $cursor ]]; then
    say "resuming at cursor $cursor"
    url=$(page_url "$cursor")
    etag=''
else
    url=$FEED_URL
    etag=$(meta_get "$ETAG_KEY")
fi

pages=0
while :; do
    fetch "$url" "$etag"
    if [[ $http_code == 304 ]]; then
        say "$url not modified (304); nothing to do"
        exit 0
    fi
    # Only the first page's ETag is kept: it is the one sent next time.
    page_etag=''
    if [[ $url == "$FEED_URL" ]]; then page_etag=$new_etag; fi
    import_body "$page_etag"
    pages=$((pages + 1))
    ((paging)) || break
    next=$(meta_get "$CURSOR_KEY")
    if [[ -z $next ]]; then break; fi
    if [[ $next == "$cursor" ]]; then
        say "the cursor did not move from $next; stopping"
        break
    fi
    if ((pages >= MAX_PAGES)); then
        say "stopped after $pages pages; the next run resumes at cursor $next"
        break
    fi
    cursor=$next
    url=$(page_url "$cursor")
    etag=''
done
