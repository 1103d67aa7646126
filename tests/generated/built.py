"""Values built here, from a seeded generator, for Rust to read: each line
`kind hex json`, the bytes the generated writer gives and the value meant,
in the JSON form serde_json reads for the same Rust type
(tests/tests/codegen/cross.rs compares the two)."""

import dataclasses
import datetime
import enum
import json
import random
from typing import Any, Callable, TypeVar

from golden import everything
from golden import profile_v2 as v2

T = TypeVar("T")

EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)
FIRST, LAST = -62_135_596_800, 253_402_300_799


class Values:
    def __init__(self, seed: int) -> None:
        self.random = random.Random(seed)

    def integer(self, low: int, high: int) -> int:
        return self.random.randint(low, high)

    def coin(self) -> bool:
        return self.random.random() < 0.5

    def pick(self, items: list[T]) -> T:
        return self.random.choice(items)

    def ranged(self, low: int, high: int) -> int:
        """Edges half the time, else anywhere in the range."""
        if self.coin():
            return self.pick([x for x in (low, high, 0, 1, -1) if low <= x <= high])
        return self.integer(low, high)

    def u64(self) -> int:
        return self.ranged(0, 2**64 - 1)

    def i64(self) -> int:
        return self.ranged(-(2**63), 2**63 - 1)

    def i32(self) -> int:
        return self.ranged(-(2**31), 2**31 - 1)

    def short_float(self) -> float:
        """A float with a short decimal form (m / 2^k), which any JSON
        reader reads back exactly, and exact in an f32 too."""
        return self.integer(-(2**20), 2**20) / float(2 ** self.integer(0, 6)) + 0.0

    def text(self) -> str:
        return "".join(self.pick(list("abz09 \u00e9\u4e16\uff21\U0001f600")) for _ in range(self.integer(0, 12)))

    def many(self, most: int, item: Callable[[], T]) -> list[T]:
        return [item() for _ in range(self.integer(0, most))]

    def optional(self, item: Callable[[], T]) -> T | None:
        return item() if self.coin() else None

    def simple(self, depth: int = 2) -> Any:
        """What reads back the same from MessagePack and from JSON: no
        float 32 (JSON has no width), bytes or nil, maps keyed by strings
        (in order)."""
        kind = self.integer(0, 6 if depth > 0 else 4)
        if kind == 0:
            return self.coin()
        if kind == 1:
            return self.ranged(-(2**31), 2**31)
        if kind == 2:
            return self.u64()
        if kind == 3:
            return self.text()
        if kind == 4:
            # A float 64, integral ones and -0.0 too.
            return self.pick([self.short_float(), 2.0, -0.0])
        if kind == 5:
            return self.many(3, lambda: self.simple(depth - 1))
        # Keys in code point order: serde_json's map, which the test reads
        # the value meant into, sorts them so.
        keys = sorted({self.text() for _ in range(self.integer(0, 3))})
        return {key: self.simple(depth - 1) for key in keys}

    def unknown(self, low: int, high: int) -> dict[int, Any]:
        return {tag: self.simple() for tag in range(low, high) if self.integer(0, 2) == 0}

    def timestamp(self) -> datetime.datetime:
        moment = EPOCH + datetime.timedelta(
            seconds=self.ranged(FIRST, LAST), microseconds=self.integer(0, 999_999)
        )
        return everything.NanoDatetime.of(moment, self.integer(0, 999)) if self.coin() else moment

    def node(self, depth: int) -> everything.Node:
        children = self.many(2, lambda: self.node(depth - 1)) if depth > 0 else []
        return everything.Node(value=self.i32(), children=children)

    def figure(self) -> everything.Figure:
        kind = self.integer(0, 3)
        if kind == 0:
            return everything.FigureCircle(value=self.short_float())
        if kind == 1:
            return everything.FigureRect(value=(self.short_float(), self.short_float()))
        if kind == 2:
            return everything.FigurePolygon(sides=self.ranged(0, 255), label=self.optional(self.text))
        return everything.FigureEmpty()

    def everything(self) -> everything.Everything:
        return everything.Everything(
            id=self.u64(),
            delta=self.i64(),
            name=self.text(),
            displayName=self.optional(self.text),
            retries=self.ranged(0, 255),
            level=self.pick([7, self.i32()]),
            ratio=self.short_float(),
            flags=self.many(4, self.coin),
            scores={self.text(): self.i64() for _ in range(self.integer(0, 3))},
            by_id={self.ranged(0, 2**32 - 1): self.text() for _ in range(self.integer(0, 3))},
            blob=bytes(self.many(16, lambda: self.integer(0, 255))),
            at=self.timestamp(),
            status=self.pick(list(everything.Status)),
            figure=self.figure(),
            point=everything.Point(
                x=self.i32(),
                y=self.i32(),
                z=self.optional(self.i32),
                ping=everything.Ping(),
                note=self.optional(self.simple),
                hint=self.optional(self.i32),
                cap=self.pick([5, self.i32()]),
                unknown_fields=self.unknown(4, 8),
            ),
            tree=self.optional(lambda: self.node(2)),
            pair=(self.ranged(-32768, 32767), self.text()),
            extra=self.simple(),
            labels=self.many(3, self.text),
            # serde_json has no form for a map keyed by arrays: Rust's
            # values carry those to the relays.
            grid={},
            paths={},
            gaps=self.many(4, lambda: None if self.coin() else self.i32()),
            levels=self.many(3, lambda: self.pick(list(everything.Level))),
            nothing=everything.Nothing(),
            coord=everything.Coord(_0=self.i32(), _1=self.i32()),
            ping=everything.Ping(),
            weight=self.short_float(),
            code=self.pick([0x0300, self.ranged(0, 65535)]),
            entry=everything.Entry(key=self.text()),
            far=self.optional(lambda: self.ranged(-128, 127)),
            unknown_fields=self.unknown(40, 45),
        )

    def profile(self) -> v2.Profile:
        return v2.Profile(
            id=self.u64(),
            name=self.text(),
            email=self.optional(self.text),
            visits=self.ranged(0, 2**32 - 1),
            unknown_fields=self.unknown(10, 14),
        )


