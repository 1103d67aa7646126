from __future__ import annotations

import datetime as _dt
import enum
import struct
from dataclasses import dataclass, field
from typing import Any, Callable, TypeVar

import msgpack  # type: ignore[import-untyped]

T = TypeVar("T")
K = TypeVar("K")
V = TypeVar("V")

Reader = Callable[[Any, str], T]
Writer = Callable[[T, str], Any]


def unpackb(data: bytes) -> Any:
    """Reads bytes as `from_msgpack` expects them: integer map keys allowed,
    arrays as tuples (so that an array can be a map key), timestamps as
    `msgpack.Timestamp` (nanoseconds kept)."""
    return msgpack.unpackb(data, strict_map_key=False, use_list=False)


class F32(float):
    """A float that `packb` writes as float 32, as Rust writes an `f32`."""


def packb(obj: Any) -> bytes:
    """Writes what `to_msgpack` returns, as Rust writes it: as
    `msgpack.packb` does, except an `F32` as float 32."""
    out = bytearray()
    _pack(obj, out, msgpack.Packer())
    return bytes(out)


def _pack(obj: Any, out: bytearray, packer: Any) -> None:
    if isinstance(obj, F32):
        out += struct.pack(">Bf", 0xCA, obj)
    elif isinstance(obj, dict):
        out += _header(len(obj), 0x80, 0xDE)
        for key, value in obj.items():
            _pack(key, out, packer)
            _pack(value, out, packer)
    elif isinstance(obj, (list, tuple)):
        out += _header(len(obj), 0x90, 0xDC)
        for value in obj:
            _pack(value, out, packer)
    else:
        out += packer.pack(obj)


def _header(length: int, fix: int, wide: int) -> bytes:
    if length < 16:
        return bytes([fix | length])
    if length < 0x10000:
        return struct.pack(">BH", wide, length)
    return struct.pack(">BI", wide + 1, length)


_EPOCH = _dt.datetime(1970, 1, 1, tzinfo=_dt.timezone.utc)


class NanoDatetime(_dt.datetime):
    """A `datetime` that keeps the nanoseconds of a MessagePack timestamp
    past its microseconds (`nanosecond`, 0 to 999), so that it writes back
    exactly: what the readers give for a timestamp, in UTC. It compares
    and hashes with its nanoseconds; arithmetic gives microseconds, as
    `timedelta` holds no more. A timestamp field takes any `datetime`
    with a timezone (a plain one has `nanosecond` 0)."""

    nanosecond: int

    def __new__(cls, *args: Any, nanosecond: int = 0, **kwargs: Any) -> NanoDatetime:
        if not 0 <= nanosecond <= 999:
            raise ValueError(f"nanosecond must be in 0..999, not {nanosecond}")
        self = super().__new__(cls, *args, **kwargs)
        self.nanosecond = nanosecond
        return self

    @staticmethod
    def of(moment: _dt.datetime, nanosecond: int = 0) -> NanoDatetime:
        """`moment` with `nanosecond` nanoseconds past its microseconds."""
        return NanoDatetime(
            moment.year, moment.month, moment.day, moment.hour, moment.minute, moment.second,
            moment.microsecond, moment.tzinfo, fold=moment.fold, nanosecond=nanosecond,
        )

    def _order(self, other: object) -> int | None:
        if not isinstance(other, _dt.datetime):
            return None
        if _dt.datetime.__eq__(self, other):
            theirs = other.nanosecond if isinstance(other, NanoDatetime) else 0
            return (self.nanosecond > theirs) - (self.nanosecond < theirs)
        return -1 if _dt.datetime.__lt__(self, other) else 1

    def __eq__(self, other: object) -> bool:
        order = self._order(other)
        return NotImplemented if order is None else order == 0

    def __ne__(self, other: object) -> bool:
        order = self._order(other)
        return NotImplemented if order is None else order != 0

    def __lt__(self, other: _dt.date) -> bool:
        order = self._order(other)
        return NotImplemented if order is None else order < 0

    def __le__(self, other: _dt.date) -> bool:
        order = self._order(other)
        return NotImplemented if order is None else order <= 0

    def __gt__(self, other: _dt.date) -> bool:
        order = self._order(other)
        return NotImplemented if order is None else order > 0

    def __ge__(self, other: _dt.date) -> bool:
        order = self._order(other)
        return NotImplemented if order is None else order >= 0

    def __hash__(self) -> int:
        base = _dt.datetime.__hash__(self)
        return base if self.nanosecond == 0 else hash((base, self.nanosecond))

    def __repr__(self) -> str:
        return f"{_dt.datetime.__repr__(self)[:-1]}, nanosecond={self.nanosecond})"

    def __copy__(self) -> NanoDatetime:
        return self

    def __deepcopy__(self, memo: Any) -> NanoDatetime:
        return self

    def __reduce_ex__(self, protocol: Any) -> Any:
        return (NanoDatetime.of, (_dt.datetime.fromisoformat(self.isoformat()), self.nanosecond))


