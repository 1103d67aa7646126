import { decode, encode, ExtData } from "@msgpack/msgpack";

/** An integer: a number where it is exact (within 2^53), else a bigint. */
export type Int = number | bigint;

/** Fields a type does not know, by tag, kept and written back. */
export type UnknownFields = Map<Int, unknown>;

// Map keys other than integers come marked, so that every key reads back
// as what it was: "\u0000s" a string that would read as an integer (or
// starts with the mark), "\u0000b" a bigint, "\u0000f" a float, "\u0000v"
// any other key as its MessagePack bytes in hex.
function mapKeyConverter(key: unknown): string | number {
  if (typeof key === "string") {
    return /^(0|-?[1-9][0-9]*)$/.test(key) || key.startsWith("\u0000") || key === "__proto__" ? "\u0000s" + key : key;
  }
  if (typeof key === "number") {
    return Number.isInteger(key) ? String(key) : "\u0000f" + String(key);
  }
  if (typeof key === "bigint") {
    return "\u0000b" + key.toString();
  }
  return "\u0000v" + Array.from(encode(key), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The options to decode with: `readX` and `decodeX` expect these. */
export const decoderOptions = { useBigInt64: true, mapKeyConverter } as const;

/** A map key as it was on the wire. */
function keyOf(prop: string): unknown {
  if (!prop.startsWith("\u0000")) {
    return /^(0|-?[1-9][0-9]*)$/.test(prop) ? Number(prop) : prop;
  }
  const rest = prop.slice(2);
  switch (prop[1]) {
    case "s":
      return rest;
    case "b":
      return BigInt(rest);
    case "f":
      return Number(rest);
    default: {
      const bytes = new Uint8Array(rest.length / 2);
      for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(rest.slice(2 * i, 2 * i + 2), 16);
      return decode(bytes, decoderOptions);
    }
  }
}

type Reader<T> = (value: unknown, at: string) => T;
type Writer<T> = (w: MsgPackWriter, value: T) => void;

function fail(at: string, expected: string, value: unknown): never {
  const found = value === null ? "nil" : value instanceof Uint8Array ? "bytes" : Array.isArray(value) ? "array" : typeof value;
  throw new Error(`${at}: expected ${expected}, found ${found}`);
}

function readInt(value: unknown, at: string): Int {
  if (typeof value === "number" && Number.isInteger(value)) return value;
  if (typeof value === "bigint") return value >= -9007199254740991n && value <= 9007199254740991n ? Number(value) : value;
  return fail(at, "an integer", value);
}

function readFloat(value: unknown, at: string): number {
  if (typeof value === "number") return value;
  if (typeof value === "bigint") return Number(value);
  return fail(at, "a float", value);
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
  return value instanceof Date ? value : fail(at, "a timestamp", value);
}

function readAny(value: unknown): unknown {
  return value;
}

function isMap(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array) && !(value instanceof Date) && !(value instanceof ExtData);
}

function readArray<T>(item: Reader<T>): Reader<T[]> {
  return (value, at) => (Array.isArray(value) ? value.map((v, i) => item(v, `${at}[${i}]`)) : fail(at, "an array", value));
}

function readOptional<T>(inner: Reader<T>): Reader<T | null> {
  return (value, at) => (value === null ? null : inner(value, at));
}

function readMap<K, V>(key: Reader<K>, val: Reader<V>): Reader<Map<K, V>> {
  return (value, at) => {
    if (!isMap(value)) return fail(at, "a map", value);
    const out = new Map<K, V>();
    for (const prop of Object.keys(value)) out.set(key(keyOf(prop), `${at} key`), val(value[prop], `${at}[${prop}]`));
    return out;
  };
}

function readTuple(value: unknown, at: string, len: number): unknown[] {
  return Array.isArray(value) && value.length === len ? value : fail(at, `an array of ${len}`, value);
}

/** A struct's fields by tag (its decimal digits), from a map or, for a
 * tag-indexed array, an array (where nil marks a gap). */
function fieldsOf(value: unknown, at: string, array: boolean): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (array && Array.isArray(value)) {
    value.forEach((v, i) => {
      if (v !== null) out.set(String(i), v);
    });
    return out;
  }
  if (!isMap(value)) return fail(at, array ? "an array or a map" : "a map", value);
  for (const prop of Object.keys(value)) {
    const tag = keyOf(prop);
    if (typeof tag !== "number" && typeof tag !== "bigint") throw new Error(`${at}: key ${prop} is not a tag`);
    out.set(String(tag), value[prop]);
  }
  return out;
}

