import {
  decodeTimestampToTimeSpec,
  encode,
  encodeTimeSpecToTimestamp,
  EXT_TIMESTAMP,
  ExtData,
  ExtensionCodec,
} from "@msgpack/msgpack";

/** An integer: a number where it is exact (within 2^53), else a bigint. */
export type Int = number | bigint;

/** Fields a type does not know, by tag, kept and written back. */
export type UnknownFields = Map<Int, unknown>;

// Each generated module has its own classes, and values go from one
// module's reader to another's writer: an instance made by any of them is
// an instance of each (`instanceof` asks for a mark registered globally),
// so that none is written as a map, or without its nanoseconds.
const FLOAT32: unique symbol = Symbol.for("msgpack-codegen Float32");
const FLOAT64: unique symbol = Symbol.for("msgpack-codegen Float64");
const NANO_DATE: unique symbol = Symbol.for("msgpack-codegen NanoDate");

function hasMark(value: unknown, mark: symbol): boolean {
  return typeof value === "object" && value !== null && mark in value;
}

// Map keys other than strings come marked, so that every key reads back
// as what it was and in its place (JavaScript puts integer-like property
// names first): "\u0000i" an integer, "\u0000s" a string that would read
// as one (or starts with the mark), "\u0000b" a bigint, "\u0000f" a float,
// "\u0000v" any other key as its MessagePack bytes in hex.
function mapKeyConverter(key: unknown): string | number {
  if (typeof key === "string") {
    return /^(0|-?[1-9][0-9]*)$/.test(key) || key.startsWith("\u0000") || key === "__proto__" ? "\u0000s" + key : key;
  }
  if (typeof key === "number") {
    return (Number.isInteger(key) ? "\u0000i" : "\u0000f") + String(key);
  }
  if (typeof key === "bigint") {
    return "\u0000b" + key.toString();
  }
  // Written as the relay writes it back: bigints and NanoDates exact.
  const w = new MsgPackWriter();
  w.any(key);
  return "\u0000v" + Array.from(w.finish(), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** A `Date` that keeps the nanoseconds of a MessagePack timestamp past
 * its millisecond (`nanosecond`, 0 to 999999), so that it writes back
 * exactly: what the readers give for a timestamp when decoding with
 * `decoderOptions`. A timestamp member takes any valid `Date` (a plain one
 * has `nanosecond` 0). */
export class NanoDate extends Date {
  readonly [NANO_DATE] = true;
  readonly nanosecond: number;

  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasMark(value, NANO_DATE);
  }

  constructor(milliseconds: number, nanosecond = 0) {
    super(milliseconds);
    if (!Number.isInteger(nanosecond) || nanosecond < 0 || nanosecond > 999999) {
      throw new RangeError(`nanosecond must be an integer in 0..999999, not ${nanosecond}`);
    }
    this.nanosecond = nanosecond;
  }
}

/** The most seconds from 1970 a `Date` holds either way. */
const DATE_SECONDS = 8.64e12;

/** The timestamp of an extension's data: "invalid" for data no timestamp
 * has, "range" for one a `Date` cannot hold. */
function timestampOf(data: Uint8Array): NanoDate | "invalid" | "range" {
  if (data.length !== 4 && data.length !== 8 && data.length !== 12) return "invalid";
  const { sec, nsec } = decodeTimestampToTimeSpec(data);
  if (nsec > 999999999) return "invalid";
  const ms = sec * 1000 + Math.floor(nsec / 1e6);
  return Math.abs(ms) <= DATE_SECONDS * 1000 ? new NanoDate(ms, nsec % 1e6) : "range";
}

/** A timestamp's extension data, in the shortest form that holds it (as
 * Rust writes it). */
function timestampBytes(value: Date): Uint8Array {
  const ms = value.getTime();
  const sec = Math.floor(ms / 1000);
  const nsec = (ms - sec * 1000) * 1e6 + (value instanceof NanoDate ? value.nanosecond : 0);
  return encodeTimeSpecToTimestamp({ sec, nsec });
}

// Timestamps as NanoDate; one a `Date` cannot hold stays as its bytes
// (an `ExtData`), which write back as they came and fail a timestamp
// member with an error rather than turn into an Invalid Date.
const extensionCodec = new ExtensionCodec();
extensionCodec.register({
  type: EXT_TIMESTAMP,
  encode: () => null,
  decode: (data: Uint8Array) => {
    const date = timestampOf(data);
    return date instanceof NanoDate ? date : new ExtData(EXT_TIMESTAMP, data.slice());
  },
});

/** The options to decode with the package's `decode`, when not with
 * `decodeExact`. `decodeX(decode(bytes))` reads what fits the package's
 * defaults too, but without `useBigInt64` an integer beyond 2^53 comes
 * rounded (an error here, not a wrong number), without `mapKeyConverter` a
 * map key other than a string or a number is an error, and without
 * `extensionCodec` a timestamp loses what it has past the millisecond.
 * Even with them, a float in an `any` value or an unknown field comes as a
 * number: written back, a float 32 becomes a float 64 and an integral one
 * (`2.0`) the integer 2, which `decodeExact` avoids. */
export const decoderOptions = { useBigInt64: true, mapKeyConverter, extensionCodec } as const;

/** A bigint as an `Int`: a number where that is exact. */
function intOf(value: bigint): Int {
  return value >= -9007199254740991n && value <= 9007199254740991n ? Number(value) : value;
}

/** A map key as it was on the wire. */
function keyOf(prop: string): unknown {
  if (!prop.startsWith("\u0000")) {
    return /^(0|-?[1-9][0-9]*)$/.test(prop) ? Number(prop) : prop;
  }
  const rest = prop.slice(2);
  switch (prop[1]) {
    case "s":
      return rest;
    case "i":
      return Number(rest);
    case "b":
      return BigInt(rest);
    case "f":
      return Number(rest);
    default: {
      const bytes = new Uint8Array(rest.length / 2);
      for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(rest.slice(2 * i, 2 * i + 2), 16);
      return decodeExact(bytes);
    }
  }
}

type $Reader<T> = (value: unknown, at: string) => T;
type $Writer<T> = (w: MsgPackWriter, value: T, at: string) => void;

function fail(at: string, expected: string, value: unknown): never {
  const float = value instanceof Float32 || value instanceof Float64;
  const found = value === null ? "nil" : value instanceof Uint8Array ? "bytes" : Array.isArray(value) ? "array" : float ? "float" : typeof value;
  throw new Error(`${at}: expected ${expected}, found ${found}`);
}

function readInt(value: unknown, at: string): Int {
  if (typeof value === "number" && Number.isSafeInteger(value)) return value;
  if (typeof value === "number" && Number.isInteger(value)) {
    throw new Error(`${at}: ${value} is beyond 2^53, so it may have been rounded: decode with decoderOptions`);
  }
  if (typeof value === "bigint") return intOf(value);
  return fail(at, "an integer", value);
}

function outOfRange(at: string, value: Int, range: string): never {
  throw new Error(`${at}: ${String(value)} is out of range for ${range}`);
}

/** An integer type of at most 32 bits: always a number. */
function readNumber(range: string, min: number, max: number): $Reader<number> {
  return (value, at) => {
    const n = readInt(value, at);
    return typeof n === "number" && n >= min && n <= max ? n : outOfRange(at, n, range);
  };
}

function readInteger(range: string, min: bigint, max: bigint): $Reader<Int> {
  return (value, at) => {
    const n = readInt(value, at);
    return BigInt(n) >= min && BigInt(n) <= max ? n : outOfRange(at, n, range);
  };
}

const readU8 = readNumber("u8", 0, 0xff);
const readU16 = readNumber("u16", 0, 0xffff);
const readU32 = readNumber("u32", 0, 0xffffffff);
const readU64 = readInteger("u64", 0n, 0xffffffffffffffffn);
const readI8 = readNumber("i8", -0x80, 0x7f);
const readI16 = readNumber("i16", -0x8000, 0x7fff);
const readI32 = readNumber("i32", -0x80000000, 0x7fffffff);
const readI64 = readInteger("i64", -0x8000000000000000n, 0x7fffffffffffffffn);
const readAnyInt = readInteger("MessagePack", -0x8000000000000000n, 0xffffffffffffffffn);

/** A float: a number from `decode`, a `Float32` or `Float64` from
 * `decodeExact`, or an integer (as Rust reads one into a float). */
function readFloat(value: unknown, at: string): number {
  if (typeof value === "number") return value;
  if (value instanceof Float32 || value instanceof Float64) return value.value;
  if (typeof value === "bigint") return Number(value);
  return fail(at, "a float", value);
}

/** A float as Rust's `f32` reads it: rounded to 32 bits, infinite past
 * their range. */
function readF32(value: unknown, at: string): number {
  return Math.fround(readFloat(value, at));
}

function readBool(value: unknown, at: string): boolean {
  return typeof value === "boolean" ? value : fail(at, "a bool", value);
}

function readStr(value: unknown, at: string): string {
  return typeof value === "string" ? value : fail(at, "a string", value);
}

function readBytes(value: unknown, at: string): Uint8Array {
  return value instanceof Uint8Array ? value : fail(at, "bytes", value);
}

function readTimestamp(value: unknown, at: string): Date {
  if (value instanceof Date && !Number.isNaN(value.getTime())) return value;
  if (value instanceof ExtData && value.type === EXT_TIMESTAMP) {
    // `decodeExact` keeps one not in its shortest form as its bytes.
    const date = value.data instanceof Uint8Array ? timestampOf(value.data) : "invalid";
    if (date instanceof NanoDate) return date;
    if (date === "invalid") throw new Error(`${at}: invalid timestamp`);
    throw new Error(`${at}: the timestamp is out of range for Date (${DATE_SECONDS} s either way of 1970)`);
  }
  return fail(at, "a timestamp", value);
}

function readAny(value: unknown, _at?: string): unknown {
  return value;
}

function isMap(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    !(value instanceof Uint8Array) &&
    !(value instanceof Date) &&
    !(value instanceof ExtData) &&
    !(value instanceof Float32) &&
    !(value instanceof Float64)
  );
}

