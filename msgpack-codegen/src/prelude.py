from __future__ import annotations

import datetime as _dt
import enum
import struct
from dataclasses import dataclass
from dataclasses import field as _field
from typing import Any, Callable, ClassVar, TypeVar

import msgpack  # type: ignore[import-untyped]

_T = TypeVar("_T")
_K = TypeVar("_K")
_V = TypeVar("_V")

_Reader = Callable[[Any, str], _T]
_Writer = Callable[[_T, str], Any]


def _kind(value: Any) -> str | None:
    """Which of this prelude's classes `value` is an instance of, made by
    this generated module or by another: each has its own classes, and
    values go from one module's reader to another's writer, which must not
    write them as plain floats or without their nanoseconds."""
    kind: str | None = getattr(type(value), "_msgpack_codegen", None)
    return kind


class F32(float):
    """A float that `packb` writes as float 32, as Rust writes an `f32`:
    what `to_msgpack` gives for an `f32`, and what `unpackb` gives for a
    float 32, whose four bytes it keeps (`wire`: a signaling NaN's too,
    which a Python float turns quiet) to write back as they came."""

    __slots__ = ("wire",)
    wire: bytes
    _msgpack_codegen = "F32"

    def __new__(cls, value: float = 0.0) -> F32:
        self = super().__new__(cls, value)
        self.wire = struct.pack(">f", self)
        return self

    @staticmethod
    def of_wire(wire: bytes) -> F32:
        """The float 32 of these four bytes (big-endian), kept as they are."""
        self = F32(struct.unpack(">f", wire)[0])
        self.wire = wire
        return self


@dataclass(frozen=True)
class ExtBytes:
    """An extension that `msgpack.ExtType` cannot hold (a negative type),
    as `unpackb` gives it: a type MessagePack reserves, or a timestamp that
    would not write back as it came as a `msgpack.Timestamp` (not in its
    shortest form, or invalid). `packb` writes it back as it came."""

    code: int
    data: bytes
    _msgpack_codegen = "ExtBytes"


def packb(obj: Any) -> bytes:
    """Writes what `to_msgpack` returns, as Rust writes it: as
    `msgpack.packb` does, except an `F32` as float 32 and an `ExtBytes` as
    its extension."""
    out = bytearray()
    _pack(obj, out, msgpack.Packer())
    return bytes(out)


def _pack(obj: Any, out: bytearray, packer: Any) -> None:
    kind = _kind(obj)
    if kind == "F32":
        out += b"\xca" + obj.wire
    elif kind == "ExtBytes":
        out += _ext_header(len(obj.data), obj.code) + obj.data
    elif isinstance(obj, dict):
        out += _header(len(obj), 0x80, 0xDE)
        for key, value in obj.items():
            _pack(key, out, packer)
            _pack(value, out, packer)
    elif _is_array(obj):
        out += _header(len(obj), 0x90, 0xDC)
        for value in obj:
            _pack(value, out, packer)
    else:
        out += packer.pack(obj)


def _is_array(value: Any) -> bool:
    """A list or a tuple, but not an extension (a `msgpack.ExtType` is a
    named tuple)."""
    return isinstance(value, (list, tuple)) and not isinstance(value, msgpack.ExtType)


def _header(length: int, fix: int, wide: int) -> bytes:
    if length < 16:
        return bytes([fix | length])
    if length < 0x10000:
        return struct.pack(">BH", wide, length)
    return struct.pack(">BI", wide + 1, length)


def _ext_header(length: int, code: int) -> bytes:
    fixed = {1: 0xD4, 2: 0xD5, 4: 0xD6, 8: 0xD7, 16: 0xD8}.get(length)
    if fixed is not None:
        return struct.pack(">Bb", fixed, code)
    if length < 0x100:
        return struct.pack(">BBb", 0xC7, length, code)
    if length < 0x10000:
        return struct.pack(">BHb", 0xC8, length, code)
    return struct.pack(">BIb", 0xC9, length, code)


_MAX_DEPTH = 128
"""How deep arrays and maps may nest in what `unpackb` reads: as in what
Rust reads by default (`Limits`), which would refuse deeper values."""