def meant(value: Any) -> Any:
    """`value` in serde_json's form of the Rust type: maps as objects keyed
    by the keys' digits, bytes as arrays, timestamps as their extension,
    data variants by name, unknown fields under their tags."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, bytes):
        return list(value)
    if isinstance(value, datetime.datetime):
        return [-1, list(everything._w_timestamp(value, "at").to_bytes())]
    if isinstance(value, enum.Enum):
        return value.name
    if isinstance(value, (list, tuple)):
        return [meant(v) for v in value]
    if isinstance(value, dict):
        return {str(k): meant(v) for k, v in value.items()}
    if isinstance(value, everything.Ping):
        return None
    if isinstance(value, everything.Figure):
        variant = type(value).__name__.removeprefix("Figure")
        if isinstance(value, everything.FigureEmpty):
            return variant
        if isinstance(value, everything.FigurePolygon):
            return {variant: meant_fields(value)}
        return {variant: meant(getattr(value, "value"))}
    return meant_fields(value)


def meant_fields(value: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for member in dataclasses.fields(value):
        item = getattr(value, member.name)
        if member.name == "unknown_fields":
            out.update(meant(item))
        elif item is not None or member.default is not None:
            # Nil is left out only where the field is an `Option` (whose
            # default is None). A tuple struct's `_0` is its field `0`.
            out[member.name.removeprefix("_")] = meant(item)
    return out


def built(count: int, seed: int) -> list[str]:
    """`count` values of each kind, from `seed`."""
    values = Values(seed)
    lines = []
    for _ in range(count):
        value = values.everything()
        data = everything.packb(value.to_msgpack()).hex()
        lines.append(f"built_everything {data} {dumps(meant(value))}")
    for _ in range(count):
        profile = values.profile()
        data = v2.packb(profile.to_msgpack()).hex()
        lines.append(f"built_profile {data} {dumps(meant(profile))}")
    return lines


def dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
