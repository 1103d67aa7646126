// Values built here, from a seeded generator, for Rust to read: each line
// `kind hex json`, the bytes the generated writer gives and the value
// meant, in the JSON form serde_json reads for the same Rust type
// (tests/tests/codegen/cross.rs compares the two).
import { encodeTimeSpecToTimestamp } from "@msgpack/msgpack";
import * as everything from "./golden/everything.js";
import * as v2 from "./golden/profile_v2.js";

type Int = everything.Int;

/** mulberry32: a small seeded generator, so a failure repeats. */
function generator(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

class Values {
  private readonly next: () => number;

  constructor(seed: number) {
    this.next = generator(seed);
  }

  /** An integer in lo..=hi (in steps, past a span of 2^32). */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  bool(): boolean {
    return this.next() < 0.5;
  }
  pick<T>(items: T[]): T {
    return items[this.int(0, items.length - 1)];
  }
  /** Edges half the time, else anywhere in the range. */
  ranged(lo: number, hi: number): number {
    return this.bool() ? this.pick([lo, hi, 0, 1, -1].filter((x) => x >= lo && x <= hi)) : this.int(lo, hi);
  }
  u64(): Int {
    if (this.bool()) return this.pick([0, 2n ** 64n - 1n, 2 ** 53 - 1, 2n ** 53n, 2n ** 53n + 1n]);
    return (BigInt(this.int(0, 0xffffffff)) << 32n) | BigInt(this.int(0, 0xffffffff));
  }
  i64(): Int {
    if (this.bool()) return this.pick([-(2n ** 63n), 2n ** 63n - 1n, -(2 ** 53 - 1), -(2n ** 53n) - 1n, 0]);
    return BigInt.asIntN(64, (BigInt(this.int(0, 0xffffffff)) << 32n) | BigInt(this.int(0, 0xffffffff)));
  }
  /** A float with a short decimal form (m / 2^k), which any JSON reader
   * reads back exactly, and exact in an f32 too. */
  float(): number {
    return this.int(-(2 ** 20), 2 ** 20) / 2 ** this.int(0, 6) || 0;
  }
  text(): string {
    const alphabet = "abz09 \u00e9\u4e16\uff21\u{1f600}";
    return Array.from({ length: this.int(0, 12) }, () => this.pick([...alphabet])).join("");
  }
  array<T>(max: number, item: () => T): T[] {
    return Array.from({ length: this.int(0, max) }, item);
  }
  optional<T>(item: () => T): T | undefined {
    return this.bool() ? item() : undefined;
  }
  /** What reads back the same from MessagePack and from JSON: no float
   * 32 (JSON has no width), bytes or nil, maps keyed by strings (in
   * order). */
  simple(depth = 2): unknown {
    const kind = this.int(0, depth > 0 ? 6 : 4);
    if (kind === 0) return this.bool();
    if (kind === 1) return this.ranged(-(2 ** 31), 2 ** 31);
    if (kind === 2) return this.u64();
    if (kind === 3) return this.text();
    // A float 64, integral ones and -0 too: a number would be an integer.
    if (kind === 4) return new everything.Float64(this.pick([this.float(), 2, -0]));
    if (kind === 5) return this.array(3, () => this.simple(depth - 1));
    // Keys in code point order: serde_json's map, which the test reads
    // the value meant into, sorts them so.
    const keys = [...new Set(this.array(3, () => this.text()))].sort((a, b) => (codePoints(a) < codePoints(b) ? -1 : 1));
    return new Map(keys.map((key) => [key, this.simple(depth - 1)]));
  }
  unknown(lo: number, hi: number): everything.UnknownFields | undefined {
    const fields = new Map<Int, unknown>();
    for (let tag = lo; tag < hi; tag++) if (this.int(0, 2) === 0) fields.set(tag, this.simple());
    return fields.size > 0 ? fields : undefined;
  }
  timestamp(): Date {
    const ms = this.ranged(-8.64e15, 8.64e15);
    return this.bool() ? new Date(ms) : new everything.NanoDate(ms, this.int(0, 999999));
  }
  node(depth: number): everything.Node {
    return { value: this.ranged(-(2 ** 31), 2 ** 31 - 1), children: depth > 0 ? this.array(2, () => this.node(depth - 1)) : [] };
  }
  figure(): everything.Figure {
    switch (this.int(0, 3)) {
      case 0:
        return { Circle: this.float() };
      case 1:
        return { Rect: [this.float(), this.float()] };
      case 2: {
        const label = this.optional(() => this.text());
        return { Polygon: label === undefined ? { sides: this.ranged(0, 255) } : { sides: this.ranged(0, 255), label } };
      }
      default:
        return "Empty";
    }
  }
  i32(): number {
    return this.ranged(-(2 ** 31), 2 ** 31 - 1);
  }

  everything(): everything.Everything {
    const value: everything.Everything = {
      id: this.u64(),
      delta: this.i64(),
      name: this.text(),
      retries: this.ranged(0, 255),
      level: this.pick([7, this.i32()]),
      ratio: this.float(),
      flags: this.array(4, () => this.bool()),
      scores: new Map(this.array(3, () => [this.text(), this.i64()] as const)),
      by_id: new Map(this.array(3, () => [this.ranged(0, 2 ** 32 - 1), this.text()] as const)),
      blob: Uint8Array.from(this.array(16, () => this.int(0, 255))),
      at: this.timestamp(),
      status: this.pick<everything.Status>(["Active", "on_hold", "Unknown"]),
      figure: this.figure(),
      point: { x: this.i32(), y: this.i32(), ping: {}, note: this.bool() ? null : this.simple(), hint: this.bool() ? null : this.i32(), cap: this.pick([5, this.i32()]) },
      pair: [this.ranged(-32768, 32767), this.text()],
      extra: this.simple(),
      labels: this.array(3, () => this.text()),
      // serde_json has no form for a map keyed by arrays: Rust's values
      // carry those to the relays.
      grid: new Map(),
      paths: new Map(),
      gaps: this.array(4, () => (this.bool() ? null : this.i32())),
      levels: this.array(3, () => this.pick<everything.Level>(["Low", "High"])),
      nothing: {},
      coord: { "0": this.i32(), "1": this.i32() },
      ping: {},
      weight: this.float(),
      code: this.pick([0x0300, this.ranged(0, 65535)]),
      entry: { key: this.text() },
    };
    const displayName = this.optional(() => this.text());
    if (displayName !== undefined) value.displayName = displayName;
    const z = this.optional(() => this.i32());
    if (z !== undefined) value.point.z = z;
    const pointUnknown = this.unknown(4, 8);
    if (pointUnknown !== undefined) value.point.$unknown = pointUnknown;
    const tree = this.optional(() => this.node(2));
    if (tree !== undefined) value.tree = tree;
    const far = this.optional(() => this.ranged(-128, 127));
    if (far !== undefined) value.far = far;
    const unknown = this.unknown(40, 45);
    if (unknown !== undefined) value.$unknown = unknown;
    return value;
  }

  profile(): v2.Profile {
    const value: v2.Profile = { id: this.u64(), name: this.text(), visits: this.ranged(0, 2 ** 32 - 1) };
    const email = this.optional(() => this.text());
    if (email !== undefined) value.email = email;
    const unknown = this.unknown(10, 14);
    if (unknown !== undefined) value.$unknown = unknown;
    return value;
  }
}

/** A string as its code points, zero-padded: compares as Rust's `str`. */
const codePoints = (text: string): string => [...text].map((c) => c.codePointAt(0)!.toString(16).padStart(6, "0")).join("");

/** The ext bytes of a timestamp, as the generated writer computes them. */
function timestampBytes(date: Date): number[] {
  const ms = date.getTime();
  const sec = Math.floor(ms / 1000);
  const nsec = (ms - sec * 1000) * 1e6 + (date instanceof everything.NanoDate ? date.nanosecond : 0);
  return Array.from(encodeTimeSpecToTimestamp({ sec, nsec }));
}

/** `value` in serde_json's form of the Rust type: maps as objects keyed by
 * the keys' digits, bytes as arrays, timestamps as their extension, unknown
 * fields under their tags. */
function json(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (typeof value === "bigint") return value.toString();
  if (value instanceof everything.Float64) {
    // With a point, so that serde_json reads a float.
    const x = value.value;
    return Object.is(x, -0) ? "-0.0" : Number.isInteger(x) ? `${x}.0` : String(x);
  }
  if (typeof value !== "object") return JSON.stringify(value);
  if (value instanceof Uint8Array) return json(Array.from(value));
  if (value instanceof Date) return json([-1, timestampBytes(value)]);
  if (Array.isArray(value)) return `[${value.map(json).join(",")}]`;
  const entries: [string, unknown][] =
    value instanceof Map
      ? [...value].map(([k, v]) => [String(k), v])
      : Object.entries(value).filter(([k, v]) => k !== "$unknown" && v !== undefined);
  const unknown = value instanceof Map ? undefined : (value as { $unknown?: everything.UnknownFields }).$unknown;
  for (const [tag, v] of unknown ?? []) entries.push([String(tag), v]);
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${json(v)}`).join(",")}}`;
}

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString("hex");

/** `count` values of each kind, from `seed`. */
export function built(count: number, seed: number): string[] {
  const values = new Values(seed);
  const lines: string[] = [];
  for (let i = 0; i < count; i++) {
    const value = values.everything();
    // A unit struct is `{}` here and `null` in JSON.
    const meant = json({ ...value, ping: null, point: { ...value.point, ping: null } });
    lines.push(`built_everything ${hex(everything.encodeEverything(value))} ${meant}`);
  }
  for (let i = 0; i < count; i++) {
    const value = values.profile();
    lines.push(`built_profile ${hex(v2.encodeProfile(value))} ${json(value)}`);
  }
  return lines;
}
