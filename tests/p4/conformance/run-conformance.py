#!/usr/bin/python3
"""incsim's P4 compiler against p4c's v1model corpus (p4/README.md "Conformance").

Every program of the corpus has an ideal outcome: a sample (samples/NAME.p4) is accepted by
the checker, compiled to C++, and passes its STF script if it has one (the generated C++ is
built into a one-program runner with this build's compiler); an error program (errors/NAME.p4)
is rejected for a reason other than an unsupported construct. expectations.txt lists every
program whose outcome is not the ideal one, with the measured outcome and the first error.
The run fails on any difference from that file, in either direction, so an improvement shows
as an edited line (`--update` rewrites the file from a run) and a regression as a failure.
"""

import argparse
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

# Outcomes, from worst to best.
SAMPLE_OUTCOMES = ["crashed", "rejected", "not-compiled", "cxx-failed", "stf-failed",
                   "compiled", "stf-passed"]
ERROR_OUTCOMES = ["crashed", "accepted", "unsupported", "rejected"]
# A rejection that names a construct outside the subset does not test the program's error.
UNSUPPORTED = re.compile(r"is not supported by incsim|is outside incsim's P4 subset")
# Exit codes of incsim and incsim-p4c that are verdicts, not crashes (docs/cli.md).
CLEAN_EXITS = {0, 1, 2}
TIMEOUT_S = 120


NO_MAIN = "instantiates no package 'main'"


def first_error(text, corpus):
    """The first error line of a diagnostic text, with the corpus path made relative."""
    for line in text.splitlines():
        if ": error: " in line or "error:" in line:
            return line.replace(str(corpus) + "/", "").strip()
    lines = [l.strip() for l in text.splitlines() if l.strip()]
    return lines[0].replace(str(corpus) + "/", "") if lines else "(no message)"


def run(cmd, cwd=None):
    try:
        p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True, errors="replace", timeout=TIMEOUT_S)
        return p.returncode, p.stdout + p.stderr
    except subprocess.TimeoutExpired:
        return -1, "timed out after %d s" % TIMEOUT_S


def compile_cpp(config, work):
    """Builds work/conformance.cc into work/runner; (ok, message)."""
    launcher = [config["launcher"]] if config.get("launcher") else []
    includes = ["-I" + d for d in config["include"]] + ["-I" + str(work)]
    obj = work / "conformance.o"
    code, out = run(launcher + [config["cxx"], "-std=c++17", "-O1"] + config["flags"] + includes
                    + ["-c", str(work / "conformance.cc"), "-o", str(obj)])
    if code != 0:
        return False, out
    code, out = run([config["cxx"]] + config["flags"] + [str(obj)] + config["link"]
                    + ["-o", str(work / "runner")])
    return code == 0, out


def measure_sample(config, corpus, workdir, path):
    """(outcome, reason) of one sample."""
    # A sample without `main` (a skeleton that others include) is a library: p4c's front end
    # accepts it, and incsim compiles its declarations (--library).
    library = []
    code, out = run([config["incsim"], "p4", "check", str(path)])
    if code != 0 and NO_MAIN in out:
        library = ["--library"]
        code, out = run([config["incsim"], "p4", "check", str(path)] + library)
    if code not in CLEAN_EXITS:
        return "crashed", "incsim p4 check exit %d: %s" % (code, first_error(out, corpus))
    if code != 0:
        return "rejected", first_error(out, corpus)
    work = workdir / path.stem
    work.mkdir(parents=True, exist_ok=True)
    code, out = run([config["p4c"], str(path), "--name", "conformance", "--out-dir", str(work)]
                    + library)
    if code not in CLEAN_EXITS:
        return "crashed", "incsim-p4c exit %d: %s" % (code, first_error(out, corpus))
    if code != 0:
        return "not-compiled", first_error(out, corpus)
    stf = path.with_suffix(".stf")
    if not stf.exists():
        return "compiled", ""
    ok, out = compile_cpp(config, work)
    if not ok:
        return "cxx-failed", first_error(out, corpus)
    code, out = run([str(work / "runner"), str(stf)], cwd=str(path.parent))
    if code == 0:
        return "stf-passed", ""
    if code not in CLEAN_EXITS:
        return "crashed", "STF runner exit %d: %s" % (code, first_error(out, corpus))
    lines = [l.strip() for l in out.splitlines() if l.strip()]
    return "stf-failed", (lines[0].replace(str(corpus) + "/", "") if lines else "")


def measure_error(config, corpus, workdir, path):
    work = workdir / path.stem
    work.mkdir(parents=True, exist_ok=True)
    code, out = run([config["p4c"], str(path), "--name", "conformance", "--out-dir", str(work)])
    if code not in CLEAN_EXITS:
        return "crashed", "incsim-p4c exit %d: %s" % (code, first_error(out, corpus))
    if code == 0:
        return "accepted", ""
    reason = first_error(out, corpus)
    return ("unsupported" if UNSUPPORTED.search(reason) else "rejected"), reason


def ideal(part, path):
    if part == "errors":
        return "rejected"
    return "stf-passed" if path.with_suffix(".stf").exists() else "compiled"


