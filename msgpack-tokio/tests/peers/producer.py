"""Streams values into a socket in odd-sized chunks, as a peer would.

Usage: python3 producer.py PORT COUNT

Connects to 127.0.0.1:PORT and writes COUNT values packed back to back by
PyPI's msgpack (no length prefix), cutting the bytes into chunks of sizes
that cycle through odd lengths, so values, headers and payloads arrive
split everywhere. Value i is the list the Rust test expects.
"""

import socket
import sys

import msgpack


def value(i):
    return [
        i,
        -i,
        f"value {i} ünïcödé",
        i * 1.5,
        bytes([i % 256]) * (i % 50),
        {"even": i % 2 == 0, "tags": ["a"] * (i % 4)},
        None,
        msgpack.ExtType(5, i.to_bytes(4, "big")),
    ]


def main():
    port, count = int(sys.argv[1]), int(sys.argv[2])
    packer = msgpack.Packer(use_bin_type=True)
    sizes = [1, 7, 13, 3, 4093, 2, 65537, 11, 509]
    pending = bytearray()
    turn = 0
    with socket.create_connection(("127.0.0.1", port)) as connection:
        for i in range(count):
            pending += packer.pack(value(i))
            while len(pending) >= sizes[turn % len(sizes)]:
                size = sizes[turn % len(sizes)]
                connection.sendall(pending[:size])
                del pending[:size]
                turn += 1
        connection.sendall(pending)


if __name__ == "__main__":
    main()
