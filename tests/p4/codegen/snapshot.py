#!/usr/bin/python3
"""Snapshots of the P4 compiler's output, to show that a restructuring changes none of it.

    snapshot.py --p4c build/tools/incsim-p4c/incsim-p4c --out /tmp/before
    ... change the compiler, rebuild ...
    snapshot.py --p4c build/tools/incsim-p4c/incsim-p4c --out /tmp/after --compare /tmp/before

Compiles every program in p4/, tests/p4/programs/, tests/p4/constructs/ and tests/p4/bad/ and,
when the corpus is there (INCSIM_P4C_CORPUS or /work/shared/p4c-corpus), every sample and
error program of p4c's corpus; keeps each program's generated header, source and contract and
its diagnostics. --compare lists every file that differs from an earlier snapshot and exits 1
if any does.
"""

import argparse
import concurrent.futures
import filecmp
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def programs():
    found = []
    for pattern in ["p4/*.p4", "tests/p4/programs/*.p4", "tests/p4/constructs/**/*.p4",
                    "tests/p4/bad/**/*.p4"]:
        found += [(p.relative_to(ROOT), p) for p in sorted(ROOT.glob(pattern))]
    corpus = Path(os.environ.get("INCSIM_P4C_CORPUS", "/work/shared/p4c-corpus"))
    for sub in ["samples", "errors"]:
        found += [(Path("corpus") / sub / p.name, p) for p in sorted((corpus / sub).glob("*.p4"))]
    return found


def snapshot_one(p4c, out, key, path):
    work = out / key.with_suffix("")
    work.mkdir(parents=True, exist_ok=True)
    proc = subprocess.run([str(p4c), str(path), "--name", "program", "--out-dir", str(work),
                           "--source-name", str(key)], cwd=ROOT, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, errors="replace")
    (work / "diagnostics.txt").write_text("exit %d\n%s" % (proc.returncode, proc.stdout))


def compare(before, after):
    differ = []
    for left in sorted(before.rglob("*")):
        if left.is_file():
            right = after / left.relative_to(before)
            if not right.is_file() or not filecmp.cmp(left, right, shallow=False):
                differ.append(left.relative_to(before))
    for right in sorted(after.rglob("*")):
        if right.is_file() and not (before / right.relative_to(after)).is_file():
            differ.append(right.relative_to(after))
    return differ


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--p4c", required=True, type=Path)
    parser.add_argument("--out", required=True, type=Path)
    parser.add_argument("--compare", type=Path)
    parser.add_argument("-j", type=int, default=2)
    args = parser.parse_args()
    p4c = args.p4c.resolve()
    out = args.out.resolve()
    with concurrent.futures.ThreadPoolExecutor(args.j) as pool:
        jobs = [pool.submit(snapshot_one, p4c, out, key, path) for key, path in programs()]
        for job in jobs:
            job.result()
    print("%d programs in %s" % (len(jobs), out))
    if args.compare:
        differ = compare(args.compare.resolve(), out)
        for path in differ:
            print("differs:", path)
        print("%d files differ" % len(differ))
        return 1 if differ else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
