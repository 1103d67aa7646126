// The exact decoder, appended to prelude.ts in every generated module:
// floats kept at their width and with their bytes, so that `any` values
// and unknown fields write back as they came.

/** A float 32 as `decodeExact` gives it (in an `any` value or an unknown
 * field), and what such a value takes to write one: its four bytes are
 * kept (a NaN's payload too, which a number may lose), so it writes back
 * as it came, at its width. A member typed `f32` or `f64` reads it as its
 * `value`. */
export class Float32 {
  readonly [FLOAT32] = true;
  /** The float's bytes, big-endian, as on the wire. */
  readonly bytes = new Uint8Array(4);

  static [Symbol.hasInstance](value: unknown): boolean {
    return hasMark(value, FLOAT32);
  }

  /** `value` rounded to float 32, as Rust's `as f32` does. */
  constructor(value: number) {
    new DataView(this.bytes.buffer).setFloat32(0, value);
  }

  /** The float 32 of these four bytes (big-endian), kept as they are. */
  static fromBytes(bytes: Uint8Array): Float32 {
    const float = new Float32(0);
    float.bytes.set(bytes);
    return float;
  }

  get value(): number {
    return new DataView(this.bytes.buffer).getFloat32(0);
  }

  valueOf(): number {
    return this.value;
  }
}

/** A float 64 as `decodeExact` gives it: kept apart from an integer (a
 * number `2` would write back as the integer 2), with its eight bytes. */
export class Float64 {
  readonly [FLOAT64] = true;
  /** The float's bytes, big-endian, as on the wire. */
  readonly bytes = new Uint8Array(8);

  static [Symbol.hasInstance](value: unknown): boolean {
    return hasMark(value, FLOAT64);
  }

  constructor(value: number) {
    new DataView(this.bytes.buffer).setFloat64(0, value);
  }

  /** The float 64 of these eight bytes (big-endian), kept as they are. */
  static fromBytes(bytes: Uint8Array): Float64 {
    const float = new Float64(0);
    float.bytes.set(bytes);
    return float;
  }

  get value(): number {
    return new DataView(this.bytes.buffer).getFloat64(0);
  }

  valueOf(): number {
    return this.value;
  }
}

/** How deep arrays and maps may nest in what `decodeExact` reads: as in
 * what Rust reads by default (`Limits`), which would refuse deeper values. */
const MAX_DEPTH = 128;

