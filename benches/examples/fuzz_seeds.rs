//! Writes the fuzz targets' seed corpus, `fuzz/corpus/<target>/`: the
//! examples of the MessagePack specification (every format, its edges and
//! hostile headers), the benchmark fixtures (whole or cut to a few
//! records) in every encoding, messages of the types the targets
//! decode into, and the HTTP headers and bodies of msgpack-axum's tests.
//!
//! ```sh
//! cargo run -p msgpack-benches --example fuzz_seeds
//! ```
//!
//! Deterministic: running it again rewrites the same files. Files already
//! there that it does not write (inputs the fuzzer found and someone
//! added) are kept.

#[path = "../../fuzz/src/types.rs"]
#[allow(dead_code)]
mod types;

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

use msgpack_benches::fixtures;
use msgpack_benches::model::{array, plain, tagged, Convert};
use msgpack_serde::{msgpack, to_vec, to_vec_compact, Timestamp, UnknownFields, Value};
use types::{Address, Auth, Customer, Kind, Line, Order, Param, Plain, Request, Status, Tally};

/// A named seed.
type Seed = (String, Vec<u8>);

fn seed(name: &str, bytes: impl Into<Vec<u8>>) -> Seed {
    (name.to_string(), bytes.into())
}

/// One value of every format of the specification, its boundaries,
/// encodings that are valid but not the smallest, and the inputs the
/// hostile-input tests use.
fn spec() -> Vec<Seed> {
    let mut seeds = vec![
        seed("nil", [0xc0]),
        seed("false", [0xc2]),
        seed("true", [0xc3]),
        seed("positive-fixint", [0x7f]),
        seed("negative-fixint", [0xe0]),
        seed("uint8", [0xcc, 0xff]),
        seed("uint16", [0xcd, 0x01, 0x00]),
        seed("uint32", [0xce, 0x00, 0x01, 0x00, 0x00]),
        seed("uint64", [0xcf, 0x80, 0, 0, 0, 0, 0, 0, 0]),
        seed("int8", [0xd0, 0x80]),
        seed("int16", [0xd1, 0x80, 0x00]),
        seed("int32", [0xd2, 0x80, 0, 0, 0]),
        seed("int64", [0xd3, 0x80, 0, 0, 0, 0, 0, 0, 0]),
        seed("uint64-holding-1", [0xcf, 0, 0, 0, 0, 0, 0, 0, 1]),
        seed("int8-holding-1", [0xd0, 0x01]),
        seed("float32", [0xca, 0x3f, 0xc0, 0x00, 0x00]),
        seed("float64", [0xcb, 0x3f, 0xf8, 0, 0, 0, 0, 0, 0]),
        seed("float32-nan", [0xca, 0x7f, 0xc0, 0x00, 0x01]),
        seed("float64-infinity", [0xcb, 0x7f, 0xf0, 0, 0, 0, 0, 0, 0]),
        seed("fixstr", *b"\xa5hello"),
        seed("fixstr-utf8", "\u{a6}Zoë🚲".as_bytes().to_vec()),
        seed("str8-holding-3", *b"\xd9\x03abc"),
        seed("str32-holding-3", *b"\xdb\x00\x00\x00\x03abc"),
        seed("str-invalid-utf8", [0xa2, 0xff, 0xfe]),
        seed("bin8", [0xc4, 0x03, 1, 2, 3]),
        seed("bin16", [0xc5, 0x00, 0x02, 0xff, 0x00]),
        seed("bin32", [0xc6, 0x00, 0x00, 0x00, 0x01, 0xff]),
        seed("fixarray", [0x93, 0x01, 0xa1, b'x', 0xc0]),
        seed("array16", [0xdc, 0x00, 0x02, 0xc0, 0xc3]),
        seed("array32", [0xdd, 0x00, 0x00, 0x00, 0x01, 0x90]),
        seed("nested-arrays", [0x91, 0x91, 0x91, 0x91, 0xc0]),
        seed("spec-example-map", *b"\x82\xa7compact\xc3\xa6schema\x00"),
        seed(
            "map-non-string-keys",
            [0x83, 0x01, 0x02, 0xc0, 0xc3, 0x91, 0x01, 0x80],
        ),
        seed("map16", [0xde, 0x00, 0x01, 0xa1, b'k', 0x02]),
        seed("map32", [0xdf, 0x00, 0x00, 0x00, 0x01, 0xc0, 0xc0]),
        seed("fixext1", [0xd4, 0x01, 0xaa]),
        seed("fixext2", [0xd5, 0x02, 0xaa, 0xbb]),
        seed("fixext4", [0xd6, 0x05, 1, 2, 3, 4]),
        seed("fixext8", [0xd7, 0x06, 1, 2, 3, 4, 5, 6, 7, 8]),
        seed("ext8", [0xc7, 0x03, 0x09, 1, 2, 3]),
        seed("ext8-holding-1", [0xc7, 0x01, 0x09, 0xff]),
        seed("ext16", [0xc8, 0x00, 0x02, 0x0a, 1, 2]),
        seed("ext32", [0xc9, 0x00, 0x00, 0x00, 0x01, 0x0b, 0xff]),
        seed("timestamp32", [0xd6, 0xff, 0x00, 0x00, 0x00, 0x01]),
        seed(
            "timestamp64",
            [0xd7, 0xff, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x01],
        ),
        seed("reserved-c1", [0xc1]),
        seed("uint16-cut-short", [0xcd, 0x01]),
        seed("array32-claiming-4-billion", [0xdd, 0xff, 0xff, 0xff, 0xff]),
        seed("map32-claiming-4-billion", [0xdf, 0xff, 0xff, 0xff, 0xff]),
        seed("str32-claiming-4-gib", [0xdb, 0xff, 0xff, 0xff, 0xff, b'a']),
        seed("bin32-claiming-4-gib", [0xc6, 0xff, 0xff, 0xff, 0xff, 0x00]),
        seed("ext32-claiming-4-gib", [0xc9, 0xff, 0xff, 0xff, 0xff, 0x01]),
        seed(
            "nested-array32-headers",
            [0xdd, 0xff, 0xff, 0xff, 0xff].repeat(8),
        ),
        seed("fixarrays-deeper-than-128", {
            let mut bytes = vec![0x91; 130];
            bytes.push(0xc0);
            bytes
        }),
    ];
    let mut str8 = vec![0xd9, 32];
    str8.extend([b'a'; 32]);
    seeds.push(seed("str8", str8));
    let mut str16 = vec![0xda, 0x01, 0x00];
    str16.extend([b'z'; 256]);
    seeds.push(seed("str16", str16));
    let mut fixext16 = vec![0xd8, 0x07];
    fixext16.extend(0..16);
    seeds.push(seed("fixext16", fixext16));
    let mut timestamp96 = vec![0xc7, 0x0c, 0xff, 0x3b, 0x9a, 0xc9, 0xff];
    timestamp96.extend((-1i64).to_be_bytes());
    seeds.push(seed("timestamp96", timestamp96));
    seeds
}

