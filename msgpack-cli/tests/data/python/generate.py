#!/usr/bin/env python3
"""Writes the Python interop cases of msgpack-cli/tests/interop_python.rs.

For every case of CASES: `<name>.msgpack`, the bytes of PyPI's
`msgpack.packb`, and `<name>.json`, the JSON `msgpack decode` must write for
them (the tagged form of msgpack-cli/src/tags.rs, in serde_json's compact
text), computed here, independently of the Rust code.

    python3 -m pip install msgpack==1.2.4
    python3 msgpack-cli/tests/data/python/generate.py

Deterministic: running it again rewrites the same files. The generated
files are committed, so the decode test needs no Python; the encode test
imports this module to compare what Python reads back with CASES.
"""

import base64
import json
import math
import os
import struct
import sys

import msgpack
from msgpack import ExtType, Timestamp

HERE = os.path.dirname(os.path.abspath(__file__))

# The tag names of msgpack-cli/src/tags.rs.
TAGS = ("$bin", "$ext", "$timestamp", "$map", "$float32", "$float64")


class F32(float):
    """A float packed as float 32 (msgpack.packb(use_single_float=True))."""


FLT_MAX = 3.4028234663852886e38


def f32(x):
    """x rounded to float 32 (to nearest: struct refuses what is above
    FLT_MAX, even by less than half a unit)."""
    if FLT_MAX < abs(x) < FLT_MAX + 2.0**103:
        return math.copysign(FLT_MAX, x)
    try:
        return struct.unpack(">f", struct.pack(">f", x))[0]
    except OverflowError:
        return math.copysign(math.inf, x)


# name -> value. Values marked F32 are packed as float 32 (each case is
# packed whole, so a case holds float 32s or float 64s, not both).
CASES = {
    "nil_and_bools": [None, True, False],
    "ints": [
        0, 1, 127, 128, 255, 256, 65535, 65536, 2**32 - 1, 2**32, 2**53 + 1,
        2**63, 2**64 - 1,
        -1, -32, -33, -128, -129, -32768, -32769, -(2**31), -(2**31) - 1,
        -(2**53) - 1, -(2**63),
    ],
    "floats": [
        0.0, -0.0, 1.0, 1.5, -2.25, 0.1, 1 / 3, 123456.789, 2.0**53,
        1e15, 1e16, 0.0001, 0.00001, 1.5e-7, 1e300, -1e-300,
        5e-324, 1.7976931348623157e308,
        math.inf, -math.inf, math.nan,
    ],
    "floats32": [F32(f32(x)) for x in (0.0, -0.0, 1.5, 0.1, -3.4028234663852886e38, 1e-45, 16777216.0, math.inf, -math.inf, math.nan)],
    "strings": [
        "", "a", "x" * 31, "x" * 32, "y" * 255, "z" * 256,
        "Zoë Ångström, Zürich 日本語 🚲",
        "nul\x00in the middle", "\x00", "tab\tnew\nline\r\"quoted\" back\\slash \x01\x1f\x7f",
        "\u2028\u2029\ufeff", "$bin", "$$x", "$",
    ],
    "bins": [b"", b"\x00", b"\xff\xfe\x00\x01", bytes(range(256)), b"\x00" * 300],
    # Python's ExtType takes types 0 to 127 only (the negative ones are
    # reserved): tests/cli covers those.
    "exts": [
        ExtType(5, b"\x01"),
        ExtType(0, b"ab"),
        ExtType(127, b"\x00\x01\x02\x03"),
        ExtType(100, b"\x00" * 8),
        ExtType(1, bytes(range(16))),
        ExtType(2, b"abc"),
        ExtType(3, b""),
        ExtType(4, bytes(range(256)) + b"\x00" * 44),
    ],
    "timestamps": [
        Timestamp(0, 0),
        Timestamp(2**32 - 1, 0),
        Timestamp(1796040000, 500000000),
        Timestamp(1796040000, 1),
        Timestamp(2**34 - 1, 999999999),
        Timestamp(2**34, 0),
        Timestamp(-1, 0),
        Timestamp(-1, 999999999),
        Timestamp(-86400 * 365, 123456789),
        Timestamp(-62135596800, 0),  # 0001-01-01
        Timestamp(253402300799, 999999999),  # 9999-12-31T23:59:59.999999999
    ],
    # Beyond Python's datetime (years 1 to 9999): read back with timestamp=0.
    "timestamps_far": [
        Timestamp(-62167219200, 0),  # 0000-01-01
        Timestamp(-62167219201, 999999999),  # a nanosecond before: $ext
        Timestamp(253402300800, 0),  # 10000-01-01: no RFC 3339 form, so $ext
        Timestamp(-(2**63), 0),
        Timestamp(2**63 - 1, 999999999),
    ],
    "nested": {
        "id": 42,
        "tags": ["a", "b"],
        "owner": {"name": "Ada", "roles": [], "meta": {}},
        "items": [{"sku": "X-1", "qty": 2, "price": 12.5}, [1, [2, [3, []]]]],
        "blob": b"\x00\x01",
        "when": Timestamp(1796040000, 0),
    },
    "int_keys": {1: "one", -1: "minus one", 2**64 - 1: "max", -(2**63): "min", 0: {2: [3]}},
    "other_keys": {True: "true", False: "false", None: "nil", (1, 2): "array", b"k": "bin", 1.5: "float"},
    "tag_like_keys": [
        {"$bin": "not a tag"},
        {"$$x": 1, "$bin": 2, "$map": 3},
        {"$map": {"$ext": None}},
        {"$": 0, "$id": 1, "a$": 2},
        {"$float32": 1, "$$$": 2},
    ],
    "containers": [[], list(range(16)), {}, {f"k{i:02}": i for i in range(16)}, [[[[]]]]],
}


