#!/usr/bin/env python3
"""`msgpack encode/decode/validate --lines` against the same conversions in
Python (`json` plus the `msgpack` C extension, installed from PyPI here), on
the logs fixture's records as JSON Lines, repeated to about N MiB.

    python3 benches/cli_vs_python.py            # 256 MiB, best of 3
    python3 benches/cli_vs_python.py --mib 1024 --runs 1

Prints, per operation, the best wall time, the input throughput and the
peak RSS of each side, and the ratio of throughputs (ours / Python's)
against the target of issue 16 (3x for encode and decode, 5x for
validate). Both sides run as child processes, so each RSS is its own.
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time

MSGPACK_VERSION = "1.2.4"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARGETS = {"encode": 3.0, "decode": 3.0, "validate": 5.0}


def python_side(op, src, dst):
    """The Python conversion of `op`, as a user would write it."""
    import json

    import msgpack

    if op == "encode":
        with open(src, "rb") as lines, open(dst, "wb") as out:
            packb = msgpack.packb
            for line in lines:
                out.write(packb(json.loads(line)))
    elif op == "decode":
        with open(src, "rb") as values, open(dst, "w", encoding="utf-8") as out:
            dumps = json.dumps
            for value in msgpack.Unpacker(values, raw=False):
                out.write(dumps(value, separators=(",", ":"), ensure_ascii=False))
                out.write("\n")
    else:
        count = 0
        with open(src, "rb") as values:
            for _ in msgpack.Unpacker(values, raw=False):
                count += 1
        print(f"valid: {count} values")


TIME = "/usr/bin/time"  # GNU time (Debian's `time`): the peak RSS after exec


def run(command):
    """Runs `command`; its wall time in seconds and peak RSS in MiB (NaN
    without GNU time: a forked child's own counter includes the parent's
    pages from before exec)."""
    with tempfile.NamedTemporaryFile("r") as report:
        measured = [TIME, "-f", "%M", "-o", report.name] + command if os.path.exists(TIME) else command
        start = time.perf_counter()
        status = subprocess.call(measured, stdout=subprocess.DEVNULL)
        elapsed = time.perf_counter() - start
        if status != 0:
            sys.exit(f"failed ({status}): {' '.join(command)}")
        text = report.read().strip().splitlines()
        rss = int(text[-1]) / 1024 if text else float("nan")
    return elapsed, rss


def best(command, runs):
    results = [run(command) for _ in range(runs)]
    return min(r[0] for r in results), max(r[1] for r in results)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mib", type=int, default=256)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--python-side", nargs=3, metavar=("OP", "SRC", "DST"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.python_side:
        python_side(*args.python_side)
        return

    try:
        import msgpack  # noqa: F401
    except ImportError:
        subprocess.check_call([sys.executable, "-m", "pip", "install", "--quiet", f"msgpack=={MSGPACK_VERSION}"])
    cargo = ["cargo", "build", "--release", "--quiet"]
    subprocess.check_call(cargo + ["-p", "msgpack-cli"], cwd=ROOT)
    subprocess.check_call(cargo + ["-p", "msgpack-benches", "--example", "logs_jsonl"], cwd=ROOT)
    ours = os.path.join(ROOT, "target", "release", "msgpack")

    with tempfile.TemporaryDirectory() as work:
        jsonl = os.path.join(work, "logs.jsonl")
        packed = os.path.join(work, "logs.msgpack")
        with open(jsonl, "wb") as out:
            subprocess.check_call([os.path.join(ROOT, "target", "release", "examples", "logs_jsonl"), str(args.mib)], stdout=out)
        subprocess.check_call([ours, "encode", "--lines", jsonl, "-o", packed])
        sizes = {"encode": os.path.getsize(jsonl), "decode": os.path.getsize(packed), "validate": os.path.getsize(packed)}
        commands = {
            "encode": ([ours, "encode", "--lines", jsonl, "-o", os.path.join(work, "ours.msgpack")], "encode", jsonl, "py.msgpack"),
            "decode": ([ours, "decode", "--lines", packed, "-o", os.path.join(work, "ours.jsonl")], "decode", packed, "py.jsonl"),
            "validate": ([ours, "validate", "--lines", packed], "validate", packed, "-"),
        }
        print(f"input: {sizes['encode'] / 2**20:.0f} MiB of JSON Lines, {sizes['decode'] / 2**20:.0f} MiB as MessagePack; best of {args.runs}")
        print()
        print("| operation | msgpack | Python | ratio | target |")
        print("|---|---|---|---|---|")
        for op, (command, py_op, src, dst) in commands.items():
            py_command = [sys.executable, os.path.abspath(__file__), "--python-side", py_op, src, os.path.join(work, dst)]
            ours_time, ours_rss = best(command, args.runs)
            py_time, py_rss = best(py_command, args.runs)
            mb = sizes[op] / 1e6
            ratio = py_time / ours_time
            verdict = "met" if ratio >= TARGETS[op] else "NOT met"
            print(
                f"| `{op} --lines` | {ours_time:.2f} s, {mb / ours_time:.0f} MB/s, {ours_rss:.0f} MiB RSS "
                f"| {py_time:.2f} s, {mb / py_time:.0f} MB/s, {py_rss:.0f} MiB RSS | {ratio:.1f}x | {TARGETS[op]:.0f}x {verdict} |"
            )
        same = open(os.path.join(work, "ours.msgpack"), "rb").read() == open(os.path.join(work, "py.msgpack"), "rb").read()
        print()
        print(f"our encode's bytes equal Python's msgpack.packb's: {same}")


if __name__ == "__main__":
    main()