def unpackb(data: bytes) -> Any:
    """Reads bytes as `from_msgpack` takes them, so that what it keeps
    without knowing it (`Any` values, unknown fields) writes back byte for
    byte through `packb`, as Rust's `Value` and `UnknownFields` do: what
    `msgpack.unpackb(data, strict_map_key=False, use_list=False)` gives
    (arrays as tuples, so that an array can be a map key; timestamps as
    `msgpack.Timestamp`, nanoseconds kept), except a float 32 as an `F32`
    and a negative extension type `msgpack.Timestamp` would not write back
    as it came as an `ExtBytes`. Errors (`ValueError`) are Rust's, with the
    byte offset: `unexpected end of input at offset 3`, `trailing bytes
    after the value at offset 1`, `invalid UTF-8 in string at offset 0`,
    `reserved marker 0xc1 at offset 0`, `nesting exceeds the depth limit of
    128 at offset 128`; and, where Rust's `Value` would keep both, `map key
    at offset 1 repeats an earlier one` (a key Python holds equal to an
    earlier one, as `True` and `1`) or cannot hash (a map)."""
    reader = _ByteReader(bytes(data))
    value = reader.value(0)
    if reader.pos != len(reader.data):
        raise ValueError(f"trailing bytes after the value at offset {reader.pos}")
    return value


# The header bytes of fixed-size values: (struct format, size).
_FIXED: dict[int, tuple[str, int]] = {
    0xCB: (">d", 8),
    0xCC: (">B", 1),
    0xCD: (">H", 2),
    0xCE: (">I", 4),
    0xCF: (">Q", 8),
    0xD0: (">b", 1),
    0xD1: (">h", 2),
    0xD2: (">i", 4),
    0xD3: (">q", 8),
}

# The headers with a length: (kind, struct format of the length).
_SIZED: dict[int, tuple[str, str]] = {
    0xC4: ("bin", ">B"),
    0xC5: ("bin", ">H"),
    0xC6: ("bin", ">I"),
    0xC7: ("ext", ">B"),
    0xC8: ("ext", ">H"),
    0xC9: ("ext", ">I"),
    0xD9: ("str", ">B"),
    0xDA: ("str", ">H"),
    0xDB: ("str", ">I"),
    0xDC: ("array", ">H"),
    0xDD: ("array", ">I"),
    0xDE: ("map", ">H"),
    0xDF: ("map", ">I"),
}

_CONSTANTS: dict[int, Any] = {0xC0: None, 0xC2: False, 0xC3: True}


