#!/usr/bin/env python3
"""Turn the measurements of Benchmarks/run into a Markdown report (stdout).

    python3 Benchmarks/report.py WORK_DIR/results/RUN_ID [WORK_DIR/results/RUN_ID ...]

Reads `times.tsv` (size, tweets, feed_bytes, tool, phase, run, seconds, rss_kib, cpu_seconds and,
for the PostgreSQL tools, server_cpu_seconds),
`digests.tsv` (size, phase, tool, status, detail) and `machine.txt` from each directory given:
several runs (say 10k and 100k in one, 1M in another) make one report, so that the scaling goals
(time linear in the feed, memory flat) compare sizes measured apart. A size of another feed shape
than the tweets is named with it (`100k/activity`): its rows say so, and sizes are compared for
scaling within a shape only.
Ratios are reported, not asserted: `graphimport speed-up` is the reference's median time
divided by graphimport's (file input) median time in the same phase and size, for wall time
and for CPU time (user + system; steadier when other processes share the machine).
The PostgreSQL tools (graphimport-pg, psql) have a table of their own: psql's median against
graphimport-pg's, on wall time and on CPU time counted with the server's (the reference runs in
the server, so its client's CPU alone would say nothing).
"""

import collections
import statistics
import sys

PHASES = (
    ("first", "first import (new store)"),
    ("reimport", "re-import, unchanged feed"),
    ("revised", "import of --revision 1 over the base"),
    ("export", "export of the base store as nested JSON"),
)
IMPORT_PHASES = ("first", "reimport", "revised")
TOOL_ORDER = ("graphimport", "graphimport-baseline", "graphimport-pipe", "sqlite", "sqlite-import", "python",
              "duckdb", "graphimport-pg", "graphimport-pg-baseline", "psql")
PG_TOOLS = ("graphimport-pg", "graphimport-pg-baseline", "psql")
# Issue 21's goals for graphimport into PostgreSQL (2 cores): seconds of wall time, and the
# speed-up over the psql reference.
PG_TIME_GOALS = (("first", 4.0), ("reimport", 1.5))
PG_SPEEDUP_GOAL = 2.0
# (phase, reference, least speed-up, measured on "wall" or "cpu" time, text): the speed-up is the
# reference's median over graphimport's. Issue 34's: first-import wall at most DuckDB's and at most
# 0.4× the sqlite3 CLI's; re-import CPU at most DuckDB's and wall at most 0.25× the CLI's (issue
# 6's 4×, the line above it).
GOALS = (
    ("first", "sqlite", 2.0, "wall", "first import ≥ 2× faster than the sqlite3 CLI"),
    ("first", "sqlite", 2.5, "wall", "first import wall ≤ 0.4× the sqlite3 CLI's (issue 34)"),
    ("first", "sqlite-import", 2.0, "wall", "first import ≥ 2× faster than the sqlite3 CLI, `.import` path"),
    ("first", "duckdb", 1.0, "wall", "first import wall ≤ DuckDB's (issue 34)"),
    ("reimport", "sqlite", 4.0, "wall", "re-import ≥ 4× faster than the sqlite3 CLI (wall ≤ 0.25×, issue 34)"),
    ("reimport", "sqlite-import", 4.0, "wall", "re-import ≥ 4× faster than the sqlite3 CLI, `.import` path"),
    ("reimport", "duckdb", 1.0, "cpu", "re-import CPU ≤ DuckDB's (issue 34)"),
    ("export", "sqlite", 1 / 1.5, "wall", "export no slower than 1.5× the sqlite3 CLI"),
)
EXPORT_RSS_GOAL_MIB = 50
RSS_GOAL_MIB = 100
# Scaling goals: time per tweet at ten times the tweets within 15% of the smaller size's, and
# peak RSS within 10% of the smallest size's.
LINEAR_TIME_TOLERANCE = 0.15
FLAT_MEMORY_TOLERANCE = 0.10


def read_tsv(path):
    with open(path, encoding="utf-8") as handle:
        return [line.rstrip("\n").split("\t") for line in handle if line.strip()]


def mib(kib):
    return kib / 1024.0


def tool_rank(tool):
    return TOOL_ORDER.index(tool) if tool in TOOL_ORDER else len(TOOL_ORDER)


