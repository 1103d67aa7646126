from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any, Callable, TypeVar

import msgpack  # type: ignore[import-untyped]

T = TypeVar("T")
K = TypeVar("K")
V = TypeVar("V")

Reader = Callable[[Any, str], T]
Writer = Callable[[T], Any]


def unpackb(data: bytes) -> Any:
    """Reads bytes as `from_msgpack` expects them: integer map keys allowed,
    arrays as tuples (so that an array can be a map key), timestamps as
    `msgpack.Timestamp` (nanoseconds kept)."""
    return msgpack.unpackb(data, strict_map_key=False, use_list=False)


def packb(obj: Any) -> bytes:
    """Writes what `to_msgpack` returns."""
    result: bytes = msgpack.packb(obj)
    return result


def _fail(at: str, expected: str, value: Any) -> Any:
    raise ValueError(f"{at}: expected {expected}, found {type(value).__name__}")


def _int(value: Any, at: str) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    return _fail(at, "an integer", value)  # type: ignore[no-any-return]


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


def _timestamp(value: Any, at: str) -> msgpack.Timestamp:
    if isinstance(value, msgpack.Timestamp):
        return value
    return _fail(at, "a timestamp", value)


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


def _w(value: Any) -> Any:
    return value


def _w_float(value: float) -> Any:
    return float(value)


def _w_list(item: Writer[T]) -> Writer[list[T]]:
    return lambda value: [item(v) for v in value]


def _w_optional(inner: Writer[T]) -> Writer[T | None]:
    return lambda value: None if value is None else inner(value)


def _w_tuple(*items: Writer[Any]) -> Writer[tuple[Any, ...]]:
    # A tuple, not a list: it may be a map key.
    return lambda value: tuple(item(v) for item, v in zip(items, value))


def _w_dict(key: Writer[K], val: Writer[V]) -> Writer[dict[K, V]]:
    return lambda value: {key(k): val(v) for k, v in value.items()}


def _struct(entries: list[tuple[int, Any]], unknown: dict[int, Any], array: bool) -> Any:
    """A struct's entries (in field order) and its unknown fields (in tag
    order after them), as a map or, when `array`, a tag-indexed array with
    nil in the gaps."""
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


def _w_msgpack(value: Any) -> Any:
    return value.to_msgpack()