class _ByteReader:
    def __init__(self, data: bytes) -> None:
        self.data = data
        self.pos = 0
        # Values still to read, across every open array and map: each takes
        # a byte at least, so together they must fit in what is left, as
        # Rust's `Owed` checks (one container at a time, nested headers
        # could each claim the whole rest, and the error would come later
        # than Rust's).
        self.owed = 1

    def take(self, n: int) -> int:
        """Where the next `n` bytes start, past which it moves."""
        if n > len(self.data) - self.pos:
            raise ValueError(f"unexpected end of input at offset {len(self.data)}")
        self.pos += n
        return self.pos - n

    def unpack(self, fmt: str, n: int) -> Any:
        return struct.unpack_from(fmt, self.data, self.take(n))[0]

    def value(self, depth: int) -> Any:
        at = self.pos
        if at >= len(self.data):
            raise ValueError(f"unexpected end of input at offset {len(self.data)}")
        head = self.data[at]
        self.pos = at + 1
        self.owed -= 1
        if head <= 0x7F:
            return head
        if head >= 0xE0:
            return head - 0x100
        if head <= 0x8F:
            return self.map(head & 0x0F, at, depth)
        if head <= 0x9F:
            return self.array(head & 0x0F, at, depth)
        if head <= 0xBF:
            return self.str(head & 0x1F, at)
        if head in _CONSTANTS:
            return _CONSTANTS[head]
        if head == 0xCA:
            return F32.of_wire(self.data[self.take(4) : self.pos])
        if head in _FIXED:
            return self.unpack(*_FIXED[head])
        if 0xD4 <= head <= 0xD8:
            return self.ext(1 << (head - 0xD4))
        if head in _SIZED:
            kind, fmt = _SIZED[head]
            length = self.unpack(fmt, struct.calcsize(fmt))
            if kind == "bin":
                return self.data[self.take(length) : self.pos]
            if kind == "ext":
                return self.ext(length)
            if kind == "str":
                return self.str(length, at)
            if kind == "array":
                return self.array(length, at, depth)
            return self.map(length, at, depth)
        raise ValueError(f"reserved marker 0xc1 at offset {at}")

    def str(self, length: int, at: int) -> str:
        start = self.take(length)
        try:
            return self.data[start : self.pos].decode("utf-8")
        except UnicodeDecodeError:
            raise ValueError(f"invalid UTF-8 in string at offset {at}") from None

    def ext(self, length: int) -> Any:
        code = self.unpack(">b", 1)
        data = self.data[self.take(length) : self.pos]
        if code >= 0:
            return msgpack.ExtType(code, data)
        if code == -1:
            try:
                stamp = msgpack.Timestamp.from_bytes(data)
                if stamp.to_bytes() == data:
                    return stamp
            except ValueError:
                pass
        return ExtBytes(code, data)

    def enter(self, length: int, at: int, depth: int) -> None:
        """Checks the depth and that the input holds `length` items of a
        byte at least, with those still owed, before anything is made for
        them."""
        if depth >= _MAX_DEPTH:
            raise ValueError(f"nesting exceeds the depth limit of {_MAX_DEPTH} at offset {at}")
        if self.owed + length > len(self.data) - self.pos:
            raise ValueError(f"unexpected end of input at offset {len(self.data)}")
        self.owed += length

    def array(self, length: int, at: int, depth: int) -> tuple[Any, ...]:
        self.enter(length, at, depth)
        items = []
        for _ in range(length):
            items.append(self.value(depth + 1))
        return tuple(items)

    def map(self, length: int, at: int, depth: int) -> dict[Any, Any]:
        """A map, refused when a key repeats one Python holds equal (a
        dict holds one of each, and keeping the last would write back
        another map than came)."""
        self.enter(2 * length, at, depth)
        out: dict[Any, Any] = {}
        for _ in range(length):
            key_at = self.pos
            key = self.value(depth + 1)
            try:
                repeated = key in out
            except TypeError:
                raise ValueError(f"a map key Python cannot hash (a map) at offset {key_at}") from None
            if repeated:
                raise ValueError(f"map key at offset {key_at} repeats an earlier one (to Python, 1, 1.0 and True are one key)")
            out[key] = self.value(depth + 1)
        return out


_EPOCH = _dt.datetime(1970, 1, 1, tzinfo=_dt.timezone.utc)


class NanoDatetime(_dt.datetime):
    """A `datetime` that keeps the nanoseconds of a MessagePack timestamp
    past its microseconds (`nanosecond`, 0 to 999), so that it writes back
    exactly: what the readers give for a timestamp, in UTC. It compares
    and hashes with its nanoseconds; arithmetic gives microseconds, as
    `timedelta` holds no more. A timestamp field takes any `datetime`
    with a timezone (a plain one has `nanosecond` 0)."""

    nanosecond: int
    _msgpack_codegen = "NanoDatetime"

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
            theirs = getattr(other, "nanosecond") if _kind(other) == "NanoDatetime" else 0
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


def _ranged(name: str, low: int, high: int) -> _Reader[int]:
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


def _f32(value: Any, at: str) -> float:
    """A float as Rust's `f32` reads it: rounded to 32 bits, infinite past
    their range."""
    number = _float(value, at)
    try:
        return float(struct.unpack(">f", struct.pack(">f", number))[0])
    except OverflowError:
        return float("inf") if number > 0 else float("-inf")


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
    if _kind(value) == "ExtBytes" and value.code == -1:
        # `unpackb` keeps one not in its shortest form as its bytes.
        try:
            value = msgpack.Timestamp.from_bytes(value.data)
        except ValueError:
            raise ValueError(f"{at}: invalid timestamp") from None
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
    nanoseconds = delta.microseconds * 1000 + (getattr(value, "nanosecond") if _kind(value) == "NanoDatetime" else 0)
    return msgpack.Timestamp(delta.days * 86400 + delta.seconds, nanoseconds)


