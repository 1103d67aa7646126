// Reads the values Rust wrote with the generated readers and writes them
// back; then writes values built here (built.ts). Run by
// tests/tests/codegen/cross.rs: node build/relay.js IN OUT COUNT SEED, each
// line of IN and OUT `kind hex` (or, for a value that fails, `kind !message`).
import { readFileSync, writeFileSync } from "node:fs";
import { decode, encode, ExtData } from "@msgpack/msgpack";
import { built } from "./built.js";
import * as everything from "./golden/everything.js";
import * as v1 from "./golden/profile_v1.js";
import * as v2 from "./golden/profile_v2.js";

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString("hex");
const exact = everything.decodeExact;
const relayV1 = (b: Uint8Array): Uint8Array => v1.encodeProfile(v1.decodeProfile(v1.decodeExact(b)));
const relayV2 = (b: Uint8Array): Uint8Array => v2.encodeProfile(v2.decodeProfile(v2.decodeExact(b)));
const relayEverything = (b: Uint8Array): Uint8Array => everything.encodeEverything(everything.decodeEverything(exact(b)));
const relayFigure = (b: Uint8Array): Uint8Array => everything.encodeFigure(everything.decodeFigure(exact(b)));
const relays: Record<string, (bytes: Uint8Array) => Uint8Array> = {
  everything: relayEverything,
  v1: relayV1,
  v2: relayV2,
  v2_by_v1: relayV1,
  v1_by_v2: relayV2,
  by_name: relayV2,
  status: (b) => everything.encodeStatus(everything.decodeStatus(exact(b))),
  figure: relayFigure,
  point: (b) => everything.encodePoint(everything.decodePoint(exact(b))),
  // The package's `decode`, with the options and without.
  package_everything: (b) => everything.encodeEverything(everything.decodeEverything(decode(b, everything.decoderOptions))),
  package_v2: (b) => v2.encodeProfile(v2.decodeProfile(decode(b, v2.decoderOptions))),
  plain_v1: (b) => v1.encodeProfile(v1.decodeProfile(decode(b))),
  error_v1: relayV1,
  error_duplicate: relayV2,
  error_range: relayFigure,
  error_time: relayEverything,
  error_level: (b) => everything.encodeLevel(everything.decodeLevel(exact(b))),
  error_figure: relayFigure,
  error_carries: relayFigure,
  bad_end: relayEverything,
  bad_trailing: relayEverything,
  bad_marker: relayEverything,
  bad_utf8: relayEverything,
  bad_length: relayEverything,
  bad_depth: relayEverything,
  bad_owed: relayEverything,
};

/** What `decode(bytes, decoderOptions)` would give for a value
 * `decodeExact` gave: floats as numbers, integers as numbers where exact,
 * a timestamp kept as its bytes decoded, map keys unmarked. */
function plain(value: unknown): unknown {
  if (value instanceof everything.Float32 || value instanceof everything.Float64) return value.value;
  if (typeof value === "bigint") return value >= -(2n ** 53n) && value <= 2n ** 53n ? Number(value) : value;
  if (value instanceof ExtData && value.type === -1) return decode(encode(value), everything.decoderOptions);
  if (value === null || typeof value !== "object" || value instanceof Uint8Array || value instanceof Date || value instanceof ExtData) {
    return value;
  }
  if (Array.isArray(value)) return value.map(plain);
  return Object.entries(value).map(([prop, v]) => [plain(unmark(prop)), plain(v)]);
}

/** A map key as decoderOptions' `mapKeyConverter` marked it. */
function unmark(prop: string): unknown {
  if (!prop.startsWith("\u0000")) return /^(0|-?[1-9][0-9]*)$/.test(prop) ? Number(prop) : prop;
  const rest = prop.slice(2);
  if (prop[1] === "s") return rest;
  if (prop[1] === "b") return BigInt(rest);
  if (prop[1] === "v") return exact(Buffer.from(rest, "hex"));
  return Number(rest);
}

function same(a: unknown, b: unknown): boolean {
  if (typeof a === "number" && typeof b === "number") return a === b || (Number.isNaN(a) && Number.isNaN(b));
  if (a instanceof Date && b instanceof Date) {
    const nanos = (d: Date): number => (d instanceof everything.NanoDate ? d.nanosecond : 0);
    return a.getTime() === b.getTime() && nanos(a) === nanos(b);
  }
  if (a instanceof Uint8Array && b instanceof Uint8Array) return Buffer.from(a).equals(Buffer.from(b));
  if (a instanceof ExtData && b instanceof ExtData) return a.type === b.type && same(a.data, b.data);
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => same(x, b[i]));
  return a === b;
}

/** `decodeExact` reads what the package reads, but for floats (and
 * timestamps not in their shortest form), and fails at the end of every
 * shorter input with Rust's error. */
function checkDecoder(bytes: Uint8Array, prefixes: boolean): void {
  let value: unknown;
  try {
    value = exact(bytes);
  } catch {
    return; // the bad_ kinds, whose errors Rust checks
  }
  const theirs = plain(decode(bytes, everything.decoderOptions));
  if (!same(plain(value), theirs)) throw new Error(`decodeExact and decode differ on ${hex(bytes)}`);
  for (let end = 0; prefixes && end < bytes.length; end++) {
    let error = "none";
    try {
      exact(bytes.subarray(0, end));
    } catch (e) {
      error = e instanceof Error ? e.message : String(e);
    }
    if (error !== `unexpected end of input at offset ${end}`) throw new Error(`${hex(bytes.subarray(0, end))}: ${error}`);
  }
}