/// The benchmark fixtures: the small ones whole, the large ones cut to a
/// few records, each as plain serde (named and compact) and derived
/// (tag-keyed map and tag-indexed array).
fn fixtures() -> Vec<Seed> {
    let mut seeds = Vec::new();
    let mut add = |name: &str, named: Vec<u8>, compact: Vec<u8>, tag: Vec<u8>, array: Vec<u8>| {
        seeds.push(seed(&format!("fixture-{name}-named"), named));
        seeds.push(seed(&format!("fixture-{name}-compact"), compact));
        seeds.push(seed(&format!("fixture-{name}-tagged"), tag));
        seeds.push(seed(&format!("fixture-{name}-array"), array));
    };
    macro_rules! encodings {
        ($name:expr, $value:expr, $ty:ident) => {{
            let value: plain::$ty = $value;
            let tag: tagged::$ty = value.convert();
            let arr: array::$ty = value.convert();
            add(
                $name,
                to_vec(&value).unwrap(),
                to_vec_compact(&value).unwrap(),
                to_vec(&tag).unwrap(),
                to_vec(&arr).unwrap(),
            );
        }};
    }
    encodings!("document", fixtures::document(), Order);
    encodings!("api-profile", fixtures::api_profile(), Profile);
    let mut logs = fixtures::logs();
    logs.records.truncate(3);
    encodings!("logs-3", logs, Logs);
    let mut mesh = fixtures::mesh();
    mesh.triangles.truncate(2);
    encodings!("mesh-2", mesh, Mesh);
    let mut ints = fixtures::ints();
    ints.values.truncate(40);
    encodings!("ints-40", ints, Ints);
    seeds
}