def shape_of(size):
    """The feed shape of a size label: `100k` is the tweets shape, `100k/activity` another."""
    return size.split("/", 1)[1] if "/" in size else "tweets"


def records_label(size, tweets):
    """The records column: the count, and the shape's name when it is not the tweets shape."""
    shape = shape_of(size)
    return "%d" % tweets if shape == "tweets" else "%d %s" % (tweets, shape)


def main(argv):
    if not argv:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    samples = collections.defaultdict(list)
    sizes = {}
    digests = {}
    machines = []
    for directory in argv:
        for size, tweets, feed_bytes, tool, phase, _run, seconds, rss, cpu, *server in read_tsv(directory + "/times.tsv"):
            server_cpu = float(server[0]) if server and server[0] else 0.0
            samples[(size, tool, phase)].append((float(seconds), int(rss), float(cpu), server_cpu))
            sizes[size] = (int(tweets), int(feed_bytes))
        try:
            for size, phase, tool, status, detail in read_tsv(directory + "/digests.tsv"):
                digests[(size, phase, tool)] = status if status != "MISMATCH" else "**MISMATCH** " + detail
        except FileNotFoundError:
            pass
        with open(directory + "/machine.txt", encoding="utf-8") as handle:
            machine = handle.read().strip()
        if machine not in machines:
            machines.append(machine)
    machine = "\n\n".join(machines)

    def median(size, tool, phase):
        values = samples.get((size, tool, phase))
        if not values:
            return None
        return (statistics.median(v[0] for v in values), max(v[1] for v in values), len(values),
                statistics.median(v[2] for v in values), statistics.median(v[3] for v in values),
                statistics.median(v[2] + v[3] for v in values))

    ordered_sizes = sorted(sizes, key=lambda s: (shape_of(s) != "tweets", shape_of(s), sizes[s][0]))
    tools = sorted({tool for _, tool, _ in samples}, key=tool_rank)
    out = []
    mismatches = [key for key, status in digests.items() if status.startswith("**MISMATCH")]
    if mismatches:
        out.append("**DIGEST MISMATCH in %d cell(s): those stores differ from graphimport's, "
                   "so their times compare different work.**\n" % len(mismatches))
    out.append("## Results\n")
    out.append(machine + "\n")
    out.append("Medians of the runs (wall time, and CPU = user + system time); peak RSS is the largest "
               "of the runs. `speed-up` = that tool's median / graphimport's median (above 1: graphimport "
               "is faster). `digest` compares the store with graphimport's after the phase's last run.\n")
    out.append("| tweets | feed | phase | tool | runs | wall s | CPU s | tweets/s | peak RSS MiB | speed-up (wall) | speed-up (CPU) | digest |")
    out.append("|---:|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---|")
    for size in ordered_sizes:
        tweets, feed_bytes = sizes[size]
        for phase, phase_name in PHASES:
            base = median(size, "graphimport", phase)
            for tool in tools:
                measured = median(size, tool, phase)
                if measured is None or tool in PG_TOOLS:
                    continue
                seconds, rss, runs, cpu = measured[:4]
                ratio = cpu_ratio = ""
                if tool != "graphimport" and base is not None:
                    ratio = "%.2f×" % (seconds / base[0])
                    cpu_ratio = "%.2f×" % (cpu / base[3])
                out.append("| %s | %.0f MB | %s | %s | %d | %.2f | %.2f | %.0f | %.0f | %s | %s | %s |" % (
                    records_label(size, tweets), feed_bytes / 1e6, phase_name, tool, runs, seconds, cpu, tweets / seconds,
                    mib(rss), ratio, cpu_ratio, digests.get((size, phase, tool), "")))
    out.append("")
    out.extend(postgres_table(ordered_sizes, sizes, tools, median, digests))

    out.append("## Goals (reported, not asserted)\n")
    out.append("Speed goals are judged on wall time; the CPU-time ratio is shown beside it.\n")
    out.append("| tweets | goal | measured | met |")
    out.append("|---:|---|---:|---|")
    for size in ordered_sizes:
        tweets = sizes[size][0]
        base = {phase: median(size, "graphimport", phase) for phase, _ in PHASES}
        label = records_label(size, tweets)
        for phase, tool, target, measure, text in GOALS:
            reference = median(size, tool, phase)
            if base[phase] is None or reference is None:
                continue
            ratio = reference[0] / base[phase][0]
            cpu_ratio = reference[3] / base[phase][3]
            if measure == "cpu":
                measured, judged = "CPU %.2f× (wall %.2f×)" % (cpu_ratio, ratio), cpu_ratio
            else:
                measured, judged = "%.2f× (CPU %.2f×)" % (ratio, cpu_ratio), ratio
            out.append("| %s | %s | %s | %s |" % (label, text, measured, "yes" if judged >= target else "no"))
        export = median(size, "graphimport", "export")
        if export is not None:
            out.append("| %s | graphimport export peak RSS < %d MiB | %.0f MiB | %s |" % (
                label, EXPORT_RSS_GOAL_MIB, mib(export[1]), "yes" if mib(export[1]) < EXPORT_RSS_GOAL_MIB else "no"))
        for tool in ("graphimport", "graphimport-pipe"):
            peaks = [median(size, tool, phase) for phase in IMPORT_PHASES]
            peaks = [p[1] for p in peaks if p is not None]
            if peaks:
                peak = mib(max(peaks))
                out.append("| %s | %s peak RSS < %d MiB | %.0f MiB | %s |" % (
                    label, tool, RSS_GOAL_MIB, peak, "yes" if peak < RSS_GOAL_MIB else "no"))
        out.extend(postgres_goals(label, size, median))
    out.append("")

    for shape in sorted({shape_of(size) for size in ordered_sizes}, key=lambda name: (name != "tweets", name)):
        out.extend(scaling(shape, [size for size in ordered_sizes if shape_of(size) == shape], sizes, median))
    print("\n".join(out))
    return 0


