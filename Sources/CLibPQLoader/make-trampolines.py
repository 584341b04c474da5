#!/usr/bin/env python3
"""Writes libpq_trampolines.c: one definition for each function libpq-fe.h declares, which calls
the function of the same name in libpq once `clibpq_load` has opened it. Run again when the
libpq-fe.h the build uses declares functions this file lacks (the link then fails naming them):

    python3 Sources/CLibPQLoader/make-trampolines.py /usr/include/postgresql/libpq-fe.h
"""
import re
import sys

header = sys.argv[1] if len(sys.argv) > 1 else "/usr/include/postgresql/libpq-fe.h"
text = re.sub(r"/\*.*?\*/", "", open(header).read(), flags=re.S)
out = [
    "/* Written by make-trampolines.py from libpq-fe.h: do not edit by hand. */",
    '#include "libpq_loader.h"',
    "",
]
for prototype in re.findall(r"extern\s+([^;{]*?\([^;]*?\))\s*;", text, flags=re.S):
    prototype = " ".join(prototype.split())
    match = re.match(r"(.*?)\b(\w+)\s*\((.*)\)$", prototype)
    result, name, params = match.group(1).strip(), match.group(2), match.group(3).strip()
    names = []
    if params not in ("", "void"):
        for param in params.split(","):
            names.append(re.search(r"(\w+)\s*(\[\s*\])?\s*$", param).group(1))
    call = f"CLIBPQ_FUNCTION({name})({', '.join(names)})"
    body = f"{call};" if result == "void" else f"return {call};"
    out.append(f"{result} {name}({params}) {{ {body} }}")
open(__file__.replace("make-trampolines.py", "libpq_trampolines.c"), "w").write("\n".join(out) + "\n")