fn full_order() -> Order {
    let mut unknown = UnknownFields::new();
    unknown.insert(20, msgpack!({"gift": true}));
    let mut line_unknown = UnknownFields::new();
    line_unknown.insert(5, msgpack!("added later"));
    Order {
        id: 48_213,
        customer: Customer {
            name: "Zoë Ångström".into(),
            email: Some("zoe@example.com".into()),
            address: Some(Address {
                street: "Käsemarkt 12".into(),
                city: "Zürich".into(),
                country: String::new(),
            }),
        },
        status: Status::Shipped {
            carrier: "DHL".into(),
            tracking: Some("JD0146".into()),
        },
        lines: vec![
            Line {
                sku: "SKU-00412-0".into(),
                quantity: 2,
                unit_price: 1299,
                discount: Some(150),
                unknown: line_unknown,
            },
            Line {
                sku: "SKU-93120-1".into(),
                quantity: 1,
                unit_price: -500,
                discount: None,
                unknown: UnknownFields::new(),
            },
        ],
        note: Some("Bitte beim Nachbarn abgeben".into()),
        labels: vec!["gift".into(), "fragile".into()],
        total: 35.93,
        created: Some(Timestamp::new(1_700_000_123, 456_000_000).unwrap()),
        priority: 3,
        attributes: [("loyalty".to_string(), 12), ("weight".to_string(), -7)].into(),
        unknown,
    }
}

fn minimal_order() -> Order {
    Order {
        id: 1,
        customer: Customer {
            name: "Ada".into(),
            email: None,
            address: None,
        },
        status: Status::Pending,
        lines: Vec::new(),
        note: None,
        labels: Vec::new(),
        total: 0.0,
        created: None,
        priority: 0,
        attributes: BTreeMap::new(),
        unknown: UnknownFields::new(),
    }
}

/// Orders of the derived type, and the same data spelled other ways the
/// derive accepts: names for tags, variants by name, unknown tags.
fn orders() -> Vec<Seed> {
    let full = full_order();
    let mut returned = minimal_order();
    returned.status = Status::Returned("damaged".into());
    returned.created = Some(Timestamp::new(-1, 999_999_999).unwrap());
    let mut split = minimal_order();
    split.status = Status::Split(2, 3);
    split.created = Some(Timestamp::new(1 << 40, 1).unwrap());
    let mut unknown_status = minimal_order();
    unknown_status.status = Status::Unknown;
    let by_name = msgpack!({
        "id": 7,
        "customer": {"name": "Bo", "email": null},
        "status": "Pending",
        "lines": [["SKU-1", 1, 100], ["SKU-2", 3, 250, 20, null, "extra"]],
        "total": 1.5,
        "labels": ["a"],
    });
    let newer = msgpack!({
        1: 9,
        2: {1: "Cy", 9: "unknown customer tag"},
        3: {5: [1, 2]},
        4: [],
        7: 2,
        11: [1, {"deep": [true]}],
        12: null,
    });
    let lines_as_array_of_maps = msgpack!({
        1: 10,
        2: {1: "Di"},
        3: {2: {1: "UPS"}},
        4: [{0: "SKU-3", 1: 2, 2: 5}],
        7: 0.25,
    });
    vec![
        seed("order-full", to_vec(&full).unwrap()),
        seed("order-minimal", to_vec(&minimal_order()).unwrap()),
        seed("order-returned", to_vec(&returned).unwrap()),
        seed("order-split", to_vec(&split).unwrap()),
        seed("order-unknown-status", to_vec(&unknown_status).unwrap()),
        seed("order-by-name", to_vec(&by_name).unwrap()),
        seed("order-newer-version", to_vec(&newer).unwrap()),
        seed(
            "order-lines-as-maps",
            to_vec(&lines_as_array_of_maps).unwrap(),
        ),
        seed("tallies", to_vec(&tallies()).unwrap()),
    ]
}