def read_expectations(path):
    """{"samples/NAME.p4": (outcome, reason)}; raises ValueError on a malformed line."""
    expected = {}
    for number, line in enumerate(Path(path).read_text().splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split(None, 2)
        if len(fields) < 2:
            raise ValueError("%s:%d: expected 'PROGRAM OUTCOME REASON', got %r"
                             % (path, number, line))
        program, outcome = fields[0], fields[1]
        known = ERROR_OUTCOMES if program.startswith("errors/") else SAMPLE_OUTCOMES
        if outcome not in known:
            raise ValueError("%s:%d: outcome %r of %s is not one of %s"
                             % (path, number, outcome, program, ", ".join(known)))
        if program in expected:
            raise ValueError("%s:%d: %s is listed twice" % (path, number, program))
        expected[program] = (outcome, fields[2] if len(fields) > 2 else "")
    return expected


HEADER = """\
# The conformance suite's expectations (p4/README.md "Conformance"): every program of p4c's
# corpus whose outcome is not the ideal one. One line each: PROGRAM OUTCOME REASON, where the
# reason is incsim's first error (or the STF runner's first line). Unlisted programs must reach
# the ideal outcome: a sample compiles and passes its STF (stf-passed, or compiled without an
# STF); an error program is rejected for a reason other than an unsupported construct.
# Sample outcomes, worst first: crashed rejected not-compiled cxx-failed stf-failed.
# Error-program outcomes: crashed accepted unsupported (rejected only for a construct outside
# the subset). Regenerate with run-conformance.py --update after a change that moves a number.
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", required=True, help="p4-conformance.json of the build")
    parser.add_argument("--part", choices=["samples", "errors", "all"], default="all")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only", help="regex: measure only the matching programs")
    parser.add_argument("--update", action="store_true",
                        help="rewrite the expectations for the measured part from this run")
    args = parser.parse_args()

    config = json.loads(Path(args.config).read_text())
    corpus = Path(config["corpus"])
    expectations_path = Path(config["expectations"])
    workdir = Path(args.config).resolve().parent / "p4-conformance-work"
    try:
        expected = read_expectations(expectations_path)
    except (OSError, ValueError) as error:
        print("error: %s" % error, file=sys.stderr)
        return 2
    parts = ["samples", "errors"] if args.part == "all" else [args.part]
    programs = []
    for part in parts:
        for path in sorted((corpus / part).glob("*.p4")):
            name = "%s/%s" % (part, path.name)
            if args.only and not re.search(args.only, name):
                continue
            programs.append((part, name, path))
    for name in sorted(expected):
        part = name.split("/", 1)[0]
        if part in parts and not (corpus / name).exists():
            print("error: %s: %s is not in the corpus %s" % (expectations_path, name, corpus),
                  file=sys.stderr)
            return 2

    start = time.monotonic()

    def measure(item):
        part, name, path = item
        fn = measure_sample if part == "samples" else measure_error
        return fn(config, corpus, workdir / part, path)

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        results = list(pool.map(measure, programs))
    elapsed = time.monotonic() - start

    measured = {name: result for (_, name, _), result in zip(programs, results)}
    changes = []
    for part, name, path in programs:
        outcome, reason = measured[name]
        want = expected.get(name, (ideal(part, path), ""))[0]
        if outcome != want:
            order = ERROR_OUTCOMES if part == "errors" else SAMPLE_OUTCOMES
            better = order.index(outcome) > order.index(want)
            changes.append("%s %s: expected %s, measured %s%s"
                           % ("IMPROVED" if better else "REGRESSED", name, want, outcome,
                              (" (" + reason + ")") if reason else ""))

    for part in parts:
        outcomes = [measured[n][0] for p, n, _ in programs if p == part]
        if not outcomes:
            continue
        total = len(outcomes)
        if part == "samples":
            with_stf = [measured[n][0] for p, n, path in programs
                        if p == part and path.with_suffix(".stf").exists()]
            accepted = sum(o not in ("crashed", "rejected") for o in outcomes)
            compiled = sum(o in ("cxx-failed", "stf-failed", "compiled", "stf-passed")
                           for o in outcomes)
            stf_run = sum(o in ("stf-failed", "stf-passed") for o in with_stf)
            stf_passed = sum(o == "stf-passed" for o in with_stf)
            print("samples: %d programs, %d accepted by the checker, %d compiled to C++, "
                  "STF passed %d of %d run (%d with an STF), %d crashed"
                  % (total, accepted, compiled, stf_passed, stf_run, len(with_stf),
                     outcomes.count("crashed")))
        else:
            print("errors: %d programs, %d rejected for the right reason, %d rejected only "
                  "for an unsupported construct, %d accepted, %d crashed"
                  % (total, outcomes.count("rejected"), outcomes.count("unsupported"),
                     outcomes.count("accepted"), outcomes.count("crashed")))
    print("measured in %.0f s with %d job(s)" % (elapsed, args.jobs))

    if args.update:
        kept = {n: v for n, v in expected.items() if n.split("/", 1)[0] not in parts
                or (args.only and not re.search(args.only, n))}
        for part, name, path in programs:
            outcome, reason = measured[name]
            if outcome != ideal(part, path):
                kept[name] = (outcome, reason)
        with open(expectations_path, "w") as out:
            out.write(HEADER)
            for name in sorted(kept):
                outcome, reason = kept[name]
                out.write(("%s %s %s" % (name, outcome, reason)).rstrip() + "\n")
        print("wrote %s (%d programs listed)" % (expectations_path, len(kept)))
        return 0
    for change in changes:
        print(change)
    if changes:
        print("%d program(s) differ from %s: fix the regression, or record the improvement "
              "(run-conformance.py --update)" % (len(changes), expectations_path))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
