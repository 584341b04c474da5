#!/usr/bin/env python3
"""Run one command and print `SECONDS MAX_RSS_KIB EXIT_STATUS CPU_SECONDS` on stdout.

    python3 Benchmarks/measure.py [--log FILE] -- COMMAND [ARG...]

SECONDS is wall-clock time (time.perf_counter around the child). MAX_RSS_KIB is the peak
resident set size of the child and of every descendant it waited for (wait4's rusage), so for
`bash -c 'cat feed | graphimport ...'` it is the largest process of the pipeline. CPU_SECONDS
is user + system time of the same processes: less sensitive than wall time to other load on a
shared machine. The command's stdout is discarded; its stderr goes to FILE (default:
discarded). Stdlib only, so it works where /usr/bin/time or hyperfine are not installed.
"""

import os
import subprocess
import sys
import time


def main(argv):
    log = os.devnull
    if argv[:1] == ["--log"]:
        log = argv[1]
        argv = argv[2:]
    if argv[:1] == ["--"]:
        argv = argv[1:]
    if not argv:
        sys.stderr.write("usage: measure.py [--log FILE] -- COMMAND [ARG...]\n")
        return 64
    with open(os.devnull, "wb") as out, open(log, "ab") as err:
        start = time.perf_counter()
        child = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=out, stderr=err)
        _, status, usage = os.wait4(child.pid, 0)
        seconds = time.perf_counter() - start
        child.returncode = os.waitstatus_to_exitcode(status)
    print("%.3f %d %d %.3f" % (seconds, usage.ru_maxrss, child.returncode, usage.ru_utime + usage.ru_stime))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