/// `Tally`s: wide integers, a two-byte character, a `Box`.
fn tallies() -> Vec<Tally> {
    let last = Tally {
        count: 0,
        shift: isize::MIN,
        mark: 'x',
        next: None,
    };
    vec![Tally {
        count: usize::MAX,
        shift: -5,
        mark: 'é',
        next: Some(Box::new(last)),
    }]
}

fn request() -> Request<'static> {
    let params = [
        ("limit".to_string(), Param::Int(-20)),
        ("ratio".to_string(), Param::Float(0.5)),
        ("name".to_string(), Param::Text("socks".into())),
        ("tags".to_string(), Param::List(vec![1.0, -2.5])),
    ];
    Request {
        id: 77,
        method: "orders.search",
        path: Cow::Borrowed("/api/v1/orders"),
        params: params.into(),
        auth: Some(Auth::Token { token: "t0k3n" }),
        kind: Kind::Notify {
            topic: "orders".into(),
            urgent: true,
        },
        body: Some(&b"\x00\x01binary"[..]),
        weights: vec![0.25, -1.0, f32::MAX],
        flags: (true, 'é', -3),
        next: Some(Box::new(Request {
            id: 78,
            method: "ping",
            path: Cow::Borrowed("/"),
            params: BTreeMap::new(),
            auth: Some(Auth::Basic {
                user: "ada".into(),
                password: "lovelace".into(),
            }),
            kind: Kind::Batch(vec![1, u64::MAX], false),
            body: None,
            weights: Vec::new(),
            flags: (false, 'x', 0),
            next: None,
        })),
    }
}

/// Requests of the plain serde type, in both struct modes; plain values;
/// nested vectors.
fn requests() -> Vec<Seed> {
    let full = request();
    let mut ping = request();
    ping.kind = Kind::Ping;
    ping.next = None;
    ping.auth = None;
    let mut call = ping.clone();
    call.kind = Kind::Call(5);
    let plain: Plain = (
        Kind::Call(1),
        [("k".to_string(), Param::Float(2.5))].into(),
        Some("note".into()),
        vec![1, 2, 3],
    );
    vec![
        seed("request-named", to_vec(&full).unwrap()),
        seed("request-compact", to_vec_compact(&full).unwrap()),
        seed("request-ping-named", to_vec(&ping).unwrap()),
        seed("request-call-compact", to_vec_compact(&call).unwrap()),
        seed("plain-named", to_vec(&plain).unwrap()),
        seed("plain-compact", to_vec_compact(&plain).unwrap()),
        seed(
            "vec-vec-u64",
            to_vec(&vec![vec![1u64, 300], vec![], vec![u64::MAX]]).unwrap(),
        ),
    ]
}

/// Timestamp extension data of every length, and whole timestamp values
/// (smallest form or not, valid or not).
fn timestamps() -> Vec<Seed> {
    let mut seeds = Vec::new();
    let times = [
        ("epoch", 0, 0),
        ("one-second", 1, 0),
        ("before-epoch", -1, 500_000_000),
        ("max-nanos", 1_700_000_000, 999_999_999),
        ("34-bit-seconds", (1 << 34) - 1, 1),
        ("35-bit-seconds", 1 << 34, 0),
        ("i64-min", i64::MIN, 0),
        ("i64-max", i64::MAX, 999_999_999),
    ];
    for (name, seconds, nanoseconds) in times {
        let t = Timestamp::new(seconds, nanoseconds).unwrap();
        seeds.push(seed(&format!("data-{name}"), t.to_ext_data()));
        seeds.push(seed(&format!("value-{name}"), to_vec(&t).unwrap()));
    }
    // 1 second as 64-bit and 96-bit data: valid, not the smallest.
    seeds.push(seed("data-64-bit-holding-1", [0, 0, 0, 0, 0, 0, 0, 1]));
    let mut wide = vec![0, 0, 0, 0];
    wide.extend(1i64.to_be_bytes());
    seeds.push(seed("data-96-bit-holding-1", wide.clone()));
    let mut value = vec![0xc7, 12, 0xff];
    value.extend(&wide);
    seeds.push(seed("value-96-bit-holding-1", value));
    // Nanoseconds of 10^9: invalid in both wide forms.
    let nanos = 1_000_000_000u64;
    seeds.push(seed("data-64-bit-bad-nanos", (nanos << 34).to_be_bytes()));
    let mut bad = (nanos as u32).to_be_bytes().to_vec();
    bad.extend(0i64.to_be_bytes());
    seeds.push(seed("data-96-bit-bad-nanos", bad));
    seeds.push(seed("data-3-bytes", [0, 0, 1]));
    seeds.push(seed("value-other-ext-type", [0xd6, 0x01, 0, 0, 0, 1]));
    seeds.push(seed("value-ext8-holding-5", [0xc7, 5, 0xff, 0, 0, 0, 0, 1]));
    seeds
}