def scaling(shape, ordered_sizes, sizes, median):
    """The scaling table and goals of one shape's sizes, when it has more than one."""
    out = []
    if len(ordered_sizes) > 1:
        out.append("## Scaling of graphimport (time linear, memory flat)%s\n" % (
            "" if shape == "tweets" else ", %s shape" % shape))
        header = "| tool | phase | " + " | ".join("µs/tweet @%s" % s for s in ordered_sizes) + " | " + \
                 " | ".join("RSS MiB @%s" % s for s in ordered_sizes) + " |"
        out.append(header)
        out.append("|---|---|" + "---:|" * (2 * len(ordered_sizes)))
        for tool in ("graphimport", "graphimport-pipe"):
            for phase, phase_name in PHASES:
                cells = [median(size, tool, phase) for size in ordered_sizes]
                if all(c is None for c in cells):
                    continue
                per_tweet = ["%.1f" % (c[0] / sizes[s][0] * 1e6) if c else "" for c, s in zip(cells, ordered_sizes)]
                rss = ["%.0f" % mib(c[1]) if c else "" for c in cells]
                out.append("| %s | %s | %s | %s |" % (tool, phase_name, " | ".join(per_tweet), " | ".join(rss)))
        out.append("")
        out.extend(scaling_goals(ordered_sizes, sizes, median))
    return out


def postgres_table(ordered_sizes, sizes, tools, median, digests):
    """The PostgreSQL tools' table: wall, client CPU, server CPU and their sum; psql against graphimport-pg."""
    if not any(tool in PG_TOOLS for tool in tools):
        return []
    out = ["## PostgreSQL\n",
           "graphimport (`graphimport-pg`) and the psql reference (`psql`: Benchmarks/psql-import) into one "
           "throwaway server. `CPU s` is the client's (graphimport; psql's is next to nothing), `server CPU s` the "
           "server's process tree while the import ran, `total CPU s` their sum (medians of each). `speed-up` = "
           "that tool's median / graphimport-pg's (above 1: graphimport is faster; `graphimport-pg-baseline` is "
           "the `--baseline` binary). `digest` compares the tables with "
           "graphimport's SQLite store, and the schema with graphimport's PostgreSQL store.\n",
           "| tweets | phase | tool | runs | wall s | CPU s | server CPU s | total CPU s | peak RSS MiB | speed-up (wall) | speed-up (total CPU) | digest |",
           "|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|"]
    for size in ordered_sizes:
        for phase, phase_name in PHASES:
            base = median(size, "graphimport-pg", phase)
            for tool in PG_TOOLS:
                measured = median(size, tool, phase)
                if measured is None:
                    continue
                seconds, rss, runs, cpu, server, total = measured
                ratio = total_ratio = ""
                if tool != "graphimport-pg" and base is not None:
                    ratio = "%.2f×" % (seconds / base[0])
                    total_ratio = "%.2f×" % (total / base[5])
                out.append("| %s | %s | %s | %d | %.2f | %.2f | %.2f | %.2f | %.0f | %s | %s | %s |" % (
                    records_label(size, sizes[size][0]), phase_name, tool, runs, seconds, cpu, server, total, mib(rss), ratio, total_ratio,
                    digests.get((size, phase, tool), "")))
    return out + [""]


