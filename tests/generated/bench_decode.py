"""How long the module's exact `unpackb` takes against `msgpack.unpackb`, on
the values the cross-language test sends (build/py-in.txt, written by
`cargo test -p msgpack-tests --test codegen`): python3 bench_decode.py"""

import time
from typing import Any, Callable

import msgpack  # type: ignore[import-untyped]

from golden import everything

# Values without floats or extensions: what both decoders read alike.
with open("build/py-in.txt") as file:
    inputs = [bytes.fromhex(line.split()[1]) for line in file if line.startswith("package_everything ")]


def package(data: bytes) -> Any:
    return msgpack.unpackb(data, strict_map_key=False, use_list=False)


def measure(name: str, read: Callable[[bytes], Any]) -> None:
    for data in inputs:
        read(data)
    rounds = 100
    start = time.perf_counter()
    for _ in range(rounds):
        for data in inputs:
            read(data)
    seconds = time.perf_counter() - start
    print(f"{name}: {seconds / rounds / len(inputs) * 1e6:.1f} us a value")


print(f"{len(inputs)} values of Everything, {sum(map(len, inputs)) / len(inputs):.0f} bytes each on average")
measure("msgpack.unpackb", package)
measure("unpackb", everything.unpackb)
measure("Everything.from_msgpack(msgpack.unpackb(data))", lambda data: everything.Everything.from_msgpack(package(data)))
measure("Everything.from_msgpack(unpackb(data))", lambda data: everything.Everything.from_msgpack(everything.unpackb(data)))