function readArray<T>(item: $Reader<T>): $Reader<T[]> {
  return (value, at) => (Array.isArray(value) ? value.map((v, i) => item(v, `${at}[${i}]`)) : fail(at, "an array", value));
}

function readOptional<T>(inner: $Reader<T>): $Reader<T | null> {
  return (value, at) => (value === null ? null : inner(value, at));
}

/** A map key as an error's path shows it, without the marks of
 * `mapKeyConverter`: a string quoted, a number as it reads, any other key
 * as its MessagePack bytes in hex. */
function shownKey(key: unknown, prop: string): string {
  if (typeof key === "string") return JSON.stringify(key);
  if (typeof key === "number" || typeof key === "bigint") return String(key);
  return prop.startsWith("\u0000v") ? prop.slice(2) : String(key);
}

function readMap<K, V>(key: $Reader<K>, val: $Reader<V>): $Reader<Map<K, V>> {
  return (value, at) => {
    if (!isMap(value)) return fail(at, "a map", value);
    const out = new Map<K, V>();
    for (const prop of Object.keys(value)) {
      const wire = keyOf(prop);
      out.set(key(wire, `${at} key`), val(value[prop], `${at}[${shownKey(wire, prop)}]`));
    }
    return out;
  };
}

/** A map keyed by strings: a key that looks like a number is the string
 * it was, from `decode(bytes)` as from `decode(bytes, decoderOptions)`. */