def postgres_goals(label, size, median):
    """Issue 21's goals for graphimport into PostgreSQL, as rows of the goals table."""
    rows = []
    for phase, limit in PG_TIME_GOALS:
        measured = median(size, "graphimport-pg", phase)
        if measured is not None:
            rows.append("| %s | PostgreSQL: %s at most %.1f s | %.2f s (total CPU %.2f s) | %s |" % (
                label, dict(PHASES)[phase], limit, measured[0], measured[5], "yes" if measured[0] <= limit else "no"))
    for phase in IMPORT_PHASES:
        mine, reference = median(size, "graphimport-pg", phase), median(size, "psql", phase)
        if mine is None or reference is None:
            continue
        ratio = reference[0] / mine[0]
        rows.append("| %s | PostgreSQL: %s ≥ %.0f× faster than the psql reference | %.2f× (total CPU %.2f×) | %s |" % (
            label, dict(PHASES)[phase], PG_SPEEDUP_GOAL, ratio, reference[5] / mine[5], "yes" if ratio >= PG_SPEEDUP_GOAL else "no"))
    peaks = [median(size, "graphimport-pg", phase) for phase in IMPORT_PHASES]
    peaks = [p[1] for p in peaks if p is not None]
    if peaks:
        peak = mib(max(peaks))
        rows.append("| %s | graphimport-pg peak RSS < %d MiB | %.0f MiB | %s |" % (
            label, RSS_GOAL_MIB, peak, "yes" if peak < RSS_GOAL_MIB else "no"))
    return rows


def scaling_goals(ordered_sizes, sizes, median):
    """The goal rows for time linear in the feed (each size against the one a tenth of it) and
    memory flat (each size against the smallest), for graphimport from a file and a pipe."""
    rows = []
    smallest = ordered_sizes[0]
    for tool in ("graphimport", "graphimport-pipe"):
        for phase, phase_name in PHASES:
            for size in ordered_sizes:
                tenth = [s for s in ordered_sizes if sizes[s][0] * 10 == sizes[size][0]]
                big, small = median(size, tool, phase), median(tenth[0], tool, phase) if tenth else None
                if big is None or small is None:
                    continue
                growth = big[0] / (10 * small[0]) - 1
                rows.append("| %s | %s: %d tweets within %d%% of 10× the %d-tweet time | %.2f s against %.2f s (%+.0f%%) | %s |" % (
                    tool, phase_name, sizes[size][0], LINEAR_TIME_TOLERANCE * 100, sizes[tenth[0]][0],
                    big[0], 10 * small[0], growth * 100, "yes" if growth <= LINEAR_TIME_TOLERANCE else "no"))
        base = [median(smallest, tool, phase) for phase, _ in PHASES]
        base = [b[1] for b in base if b is not None]
        for size in ordered_sizes[1:]:
            peaks = [median(size, tool, phase) for phase, _ in PHASES]
            peaks = [p[1] for p in peaks if p is not None]
            if not base or not peaks:
                continue
            growth = max(peaks) / max(base) - 1
            rows.append("| %s | peak RSS at %d tweets within %d%% of the %d-tweet figure | %.0f MiB against %.0f MiB (%+.0f%%) | %s |" % (
                tool, sizes[size][0], FLAT_MEMORY_TOLERANCE * 100, sizes[smallest][0], mib(max(peaks)), mib(max(base)),
                growth * 100, "yes" if growth <= FLAT_MEMORY_TOLERANCE else "no"))
    if not rows:
        return []
    return ["| tool | scaling goal | measured | met |", "|---|---|---|---|"] + rows + [""]


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