/** What the relays do not show of the prelude. */
function checkPrelude(): void {
  const written = (value: unknown): string => {
    const w = new everything.MsgPackWriter();
    w.any(value);
    return hex(w.finish());
  };
  const checks: [unknown, string][] = [
    [new everything.Float32(1.5), "ca3fc00000"],
    [new everything.Float64(2), "cb4000000000000000"],
    [2, "02"],
    [-0, "cb8000000000000000"],
    [exact(Buffer.from("ca7f812345", "hex")), "ca7f812345"], // a signaling NaN kept
    [[new everything.Float32(-0)], "91ca80000000"],
  ];
  for (const [value, bytes] of checks) {
    if (written(value) !== bytes) throw new Error(`${String(value)} written as ${written(value)}, not ${bytes}`);
  }
  if (new everything.Float32(0.1).value !== Math.fround(0.1) || +new everything.Float64(0.1) !== 0.1) throw new Error("Float value");
  // One module's values, written by another's writer.
  const other = new v1.MsgPackWriter();
  other.any([new everything.Float32(1.5), new everything.Float64(2), new everything.NanoDate(0, 5)]);
  if (hex(other.finish()) !== "93ca3fc00000cb4000000000000000d7ff0000001400000000") throw new Error("one module's values in another");
  // A map that repeats a key is refused, not read as one without it; a
  // key an object's prototype has is no repeat.
  const refusals: [string, string][] = [
    ["82a16101a16102", "map key at offset 4 repeats an earlier one"],
    ["920a8201c0cc01c0", "map key at offset 5 repeats an earlier one"],
  ];
  for (const [bytes, message] of refusals) {
    let error = "none";
    try {
      exact(Buffer.from(bytes, "hex"));
    } catch (e) {
      error = e instanceof Error ? e.message : String(e);
    }
    if (error !== message) throw new Error(`${bytes}: ${error}, not ${message}`);
  }
  if (written(exact(Buffer.from("82a8746f537472696e6701a9746f537472696e672102", "hex"))) !== "82a8746f537472696e6701a9746f537472696e672102") {
    throw new Error("a key the prototype has");
  }
}

/** An error in a map's value names its key as it was on the wire, not
 * as `mapKeyConverter` marked it. */
function checkMapErrorPath(bytes: Uint8Array): void {
  const raw = exact(bytes) as Record<string, unknown>;
  const cases: [string, string, string][] = [
    ["\u0000i11", "8105c3", "Everything.by_id[5]: expected a string, found boolean"],
    ["\u0000i10", "81a131a178", 'Everything.scores["1"]: expected an integer, found string'],
    ["\u0000i50", "81920102c0", "Everything.paths[920102]: expected a bool, found nil"],
    ["\u0000i29", "81a135c0", "Everything.entry: missing field `key` (tag 1)"],
  ];
  for (const [field, map, message] of cases) {
    let error = "none";
    try {
      everything.decodeEverything({ ...raw, [field]: exact(Buffer.from(map, "hex")) });
    } catch (e) {
      error = e instanceof Error ? e.message : String(e);
    }
    if (error !== message) throw new Error(`${JSON.stringify(error)}, not ${JSON.stringify(message)}`);
  }
}

/** Maps keyed by arrays are written in Rust's order (`Vec`'s). */
function checkArrayKeyOrder(bytes: Uint8Array): void {
  const value = everything.decodeEverything(exact(bytes));
  value.paths = new Map([[[2], true], [[1, 5], false], [[1], true], [[], false]]);
  const keys = [...everything.decodeEverything(exact(everything.encodeEverything(value))).paths.keys()];
  if (JSON.stringify(keys) !== "[[],[1],[1,5],[2]]") throw new Error(`paths written in the order ${JSON.stringify(keys)}`);
}

const [input, output, count, seed] = process.argv.slice(2);
checkPrelude();
const lines: string[] = [];
for (const [i, line] of readFileSync(input, "utf8").split("\n").entries()) {
  if (line === "") continue;
  const [kind, data] = line.split(" ");
  const relay = relays[kind];
  if (relay === undefined) throw new Error(`unknown kind ${kind}`);
  checkDecoder(Buffer.from(data, "hex"), i < 16);
  if (i === 0) checkArrayKeyOrder(Buffer.from(data, "hex"));
  if (i === 0) checkMapErrorPath(Buffer.from(data, "hex"));
  try {
    lines.push(`${kind} ${hex(relay(Buffer.from(data, "hex")))}`);
  } catch (error) {
    // Rust checks the message: "!" and the error's text.
    lines.push(`${kind} !${error instanceof Error ? error.message : String(error)}`);
  }
}
lines.push(...built(Number(count), Number(seed)));
// What the writers refuse, each a line `kind !message`.
const refused: [string, () => Uint8Array][] = [
  ["built_error_range", () => everything.encodeFigure({ Polygon: { sides: 300 } })],
  ["built_error_known", () => everything.encodePoint({ x: 1, y: 2, ping: {}, note: null, hint: null, cap: 5, $unknown: new Map([[1, "again"]]) })],
  ["built_error_nil", () => everything.encodePoint({ x: 1, y: 2, ping: {}, note: null, hint: null, cap: null })],
];
for (const [kind, write] of refused) {
  try {
    lines.push(`${kind} ${hex(write())}`);
  } catch (error) {
    lines.push(`${kind} !${error instanceof Error ? error.message : String(error)}`);
  }
}
writeFileSync(output, lines.join("\n") + "\n");