def _fail(at: str, expected: str, value: Any) -> Any:
    raise ValueError(f"{at}: expected {expected}, found {type(value).__name__}")


def _int(value: Any, at: str) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    return _fail(at, "an integer", value)  # type: ignore[no-any-return]


def _ranged(name: str, low: int, high: int) -> Reader[int]:
    """Reads, and checks before writing, an integer of `name`'s range."""

    def check(value: Any, at: str) -> int:
        number = _int(value, at)
        if not low <= number <= high:
            raise ValueError(f"{at}: {number} is out of range for {name}")
        return number

    return check


_u8 = _ranged("u8", 0, 0xFF)
_u16 = _ranged("u16", 0, 0xFFFF)
_u32 = _ranged("u32", 0, 0xFFFF_FFFF)
_u64 = _ranged("u64", 0, 0xFFFF_FFFF_FFFF_FFFF)
_i8 = _ranged("i8", -0x80, 0x7F)
_i16 = _ranged("i16", -0x8000, 0x7FFF)
_i32 = _ranged("i32", -0x8000_0000, 0x7FFF_FFFF)
_i64 = _ranged("i64", -0x8000_0000_0000_0000, 0x7FFF_FFFF_FFFF_FFFF)
_any_int = _ranged("MessagePack", -0x8000_0000_0000_0000, 0xFFFF_FFFF_FFFF_FFFF)


def _float(value: Any, at: str) -> float:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    return _fail(at, "a float", value)  # type: ignore[no-any-return]


def _bool(value: Any, at: str) -> bool:
    if isinstance(value, bool):
        return value
    return _fail(at, "a bool", value)  # type: ignore[no-any-return]


def _str(value: Any, at: str) -> str:
    if isinstance(value, str):
        return value
    return _fail(at, "a string", value)  # type: ignore[no-any-return]


def _bytes(value: Any, at: str) -> bytes:
    if isinstance(value, bytes):
        return value
    return _fail(at, "bytes", value)  # type: ignore[no-any-return]


