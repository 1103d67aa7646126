"""Reads the values Rust wrote with the generated readers and writes them
back; then writes values built here (built.py). Run by
tests/tests/codegen/cross.rs: python3 relay.py IN OUT COUNT SEED, each line
of IN and OUT `kind hex` (or, for a value that fails, `kind !message`)."""

import copy
import datetime
import pickle
import sys
from typing import Callable

import msgpack  # type: ignore[import-untyped]

from built import built
from golden import everything
from golden import profile_v1 as v1
from golden import profile_v2 as v2


def relay_v1(data: bytes) -> bytes:
    return v1.packb(v1.Profile.from_msgpack(v1.unpackb(data)).to_msgpack())


def relay_v2(data: bytes) -> bytes:
    return v2.packb(v2.Profile.from_msgpack(v2.unpackb(data)).to_msgpack())


def relay_everything(data: bytes) -> bytes:
    value = everything.Everything.from_msgpack(everything.unpackb(data))
    return everything.packb(value.to_msgpack())


def relay_status(data: bytes) -> bytes:
    return everything.packb(everything.Status.from_msgpack(everything.unpackb(data)).to_msgpack())


def relay_figure(data: bytes) -> bytes:
    return everything.packb(everything.Figure.from_msgpack(everything.unpackb(data)).to_msgpack())


def relay_level(data: bytes) -> bytes:
    return everything.packb(everything.Level.from_msgpack(everything.unpackb(data)).to_msgpack())


RELAYS: dict[str, Callable[[bytes], bytes]] = {
    "everything": relay_everything,
    "v1": relay_v1,
    "v2": relay_v2,
    "v2_by_v1": relay_v1,
    "v1_by_v2": relay_v2,
    "status": relay_status,
    "figure": relay_figure,
    "plain_v1": relay_v1,
    "error_v1": relay_v1,
    "error_range": relay_figure,
    "error_time": relay_everything,
    "error_level": relay_level,
    "error_figure": relay_figure,
}


def check_prelude() -> None:
    """What the relays do not show of the prelude: `NanoDatetime` compares,
    hashes, orders, copies and pickles with its nanoseconds."""
    utc = datetime.timezone.utc
    base = datetime.datetime(2024, 5, 6, 7, 8, 9, 123456, tzinfo=utc)
    one, two = everything.NanoDatetime.of(base, 1), everything.NanoDatetime.of(base, 2)
    assert one != two and one < two and two > one and one <= two and not two <= one
    assert everything.NanoDatetime.of(base) == base and hash(everything.NanoDatetime.of(base)) == hash(base)
    assert base < one and one > base and base != one
    assert len({one, two, everything.NanoDatetime.of(base, 1)}) == 2
    assert pickle.loads(pickle.dumps(two)) == two and copy.deepcopy(two) == two
    assert repr(two).endswith(", nanosecond=2)"), repr(two)
    assert everything._w_timestamp(two, "at") == msgpack.Timestamp(1714979289, 123456002)
    assert everything.packb(everything.F32(1.5)) == b"\xca\x3f\xc0\x00\x00"


def main() -> None:
    check_prelude()
    source, target, count, seed = sys.argv[1:5]
    lines = []
    with open(source) as file:
        for line in file.read().splitlines():
            if line:
                kind, data = line.split(" ")
                try:
                    lines.append(f"{kind} {RELAYS[kind](bytes.fromhex(data)).hex()}")
                except ValueError as error:
                    # Rust checks the message: "!" and the error's text.
                    lines.append(f"{kind} !{error}")
    lines.extend(built(int(count), int(seed)))
    # What the writers refuse, each a line `kind !message`.
    refused: list[tuple[str, Callable[[], bytes]]] = [
        ("built_error_range", lambda: everything.packb(everything.FigurePolygon(sides=300).to_msgpack())),
        (
            "built_error_known",
            lambda: everything.packb(everything.Point(x=1, y=2, unknown_fields={1: "again"}).to_msgpack()),
        ),
    ]
    for kind, write in refused:
        try:
            lines.append(f"{kind} {write().hex()}")
        except ValueError as error:
            lines.append(f"{kind} !{error}")
    with open(target, "w", encoding="utf-8") as file:
        file.write("\n".join(lines) + "\n")


main()
