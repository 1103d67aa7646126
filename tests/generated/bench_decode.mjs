// How long the exact decoder takes against @msgpack/msgpack's, on the
// values the cross-language test sends (build/ts-in.txt, written by
// `cargo test -p msgpack-tests --test codegen`): node bench_decode.mjs
import { readFileSync } from "node:fs";
import { decode } from "@msgpack/msgpack";
import * as e from "./build/golden/everything.js";

// Values without floats or extensions: what both decoders read alike.
const inputs = readFileSync("build/ts-in.txt", "utf8")
  .split("\n")
  .filter((line) => line.startsWith("package_everything "))
  .map((line) => Buffer.from(line.split(" ")[1], "hex"));
const bytes = inputs.reduce((n, b) => n + b.length, 0);

function time(name, read) {
  for (let i = 0; i < 200; i++) for (const b of inputs) read(b);
  const rounds = 2000;
  const start = process.hrtime.bigint();
  for (let i = 0; i < rounds; i++) for (const b of inputs) read(b);
  const ns = Number(process.hrtime.bigint() - start);
  console.log(`${name}: ${(ns / rounds / inputs.length / 1000).toFixed(1)} us a value`);
}

console.log(`${inputs.length} values of Everything, ${(bytes / inputs.length).toFixed(0)} bytes each on average`);
time("decode(bytes, decoderOptions)", (b) => decode(b, e.decoderOptions));
time("decodeExact(bytes)", (b) => e.decodeExact(b));
time("decodeEverything(decode(bytes, decoderOptions))", (b) => e.decodeEverything(decode(b, e.decoderOptions)));
time("decodeEverything(decodeExact(bytes))", (b) => e.decodeEverything(e.decodeExact(b)));