def _timestamp(value: Any, at: str) -> _dt.datetime:
    if not isinstance(value, msgpack.Timestamp):
        return _fail(at, "a timestamp", value)  # type: ignore[no-any-return]
    seconds, nanoseconds = value.seconds, value.nanoseconds
    try:
        moment = _EPOCH + _dt.timedelta(seconds=seconds, microseconds=nanoseconds // 1000)
    except OverflowError:
        raise ValueError(f"{at}: timestamp {seconds} s is out of range for datetime (years 1 to 9999)") from None
    return NanoDatetime.of(moment, nanoseconds % 1000)


def _w_timestamp(value: Any, at: str) -> msgpack.Timestamp:
    if not isinstance(value, _dt.datetime):
        return _fail(at, "a datetime", value)
    if value.utcoffset() is None:
        raise ValueError(f"{at}: a datetime without a timezone is no point in time (give it tzinfo)")
    delta = value - _EPOCH
    nanoseconds = delta.microseconds * 1000 + (value.nanosecond if isinstance(value, NanoDatetime) else 0)
    return msgpack.Timestamp(delta.days * 86400 + delta.seconds, nanoseconds)


def _any(value: Any, at: str) -> Any:
    return value


def _list(item: Reader[T]) -> Reader[list[T]]:
    def read(value: Any, at: str) -> list[T]:
        if not isinstance(value, (list, tuple)):
            return _fail(at, "an array", value)  # type: ignore[no-any-return]
        return [item(v, f"{at}[{i}]") for i, v in enumerate(value)]

    return read


def _optional(inner: Reader[T]) -> Reader[T | None]:
    def read(value: Any, at: str) -> T | None:
        return None if value is None else inner(value, at)

    return read


def _dict(key: Reader[K], val: Reader[V]) -> Reader[dict[K, V]]:
    def read(value: Any, at: str) -> dict[K, V]:
        if not isinstance(value, dict):
            return _fail(at, "a map", value)  # type: ignore[no-any-return]
        return {key(k, f"{at} key"): val(v, f"{at}[{k!r}]") for k, v in value.items()}

    return read


def _tuple(*items: Reader[Any]) -> Reader[tuple[Any, ...]]:
    def read(value: Any, at: str) -> tuple[Any, ...]:
        if not isinstance(value, (list, tuple)) or len(value) != len(items):
            return _fail(at, f"an array of {len(items)}", value)  # type: ignore[no-any-return]
        return tuple(item(v, f"{at}[{i}]") for i, (item, v) in enumerate(zip(items, value)))

    return read


def _fields(value: Any, at: str, array: bool) -> dict[int, Any]:
    """A struct's fields by tag, from a map or, for a tag-indexed array, an
    array (where nil marks a gap)."""
    if array and isinstance(value, (list, tuple)):
        return {i: v for i, v in enumerate(value) if v is not None}
    if not isinstance(value, dict):
        return _fail(at, "an array or a map" if array else "a map", value)  # type: ignore[no-any-return]
    for tag in value:
        if not isinstance(tag, int) or isinstance(tag, bool):
            raise ValueError(f"{at}: key {tag!r} is not a tag")
    return dict(value)


def _required(fields: dict[int, Any], tag: int, name: str, read: Reader[T], at: str) -> T:
    if tag not in fields:
        raise ValueError(f"{at}: missing field `{name}` (tag {tag})")
    return read(fields[tag], f"{at}.{name}")


def _optional_field(fields: dict[int, Any], tag: int, read: Reader[T], at: str) -> T | None:
    value = fields.get(tag)
    return None if value is None else read(value, at)


def _defaulted(fields: dict[int, Any], tag: int, read: Reader[T], at: str, fallback: Callable[[], T]) -> T:
    return read(fields[tag], at) if tag in fields else fallback()


def _unknown(fields: dict[int, Any], known: tuple[int, ...]) -> dict[int, Any]:
    return {tag: value for tag, value in sorted(fields.items()) if tag not in known}


def _w(value: Any, at: str) -> Any:
    return value


def _w_f32(value: Any, at: str) -> F32:
    number = _float(value, at)
    try:
        struct.pack(">f", number)
    except OverflowError:
        raise ValueError(f"{at}: {number} is out of range for f32") from None
    return F32(number)


def _w_list(item: Writer[T]) -> Writer[list[T]]:
    def write(value: list[T], at: str) -> Any:
        if not isinstance(value, (list, tuple)):
            return _fail(at, "a list", value)
        return [item(v, f"{at}[{i}]") for i, v in enumerate(value)]

    return write


def _w_optional(inner: Writer[T]) -> Writer[T | None]:
    return lambda value, at: None if value is None else inner(value, at)


def _w_tuple(*items: Writer[Any]) -> Writer[tuple[Any, ...]]:
    def write(value: tuple[Any, ...], at: str) -> Any:
        if not isinstance(value, (list, tuple)) or len(value) != len(items):
            return _fail(at, f"a tuple of {len(items)}", value)
        # A tuple, not a list: it may be a map key.
        return tuple(item(v, f"{at}[{i}]") for i, (item, v) in enumerate(zip(items, value)))

    return write


def _w_dict(key: Writer[K], val: Writer[V], ordered: bool) -> Writer[dict[K, V]]:
    """Writes a dict's entries in key order when `ordered` (as Rust's
    `BTreeMap` writes them), else in the dict's order."""

    def write(value: dict[K, V], at: str) -> Any:
        if not isinstance(value, dict):
            return _fail(at, "a dict", value)
        items = sorted(value.items(), key=lambda item: item[0]) if ordered else value.items()  # type: ignore[arg-type, return-value]
        return {key(k, f"{at} key"): val(v, f"{at}[{k!r}]") for k, v in items}

    return write


def _w_named(cls: type[Any]) -> Writer[Any]:
    def write(value: Any, at: str) -> Any:
        if not isinstance(value, cls):
            return _fail(at, cls.__name__, value)
        return value.to_msgpack(at)

    return write


def _no_default(at: str, name: str, tag: int) -> Any:
    raise ValueError(f"{at}: missing field `{name}` (tag {tag}), whose default the schema does not have")


def _struct(
    entries: list[tuple[int, Any]], unknown: dict[int, Any], array: bool, known: tuple[int, ...], at: str
) -> Any:
    """A struct's entries (in field order) and its unknown fields (in tag
    order after them), as a map or, when `array`, a tag-indexed array with
    nil in the gaps."""
    for tag in unknown:
        # Written back, it would repeat a key.
        if tag in known:
            raise ValueError(f"{at}: unknown field with tag {tag}, the tag of a known field")
    every = entries + sorted(unknown.items())
    if not array:
        return dict(every)
    by_tag = dict(every)
    length = max(by_tag) + 1 if by_tag else 0
    return [by_tag.get(i) for i in range(length)]


def _from_hex(hex: str) -> Any:
    return unpackb(bytes.fromhex(hex))


def _variant(value: Any, at: str, enum_name: str) -> tuple[int, Any]:
    """An enum's variant tag and payload: a unit variant is its tag, any
    other a map of one entry from tag to payload."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value, None
    if isinstance(value, dict) and len(value) == 1:
        ((tag, payload),) = value.items()
        if isinstance(tag, int) and not isinstance(tag, bool):
            return tag, payload
    return _fail(at, f"a variant of {enum_name}", value)  # type: ignore[no-any-return]