function required<T>(fields: Map<string, unknown>, tag: string, name: string, read: Reader<T>, at: string): T {
  if (!fields.has(tag)) throw new Error(`${at}: missing field \`${name}\` (tag ${tag})`);
  return read(fields.get(tag), `${at}.${name}`);
}

function optional<T>(fields: Map<string, unknown>, tag: string, read: Reader<T>, at: string): T | undefined {
  const value = fields.get(tag);
  return value === undefined || value === null ? undefined : read(value, at);
}

function defaulted<T>(fields: Map<string, unknown>, tag: string, read: Reader<T>, at: string, fallback: () => T): T {
  return fields.has(tag) ? read(fields.get(tag), at) : fallback();
}

function unknownOf(fields: Map<string, unknown>, known: string[]): UnknownFields | undefined {
  const out: UnknownFields = new Map();
  for (const [tag, value] of fields) if (!known.includes(tag)) out.set(readInt(BigInt(tag), "tag"), value);
  return out.size > 0 ? out : undefined;
}

function fromHex(hex: string): unknown {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return decode(bytes, decoderOptions);
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
  str(value: string): void {
    this.parts.push(encode(value));
  }
  bytes(value: Uint8Array): void {
    this.parts.push(encode(value));
  }
  timestamp(value: Date): void {
    this.parts.push(encode(value));
  }
  array(len: number): void {
    this.header(len, 0x90, 15, 0xdc);
  }
  map(len: number): void {
    this.header(len, 0x80, 15, 0xde);
  }
  /** A value as `decode(bytes, decoderOptions)` gives it. */
  any(value: unknown): void {
    if (value === null || value === undefined) this.nil();
    else if (typeof value === "boolean") this.bool(value);
    else if (typeof value === "number") Number.isInteger(value) ? this.int(value) : this.float(value);
    else if (typeof value === "bigint") this.int(value);
    else if (typeof value === "string") this.str(value);
    else if (value instanceof Uint8Array || value instanceof Date || value instanceof ExtData) this.parts.push(encode(value));
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

const writeInt: Writer<Int> = (w, v) => w.int(v);
const writeFloat: Writer<number> = (w, v) => w.float(v);
const writeBool: Writer<boolean> = (w, v) => w.bool(v);
const writeStr: Writer<string> = (w, v) => w.str(v);
const writeBytes: Writer<Uint8Array> = (w, v) => w.bytes(v);
const writeTimestamp: Writer<Date> = (w, v) => w.timestamp(v);
const writeAny: Writer<unknown> = (w, v) => w.any(v);

function writeArray<T>(item: Writer<T>): Writer<T[]> {
  return (w, v) => {
    w.array(v.length);
    for (const x of v) item(w, x);
  };
}

function writeOptional<T>(inner: Writer<T>): Writer<T | null> {
  return (w, v) => (v === null ? w.nil() : inner(w, v));
}

function writeMap<K, V>(key: Writer<K>, val: Writer<V>): Writer<Map<K, V>> {
  return (w, v) => {
    w.map(v.size);
    for (const [k, x] of v) {
      key(w, k);
      val(w, x);
    }
  };
}

type Entry = [Int, (w: MsgPackWriter) => void];

/** A struct's entries (in field order) and its unknown fields (in tag
 * order after them), as a map or, when `array`, a tag-indexed array with
 * nil in the gaps. */
function writeStruct(w: MsgPackWriter, entries: Entry[], unknown: UnknownFields | undefined, array: boolean): void {
  const rest: Entry[] = [...(unknown ?? new Map<Int, unknown>())]
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

function sameBytes<T>(write: Writer<T>, a: T, b: T): boolean {
  const x = new MsgPackWriter();
  write(x, a);
  const y = new MsgPackWriter();
  write(y, b);
  const [p, q] = [x.finish(), y.finish()];
  return p.length === q.length && p.every((byte, i) => byte === q[i]);
}
