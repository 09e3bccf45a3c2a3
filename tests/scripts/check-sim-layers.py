#!/usr/bin/python3
"""Fails when a file in a sim/ folder includes a header of a folder at or above its layer.

The layer order is read from DEVELOPERS.md (the block between `<!-- BEGIN LAYERS -->` and
`<!-- END LAYERS -->`: one line per layer, lowest first, folders of one layer on one line), so
the documented order and the checked one are the same. A file may include headers of its own
folder and of folders on lower lines; a folder of sim/ that the order does not list is an error
too, so a new folder must be placed. ALLOWED lists known exceptions with the reason; an
exception that no longer occurs is an error, so the list cannot go stale.

Usage: check-sim-layers.py SOURCE_DIR
       check-sim-layers.py --self-test     (the checker finds each kind of violation)
"""

import os
import re
import sys
import tempfile

# (including file, included header) -> why it is allowed for now.
ALLOWED = {}

INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*"(sim/([^/"]+)/[^"]+)"', re.MULTILINE)
SOURCE_SUFFIXES = (".h", ".cc", ".hpp", ".cpp", ".inl")


def read_layers(developers_md):
    with open(developers_md, encoding="utf-8") as f:
        text = f.read()
    match = re.search(r"<!-- BEGIN LAYERS -->(.*?)<!-- END LAYERS -->", text, re.DOTALL)
    if match is None:
        raise SystemExit(f"{developers_md}: no <!-- BEGIN LAYERS --> ... <!-- END LAYERS --> block")
    rank = {}
    level = 0
    for line in match.group(1).splitlines():
        line = line.strip()
        if not line or line.startswith("```"):
            continue
        # "core  <- comment" or "topology net   what they hold": folder names come first,
        # up to the first word that is not a plain lowercase name followed by spaces.
        names = re.match(r"^((?:[a-z][a-z0-9_-]*)(?:\s+[a-z][a-z0-9_-]*)*?)(?:\s{2,}|\s*$)", line)
        if names is None:
            raise SystemExit(f"{developers_md}: cannot read layer line {line!r}")
        for name in names.group(1).split():
            if name in rank:
                raise SystemExit(f"{developers_md}: folder {name} is listed twice")
            rank[name] = level
        level += 1
    return rank


def check(root, developers_md, allowed):
    rank = read_layers(developers_md)
    problems = []
    used_exceptions = set()
    sim = os.path.join(root, "sim")
    for folder in sorted(os.listdir(sim)):
        if not os.path.isdir(os.path.join(sim, folder)):
            continue
        if folder not in rank:
            problems.append(f"sim/{folder}/ is not in the layer order in DEVELOPERS.md")
            continue
        for dirpath, _, files in os.walk(os.path.join(sim, folder)):
            for name in sorted(files):
                if not name.endswith(SOURCE_SUFFIXES):
                    continue
                path = os.path.join(dirpath, name)
                rel = os.path.relpath(path, root).replace(os.sep, "/")
                with open(path, encoding="utf-8") as f:
                    text = f.read()
                for match in INCLUDE.finditer(text):
                    header, target = match.group(1), match.group(2)
                    if target == folder:
                        continue
                    line = text.count("\n", 0, match.start()) + 1
                    if target not in rank:
                        problems.append(f"{rel}:{line}: includes {header}, whose folder "
                                        f"sim/{target}/ is not in the layer order")
                    elif rank[target] >= rank[folder]:
                        if (rel, header) in allowed:
                            used_exceptions.add((rel, header))
                            continue
                        where = "the same layer as" if rank[target] == rank[folder] else "above"
                        problems.append(f"{rel}:{line}: includes {header}: sim/{target}/ is "
                                        f"{where} sim/{folder}/ in the layer order "
                                        f"(DEVELOPERS.md)")
    for rel, header in sorted(set(allowed) - used_exceptions):
        problems.append(f"{rel} no longer includes {header}: remove the exception from "
                        f"tests/scripts/check-sim-layers.py")
    return problems


def self_test():
    """Builds small trees and checks that each kind of violation is reported."""
    layers = "<!-- BEGIN LAYERS -->\n```\ncore\nscenario  the document\nnet host\nrunner\n```\n" \
             "<!-- END LAYERS -->\n"
    cases = [
        ("clean", {"sim/net/a.cc": '#include "sim/core/x.h"\n#include "sim/net/b.h"\n'}, {}, []),
        ("upward", {"sim/net/a.cc": '#include "sim/runner/world.h"\n'}, {},
         ["sim/net/a.cc:1: includes sim/runner/world.h: sim/runner/ is above sim/net/"]),
        ("same layer", {"sim/host/a.h": '\n#  include "sim/net/frame.h"\n'}, {},
         ["sim/host/a.h:2: includes sim/net/frame.h: sim/net/ is the same layer as sim/host/"]),
        ("unlisted folder", {"sim/extra/a.cc": "", "sim/core/b.cc": '#include "sim/extra/a.h"\n'},
         {}, ["sim/extra/ is not in the layer order",
              "sim/core/b.cc:1: includes sim/extra/a.h, whose folder sim/extra/ is not"]),
        ("allowed", {"sim/core/a.cc": '#include "sim/runner/p.h"\n'},
         {("sim/core/a.cc", "sim/runner/p.h"): "why"}, []),
        ("stale exception", {"sim/core/a.cc": ""},
         {("sim/core/a.cc", "sim/runner/p.h"): "why"},
         ["sim/core/a.cc no longer includes sim/runner/p.h"]),
    ]
    failed = False
    for name, files, allowed, expected in cases:
        with tempfile.TemporaryDirectory() as root:
            for folder in ("core", "scenario", "net", "host", "runner"):
                os.makedirs(os.path.join(root, "sim", folder))
            for rel, text in files.items():
                os.makedirs(os.path.dirname(os.path.join(root, rel)), exist_ok=True)
                with open(os.path.join(root, rel), "w", encoding="utf-8") as f:
                    f.write(text)
            with open(os.path.join(root, "DEVELOPERS.md"), "w", encoding="utf-8") as f:
                f.write(layers)
            problems = check(root, os.path.join(root, "DEVELOPERS.md"), allowed)
        missing = [e for e in expected if not any(p.startswith(e) for p in problems)]
        if missing or len(problems) != len(expected):
            failed = True
            print(f"self-test {name}: expected {expected}, got {problems}")
    if failed:
        return 1
    print(f"self-test: {len(cases)} cases ok")
    return 0


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[-2], file=sys.stderr)
        return 2
    root = sys.argv[1]
    problems = check(root, os.path.join(root, "DEVELOPERS.md"), ALLOWED)
    for problem in problems:
        print(problem)
    if problems:
        print(f"{len(problems)} layering problem(s) in sim/")
        return 1
    print("sim/ includes follow the layer order")
    return 0


if __name__ == "__main__":
    sys.exit(main())
