"""A msgpack-rpc client written with PyPI's msgpack over a raw socket,
as a Python user would write one, against the example server.

Usage: client.py PORT. Prints "ok" and exits 0 when every check holds."""

import socket
import sys

import msgpack

sock = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=30)
unpacker = msgpack.Unpacker(raw=False, strict_map_key=False)
next_msgid = 0


def send(message):
    sock.sendall(msgpack.packb(message, use_bin_type=True))


def request(method, *params):
    global next_msgid
    msgid = next_msgid
    next_msgid += 1
    send([0, msgid, method, list(params)])
    return msgid


def receive():
    """The next message, reading the socket in small pieces."""
    while True:
        for message in unpacker:
            return message
        data = sock.recv(7)
        if not data:
            raise EOFError("the server closed the connection")
        unpacker.feed(data)


def call(method, *params):
    msgid = request(method, *params)
    kind, answered, error, result = receive()
    assert (kind, answered) == (1, msgid), (kind, answered)
    return error, result


value = [1, -2, 1.5, "ünïcödé", b"\x00\xff", None, True,
         {"k": [1, 2]}, msgpack.ExtType(5, b"\x01\x02\x03")]
assert call("echo", value) == (None, value), call("echo", value)
# The timestamp extension (type -1), as Python writes it.
stamp = msgpack.Timestamp(1_700_000_000, 500)
assert call("echo", stamp) == (None, stamp), call("echo", stamp)
assert call("add", 2, 3) == (None, 5)
error, result = call("add", "two", 3)
assert error is not None and result is None, (error, result)
assert "invalid params for `add`" in error, error
error, result = call("nope", 1)
assert (error, result) == ("unknown method `nope`", None), (error, result)

# Out of order: the long sleep is answered last.
slow = request("sleep", 300)
fast = request("sleep", 10)
first, second = receive(), receive()
assert (first[1], second[1]) == (fast, slow), (first, second)
assert first[2:] == [None, None] and second[2:] == [None, None]

# A notification gets no answer; the next call is still answered.
send([2, "log", ["hello from python"]])
# Many requests in flight at once, answered by msgid.
msgids = {request("add", i, 1000): i for i in range(200)}
for _ in range(200):
    kind, msgid, error, result = receive()
    assert kind == 1 and error is None and result == msgids.pop(msgid) + 1000
assert not msgids
print("ok")