/// Values back to back: the stream target's input.
fn streams(spec: &[Seed], orders: &[Seed]) -> Vec<Seed> {
    let join = |seeds: &[Seed]| {
        seeds
            .iter()
            .flat_map(|(_, b)| b.clone())
            .collect::<Vec<_>>()
    };
    let numbers: Vec<u8> = [1u32, 300, 70_000]
        .iter()
        .flat_map(|n| to_vec(n).unwrap())
        .collect();
    let mut cut = numbers.clone();
    cut.extend([0xcd, 0x01]);
    let valid: Vec<Seed> = spec
        .iter()
        .filter(|(_, bytes)| Value::from_slice(bytes).is_ok())
        .cloned()
        .collect();
    vec![
        seed("numbers", numbers),
        seed("numbers-then-cut-short", cut),
        seed("every-valid-spec-value", join(&valid)),
        seed("orders", join(orders)),
        seed("value-then-reserved", [0x01, 0x92, 0xc0, 0xc1]),
        seed("value-then-deep-array", {
            let mut bytes = vec![0x07];
            bytes.extend([0x91; 130]);
            bytes
        }),
    ]
}

/// `Accept` and `Content-Type` values of msgpack-axum's tests, one header
/// line per input line: every MessagePack name and the suffix, q-values,
/// wildcards, malformed values, several lines, and more than the 64
/// ranges that count.
fn media_types() -> Vec<Seed> {
    let values: [(&str, &str); 30] = [
        ("any", "*/*"),
        ("json", "application/json"),
        ("msgpack", "application/msgpack"),
        ("x-msgpack", "application/x-msgpack"),
        ("vnd-msgpack", "application/vnd.msgpack"),
        ("suffix-msgpack", "application/vnd.acme.profile+msgpack"),
        ("suffix-json", "application/problem+json"),
        ("mixed-case", "Application/MsgPack"),
        ("charset", "application/msgpack; charset=utf-8"),
        (
            "charset-q",
            "application/json; charset=utf-8, application/msgpack; charset=utf-8; q=0.5",
        ),
        ("q-too-large", "application/msgpack; q=2"),
        ("q-not-a-number", "application/msgpack; q=abc"),
        ("not-a-media-type", "not a media type"),
        ("empty-ranges", "application/msgpack,,;;"),
        (
            "browser",
            "text/html, application/xhtml+xml, application/xml;q=0.9, */*;q=0.8",
        ),
        ("application-any", "application/*"),
        ("suffix-any", "*/*+msgpack"),
        ("json-wins", "application/json, application/msgpack;q=0.9"),
        (
            "msgpack-wins",
            "application/json;q=0.5, application/msgpack;q=0.9",
        ),
        ("wildcard-wins", "application/msgpack;q=0.1, */*;q=0.2"),
        (
            "equal-q",
            "application/msgpack;q=0.5, application/json;q=0.5",
        ),
        ("any-and-x", "*/*, application/x-msgpack"),
        ("q-zero", "application/msgpack;q=0, application/json"),
        (
            "q-zero-under-any",
            "*/*, application/json;q=0, application/msgpack",
        ),
        (
            "named-highest-q",
            "application/x-msgpack;q=0.5, application/vnd.msgpack;q=0.8",
        ),
        (
            "named-tie",
            "application/x-msgpack, application/vnd.msgpack",
        ),
        ("neither", "image/*, text/*"),
        ("two-lines", "application/json;q=0.5\napplication/msgpack"),
        (
            "content-types",
            "text/plain\ntext/msgpack\napplication/octet-stream\nmsgpack",
        ),
        ("quotes", "application/msgpack, ;\n\"\n/"),
    ];
    let mut seeds: Vec<Seed> = values
        .iter()
        .map(|(name, text)| seed(name, *text))
        .collect();
    let mut many = vec!["text/html"; 64];
    many.push("application/msgpack");
    seeds.push(seed("past-64-ranges", many.join(", ")));
    let flood = vec!["application/vnd.a+msgpack;q=0.5"; 200].join(", ");
    seeds.push(seed("flood", flood));
    seeds
}