def float_text(x, single):
    """x as serde_json writes it (the shortest digits that read back, fixed
    notation for exponents -5 to 15, -6 to 12 for float 32, else d.ddde±x)."""
    if x == 0:
        return "-0.0" if math.copysign(1.0, x) < 0 else "0.0"
    sign = "-" if x < 0 else ""
    x = abs(x)
    for precision in range(1, 18):
        text = "%.*e" % (precision - 1, x)
        back = float(text)
        if (f32(back) if single else back) == x:
            break
    mantissa, exponent = text.split("e")
    digits = mantissa.replace(".", "").rstrip("0") or "0"
    exponent = int(exponent)
    low, high = (-6, 12) if single else (-5, 15)
    if low <= exponent <= high:
        if len(digits) - 1 <= exponent:
            body = digits + "0" * (exponent + 1 - len(digits)) + ".0"
        elif exponent >= 0:
            body = digits[: exponent + 1] + "." + digits[exponent + 1 :]
        else:
            body = "0." + "0" * (-exponent - 1) + digits
    else:
        rest = "." + digits[1:] if len(digits) > 1 else ""
        body = digits[0] + rest + "e" + ("+" if exponent >= 0 else "-") + str(abs(exponent))
    return sign + body


def string(text):
    return json.dumps(text, ensure_ascii=False)


def b64(data):
    return base64.b64encode(data).decode("ascii")


def timestamp_text(ts):
    """RFC 3339, exact to the nanosecond, trailing zeros dropped; None outside
    years 0000 to 9999."""
    seconds, nanos = ts.seconds, ts.nanoseconds
    days, second_of_day = divmod(seconds, 86400)
    # Civil from days (Howard Hinnant's algorithm).
    z = days + 719468
    era = z // 146097
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    y = yoe + era * 400
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    d = doy - (153 * mp + 2) // 5 + 1
    m = mp + 3 if mp < 10 else mp - 9
    y += m <= 2
    if not 0 <= y <= 9999:
        return None
    hh, rest = divmod(second_of_day, 3600)
    mm, ss = divmod(rest, 60)
    text = "%04d-%02d-%02dT%02d:%02d:%02d" % (y, m, d, hh, mm, ss)
    if nanos:
        text += ("." + "%09d" % nanos).rstrip("0")
    return text + "Z"