def _any(value: Any, at: str) -> Any:
    return value


def _list(item: _Reader[_T]) -> _Reader[list[_T]]:
    def read(value: Any, at: str) -> list[_T]:
        if not _is_array(value):
            return _fail(at, "an array", value)  # type: ignore[no-any-return]
        return [item(v, f"{at}[{i}]") for i, v in enumerate(value)]

    return read


def _key_list(item: _Reader[_T]) -> _Reader[tuple[_T, ...]]:
    """An array in a map key: a tuple, which a dict can hash."""

    def read(value: Any, at: str) -> tuple[_T, ...]:
        if not _is_array(value):
            return _fail(at, "an array", value)  # type: ignore[no-any-return]
        return tuple(item(v, f"{at}[{i}]") for i, v in enumerate(value))

    return read


def _optional(inner: _Reader[_T]) -> _Reader[_T | None]:
    def read(value: Any, at: str) -> _T | None:
        return None if value is None else inner(value, at)

    return read


def _dict(key: _Reader[_K], val: _Reader[_V]) -> _Reader[dict[_K, _V]]:
    def read(value: Any, at: str) -> dict[_K, _V]:
        if not isinstance(value, dict):
            return _fail(at, "a map", value)  # type: ignore[no-any-return]
        return {key(k, f"{at} key"): val(v, f"{at}[{k!r}]") for k, v in value.items()}

    return read


def _tuple(*items: _Reader[Any]) -> _Reader[tuple[Any, ...]]:
    def read(value: Any, at: str) -> tuple[Any, ...]:
        if not _is_array(value) or len(value) != len(items):
            return _fail(at, f"an array of {len(items)}", value)  # type: ignore[no-any-return]
        return tuple(item(v, f"{at}[{i}]") for i, (item, v) in enumerate(zip(items, value)))

    return read


_ARRAY_UNKNOWN_GAP = 64
"""How far past its largest field tag a tag-indexed array struct keeps an
unknown field read from a map, as Rust's derive does: written back, a kept
field sits at its tag's position with nil before it."""


def _fields(
    value: Any,
    at: str,
    array: bool,
    known: tuple[int, ...] | None = None,
    nils: tuple[int, ...] = (),
    names: dict[str, int] | None = None,
) -> dict[int, Any]:
    """A struct's fields by tag, from a map or, for a tag-indexed array, an
    array (where nil marks a gap, except at `nils`: the tags of fields
    always written whose type reads nil, where nil is the value). A map's
    keys are tags or, as the derive also reads them, field names (`names`,
    each field's tag by name); a negative integer or another name the
    derive skips, and so does this, and any other key is an error. An array struct that keeps unknown fields (`known`, its tags)
    keeps from a map what Rust keeps: an unknown tag no farther than
    `_ARRAY_UNKNOWN_GAP` past its largest (the entry `0xcf <2^40> 0x01`
    would write back as 2^40 nils), and not nil (a gap in the array it
    writes)."""
    if array and _is_array(value):
        return {i: v for i, v in enumerate(value) if v is not None or i in nils}
    if not isinstance(value, dict):
        return _fail(at, "an array or a map" if array else "a map", value)  # type: ignore[no-any-return]
    fields: dict[int, Any] = {}
    for key, item in value.items():
        if isinstance(key, bytes):
            try:
                key = key.decode()
            except UnicodeDecodeError:
                continue
        if isinstance(key, int) and not isinstance(key, bool):
            if key < 0:
                continue
            tag = key
        elif isinstance(key, str):
            if names is None or key not in names:
                continue
            tag = names[key]
        else:
            raise ValueError(f"{at}: key {key!r} is neither a field number nor a name")
        if tag in fields:
            name = next((n for n, t in (names or {}).items() if t == tag), None)
            which = f"`{name}` (tag {tag})" if name is not None else f"with tag {tag}"
            raise ValueError(f"{at}: duplicate field {which}")
        fields[tag] = item
    if known is None:
        return fields
    last = max(known, default=0)
    return {
        tag: v
        for tag, v in fields.items()
        if tag in known or (v is not None and tag <= last + _ARRAY_UNKNOWN_GAP)
    }


