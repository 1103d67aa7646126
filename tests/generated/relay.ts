// Reads the values Rust wrote with the generated readers and writes them
// back; then writes values built here (built.ts). Run by
// tests/tests/codegen/cross.rs: node build/relay.js IN OUT COUNT SEED, each
// line of IN and OUT `kind hex` (or, for a value that fails, `kind !message`).
import { readFileSync, writeFileSync } from "node:fs";
import { decode } from "@msgpack/msgpack";
import { built } from "./built.js";
import * as everything from "./golden/everything.js";
import * as v1 from "./golden/profile_v1.js";
import * as v2 from "./golden/profile_v2.js";

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString("hex");
const relayV1 = (b: Uint8Array): Uint8Array => v1.encodeProfile(v1.decodeProfile(decode(b, v1.decoderOptions)));
const relayV2 = (b: Uint8Array): Uint8Array => v2.encodeProfile(v2.decodeProfile(decode(b, v2.decoderOptions)));
const relays: Record<string, (bytes: Uint8Array) => Uint8Array> = {
  everything: (b) => everything.encodeEverything(everything.decodeEverything(decode(b, everything.decoderOptions))),
  v1: relayV1,
  v2: relayV2,
  v2_by_v1: relayV1,
  v1_by_v2: relayV2,
  status: (b) => everything.encodeStatus(everything.decodeStatus(decode(b, everything.decoderOptions))),
  figure: (b) => everything.encodeFigure(everything.decodeFigure(decode(b, everything.decoderOptions))),
  // `decode` without options: the package's defaults.
  plain_v1: (b) => v1.encodeProfile(v1.decodeProfile(decode(b))),
  error_v1: relayV1,
  error_range: (b) => everything.encodeFigure(everything.decodeFigure(decode(b, everything.decoderOptions))),
  error_time: (b) => everything.encodeEverything(everything.decodeEverything(decode(b, everything.decoderOptions))),
  error_level: (b) => everything.encodeLevel(everything.decodeLevel(decode(b, everything.decoderOptions))),
  error_figure: (b) => everything.encodeFigure(everything.decodeFigure(decode(b, everything.decoderOptions))),
};

const [input, output, count, seed] = process.argv.slice(2);
const lines: string[] = [];
for (const line of readFileSync(input, "utf8").split("\n")) {
  if (line === "") continue;
  const [kind, data] = line.split(" ");
  const relay = relays[kind];
  if (relay === undefined) throw new Error(`unknown kind ${kind}`);
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
  ["built_error_known", () => everything.encodePoint({ x: 1, y: 2, $unknown: new Map([[1, "again"]]) })],
];
for (const [kind, write] of refused) {
  try {
    lines.push(`${kind} ${hex(write())}`);
  } catch (error) {
    lines.push(`${kind} !${error instanceof Error ? error.message : String(error)}`);
  }
}
writeFileSync(output, lines.join("\n") + "\n");