function readStrMap<V>(val: $Reader<V>): $Reader<Map<string, V>> {
  return (value, at) => {
    if (!isMap(value)) return fail(at, "a map", value);
    const out = new Map<string, V>();
    for (const prop of Object.keys(value)) {
      const key = prop.startsWith("\u0000") ? keyOf(prop) : prop;
      out.set(readStr(key, `${at} key`), val(value[prop], `${at}[${shownKey(key, prop)}]`));
    }
    return out;
  };
}

function readTuple(value: unknown, at: string, len: number): unknown[] {
  return Array.isArray(value) && value.length === len ? value : fail(at, `an array of ${len}`, value);
}

/** How far past its largest field tag a tag-indexed array struct keeps
 * an unknown field read from a map, as Rust's derive does: written back,
 * a kept field sits at its tag's position with nil before it. */
const ARRAY_UNKNOWN_GAP = 64n;

/** A struct's fields by tag (its decimal digits), from a map or, for a
 * tag-indexed array, an array (where nil marks a gap, except at `nils`:
 * the tags of fields always written whose type reads nil, where nil is
 * the value). A map's keys are tags or, as the derive also reads them,
 * field names (`names`, each field's tag by name); a negative integer or
 * another name the derive skips, and so does this, and any other key is an
 * error. An array struct that keeps unknown fields
 * (`known`, its tags) keeps from a map what Rust keeps: an unknown tag no
 * farther than `ARRAY_UNKNOWN_GAP` past its largest (the entry
 * `0xcf <2^40> 0x01` would write back as 2^40 nils), and not nil (a gap
 * in the array it writes). */
