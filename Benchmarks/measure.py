#!/usr/bin/env python3
"""Run one command and print `SECONDS MAX_RSS_KIB EXIT_STATUS CPU_SECONDS [SERVER_CPU_SECONDS]`.

    python3 Benchmarks/measure.py [--log FILE] [--server PID] -- COMMAND [ARG...]

SECONDS is wall-clock time (time.perf_counter around the child). MAX_RSS_KIB is the peak
resident set size of the child and of every descendant it waited for (wait4's rusage), so for
`bash -c 'cat feed | graphimport ...'` it is the largest process of the pipeline. CPU_SECONDS
is user + system time of the same processes: less sensitive than wall time to other load on a
shared machine. The command's stdout is discarded; its stderr goes to FILE (default:
discarded). Stdlib only, so it works where /usr/bin/time or hyperfine are not installed.

--server PID (a PostgreSQL postmaster) adds SERVER_CPU_SECONDS: the user + system time the
server's process tree spent while the command ran, read from /proc: the postmaster's own time
and that of the children it has reaped (cutime, cstime: a backend that ended), plus the time of
its children alive at the end (checkpointer, WAL writer…). The command's backend has ended when
the command has, but the postmaster may not have reaped it yet, so the tree is read again once
no child is left that was not there before the command (up to 5 s). Work the server does for
other clients in that window counts too: the benchmark's server has none.
"""

import os
import subprocess
import sys
import time

TICKS = os.sysconf("SC_CLK_TCK")


def stat_fields(pid):
    """/proc/PID/stat's fields after the command name (field 3 onwards), or None if gone."""
    try:
        with open("/proc/%d/stat" % pid, "rb") as handle:
            text = handle.read().decode("ascii", "replace")
    except OSError:
        return None
    return text[text.rindex(")") + 2:].split()


def server_tree(postmaster):
    """(CPU seconds of the postmaster, its reaped children and its live children; live child pids)."""
    fields = stat_fields(postmaster)
    if fields is None:
        return 0.0, set()
    ticks = sum(int(value) for value in fields[11:15])  # utime stime cutime cstime
    children = set()
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        child = stat_fields(int(entry))
        if child is not None and int(child[1]) == postmaster:  # ppid
            children.add(int(entry))
            ticks += sum(int(value) for value in child[11:15])
    return ticks / TICKS, children


def server_seconds_after(postmaster, before_children):
    """The tree's CPU once the command's backends are reaped (waits up to 5 s)."""
    deadline = time.monotonic() + 5
    while True:
        seconds, children = server_tree(postmaster)
        if children <= before_children or time.monotonic() > deadline:
            return seconds
        time.sleep(0.02)


def main(argv):
    log = os.devnull
    server = None
    while argv[:1] in (["--log"], ["--server"]):
        if argv[0] == "--log":
            log = argv[1]
        else:
            server = int(argv[1])
        argv = argv[2:]
    if argv[:1] == ["--"]:
        argv = argv[1:]
    if not argv:
        sys.stderr.write("usage: measure.py [--log FILE] [--server PID] -- COMMAND [ARG...]\n")
        return 64
    if server is not None:
        server_before, children_before = server_tree(server)
    with open(os.devnull, "wb") as out, open(log, "ab") as err:
        start = time.perf_counter()
        child = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=out, stderr=err)
        _, status, usage = os.wait4(child.pid, 0)
        seconds = time.perf_counter() - start
        child.returncode = os.waitstatus_to_exitcode(status)
    line = "%.3f %d %d %.3f" % (seconds, usage.ru_maxrss, child.returncode, usage.ru_utime + usage.ru_stime)
    if server is not None:
        line += " %.3f" % (server_seconds_after(server, children_before) - server_before)
    print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