// `ignoreBOM`: keep a string's leading U+FEFF, which the decoder would drop.
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** Decodes MessagePack for the readers, so that what they keep without
 * knowing it (`any` values, unknown fields) writes back byte for byte, as
 * Rust's `Value` and `UnknownFields` do: the values `decode(bytes,
 * decoderOptions)` gives, except that an integer is a bigint only past
 * 2^53, each float comes as a `Float32` or a `Float64`, and a timestamp that would not write back as it came (not
 * in its shortest form, invalid, or past `Date`) as its `ExtData`. Errors
 * are Rust's, with the byte offset: `unexpected end of input at offset 3`,
 * `trailing bytes after the value at offset 1`, `invalid UTF-8 in string
 * at offset 0`, `reserved marker 0xc1 at offset 0`, `nesting exceeds the
 * depth limit of 128 at offset 128`. */
export function decodeExact(bytes: Uint8Array): unknown {
  const reader = new $ExactReader(bytes);
  const value = reader.value(0);
  if (reader.pos !== bytes.length) throw new Error(`trailing bytes after the value at offset ${reader.pos}`);
  return value;
}

class $ExactReader {
  pos = 0;
  /** Values still to read, across every open array and map: each takes a
   * byte at least, so together they must fit in what is left, as Rust's
   * `Owed` checks (one container at a time, nested headers could each
   * claim the whole rest, and the error would come later than Rust's). */
  private owed = 1;
  private readonly view: DataView;

  constructor(private readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  /** Where the next `n` bytes start, past which it moves. */
  private take(n: number): number {
    if (n > this.bytes.length - this.pos) throw new Error(`unexpected end of input at offset ${this.bytes.length}`);
    this.pos += n;
    return this.pos - n;
  }

  private u8(): number {
    return this.view.getUint8(this.take(1));
  }
  private u16(): number {
    return this.view.getUint16(this.take(2));
  }
  private u32(): number {
    return this.view.getUint32(this.take(4));
  }

  /** A copy (a Node `Buffer`'s `slice` would share its memory). */
  private slice(n: number): Uint8Array {
    const at = this.take(n);
    return new Uint8Array(this.bytes.subarray(at, at + n));
  }

  value(depth: number): unknown {
    const at = this.pos;
    this.owed--;
    const head = this.u8();
    if (head <= 0x7f) return head;
    if (head >= 0xe0) return head - 0x100;
    if (head <= 0x8f) return this.map(head & 0x0f, at, depth);
    if (head <= 0x9f) return this.array(head & 0x0f, at, depth);
    if (head <= 0xbf) return this.str(head & 0x1f, at);
    switch (head) {
      case 0xc0:
        return null;
      case 0xc2:
        return false;
      case 0xc3:
        return true;
      case 0xc4:
        return this.slice(this.u8());
      case 0xc5:
        return this.slice(this.u16());
      case 0xc6:
        return this.slice(this.u32());
      case 0xc7:
        return this.ext(this.u8());
      case 0xc8:
        return this.ext(this.u16());
      case 0xc9:
        return this.ext(this.u32());
      case 0xca:
        return Float32.fromBytes(this.slice(4));
      case 0xcb:
        return Float64.fromBytes(this.slice(8));
      case 0xcc:
        return this.u8();
      case 0xcd:
        return this.u16();
      case 0xce:
        return this.u32();
      case 0xcf:
        return intOf(this.view.getBigUint64(this.take(8)));
      case 0xd0:
        return this.view.getInt8(this.take(1));
      case 0xd1:
        return this.view.getInt16(this.take(2));
      case 0xd2:
        return this.view.getInt32(this.take(4));
      case 0xd3:
        return intOf(this.view.getBigInt64(this.take(8)));
      case 0xd4:
      case 0xd5:
      case 0xd6:
      case 0xd7:
      case 0xd8:
        return this.ext(1 << (head - 0xd4));
      case 0xd9:
        return this.str(this.u8(), at);
      case 0xda:
        return this.str(this.u16(), at);
      case 0xdb:
        return this.str(this.u32(), at);
      case 0xdc:
        return this.array(this.u16(), at, depth);
      case 0xdd:
        return this.array(this.u32(), at, depth);
      case 0xde:
        return this.map(this.u16(), at, depth);
      case 0xdf:
        return this.map(this.u32(), at, depth);
      default:
        throw new Error(`reserved marker 0xc1 at offset ${at}`);
    }
  }

  private str(len: number, at: number): string {
    const start = this.take(len);
    try {
      return utf8.decode(this.bytes.subarray(start, start + len));
    } catch {
      throw new Error(`invalid UTF-8 in string at offset ${at}`);
    }
  }

  private ext(len: number): unknown {
    const type = this.view.getInt8(this.take(1));
    const data = this.slice(len);
    if (type !== EXT_TIMESTAMP) return new ExtData(type, data);
    const date = timestampOf(data);
    return date instanceof NanoDate && equalBytes(timestampBytes(date), data) ? date : new ExtData(type, data);
  }

  /** Checks the depth and that the input holds `len` items of a byte at
   * least, with those still owed, before anything is allocated for them. */
  private enter(len: number, at: number, depth: number): void {
    if (depth >= MAX_DEPTH) throw new Error(`nesting exceeds the depth limit of ${MAX_DEPTH} at offset ${at}`);
    if (this.owed + len > this.bytes.length - this.pos) throw new Error(`unexpected end of input at offset ${this.bytes.length}`);
    this.owed += len;
  }

  private array(len: number, at: number, depth: number): unknown[] {
    this.enter(len, at, depth);
    const out: unknown[] = [];
    for (let i = 0; i < len; i++) out.push(this.value(depth + 1));
    return out;
  }

  /** A map, refused when a key repeats (an object holds one of each,
   * and keeping the last would write back another map than came). */
  private map(len: number, at: number, depth: number): Record<string, unknown> {
    this.enter(2 * len, at, depth);
    const out: Record<string, unknown> = {};
    for (let i = 0; i < len; i++) {
      const keyAt = this.pos;
      const key = mapKeyConverter(this.value(depth + 1));
      if (Object.prototype.hasOwnProperty.call(out, key)) throw new Error(`map key at offset ${keyAt} repeats an earlier one`);
      out[key] = this.value(depth + 1);
    }
    return out;
  }
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}