function fieldsOf(
  value: unknown,
  at: string,
  array: boolean,
  known?: string[],
  nils?: string[],
  names?: Map<string, string>,
): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (array && Array.isArray(value)) {
    value.forEach((v, i) => {
      if (v !== null || nils?.includes(String(i))) out.set(String(i), v);
    });
    return out;
  }
  if (!isMap(value)) return fail(at, array ? "an array or a map" : "a map", value);
  const last = (known ?? []).reduce((max, tag) => (BigInt(tag) > max ? BigInt(tag) : max), 0n);
  for (const prop of Object.keys(value)) {
    let key = keyOf(prop);
    if (key instanceof Uint8Array) {
      try {
        key = new TextDecoder("utf-8", { fatal: true }).decode(key);
      } catch {
        continue;
      }
    }
    let tag: string;
    if (typeof key === "string") {
      const named = names?.get(key);
      if (named === undefined) continue;
      tag = named;
    } else if (typeof key === "bigint" || (typeof key === "number" && Number.isInteger(key))) {
      if (BigInt(key) < 0n) continue;
      // A tag beyond 2^53 that came as a number was rounded to another tag.
      tag = String(readInt(key, `${at}: tag`));
    } else {
      throw new Error(`${at}: key ${shownKey(key, prop)} is neither a field number nor a name`);
    }
    if (out.has(tag)) {
      const name = [...(names ?? [])].find(([, t]) => t === tag)?.[0];
      throw new Error(`${at}: duplicate field ${name === undefined ? `with tag ${tag}` : `\`${name}\` (tag ${tag})`}`);
    }
    const unknown = known !== undefined && !known.includes(tag);
    if (unknown && (value[prop] === null || BigInt(tag) > last + ARRAY_UNKNOWN_GAP)) continue;
    out.set(tag, value[prop]);
  }
  return out;
}

function required<T>(fields: Map<string, unknown>, tag: string, name: string, read: $Reader<T>, at: string): T {
  if (!fields.has(tag)) throw new Error(`${at}: missing field \`${name}\` (tag ${tag})`);
  return read(fields.get(tag), `${at}.${name}`);
}

function optional<T>(fields: Map<string, unknown>, tag: string, read: $Reader<T>, at: string): T | undefined {
  const value = fields.get(tag);
  return value === undefined || value === null ? undefined : read(value, at);
}

function defaulted<T>(fields: Map<string, unknown>, tag: string, read: $Reader<T>, at: string, fallback: () => T): T {
  return fields.has(tag) ? read(fields.get(tag), at) : fallback();
}

function noDefault(at: string, name: string, tag: string): never {
  throw new Error(`${at}: missing field \`${name}\` (tag ${tag}), whose default the schema does not have`);
}

