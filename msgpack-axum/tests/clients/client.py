#!/usr/bin/env python3
"""A Python client of the msgpack-axum example server, as a user would write it.

    python3 client.py http://127.0.0.1:3000

The standard library's urllib plus the `msgpack` package from PyPI
(`python3 -m pip install msgpack`). It asks for the profile as MessagePack
and as JSON and checks the two decode to the same data, posts MessagePack
and JSON and checks the echo, and checks a malformed body's error. Exits 1
with a message naming the request on the first mismatch; tests/clients.rs
runs it against the example app.
"""

import json
import sys
import urllib.error
import urllib.request

import msgpack

MSGPACK = "application/msgpack"
JSON = "application/json"

# The example server's profile (examples/server/app.rs, `profile()`).
EXPECTED = {
    "id": 1042,
    "name": "Laravel MessagePack",
    "roles": ["maintainer", "developer"],
    "features": {"negotiation": True, "fallback": "json"},
}


class Mismatch(Exception):
    pass


def request(base, method, path, accept, body=None, content_type=None):
    """One request: (status, headers, body bytes), 4xx and 5xx included."""
    headers = {"Accept": accept}
    if content_type is not None:
        headers["Content-Type"] = content_type
    req = urllib.request.Request(base + path, data=body, method=method, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=10) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        with error:
            return error.code, error.headers, error.read()


def describe(method, path, accept, content_type=None):
    sent = f" with Content-Type: {content_type}" if content_type else ""
    return f"{method} {path} (Accept: {accept}){sent}"


def media_type(headers):
    return (headers.get("Content-Type") or "").split(";")[0].strip().lower()


def check_response(what, status, headers, expected_status, expected_type):
    if status != expected_status:
        raise Mismatch(f"{what}: status {status}, expected {expected_status}")
    if media_type(headers) != expected_type:
        raise Mismatch(
            f"{what}: Content-Type {headers.get('Content-Type')!r}, expected {expected_type}"
        )
    vary = [token.strip().lower() for token in (headers.get("Vary") or "").split(",")]
    if "accept" not in vary:
        raise Mismatch(f"{what}: Vary {headers.get('Vary')!r} does not name Accept")


def decode_msgpack(what, body):
    try:
        return msgpack.unpackb(body, raw=False)
    except Exception as error:  # msgpack raises several unrelated types
        raise Mismatch(f"{what}: body is not one MessagePack value ({error}): {body!r}")


def decode_json(what, body):
    try:
        return json.loads(body)
    except ValueError as error:
        raise Mismatch(f"{what}: body is not JSON ({error}): {body!r}")


def check_equal(what, got, expected):
    if got != expected:
        raise Mismatch(f"{what}: decoded {got!r}, expected {expected!r}")


def check_get(base, path):
    """GET as MessagePack and as JSON: both the expected profile."""
    what = describe("GET", path, MSGPACK)
    status, headers, body = request(base, "GET", path, MSGPACK)
    check_response(what, status, headers, 200, MSGPACK)
    from_msgpack = decode_msgpack(what, body)

    what_json = describe("GET", path, JSON)
    status, headers, body = request(base, "GET", path, JSON)
    check_response(what_json, status, headers, 200, JSON)
    from_json = decode_json(what_json, body)

    check_equal(f"{what} against {what_json}", from_msgpack, from_json)
    check_equal(what, from_msgpack, EXPECTED)


def check_post(base, path, content_type, body):
    """POST a profile and get it back as MessagePack."""
    what = describe("POST", path, MSGPACK, content_type)
    status, headers, reply = request(base, "POST", path, MSGPACK, body, content_type)
    check_response(what, status, headers, 200, MSGPACK)
    check_equal(what, decode_msgpack(what, reply), EXPECTED)


def check_malformed(base, path):
    """A malformed MessagePack body: 400 with a MessagePack error body."""
    # A one-entry map whose value is 0xc1, the byte MessagePack never uses.
    body = b"\x81\xa2id\xc1"
    what = describe("POST", path, MSGPACK, MSGPACK) + " with a malformed body"
    status, headers, reply = request(base, "POST", path, MSGPACK, body, MSGPACK)
    check_response(what, status, headers, 400, MSGPACK)
    error = decode_msgpack(what, reply)
    if not isinstance(error, dict) or not {"error", "code", "offset"} <= error.keys():
        raise Mismatch(f"{what}: error body {error!r} lacks error, code or offset")
    if not isinstance(error["error"], str) or not isinstance(error["code"], str):
        raise Mismatch(f"{what}: error and code should be strings: {error!r}")
    if not isinstance(error["offset"], int) or isinstance(error["offset"], bool):
        raise Mismatch(f"{what}: offset should be an integer: {error!r}")


def main(argv):
    if len(argv) != 2:
        print(f"usage: {argv[0]} BASE_URL", file=sys.stderr)
        return 2
    base = argv[1].rstrip("/")
    checks = [
        ("GET /api/profile as MessagePack and JSON", lambda: check_get(base, "/api/profile")),
        (
            "GET /api/legacy/profile as MessagePack and JSON",
            lambda: check_get(base, "/api/legacy/profile"),
        ),
        (
            "POST /api/profile a MessagePack body",
            lambda: check_post(base, "/api/profile", MSGPACK, msgpack.packb(EXPECTED)),
        ),
        (
            "POST /api/profile a JSON body",
            lambda: check_post(base, "/api/profile", JSON, json.dumps(EXPECTED).encode()),
        ),
        ("POST /api/profile a malformed MessagePack body", lambda: check_malformed(base, "/api/profile")),
    ]
    for name, check in checks:
        try:
            check()
        except Mismatch as error:
            print(f"python client: FAILED: {error}", file=sys.stderr)
            return 1
        except (urllib.error.URLError, OSError) as error:
            print(f"python client: FAILED: {name}: request failed: {error}", file=sys.stderr)
            return 1
        print(f"python client: ok: {name}")
    print(f"python client: all {len(checks)} checks passed against {base}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
