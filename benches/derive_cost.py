#!/usr/bin/env python3
"""What `#[derive(MsgPack)]` costs a user's crate to compile, beside
serde_derive and prost-derive on the same types.

    python3 benches/derive_cost.py              # best of 3 release builds
    python3 benches/derive_cost.py --runs 1
    python3 benches/derive_cost.py --modules 4  # the types in 4 modules

Generates, under target/derive-cost/, a workspace of three crates holding
the same 40 structs of 12 fields, their 40 enums and one struct holding a
list of the first (81 derives), derived three ways: `#[derive(MsgPack)]`,
serde_derive's `Serialize` + `Deserialize`, and `prost::Message` (+
`prost::Enumeration`). Each crate also instantiates its encode and decode
for every struct (msgpack-serde for the first two, prost's own for the
third), so the generated code is compiled as a user's crate compiles it.

Prints, per derive: the lines the expansion holds (rustc
`-Zunpretty=expanded`, per derive), the release build time of the crate
alone (its dependencies built first), and the `.text` bytes of its rlib.
"""

import argparse
import os
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORK = os.path.join(ROOT, "target", "derive-cost")
STRUCTS = 40
FIELDS = 12

# (Rust type, prost attribute) per field position, cycled.
FIELD_TYPES = [
    ("u64", "uint64"),
    ("String", "string"),
    ("Option<String>", "string, optional"),
    ("i64", "int64"),
    ("f64", "double"),
    ("bool", "bool"),
    ("Vec<u32>", "uint32, repeated"),
    ("u32", "uint32"),
    ("Option<u64>", "uint64, optional"),
    ("String", "string"),
    ("ENUM", "enumeration"),
    ("Vec<String>", "string, repeated"),
]


def field_type(index, struct):
    rust, prost = FIELD_TYPES[index % len(FIELD_TYPES)]
    return (f"E{struct}", f'enumeration = "E{struct}"') if rust == "ENUM" else (rust, prost)


def types_source(kind, modules):
    # Each struct (and its enum) in module `m{s % modules}` when there are
    # several, as a user's crate spreads its types: rustc splits its
    # codegen units by module.
    parts = [[] for _ in range(modules)]
    for s in range(STRUCTS):
        out = parts[s % modules]
        if kind == "msgpack":
            out.append("#[derive(msgpack_serde::MsgPack, Debug, PartialEq)]")
        elif kind == "serde":
            out.append("#[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq)]")
        else:
            out.append("#[derive(Clone, PartialEq, prost::Message)]")
        out.append(f"pub struct S{s} {{")
        for f in range(FIELDS):
            rust, prost = field_type(f, s)
            tag = f + 1
            if kind == "msgpack":
                out.append(f"    #[msgpack(tag = {tag})] pub f{tag}: {rust},")
            elif kind == "serde":
                out.append(f"    pub f{tag}: {rust},")
            else:
                ty = "i32" if rust.startswith("E") else rust.replace("Option<String>", "Option<String>")
                out.append(f'    #[prost({prost}, tag = "{tag}")] pub f{tag}: {ty},')
        out.append("}")
        if kind == "msgpack":
            out.append("#[derive(msgpack_serde::MsgPack, Debug, PartialEq)]")
            out.append(f"pub enum E{s} {{ #[msgpack(tag = 0)] A, #[msgpack(tag = 1)] B, #[msgpack(tag = 2)] C }}")
        elif kind == "serde":
            out.append("#[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq)]")
            out.append(f"pub enum E{s} {{ A, B, C }}")
        else:
            out.append("#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, prost::Enumeration)]")
            out.append("#[repr(i32)]")
            out.append(f"pub enum E{s} {{ A = 0, B = 1, C = 2 }}")
    if modules == 1:
        out = parts[0]
    else:
        out = []
        for m, part in enumerate(parts):
            out.append(f"pub mod m{m} {{")
            out.extend(part)
            out.append("}")
            out.append(f"pub use m{m}::*;")
    if kind == "msgpack":
        out.append("#[derive(msgpack_serde::MsgPack, Debug, PartialEq)]")
        out.append("pub struct Batch { #[msgpack(tag = 1)] pub items: Vec<S0> }")
    elif kind == "serde":
        out.append("#[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq)]")
        out.append("pub struct Batch { pub items: Vec<S0> }")
    else:
        out.append("#[derive(Clone, PartialEq, prost::Message)]")
        out.append('pub struct Batch { #[prost(message, repeated, tag = "1")] pub items: Vec<S0> }')
    # Encode and decode of every struct, compiled here as a user's crate would.
    out.append("/// Decodes and re-encodes `bytes` as each struct: the code a user compiles.")
    out.append("pub fn round_trips(bytes: &[u8]) -> usize {")
    out.append("    let mut n = 0;")
    for name in [f"S{s}" for s in range(STRUCTS)] + ["Batch"]:
        if kind == "prost":
            out.append(f"    if let Ok(v) = <{name} as prost::Message>::decode(bytes) {{ n += prost::Message::encode_to_vec(&v).len(); }}")
        else:
            out.append(f"    if let Ok(v) = msgpack_serde::from_slice::<{name}>(bytes) {{ n += msgpack_serde::to_vec(&v).map_or(0, |b| b.len()); }}")
    out.append("    n")
    out.append("}")
    return "#![allow(missing_docs, dead_code)]\n" + "\n".join(out) + "\n"