function unknownOf(fields: Map<string, unknown>, known: string[]): UnknownFields | undefined {
  const out: UnknownFields = new Map();
  for (const [tag, value] of fields) if (!known.includes(tag)) out.set(readInt(BigInt(tag), "tag"), value);
  return out.size > 0 ? out : undefined;
}

function fromHex(hex: string): unknown {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return decodeExact(bytes);
}

/** Writes MessagePack the way the Rust side does. `@msgpack/msgpack`
 * encodes the leaves; the containers are written here, since its encoder
 * writes only string map keys and structs are keyed by integer tags. */
export class MsgPackWriter {
  private parts: Uint8Array[] = [];

  private raw(...bytes: number[]): void {
    this.parts.push(Uint8Array.from(bytes));
  }

  private header(len: number, fix: number, fixMax: number, w16: number): void {
    if (len <= fixMax) this.raw(fix | len);
    else if (len < 0x10000) this.raw(w16, len >> 8, len & 0xff);
    else this.raw(w16 + 1, len >>> 24, (len >>> 16) & 0xff, (len >>> 8) & 0xff, len & 0xff);
  }

  nil(): void {
    this.raw(0xc0);
  }
  bool(value: boolean): void {
    this.raw(value ? 0xc3 : 0xc2);
  }
  int(value: Int): void {
    if (typeof value === "bigint" && value >= -9007199254740991n && value <= 9007199254740991n) value = Number(value);
    this.parts.push(typeof value === "bigint" ? encode(value, { useBigInt64: true }) : encode(value));
  }
  float(value: number): void {
    const bytes = new Uint8Array(9);
    bytes[0] = 0xcb;
    new DataView(bytes.buffer).setFloat64(1, value);
    this.parts.push(bytes);
  }
  /** A float 32 (what Rust writes for an `f32`): the value rounded to
   * the nearest `f32`, as Rust's `as f32` does. */
  float32(value: number): void {
    const bytes = new Uint8Array(5);
    bytes[0] = 0xca;
    new DataView(bytes.buffer).setFloat32(1, value);
    this.parts.push(bytes);
  }
  str(value: string): void {
    this.parts.push(encode(value));
  }
  bytes(value: Uint8Array): void {
    this.parts.push(encode(value));
  }
  /** A timestamp, with the nanoseconds of a `NanoDate`. */
  timestamp(value: Date): void {
    this.parts.push(encode(new ExtData(EXT_TIMESTAMP, timestampBytes(value))));
  }
  array(len: number): void {
    this.header(len, 0x90, 15, 0xdc);
  }
  map(len: number): void {
    this.header(len, 0x80, 15, 0xde);
  }
  /** A value as `decodeExact` or `decode(bytes, decoderOptions)` gives
   * it: a `Float32` or `Float64` at its width, with its bytes; a number as
   * an integer when it is one, else (`-0` too) as a float 64. */
  any(value: unknown): void {
    if (value === null || value === undefined) this.nil();
    else if (typeof value === "boolean") this.bool(value);
    else if (value instanceof Float32) this.parts.push(Uint8Array.of(0xca, ...value.bytes));
    else if (value instanceof Float64) this.parts.push(Uint8Array.of(0xcb, ...value.bytes));
    else if (typeof value === "number") Number.isInteger(value) && !Object.is(value, -0) ? this.int(value) : this.float(value);
    else if (typeof value === "bigint") this.int(value);
    else if (typeof value === "string") this.str(value);
    else if (value instanceof Date) this.timestamp(value);
    else if (value instanceof Uint8Array || value instanceof ExtData) this.parts.push(encode(value));
    else if (Array.isArray(value)) {
      this.array(value.length);
      for (const item of value) this.any(item);
    } else if (value instanceof Map) {
      this.map(value.size);
      for (const [k, v] of value) {
        this.any(k);
        this.any(v);
      }
    } else {
      const record = value as Record<string, unknown>;
      const props = Object.keys(record);
      this.map(props.length);
      for (const prop of props) {
        this.any(keyOf(prop));
        this.any(record[prop]);
      }
    }
  }
  finish(): Uint8Array {
    const out = new Uint8Array(this.parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const part of this.parts) {
      out.set(part, at);
      at += part.length;
    }
    return out;
  }
}