def ext_text(code, data):
    return '{"$ext":{"type":%d,"data":%s}}' % (code, string(b64(data)))


def tagged(value):
    """The JSON text msgpack decode writes for value."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        single = isinstance(value, F32)
        if math.isnan(value) or math.isinf(value):
            text = "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")
            return '{"%s":"%s"}' % ("$float32" if single else "$float64", text)
        text = float_text(value, single)
        return '{"$float32":%s}' % text if single else text
    if isinstance(value, str):
        return string(value)
    if isinstance(value, bytes):
        return '{"$bin":%s}' % string(b64(value))
    if isinstance(value, Timestamp):
        text = timestamp_text(value)
        if text is not None:
            return '{"$timestamp":%s}' % string(text)
        return ext_text(-1, value.to_bytes())
    if isinstance(value, ExtType):
        return ext_text(value.code, value.data)
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(tagged(v) for v in value) + "]"
    if isinstance(value, dict):
        if all(isinstance(k, str) for k in value):
            entries = []
            for index, (k, v) in enumerate(value.items()):
                if (index == 0 and k in TAGS) or k.startswith("$$"):
                    k = "$" + k
                entries.append(string(k) + ":" + tagged(v))
            return "{" + ",".join(entries) + "}"
        pairs = ",".join("[%s,%s]" % (tagged(k), tagged(v)) for k, v in value.items())
        return '{"$map":[%s]}' % pairs
    raise TypeError(repr(value))


def pack(value):
    single = isinstance(value, list) and any(isinstance(v, F32) for v in value)
    return msgpack.packb(value, use_single_float=single)


def unpack(data, timestamp=3):
    """How the encode test reads bytes back in Python: timestamps as UTC
    datetimes (timestamp=3, to the microsecond), or as msgpack.Timestamp
    (timestamp=0, to the nanosecond)."""
    return msgpack.unpackb(data, timestamp=timestamp, strict_map_key=False, use_list=False)


def check(name, ours):
    """Raises unless `ours`, bytes our encode wrote for case `name`, reads
    back in Python as the case's value (to the nanosecond) and as what
    Python's own bytes read back as with timestamp=3."""
    value = CASES[name]
    back = unpack(ours, timestamp=0)
    if not same(back, value):
        raise AssertionError("%s: read back %r, expected %r" % (name, back, value))
    if name != "timestamps_far":
        with open(os.path.join(HERE, name + ".msgpack"), "rb") as theirs:
            expected = unpack(theirs.read())
        back = unpack(ours)
        if not same(back, expected):
            raise AssertionError("%s: with timestamp=3, read back %r, expected %r" % (name, back, expected))


def same(a, b):
    """Equal, NaN equal to NaN, 0.0 apart from -0.0, int apart from float."""
    if isinstance(a, float) or isinstance(b, float):
        if type(a) is not type(b) and not (isinstance(a, float) and isinstance(b, float)):
            return False
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        return a == b and math.copysign(1.0, a) == math.copysign(1.0, b)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return len(a) == len(b) and all(
            same(ka, kb) and same(va, vb) for (ka, va), (kb, vb) in zip(a.items(), b.items())
        )
    return type(a) is type(b) and a == b


def main():
    for name, value in CASES.items():
        data = pack(value)
        with open(os.path.join(HERE, name + ".msgpack"), "wb") as out:
            out.write(data)
        with open(os.path.join(HERE, name + ".json"), "w", encoding="utf-8") as out:
            out.write(tagged(value) + "\n")
        check(name, data)
    print("wrote %d cases to %s" % (len(CASES), HERE), file=sys.stderr)


if __name__ == "__main__":
    main()
