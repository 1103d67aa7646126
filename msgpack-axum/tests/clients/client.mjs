// A Node client of the msgpack-axum example server, as a user would write it.
//
//     node client.mjs http://127.0.0.1:3000
//
// Node 20's global fetch plus @msgpack/msgpack from npm (`npm ci` in this
// folder). It asks for the profile as MessagePack and as JSON and checks
// the two decode to the same data, posts MessagePack and JSON and checks
// the echo, and checks a malformed body's error. Exits 1 with a message
// naming the request on the first mismatch; tests/clients.rs runs it
// against the example app.

import { isDeepStrictEqual } from "node:util";
import { decode, encode } from "@msgpack/msgpack";

const MSGPACK = "application/msgpack";
const JSON_TYPE = "application/json";

// The example server's profile (examples/server/app.rs, `profile()`).
const EXPECTED = {
  id: 1042,
  name: "Laravel MessagePack",
  roles: ["maintainer", "developer"],
  features: { negotiation: true, fallback: "json" },
};

class Mismatch extends Error {}

const show = (value) => JSON.stringify(value);

async function request(base, method, path, accept, body, contentType) {
  const headers = { Accept: accept };
  if (contentType !== undefined) headers["Content-Type"] = contentType;
  const response = await fetch(base + path, {
    method,
    headers,
    body,
    signal: AbortSignal.timeout(10_000),
  });
  return {
    status: response.status,
    headers: response.headers,
    body: new Uint8Array(await response.arrayBuffer()),
  };
}

function describe(method, path, accept, contentType) {
  const sent = contentType ? ` with Content-Type: ${contentType}` : "";
  return `${method} ${path} (Accept: ${accept})${sent}`;
}

function checkResponse(what, response, expectedStatus, expectedType) {
  if (response.status !== expectedStatus) {
    throw new Mismatch(`${what}: status ${response.status}, expected ${expectedStatus}`);
  }
  const contentType = response.headers.get("content-type") ?? "";
  if (contentType.split(";")[0].trim().toLowerCase() !== expectedType) {
    throw new Mismatch(`${what}: Content-Type ${show(contentType)}, expected ${expectedType}`);
  }
  // fetch joins repeated Vary headers with ", ".
  const vary = (response.headers.get("vary") ?? "").split(",").map((t) => t.trim().toLowerCase());
  if (!vary.includes("accept")) {
    throw new Mismatch(`${what}: Vary ${show(response.headers.get("vary"))} does not name Accept`);
  }
}

function decodeMsgPack(what, body) {
  try {
    // decode throws on trailing bytes: the body must be exactly one value.
    return decode(body);
  } catch (error) {
    throw new Mismatch(`${what}: body is not one MessagePack value (${error.message}): ${Buffer.from(body).toString("hex")}`);
  }
}

function decodeJson(what, body) {
  const text = new TextDecoder().decode(body);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new Mismatch(`${what}: body is not JSON (${error.message}): ${show(text)}`);
  }
}

function checkEqual(what, got, expected) {
  if (!isDeepStrictEqual(got, expected)) {
    throw new Mismatch(`${what}: decoded ${show(got)}, expected ${show(expected)}`);
  }
}

// GET as MessagePack and as JSON: both the expected profile.
async function checkGet(base, path) {
  const what = describe("GET", path, MSGPACK);
  const packed = await request(base, "GET", path, MSGPACK);
  checkResponse(what, packed, 200, MSGPACK);
  const fromMsgPack = decodeMsgPack(what, packed.body);

  const whatJson = describe("GET", path, JSON_TYPE);
  const json = await request(base, "GET", path, JSON_TYPE);
  checkResponse(whatJson, json, 200, JSON_TYPE);
  const fromJson = decodeJson(whatJson, json.body);

  checkEqual(`${what} against ${whatJson}`, fromMsgPack, fromJson);
  checkEqual(what, fromMsgPack, EXPECTED);
}

// POST a profile and get it back as MessagePack.
async function checkPost(base, path, contentType, body) {
  const what = describe("POST", path, MSGPACK, contentType);
  const reply = await request(base, "POST", path, MSGPACK, body, contentType);
  checkResponse(what, reply, 200, MSGPACK);
  checkEqual(what, decodeMsgPack(what, reply.body), EXPECTED);
}

// A malformed MessagePack body: 400 with a MessagePack error body.
async function checkMalformed(base, path) {
  // A one-entry map whose value is 0xc1, the byte MessagePack never uses.
  const body = new Uint8Array([0x81, 0xa2, 0x69, 0x64, 0xc1]);
  const what = `${describe("POST", path, MSGPACK, MSGPACK)} with a malformed body`;
  const reply = await request(base, "POST", path, MSGPACK, body, MSGPACK);
  checkResponse(what, reply, 400, MSGPACK);
  const error = decodeMsgPack(what, reply.body);
  if (error === null || typeof error !== "object" || !["error", "code", "offset"].every((k) => k in error)) {
    throw new Mismatch(`${what}: error body ${show(error)} lacks error, code or offset`);
  }
  if (typeof error.error !== "string" || typeof error.code !== "string") {
    throw new Mismatch(`${what}: error and code should be strings: ${show(error)}`);
  }
  if (!Number.isInteger(error.offset)) {
    throw new Mismatch(`${what}: offset should be an integer: ${show(error)}`);
  }
}

async function main(argv) {
  if (argv.length !== 1) {
    console.error("usage: node client.mjs BASE_URL");
    return 2;
  }
  const base = argv[0].replace(/\/+$/, "");
  const checks = [
    ["GET /api/profile as MessagePack and JSON", () => checkGet(base, "/api/profile")],
    ["GET /api/legacy/profile as MessagePack and JSON", () => checkGet(base, "/api/legacy/profile")],
    ["POST /api/profile a MessagePack body", () => checkPost(base, "/api/profile", MSGPACK, encode(EXPECTED))],
    ["POST /api/profile a JSON body", () => checkPost(base, "/api/profile", JSON_TYPE, JSON.stringify(EXPECTED))],
    ["POST /api/profile a malformed MessagePack body", () => checkMalformed(base, "/api/profile")],
  ];
  for (const [name, check] of checks) {
    try {
      await check();
    } catch (error) {
      if (error instanceof Mismatch) {
        console.error(`node client: FAILED: ${error.message}`);
      } else {
        const cause = error.cause ? ` (${error.cause.message ?? error.cause})` : "";
        console.error(`node client: FAILED: ${name}: request failed: ${error.message}${cause}`);
      }
      return 1;
    }
    console.log(`node client: ok: ${name}`);
  }
  console.log(`node client: all ${checks.length} checks passed against ${base}`);
  return 0;
}

process.exitCode = await main(process.argv.slice(2));