/** The writer of an integer type: an error naming the member for a
 * value out of its range, or a number beyond 2^53 (a bigint holds it). */
function writeInteger(range: string, min: bigint, max: bigint): $Writer<Int> {
  return (w, v, at) => {
    if (typeof v === "number" && Number.isInteger(v) && !Number.isSafeInteger(v)) {
      throw new Error(`${at}: ${v} is beyond 2^53, so it may have been rounded: give it as a bigint`);
    }
    if (typeof v !== "bigint" && !(typeof v === "number" && Number.isInteger(v))) fail(at, "an integer", v);
    if (BigInt(v) < min || BigInt(v) > max) outOfRange(at, v, range);
    w.int(v);
  };
}

const writeU8: $Writer<number> = writeInteger("u8", 0n, 0xffn);
const writeU16: $Writer<number> = writeInteger("u16", 0n, 0xffffn);
const writeU32: $Writer<number> = writeInteger("u32", 0n, 0xffffffffn);
const writeU64 = writeInteger("u64", 0n, 0xffffffffffffffffn);
const writeI8: $Writer<number> = writeInteger("i8", -0x80n, 0x7fn);
const writeI16: $Writer<number> = writeInteger("i16", -0x8000n, 0x7fffn);
const writeI32: $Writer<number> = writeInteger("i32", -0x80000000n, 0x7fffffffn);
const writeI64 = writeInteger("i64", -0x8000000000000000n, 0x7fffffffffffffffn);
const writeAnyInt = writeInteger("MessagePack", -0x8000000000000000n, 0xffffffffffffffffn);
const writeFloat: $Writer<number> = (w, v, at) => (typeof v === "number" ? w.float(v) : fail(at, "a number", v));
const writeF32: $Writer<number> = (w, v, at) => {
  if (typeof v !== "number") return fail(at, "a number", v);
  if (Number.isFinite(v) && !Number.isFinite(Math.fround(v))) throw new Error(`${at}: ${v} is out of range for f32`);
  w.float32(v);
};
const writeBool: $Writer<boolean> = (w, v, at) => (typeof v === "boolean" ? w.bool(v) : fail(at, "a bool", v));
const writeStr: $Writer<string> = (w, v, at) => (typeof v === "string" ? w.str(v) : fail(at, "a string", v));
const writeBytes: $Writer<Uint8Array> = (w, v, at) => (v instanceof Uint8Array ? w.bytes(v) : fail(at, "bytes", v));
const writeTimestamp: $Writer<Date> = (w, v, at) =>
  v instanceof Date && !Number.isNaN(v.getTime()) ? w.timestamp(v) : fail(at, "a valid Date", v);
const writeAny: $Writer<unknown> = (w, v) => w.any(v);

function writeArray<T>(item: $Writer<T>): $Writer<T[]> {
  return (w, v, at) => {
    if (!Array.isArray(v)) fail(at, "an array", v);
    w.array(v.length);
    v.forEach((x, i) => item(w, x, `${at}[${i}]`));
  };
}

function writeOptional<T>(inner: $Writer<T>): $Writer<T | null> {
  return (w, v, at) => (v === null ? w.nil() : inner(w, v, at));
}

type $Compare<T> = (a: T, b: T) => number;

const compareInt: $Compare<Int> = (a, b) => (BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0);
const compareBool: $Compare<boolean> = (a, b) => Number(a) - Number(b);

