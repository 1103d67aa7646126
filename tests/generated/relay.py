"""Reads the values Rust wrote with the generated readers and writes them
back; then writes values built here (built.py). Run by
tests/tests/codegen/cross.rs: python3 relay.py IN OUT COUNT SEED, each line
of IN and OUT `kind hex` (or, for a value that fails, `kind !message`)."""

import copy
import datetime
import math
import pickle
import sys
from typing import Any, Callable

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


def relay_point(data: bytes) -> bytes:
    return everything.packb(everything.Point.from_msgpack(everything.unpackb(data)).to_msgpack())


def relay_level(data: bytes) -> bytes:
    return everything.packb(everything.Level.from_msgpack(everything.unpackb(data)).to_msgpack())


def package_unpackb(data: bytes) -> Any:
    """The package's own decoder, as the generated readers take its output."""
    return msgpack.unpackb(data, strict_map_key=False, use_list=False)


def relay_package_everything(data: bytes) -> bytes:
    return everything.packb(everything.Everything.from_msgpack(package_unpackb(data)).to_msgpack())


def relay_package_v1(data: bytes) -> bytes:
    return v1.packb(v1.Profile.from_msgpack(package_unpackb(data)).to_msgpack())


def relay_package_v2(data: bytes) -> bytes:
    return v2.packb(v2.Profile.from_msgpack(package_unpackb(data)).to_msgpack())


RELAYS: dict[str, Callable[[bytes], bytes]] = {
    "everything": relay_everything,
    "v1": relay_v1,
    "v2": relay_v2,
    "v2_by_v1": relay_v1,
    "v1_by_v2": relay_v2,
    "by_name": relay_v2,
    "status": relay_status,
    "figure": relay_figure,
    "point": relay_point,
    "package_everything": relay_package_everything,
    "package_v2": relay_package_v2,
    "plain_v1": relay_package_v1,
    "error_v1": relay_v1,
    "error_duplicate": relay_v2,
    "error_range": relay_figure,
    "error_time": relay_everything,
    "error_level": relay_level,
    "error_figure": relay_figure,
    "error_carries": relay_figure,
    "bad_end": relay_everything,
    "bad_trailing": relay_everything,
    "bad_marker": relay_everything,
    "bad_utf8": relay_everything,
    "bad_length": relay_everything,
    "bad_depth": relay_everything,
    "bad_owed": relay_everything,
}


def ext_hook(code: int, data: bytes) -> Any:
    return msgpack.ExtType(code, data) if code >= 0 else everything.ExtBytes(code, data)


def same(exact: Any, theirs: Any) -> bool:
    """Whether what `unpackb` gave is what the package gives but for
    floats 32 (an `F32`) and timestamps not in their shortest form (an
    `ExtBytes`)."""
    if isinstance(exact, everything.F32):
        return type(theirs) is float and (exact == theirs or math.isnan(exact) and math.isnan(theirs))
    if isinstance(exact, everything.ExtBytes) and exact.code == -1 and isinstance(theirs, msgpack.Timestamp):
        return bool(msgpack.Timestamp.from_bytes(exact.data) == theirs)
    if type(exact) is not type(theirs):
        return False
    if isinstance(exact, float):
        return exact == theirs or math.isnan(exact) and math.isnan(theirs)
    if isinstance(exact, tuple):
        return len(exact) == len(theirs) and all(map(same, exact, theirs))
    if isinstance(exact, dict):
        pairs = zip(exact.items(), theirs.items())
        return len(exact) == len(theirs) and all(same(a, b) and same(x, y) for (a, x), (b, y) in pairs)
    return bool(exact == theirs)


def check_decoder(data: bytes, prefixes: bool) -> None:
    """`unpackb` reads what the package reads, but for floats 32 and
    timestamps, and fails at the end of every shorter input with Rust's
    error."""
    try:
        exact = everything.unpackb(data)
    except ValueError:
        return  # the bad_ kinds, whose errors Rust checks
    try:
        theirs = msgpack.unpackb(data, strict_map_key=False, use_list=False, ext_hook=ext_hook)
    except ValueError as error:
        # It refuses an invalid timestamp, which `unpackb` keeps as its bytes.
        assert "timestamp" in str(error) or "nanoseconds" in str(error), error
    else:
        assert same(exact, theirs), f"unpackb and msgpack.unpackb differ on {data.hex()}"
    for end in range(len(data) if prefixes else 0):
        try:
            everything.unpackb(data[:end])
        except ValueError as error:
            assert str(error) == f"unexpected end of input at offset {end}", (data[:end].hex(), error)
        else:
            raise AssertionError(f"{data[:end].hex()} read")


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
    # A signaling NaN keeps its bits, which a Python float would not.
    signaling = bytes.fromhex("ca7f812345")
    assert everything.packb(everything.unpackb(signaling)) == signaling
    assert everything.packb((2.0, -0.0, 2)) == bytes.fromhex("93cb4000000000000000cb800000000000000002")
    # One module's values, written by another's writer.
    moment = everything.NanoDatetime.of(base, 7)
    mixed = (everything.F32(1.5), everything.ExtBytes(-5, b"\x01"), v1._w_timestamp(moment, "at"))
    assert v1.packb(mixed) == bytes.fromhex("93ca3fc00000d4fb01d7ff1d6f281c663881d9"), v1.packb(mixed).hex()
    assert moment == v1.NanoDatetime.of(base, 7) and moment != v1.NanoDatetime.of(base, 8)
    reserved = bytes.fromhex("d4fb01c70cff000000000000000000000001")
    assert everything.packb(everything.unpackb(b"\x92" + reserved)) == b"\x92" + reserved
    # A map with a key Python holds equal to an earlier one is refused,
    # not read as one without it.
    for data, at in [("8201c0c3c0", 3), ("920a8201c0cb3ff0000000000000c0", 5), ("82a161c0a161c0", 4)]:
        try:
            everything.unpackb(bytes.fromhex(data))
        except ValueError as error:
            repeated = f"map key at offset {at} repeats an earlier one (to Python, 1, 1.0 and True are one key)"
            assert str(error) == repeated, (data, error)
        else:
            raise AssertionError(f"{data} read")


def check_array_key_order(data: bytes) -> None:
    """Maps keyed by arrays are read with tuple keys and written in Rust's
    order (`Vec`'s)."""
    value = everything.Everything.from_msgpack(everything.unpackb(data))
    value.paths = {(2,): True, (1, 5): False, (1,): True, (): False}
    again = everything.Everything.from_msgpack(everything.unpackb(everything.packb(value.to_msgpack())))
    assert list(again.paths) == [(), (1,), (1, 5), (2,)], again.paths


def main() -> None:
    check_prelude()
    source, target, count, seed = sys.argv[1:5]
    lines = []
    with open(source) as file:
        for i, line in enumerate(file.read().splitlines()):
            if line:
                kind, data = line.split(" ")
                check_decoder(bytes.fromhex(data), i < 16)
                if i == 0:
                    check_array_key_order(bytes.fromhex(data))
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
            lambda: everything.packb(everything.Point(x=1, y=2, ping=everything.Ping(), note=None, unknown_fields={1: "again"}).to_msgpack()),
        ),
        (
            "built_error_nil",
            lambda: everything.packb(everything.Point(x=1, y=2, ping=everything.Ping(), note=None, cap=None).to_msgpack()),
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