def _required(fields: dict[int, Any], tag: int, name: str, read: _Reader[_T], at: str) -> _T:
    if tag not in fields:
        raise ValueError(f"{at}: missing field `{name}` (tag {tag})")
    return read(fields[tag], f"{at}.{name}")


def _optional_field(fields: dict[int, Any], tag: int, read: _Reader[_T], at: str) -> _T | None:
    value = fields.get(tag)
    return None if value is None else read(value, at)


def _defaulted(fields: dict[int, Any], tag: int, read: _Reader[_T], at: str, fallback: Callable[[], _T]) -> _T:
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


def _w_list(item: _Writer[_T]) -> _Writer[list[_T]]:
    def write(value: list[_T], at: str) -> Any:
        if not _is_array(value):
            return _fail(at, "a list", value)
        # A tuple, not a list: it may be a map key.
        return tuple(item(v, f"{at}[{i}]") for i, v in enumerate(value))

    return write


def _w_key_list(item: _Writer[_T]) -> _Writer[tuple[_T, ...]]:
    """The writer of an array in a map key (a tuple)."""
    write: _Writer[tuple[_T, ...]] = _w_list(item)  # type: ignore[assignment]
    return write


def _w_optional(inner: _Writer[_T]) -> _Writer[_T | None]:
    return lambda value, at: None if value is None else inner(value, at)


def _w_tuple(*items: _Writer[Any]) -> _Writer[tuple[Any, ...]]:
    def write(value: tuple[Any, ...], at: str) -> Any:
        if not _is_array(value) or len(value) != len(items):
            return _fail(at, f"a tuple of {len(items)}", value)
        # A tuple, not a list: it may be a map key.
        return tuple(item(v, f"{at}[{i}]") for i, (item, v) in enumerate(zip(items, value)))

    return write


def _w_dict(key: _Writer[_K], val: _Writer[_V], ordered: bool) -> _Writer[dict[_K, _V]]:
    """Writes a dict's entries in key order when `ordered` (as Rust's
    `BTreeMap` writes them), else in the dict's order."""

    def write(value: dict[_K, _V], at: str) -> Any:
        if not isinstance(value, dict):
            return _fail(at, "a dict", value)
        items = sorted(value.items(), key=lambda item: item[0]) if ordered else value.items()  # type: ignore[arg-type, return-value]
        return {key(k, f"{at} key"): val(v, f"{at}[{k!r}]") for k, v in items}

    return write


def _w_named(cls: type[Any]) -> _Writer[Any]:
    def write(value: Any, at: str) -> Any:
        if not isinstance(value, cls):
            return _fail(at, cls.__name__, value)
        return value.to_msgpack(at)

    return write


def _not_nil(value: Any, at: str, name: str, tag: int) -> Any:
    """`value`, an array struct's field left out at its default, unless it
    writes nil: the array would read that as the field left out."""
    if value is None:
        raise ValueError(
            f"{at}: field `{name}` (tag {tag}) is not its default but writes nil,"
            " which an #[msgpack(array)] struct reads as the field left out"
        )
    return value


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


def _variant(value: Any, at: str, enum_name: str, data: dict[int, str] | None = None) -> tuple[int, Any]:
    """An enum's variant tag and payload: a unit variant is its tag, any
    other a map of one entry from tag to payload. A bare tag of one of the
    variants in `data` (by tag, their names), which carry data, is an
    error, as in Rust."""
    if isinstance(value, int) and not isinstance(value, bool):
        if data is not None and value in data:
            raise ValueError(f"{at}: variant `{data[value]}` of enum {enum_name} carries data")
        return value, None
    if isinstance(value, dict) and len(value) == 1:
        ((tag, payload),) = value.items()
        if isinstance(tag, int) and not isinstance(tag, bool):
            return tag, payload
    return _fail(at, f"a variant of {enum_name}", value)  # type: ignore[no-any-return]