/** By code point, as Rust orders strings (by their UTF-8). */
function compareStr(a: string, b: string): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    let [x, y] = [a.charCodeAt(i), b.charCodeAt(i)];
    if (x === y) continue;
    // UTF-16 puts the surrogates of code points past U+FFFF before
    // U+E000..U+FFFF; code points put them after.
    if (x >= 0xd800 && y >= 0xd800) [x, y] = [x >= 0xe000 ? x - 0x800 : x + 0x2000, y >= 0xe000 ? y - 0x800 : y + 0x2000];
    return x - y;
  }
  return a.length - b.length;
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

function compareTuple(...items: $Compare<never>[]): $Compare<unknown[]> {
  return (a, b) => {
    for (let i = 0; i < items.length; i++) {
      const order = (items[i] as $Compare<unknown>)(a[i], b[i]);
      if (order !== 0) return order;
    }
    return 0;
  };
}

/** Lexicographically, a shorter array before one it begins, as Rust
 * orders a `Vec`. */
function compareArray<T>(item: $Compare<T>): $Compare<T[]> {
  return (a, b) => {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      const order = item(a[i]!, b[i]!);
      if (order !== 0) return order;
    }
    return a.length - b.length;
  };
}

/** A map's entries, in key order when `compare` is given (as Rust's
 * `BTreeMap` writes them), else in the `Map`'s order. */
function writeMap<K, V>(key: $Writer<K>, val: $Writer<V>, compare: $Compare<K> | undefined): $Writer<Map<K, V>> {
  return (w, v, at) => {
    if (!(v instanceof Map)) fail(at, "a Map", v);
    w.map(v.size);
    const entries = compare === undefined ? [...v] : [...v].sort(([a], [b]) => compare(a, b));
    for (const [k, x] of entries) {
      key(w, k, `${at} key`);
      val(w, x, `${at}[${String(k)}]`);
    }
  };
}

type $Entry = [Int, (w: MsgPackWriter) => void];

/** A struct's entries (in field order) and its unknown fields (in tag
 * order after them), as a map or, when `array`, a tag-indexed array with
 * nil in the gaps. */
function writeStruct(
  w: MsgPackWriter,
  entries: $Entry[],
  unknown: UnknownFields | undefined,
  array: boolean,
  known: string[],
  at: string,
): void {
  // Written back, an unknown field with a known tag would repeat a key.
  for (const tag of unknown?.keys() ?? []) {
    if (known.includes(BigInt(tag).toString())) throw new Error(`${at}: unknown field with tag ${tag}, the tag of a known field`);
  }
  const rest: $Entry[] = [...(unknown ?? new Map<Int, unknown>())]
    .sort(([a], [b]) => (BigInt(a) < BigInt(b) ? -1 : 1))
    .map(([tag, value]) => [tag, (w) => w.any(value)]);
  const all = entries.concat(rest);
  if (!array) {
    w.map(all.length);
    for (const [tag, write] of all) {
      w.int(tag);
      write(w);
    }
    return;
  }
  const byTag = new Map(all.map(([tag, write]) => [Number(tag), write]));
  const len = all.length === 0 ? 0 : Math.max(...byTag.keys()) + 1;
  w.array(len);
  for (let i = 0; i < len; i++) (byTag.get(i) ?? ((w: MsgPackWriter) => w.nil()))(w);
}

/** Refuses a value of an array struct's field left out at its default
 * that writes nil: the array would read that as the field left out. */
function notNil<T>(write: $Writer<T>, value: T, valueAt: string, at: string, name: string, tag: number | bigint): void {
  const w = new MsgPackWriter();
  write(w, value, valueAt);
  const bytes = w.finish();
  if (bytes.length === 1 && bytes[0] === 0xc0) {
    throw new Error(`${at}: field \`${name}\` (tag ${tag}) is not its default but writes nil, which an #[msgpack(array)] struct reads as the field left out`);
  }
}

function sameBytes<T>(write: $Writer<T>, a: T, b: T, at: string): boolean {
  const x = new MsgPackWriter();
  write(x, a, at);
  const y = new MsgPackWriter();
  write(y, b, at);
  const [p, q] = [x.finish(), y.finish()];
  return p.length === q.length && p.every((byte, i) => byte === q[i]);
}
