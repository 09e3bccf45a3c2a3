#!/usr/bin/python3
"""Runs the examples of Markdown documents and checks that they print what the documents show.

    check-doc-examples.py INCSIM SOURCE_DIR DOC.md...

In a document, a fenced block right after the line `<!-- file: NAME -->` is written to NAME in
a scratch directory, and a fenced block right after `<!-- run -->` holds commands: each line
starting with `$ ` is run there, and the lines up to the next command are what it must print
(stdout and stderr together, on a pseudo-terminal so that they interleave as for a user). In the
scratch directory `incsim` is the built binary, and p4/, tests/ and scenarios/ are the source
tree's. A document without examples fails: it would test nothing.
"""

import difflib
import os
import pty
import re
import subprocess
import sys
import tempfile

MARKER = re.compile(r"^<!-- (file: (?P<name>\S+)|run) -->$")


def blocks(text):
    """(kind, name, body) for every fenced block that follows a marker."""
    lines = text.split("\n")
    found = []
    i = 0
    while i < len(lines):
        match = MARKER.match(lines[i].strip())
        if not match:
            i += 1
            continue
        if i + 1 >= len(lines) or not lines[i + 1].startswith("```"):
            raise SystemExit(f"line {i + 1}: a marker must be followed by a fenced block")
        end = i + 2
        while end < len(lines) and not lines[end].startswith("```"):
            end += 1
        body = "\n".join(lines[i + 2:end]) + "\n"
        found.append(("file" if match.group("name") else "run", match.group("name"), body, i + 1))
        i = end + 1
    return found


def commands(body):
    """(command, expected output) pairs of a run block."""
    pairs = []
    for line in body.rstrip("\n").split("\n"):
        if line.startswith("$ "):
            pairs.append([line[2:], []])
        elif pairs:
            pairs[-1][1].append(line)
        else:
            raise SystemExit(f"output before any command: {line!r}")
    return [(command, "\n".join(output).rstrip()) for command, output in pairs]


def run_on_terminal(command, cwd, env):
    """What `command` prints on a terminal: stdout and stderr interleaved, line-buffered."""
    master, slave = pty.openpty()
    process = subprocess.Popen(["bash", "-c", command], cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                               stdout=slave, stderr=slave)
    os.close(slave)
    output = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: the terminal closed
            break
        if not chunk:
            break
        output += chunk
    os.close(master)
    process.wait()
    return output.decode().replace("\r\n", "\n").rstrip()


def check(doc, incsim, source, scratch):
    examples = blocks(open(doc).read())
    if not examples:
        print(f"{doc}: no examples")
        return False
    for name in ("p4", "tests", "scenarios"):
        os.symlink(os.path.join(source, name), os.path.join(scratch, name))
    env = dict(os.environ, PATH=os.path.dirname(incsim) + os.pathsep + os.environ["PATH"])
    ok = True
    ran = 0
    for kind, name, body, line in examples:
        if kind == "file":
            with open(os.path.join(scratch, name), "w") as out:
                out.write(body)
            continue
        for command, expected in commands(body):
            ran += 1
            got = "\n".join(l.rstrip() for l in run_on_terminal(command, scratch, env).split("\n"))
            if got != expected:
                ok = False
                print(f"{doc}:{line}: $ {command}")
                sys.stdout.writelines(difflib.unified_diff(
                    (expected + "\n").splitlines(True), (got + "\n").splitlines(True),
                    "documented", "printed"))
    print(f"{doc}: {ran} command(s) {'as documented' if ok else 'DIFFER'}")
    return ok and ran > 0


def main():
    incsim, source, docs = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2]), sys.argv[3:]
    ok = True
    for doc in docs:
        with tempfile.TemporaryDirectory(prefix="incsim-doc-") as scratch:
            ok = check(os.path.join(source, doc), incsim, source, scratch) and ok
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