def write_workspace(modules):
    os.makedirs(WORK, exist_ok=True)
    serde_path = os.path.join(ROOT, "msgpack-serde")
    members = []
    for kind in ["msgpack", "serde", "prost"]:
        name = f"gen_{kind}"
        members.append(name)
        os.makedirs(os.path.join(WORK, name, "src"), exist_ok=True)
        deps = {
            "msgpack": f'msgpack-serde = {{ path = "{serde_path}" }}\n',
            "serde": f'msgpack-serde = {{ path = "{serde_path}" }}\nserde = {{ version = "1", features = ["derive"] }}\n',
            "prost": 'prost = "0.14"\n',
        }[kind]
        with open(os.path.join(WORK, name, "Cargo.toml"), "w") as f:
            f.write(f'[package]\nname = "{name}"\nversion = "0.0.0"\nedition = "2021"\npublish = false\n\n[dependencies]\n{deps}')
        with open(os.path.join(WORK, name, "src", "lib.rs"), "w") as f:
            f.write(types_source(kind, modules))
    with open(os.path.join(WORK, "Cargo.toml"), "w") as f:
        f.write("[workspace]\nresolver = \"2\"\nmembers = [" + ", ".join(f'"{m}"' for m in members) + "]\n")
    lock = os.path.join(ROOT, "Cargo.lock")
    if not os.path.exists(os.path.join(WORK, "Cargo.lock")):
        shutil.copy(lock, os.path.join(WORK, "Cargo.lock"))
    return members


def cargo(args, env=None, capture=False):
    full_env = dict(os.environ, CARGO_TARGET_DIR=os.path.join(WORK, "target"), **(env or {}))
    return subprocess.run(["cargo"] + args, cwd=WORK, env=full_env, check=True,
                          stdout=subprocess.PIPE if capture else subprocess.DEVNULL,
                          stderr=subprocess.PIPE if capture else subprocess.DEVNULL, text=True)


def text_bytes(rlib):
    out = subprocess.run(["size", "-A", "-d", rlib], check=True, stdout=subprocess.PIPE, text=True).stdout
    total = 0
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 2 and parts[0].startswith(".text") and parts[1].isdigit():
            total += int(parts[1])
    return total


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--modules", type=int, default=1,
                        help="spread the types over this many modules (default: all in the crate root)")
    args = parser.parse_args()
    members = write_workspace(args.modules)
    cargo(["build", "--release", "--quiet"])  # dependencies and a first build
    derives = STRUCTS * 2 + 1
    rows = []
    for member in members:
        expanded = cargo(["rustc", "--release", "--quiet", "-p", member, "--", "-Zunpretty=expanded"],
                         env={"RUSTC_BOOTSTRAP": "1"}, capture=True).stdout
        lines = len(expanded.splitlines())
        times = []
        for _ in range(args.runs):
            os.utime(os.path.join(WORK, member, "src", "lib.rs"))
            start = time.perf_counter()
            cargo(["build", "--release", "--quiet", "-p", member])
            times.append(time.perf_counter() - start)
        rlib = os.path.join(WORK, "target", "release", f"lib{member}.rlib")
        rows.append((member, lines, min(times), text_bytes(rlib)))
    base = {name: (lines, secs, text) for name, lines, secs, text in rows}["gen_serde"]
    where = "in the crate root" if args.modules == 1 else f"in {args.modules} modules"
    print(f"{STRUCTS} structs of {FIELDS} fields, their enums and one more struct: {derives} derives, "
          f"{where}; release builds of the crate alone, best of {args.runs}")
    print()
    print("| derive | expanded lines (per derive) | build time | .text |")
    print("|---|--:|--:|--:|")
    labels = {"gen_msgpack": "`#[derive(MsgPack)]`", "gen_serde": "serde_derive (Serialize + Deserialize)",
              "gen_prost": "prost (`Message`, `Enumeration`)"}
    for name, lines, secs, text in rows:
        print(f"| {labels[name]} | {lines} ({lines / derives:.0f}) | {secs:.1f} s ({secs / base[1]:.2f}x) "
              f"| {text / 1e6:.2f} MB ({text / base[2]:.2f}x) |")


if __name__ == "__main__":
    main()