/// Bodies of msgpack-axum's frame and limit tests, in `body_frames`'s
/// input form (fuzz/src/http_checks.rs): the limit (2 bytes), flags (1: a
/// `Content-Length`, 2: axum's `DefaultBodyLimit`), the declared length
/// (2 bytes), then each frame as a length byte and its bytes.
fn body_frames() -> Vec<Seed> {
    let body = |limit: u16, flags: u8, declared: u16, frames: &[&[u8]]| {
        let mut bytes = limit.to_be_bytes().to_vec();
        bytes.push(flags);
        bytes.extend(declared.to_be_bytes());
        for frame in frames {
            bytes.push(frame.len() as u8);
            bytes.extend_from_slice(frame);
        }
        bytes
    };
    let full = [7u8; 255];
    let many_full = vec![&full[..]; 40];
    vec![
        seed("one-frame", body(3, 0, 0, &[b"abc"])),
        seed(
            "frames-join-in-order",
            body(u16::MAX, 0, 0, &[b"ab", b"", b"cde", b"f"]),
        ),
        seed("declared-length", body(100, 1, 6, &[b"ab", b"cd", b"ef"])),
        seed("wrong-declared-length", body(10_000, 1, 1, &many_full)),
        seed("grows-to-the-limit", body(10_200, 0, 0, &many_full)),
        seed("exactly-the-limit", body(6, 1, 6, &[b"abc", b"def"])),
        seed(
            "over-the-limit",
            body(10, 0, 0, &[b"abcdefgh", b"ijklmnop"]),
        ),
        seed("declared-over-the-limit", body(10, 1, 11, &[b"abc"])),
        seed("empty-frames", body(3, 1, 3, &[b"", b"abc", b""])),
        seed("empty-body", body(10, 0, 0, &[])),
        seed("axum-limit", body(16, 2, 0, &[b"0123456789", b"abcdef"])),
        seed(
            "axum-limit-over",
            body(16, 3, 17, &[b"0123456789", b"abcdefg"]),
        ),
        seed("zero-limit", body(0, 0, 0, &[b"x"])),
    ]
}

/// The `codec` target's seeds: each stream behind each first byte, which
/// picks the limits it is decoded under (see `fuzz/src/codec.rs`).
fn codec_streams(streams: &[Seed]) -> Vec<Seed> {
    (0..8u8)
        .flat_map(|control| {
            streams.iter().map(move |(name, bytes)| {
                seed(
                    &format!("{name}-limits-{control}"),
                    [&[control][..], bytes].concat(),
                )
            })
        })
        .collect()
}

fn write(target: &str, seeds: &[Seed]) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fuzz/corpus")
        .join(target);
    fs::create_dir_all(&dir).unwrap();
    for (name, bytes) in seeds {
        fs::write(dir.join(name), bytes).unwrap();
    }
    let total: usize = seeds.iter().map(|(_, b)| b.len()).sum();
    println!("{target}: {} seeds, {total} bytes", seeds.len());
}

fn main() {
    let spec = spec();
    let fixtures = fixtures();
    let orders = orders();
    let requests = requests();
    let everything: Vec<Seed> = [&spec[..], &fixtures, &orders, &requests].concat();
    write("value_decode", &everything);
    write("round_trip", &everything);
    write("skip", &everything);
    write("from_reader", &everything);
    write("from_slice_derived", &[&orders[..], &spec].concat());
    write("schema_names", &[&orders[..], &spec].concat());
    write("from_slice_serde", &[&requests[..], &spec].concat());
    write("stream", &streams(&spec, &orders));
    write("frame", &[&streams(&spec, &orders)[..], &spec].concat());
    write("codec", &codec_streams(&streams(&spec, &orders)));
    write("timestamp", &timestamps());
    write("media_types", &media_types());
    write("body_frames", &body_frames());
}
