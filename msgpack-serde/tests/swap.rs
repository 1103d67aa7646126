//! The serde_json swap suite: realistic types with the serde attributes
//! people use, each round-tripped in named and compact mode, and checked
//! against what serde_json makes of the same value.

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};
use std::fmt::Debug;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use msgpack_serde::Value;
use serde::de::{DeserializeOwned, IgnoredAny};
use serde::{Deserialize, Serialize};

// ---------------------------------------------------------------- helpers

/// Round-trips `value` in named mode, and checks that decoding our bytes
/// into `serde_json::Value` gives what `serde_json::to_value` gives.
/// Returns the bytes.
#[track_caller]
fn named<T>(value: &T) -> Vec<u8>
where
    T: Serialize + DeserializeOwned + PartialEq + Debug,
{
    let bytes = msgpack_serde::to_vec(value).unwrap();
    assert_eq!(&msgpack_serde::from_slice::<T>(&bytes).unwrap(), value);
    let ours: serde_json::Value = msgpack_serde::from_slice(&bytes).unwrap();
    assert_eq!(ours, serde_json::to_value(value).unwrap());
    bytes
}

/// Like [`named`], for values with bin, ext or integer map keys, which
/// `serde_json::Value` cannot be deserialized from: the comparison goes
/// through our `Value` and [`json_of`] instead.
#[track_caller]
fn named_via_value<T>(value: &T) -> Vec<u8>
where
    T: Serialize + DeserializeOwned + PartialEq + Debug,
{
    let bytes = msgpack_serde::to_vec(value).unwrap();
    assert_eq!(&msgpack_serde::from_slice::<T>(&bytes).unwrap(), value);
    let ours: Value = msgpack_serde::from_slice(&bytes).unwrap();
    assert_eq!(json_of(&ours), serde_json::to_value(value).unwrap());
    bytes
}

/// Round-trips `value` in compact mode. Returns the bytes.
#[track_caller]
fn compact<T>(value: &T) -> Vec<u8>
where
    T: Serialize + DeserializeOwned + PartialEq + Debug,
{
    let bytes = msgpack_serde::to_vec_compact(value).unwrap();
    assert_eq!(&msgpack_serde::from_slice::<T>(&bytes).unwrap(), value);
    bytes
}

/// Both modes, with the exact bytes of each.
#[track_caller]
fn check<T>(value: &T, named_bytes: &[u8], compact_bytes: &[u8])
where
    T: Serialize + DeserializeOwned + PartialEq + Debug,
{
    assert_eq!(
        named_via_value(value),
        named_bytes,
        "named bytes of {value:?}"
    );
    assert_eq!(compact(value), compact_bytes, "compact bytes of {value:?}");
}

/// What serde_json produces for the serde data our `Value` came from:
/// bin as an array of numbers, ext as `[type, [data]]` (the `_ExtStruct`
/// tuple), integer map keys as strings.
fn json_of(value: &Value) -> serde_json::Value {
    use serde_json::Value as Json;
    match value {
        Value::Nil => Json::Null,
        Value::Bool(b) => Json::Bool(*b),
        Value::Int(n) => match n.as_u64() {
            Some(n) => Json::from(n),
            None => Json::from(n.as_i64().unwrap()),
        },
        Value::F32(x) => Json::from(*x as f64),
        Value::F64(x) => Json::from(*x),
        Value::Str(s) => Json::from(s.as_str()),
        Value::Bin(b) => Json::from(b.clone()),
        Value::Array(items) => items.iter().map(json_of).collect(),
        Value::Map(pairs) => pairs
            .iter()
            .map(|(k, v)| {
                let key = match k {
                    Value::Str(s) => s.clone(),
                    Value::Int(n) => n.to_string(),
                    other => panic!("no JSON key for {other:?}"),
                };
                (key, json_of(v))
            })
            .collect::<serde_json::Map<_, _>>()
            .into(),
        Value::Ext(ty, data) => serde_json::json!([ty, data]),
    }
}

fn compact_bytes_of<T: Serialize>(value: &T) -> Vec<u8> {
    msgpack_serde::to_vec_compact(value).unwrap()
}

fn error<T: DeserializeOwned + Debug>(bytes: &[u8]) -> String {
    msgpack_serde::from_slice::<T>(bytes)
        .unwrap_err()
        .to_string()
}

// ---------------------------------------------------------------- types

#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
#[serde(rename_all = "camelCase")]
struct Customer {
    customer_id: u64,
    #[serde(rename = "fullName")]
    name: String,
    email: Option<String>,
    tags: Vec<String>,
    address: Address,
    #[serde(default)]
    loyalty_points: u32,
    initial: char,
}

#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
struct Address {
    street: String,
    city: String,
    zip: Option<String>,
}

fn customer() -> Customer {
    Customer {
        customer_id: 90_210,
        name: "Ada Lovelace".into(),
        email: None,
        tags: vec!["vip".into(), "early-adopter".into()],
        address: Address {
            street: "12 St James's Square".into(),
            city: "London".into(),
            zip: Some("SW1Y 4JH".into()),
        },
        loyalty_points: 1_250,
        initial: 'Å',
    }
}

/// Externally tagged (the default): every variant kind.
#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
enum Shape {
    Empty,
    Circle(f64),
    Rect(u32, u32),
    Polygon {
        points: Vec<(i32, i32)>,
        closed: bool,
    },
}

#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
#[serde(tag = "type")]
enum Event {
    Login { user: String, at: u64 },
    Logout { user: String },
    Ping,
    Message(Payload),
}

#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
struct Payload {
    body: String,
    urgent: bool,
}

#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
#[serde(tag = "t", content = "c")]
enum Command {
    Stop,
    Move(i32),
    Resize(u32, u32),
    Rename { from: String, to: String },
}

#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
#[serde(untagged)]
enum Setting {
    Flag(bool),
    Number(i64),
    Ratio(f64),
    Text(String),
    Pair { key: String, value: i64 },
}

#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
struct Page {
    title: String,
    #[serde(flatten)]
    meta: Meta,
    #[serde(flatten)]
    extra: HashMap<String, String>,
}

#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
struct Meta {
    author: String,
    views: u64,
}

#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
struct Profile {
    name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    nickname: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    roles: Vec<String>,
    #[serde(default)]
    active: bool,
}

#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
struct Inventory {
    stock: HashMap<String, u32>,
    bins: BTreeMap<u32, Vec<String>>,
    grid: Vec<Vec<i16>>,
}

#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
struct Nothing;

#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
struct UserId(u64);

#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
struct Rgb(u8, u8, u8);

#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
struct Wrappers {
    marker: Nothing,
    id: UserId,
    color: Rgb,
    boxed: Box<Address>,
    label: Cow<'static, str>,
    letters: Vec<char>,
}

#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
struct Attachment {
    name: String,
    #[serde(with = "serde_bytes")]
    data: Vec<u8>,
}

#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
struct Times {
    plain: SystemTime,
    #[serde(with = "msgpack_serde::timestamp")]
    at: SystemTime,
}

#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
struct Wide {
    small: i128,
    big: u128,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Ab {
    a: u8,
    b: String,
}

// ---------------------------------------------------------------- structs

#[test]
fn rename_and_rename_all() {
    let customer = customer();
    let bytes = named(&customer);
    let value: Value = msgpack_serde::from_slice(&bytes).unwrap();
    let keys: Vec<&str> = value
        .as_map()
        .unwrap()
        .iter()
        .map(|(k, _)| k.as_str().unwrap())
        .collect();
    assert_eq!(
        keys,
        [
            "customerId",
            "fullName",
            "email",
            "tags",
            "address",
            "loyaltyPoints",
            "initial"
        ]
    );
    compact(&customer);
}

#[test]
fn field_names_at_the_fixstr_boundary() {
    // 31 bytes is the longest fixstr; 32 needs str 8.
    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    struct Long {
        a_field_name_of_thirty_one_byte: u8,
        a_field_name_of_thirty_two_bytes: u8,
    }
    let bytes = named(&Long {
        a_field_name_of_thirty_one_byte: 1,
        a_field_name_of_thirty_two_bytes: 2,
    });
    assert_eq!(bytes[..2], [0x82, 0xbf]);
    assert_eq!(bytes[33..36], [0x01, 0xd9, 32]);
    assert_eq!(bytes.len(), 1 + 32 + 1 + 34 + 1);
}

#[test]
fn default_fills_missing_fields() {
    let bytes =
        msgpack_serde::to_vec(&msgpack_serde::msgpack!({"name": "Grace", "active": true})).unwrap();
    let profile: Profile = msgpack_serde::from_slice(&bytes).unwrap();
    assert_eq!(
        profile,
        Profile {
            name: "Grace".into(),
            nickname: None,
            roles: vec![],
            active: true,
        }
    );

    let bytes = msgpack_serde::to_vec(&msgpack_serde::msgpack!({"customerId": 1, "fullName": "x",
        "email": null, "tags": [], "initial": "x",
        "address": {"street": "s", "city": "c", "zip": null}}))
    .unwrap();
    let customer: Customer = msgpack_serde::from_slice(&bytes).unwrap();
    assert_eq!(customer.loyalty_points, 0);
}

#[test]
fn skip_serializing_if_in_named_mode() {
    let bare = Profile {
        name: "Grace".into(),
        nickname: None,
        roles: vec![],
        active: false,
    };
    let bytes = named(&bare);
    // {"name": "Grace", "active": false}: the map counts only written fields.
    let mut expected = vec![0x82, 0xa4];
    expected.extend(b"name");
    expected.extend([0xa5]);
    expected.extend(b"Grace");
    expected.extend([0xa6]);
    expected.extend(b"active");
    expected.push(0xc2);
    assert_eq!(bytes, expected);

    let full = Profile {
        name: "Grace".into(),
        nickname: Some("Amazing".into()),
        roles: vec!["admiral".into()],
        active: true,
    };
    named(&full);
    // Nothing skipped: compact mode can represent it.
    compact(&full);
}

#[test]
fn skipped_field_in_compact_mode_is_an_error_naming_it() {
    let bare = Profile {
        name: "Grace".into(),
        nickname: None,
        roles: vec!["admiral".into()],
        active: false,
    };
    let error = msgpack_serde::to_vec_compact(&bare).unwrap_err();
    assert_eq!(
        error.to_string(),
        "field `nickname` was skipped, which compact (struct-as-array) mode cannot represent \
         without shifting later fields; use named mode or drop skip_serializing_if"
    );
    assert_eq!(error.offset(), None);
    assert!(error.is_data());

    // What was in the vector stays; what the failed value began is taken
    // back, in place (`&mut Vec`, `Vec`) and through the buffer (`Cursor`).
    let mut writer = vec![0xc0];
    let error = msgpack_serde::to_writer_compact(&mut writer, &bare).unwrap_err();
    assert!(error
        .to_string()
        .starts_with("field `nickname` was skipped"));
    assert_eq!(writer, [0xc0]);
    let error = msgpack_serde::to_writer_compact(vec![0xc0], &bare).unwrap_err();
    assert!(error.is_data());
    let mut cursor = std::io::Cursor::new(vec![0xc0]);
    cursor.set_position(1);
    msgpack_serde::to_writer_compact(&mut cursor, &bare).unwrap_err();
    assert_eq!(cursor.into_inner(), [0xc0]);
}

#[test]
fn flatten() {
    let page = Page {
        title: "Home".into(),
        meta: Meta {
            author: "ada".into(),
            views: 7,
        },
        extra: HashMap::from([("lang".to_string(), "en".to_string())]),
    };
    let bytes = named(&page);
    let value: Value = msgpack_serde::from_slice(&bytes).unwrap();
    assert_eq!(
        value,
        msgpack_serde::msgpack!({"title": "Home", "author": "ada", "views": 7, "lang": "en"})
    );
    // Flatten serializes as a map whatever the mode, so compact mode
    // writes the same map and reads it back.
    let compact_bytes = compact(&page);
    assert_eq!(compact_bytes, bytes);
}

#[test]
fn structs_accept_maps_and_arrays() {
    let customer = customer();
    let from_map: Customer =
        msgpack_serde::from_slice(&msgpack_serde::to_vec(&customer).unwrap()).unwrap();
    let from_array: Customer =
        msgpack_serde::from_slice(&msgpack_serde::to_vec_compact(&customer).unwrap()).unwrap();
    assert_eq!(from_map, customer);
    assert_eq!(from_array, customer);

    // Mixed: the outer struct as a map, the inner one as an array.
    let ab: Ab =
        msgpack_serde::from_slice(&[0x82, 0xa1, b'b', 0xa1, b'x', 0xa1, b'a', 0x01]).unwrap();
    assert_eq!(
        ab,
        Ab {
            a: 1,
            b: "x".into()
        }
    );
}

#[test]
fn unknown_fields_are_skipped() {
    #[derive(Deserialize, PartialEq, Debug)]
    #[serde(rename_all = "camelCase")]
    struct Summary {
        customer_id: u64,
        initial: char,
    }
    let bytes = msgpack_serde::to_vec(&customer()).unwrap();
    let summary: Summary = msgpack_serde::from_slice(&bytes).unwrap();
    assert_eq!(
        summary,
        Summary {
            customer_id: 90_210,
            initial: 'Å',
        }
    );
    // The same from a reader, which copies rather than borrows.
    let summary: Summary = msgpack_serde::from_reader(&bytes[..]).unwrap();
    assert_eq!(summary.customer_id, 90_210);
}

#[test]
fn deny_unknown_fields() {
    #[derive(Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Strict {
        a: u8,
    }
    // {"a": 1, "b": 2}: the key "b" is at offset 4.
    assert_eq!(
        error::<Strict>(&[0x82, 0xa1, b'a', 0x01, 0xa1, b'b', 0x02]),
        "unknown field `b`, expected `a` at offset 4"
    );
    // Arrays have no names: one element too many is the error instead.
    assert_eq!(
        error::<Strict>(&[0x92, 0x01, 0x02]),
        "invalid length 2, expected fewer elements in array at offset 0"
    );
}

#[test]
fn ignored_any() {
    let bytes = msgpack_serde::to_vec(&customer()).unwrap();
    msgpack_serde::from_slice::<IgnoredAny>(&bytes).unwrap();

    #[derive(Deserialize)]
    struct Envelope {
        kind: String,
        #[allow(dead_code)]
        body: IgnoredAny,
    }
    let bytes =
        msgpack_serde::to_vec(&msgpack_serde::msgpack!({"kind": "order", "body": customer()}))
            .unwrap();
    let envelope: Envelope = msgpack_serde::from_slice(&bytes).unwrap();
    assert_eq!(envelope.kind, "order");
}

// ---------------------------------------------------------------- enums

#[test]
fn externally_tagged() {
    let shapes = [
        Shape::Empty,
        Shape::Circle(1.5),
        Shape::Rect(2, 3),
        Shape::Polygon {
            points: vec![(0, 0), (4, -3)],
            closed: true,
        },
    ];
    for shape in &shapes {
        named(shape);
        compact(shape);
    }
    named(&shapes.to_vec());
    compact(&shapes.to_vec());
}

#[test]
fn externally_tagged_bytes() {
    // A unit variant is its name, in both modes.
    check(&Shape::Empty, b"\xa5Empty", b"\xa5Empty");
    // Newtype variant: {variant: value}.
    check(
        &Shape::Circle(1.5),
        b"\x81\xa6Circle\xcb\x3f\xf8\0\0\0\0\0\0",
        b"\x81\xa6Circle\xcb\x3f\xf8\0\0\0\0\0\0",
    );
    check(
        &Shape::Rect(2, 3),
        b"\x81\xa4Rect\x92\x02\x03",
        b"\x81\xa4Rect\x92\x02\x03",
    );
    check(
        &Shape::Polygon {
            points: vec![],
            closed: true,
        },
        b"\x81\xa7Polygon\x82\xa6points\x90\xa6closed\xc3",
        b"\x81\xa7Polygon\x92\x90\xc3",
    );
}

#[test]
fn enums_accept_names_and_indices() {
    // A unit variant by index, as `variants_as_indices(true)` writes it, or by name.
    assert_eq!(
        msgpack_serde::from_slice::<Shape>(&[0x00]).unwrap(),
        Shape::Empty
    );
    assert_eq!(
        msgpack_serde::from_slice::<Shape>(b"\xa5Empty").unwrap(),
        Shape::Empty
    );
    // Other variants keyed by index or by name, either way.
    assert_eq!(
        msgpack_serde::from_slice::<Shape>(b"\x81\xa4Rect\x92\x02\x03").unwrap(),
        Shape::Rect(2, 3)
    );
    assert_eq!(
        msgpack_serde::from_slice::<Shape>(b"\x81\x02\x92\x02\x03").unwrap(),
        Shape::Rect(2, 3)
    );
    // A struct variant's payload as a map or an array.
    assert_eq!(
        msgpack_serde::from_slice::<Shape>(b"\x81\x03\x82\xa6closed\xc2\xa6points\x90").unwrap(),
        Shape::Polygon {
            points: vec![],
            closed: false
        }
    );
    assert_eq!(
        error::<Shape>(&[0x04]),
        "invalid value: integer `4`, expected variant index 0 <= i < 4 at offset 0"
    );
    assert_eq!(
        error::<Shape>(b"\xa6Square"),
        "unknown variant `Square`, expected one of `Empty`, `Circle`, `Rect`, `Polygon` at offset 0"
    );
}

#[test]
fn internally_tagged() {
    let events = [
        Event::Login {
            user: "ada".into(),
            at: 1_700_000_000,
        },
        Event::Logout { user: "ada".into() },
        Event::Ping,
        Event::Message(Payload {
            body: "hi".into(),
            urgent: true,
        }),
    ];
    for event in &events {
        named(event);
        compact(event);
    }
    check(
        &Event::Logout { user: "x".into() },
        b"\x82\xa4type\xa6Logout\xa4user\xa1x",
        b"\x92\xa6Logout\xa1x",
    );
    check(&Event::Ping, b"\x81\xa4type\xa4Ping", b"\x91\xa4Ping");
}

#[test]
fn adjacently_tagged() {
    let commands = [
        Command::Stop,
        Command::Move(-5),
        Command::Resize(640, 480),
        Command::Rename {
            from: "a".into(),
            to: "b".into(),
        },
    ];
    for command in &commands {
        named(command);
    }
    for command in &commands[1..3] {
        compact(command);
    }
    // The tag is a unit variant: its name.
    check(
        &Command::Move(-5),
        b"\x82\xa1t\xa4Move\xa1c\xfb",
        b"\x92\xa4Move\xfb",
    );

    // Two serde limits make compact mode unable to round trip the other
    // two variants (rmp-serde's struct-as-array mode shares them):
    // serde writes a unit variant as a struct of one field (the tag), but
    // its sequence visitor wants two elements...
    assert_eq!(compact_bytes_of(&Command::Stop), b"\x91\xa4Stop");
    assert_eq!(
        error::<Command>(b"\x91\xa4Stop"),
        "invalid length 1, expected adjacently tagged enum Command at offset 0"
    );
    // ...and it reads a struct variant's content as an untagged one,
    // from a map only, while compact mode writes it as an array.
    let rename = compact_bytes_of(&commands[3]);
    assert_eq!(rename, b"\x92\xa6Rename\x92\xa1a\xa1b");
    assert_eq!(
        error::<Command>(&rename),
        "invalid type: sequence, expected struct variant Command::Rename at offset 8"
    );
}

#[test]
fn untagged() {
    let settings = [
        Setting::Flag(true),
        Setting::Number(-40),
        Setting::Ratio(0.25),
        Setting::Text("dark".into()),
        Setting::Pair {
            key: "volume".into(),
            value: 11,
        },
    ];
    for setting in &settings {
        named(setting);
    }
    for setting in &settings[..4] {
        compact(setting);
    }
    check(&Setting::Number(-40), &[0xd0, 0xd8], &[0xd0, 0xd8]);
    // serde matches untagged struct variants against maps only, so the
    // array compact mode writes for one does not read back (nor does
    // rmp-serde's). The error comes from serde after the input was
    // buffered: it is where the reader stopped, the input's end.
    let pair = compact_bytes_of(&settings[4]);
    assert_eq!(pair, b"\x92\xa6volume\x0b");
    let error = msgpack_serde::from_slice::<Setting>(&pair).unwrap_err();
    assert_eq!(
        error.to_string(),
        "data did not match any variant of untagged enum Setting at offset 9"
    );
    assert_eq!(error.offset(), Some(9));
}

// ---------------------------------------------------------------- data types

#[test]
fn maps_and_nested_vecs() {
    let inventory = Inventory {
        stock: HashMap::from([("apple".to_string(), 3), ("pear".to_string(), 0)]),
        bins: BTreeMap::from([
            (1, vec!["a1".to_string()]),
            (300, vec![]),
            (70_000, vec!["x".to_string(), "y".to_string()]),
        ]),
        grid: vec![vec![1, -2], vec![], vec![i16::MIN, i16::MAX]],
    };
    let bytes = named_via_value(&inventory);
    // Integer keys stay integers on the wire.
    let value: Value = msgpack_serde::from_slice(&bytes).unwrap();
    let keys: Vec<&Value> = value["bins"]
        .as_map()
        .unwrap()
        .iter()
        .map(|(k, _)| k)
        .collect();
    assert_eq!(
        keys,
        [&Value::from(1), &Value::from(300), &Value::from(70_000)]
    );
    compact(&inventory);

    // serde_json::Value wants string keys, so it cannot take these.
    let error = msgpack_serde::from_slice::<serde_json::Value>(&bytes).unwrap_err();
    assert!(error.to_string().contains("expected a string"), "{error}");
}

#[test]
fn wrappers() {
    let wrappers = Wrappers {
        marker: Nothing,
        id: UserId(7),
        color: Rgb(255, 128, 0),
        boxed: Box::new(Address {
            street: "Main St".into(),
            city: "Springfield".into(),
            zip: None,
        }),
        label: Cow::Borrowed("label"),
        letters: vec!['a', 'é', '€', '🦀'],
    };
    named(&wrappers);
    compact(&wrappers);

    check(&Nothing, &[0xc0], &[0xc0]);
    check(&UserId(7), &[0x07], &[0x07]);
    check(&Rgb(1, 2, 3), &[0x93, 1, 2, 3], &[0x93, 1, 2, 3]);
    check(&'é', &[0xa2, 0xc3, 0xa9], &[0xa2, 0xc3, 0xa9]);
    check(&Some(5u8), &[0x05], &[0x05]);
    check(&None::<u8>, &[0xc0], &[0xc0]);
    check(&Box::new(-1i64), &[0xff], &[0xff]);
    assert_eq!(
        error::<char>(b"\xa2ab"),
        r#"invalid value: string "ab", expected a character at offset 0"#
    );
}

#[test]
fn borrowed_str_points_into_the_input() {
    #[derive(Serialize, Deserialize, Debug)]
    struct View<'a> {
        name: &'a str,
        #[serde(borrow)]
        note: Cow<'a, str>,
        #[serde(with = "serde_bytes")]
        raw: &'a [u8],
    }
    let original = View {
        name: "Ada",
        note: Cow::Borrowed("first programmer"),
        raw: &[1, 2, 3],
    };
    let bytes = msgpack_serde::to_vec(&original).unwrap();
    let view: View<'_> = msgpack_serde::from_slice(&bytes).unwrap();
    let input = bytes.as_ptr_range();
    assert_eq!(view.name, "Ada");
    assert!(input.contains(&view.name.as_ptr()));
    assert!(matches!(view.note, Cow::Borrowed("first programmer")));
    assert!(input.contains(&view.note.as_ptr()));
    assert_eq!(view.raw, [1, 2, 3]);
    assert!(input.contains(&view.raw.as_ptr()));

    // Compact mode borrows just the same.
    let bytes = msgpack_serde::to_vec_compact(&original).unwrap();
    let view: View<'_> = msgpack_serde::from_slice(&bytes).unwrap();
    assert!(bytes.as_ptr_range().contains(&view.name.as_ptr()));
}

#[test]
fn serde_bytes_is_bin() {
    let attachment = Attachment {
        name: "a.bin".into(),
        data: vec![0xde, 0xad, 0xbe, 0xef],
    };
    let bytes = named_via_value(&attachment);
    let mut expected = vec![0x82, 0xa4];
    expected.extend(b"name\xa5a.bin\xa4data");
    expected.extend([0xc4, 0x04, 0xde, 0xad, 0xbe, 0xef]);
    assert_eq!(bytes, expected);
    assert_eq!(
        compact(&attachment),
        b"\x92\xa5a.bin\xc4\x04\xde\xad\xbe\xef"
    );
    // A plain Vec<u8> is an array of integers, as in serde_json.
    assert_eq!(named(&vec![1u8, 2]), [0x92, 0x01, 0x02]);
}

#[test]
fn system_time() {
    let times = Times {
        plain: UNIX_EPOCH + Duration::new(1_700_000_000, 123_456_789),
        at: UNIX_EPOCH + Duration::new(1, 500_000_000),
    };
    named_via_value(&times);
    compact(&times);

    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    struct At(#[serde(with = "msgpack_serde::timestamp")] SystemTime);
    // Timestamp 32: seconds in 4 bytes.
    check(
        &At(UNIX_EPOCH + Duration::from_secs(1)),
        &[0xd6, 0xff, 0, 0, 0, 1],
        &[0xd6, 0xff, 0, 0, 0, 1],
    );
    // Timestamp 64: nanoseconds << 34 | seconds.
    let half = [0xd7, 0xff, 0x77, 0x35, 0x94, 0x00, 0x00, 0x00, 0x00, 0x01];
    check(
        &At(UNIX_EPOCH + Duration::new(1, 500_000_000)),
        &half,
        &half,
    );
    // Timestamp 96: before the epoch.
    let before = [
        0xc7, 0x0c, 0xff, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
    ];
    check(&At(UNIX_EPOCH - Duration::from_secs(1)), &before, &before);

    // Plain serde: the struct std writes, in either mode.
    let plain = UNIX_EPOCH + Duration::new(1, 2);
    let mut expected = vec![0x82, 0xb0];
    expected.extend(b"secs_since_epoch");
    expected.extend([0x01, 0xb1]);
    expected.extend(b"nanos_since_epoch");
    expected.push(0x02);
    check(&plain, &expected, &[0x92, 0x01, 0x02]);
}

#[test]
fn i128_and_u128() {
    let wide = Wide {
        small: i64::MIN as i128,
        big: u64::MAX as u128,
    };
    named(&wide);
    compact(&wide);
    check(
        &(i64::MIN as i128),
        &[0xd3, 0x80, 0, 0, 0, 0, 0, 0, 0],
        &[0xd3, 0x80, 0, 0, 0, 0, 0, 0, 0],
    );
    check(
        &(u64::MAX as u128),
        &[0xcf, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff],
        &[0xcf, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff],
    );
    check(&-1i128, &[0xff], &[0xff]);

    let out_of_range = "integer out of the MessagePack range (i64::MIN to u64::MAX)";
    for error in [
        msgpack_serde::to_vec(&(i64::MIN as i128 - 1)).unwrap_err(),
        msgpack_serde::to_vec(&(u64::MAX as u128 + 1)).unwrap_err(),
        msgpack_serde::to_vec_compact(&Wide {
            small: i128::MAX,
            big: 0,
        })
        .unwrap_err(),
    ] {
        assert_eq!(error.to_string(), out_of_range);
        assert_eq!(error.offset(), None);
    }
}

// ---------------------------------------------------------------- numbers

#[test]
fn integer_width_conversions() {
    let n300 = [0xcd, 0x01, 0x2c];
    assert_eq!(msgpack_serde::from_slice::<u16>(&n300).unwrap(), 300);
    assert_eq!(msgpack_serde::from_slice::<i16>(&n300).unwrap(), 300);
    assert_eq!(msgpack_serde::from_slice::<u64>(&n300).unwrap(), 300);
    assert_eq!(
        error::<u8>(&n300),
        "invalid value: integer `300`, expected u8 at offset 0"
    );
    assert_eq!(
        error::<i8>(&n300),
        "invalid value: integer `300`, expected i8 at offset 0"
    );
    assert_eq!(
        error::<u32>(&[0xff]),
        "invalid value: integer `-1`, expected u32 at offset 0"
    );
    // A uint 8 holding 255 into i8.
    assert_eq!(
        error::<i8>(&[0xcc, 0xff]),
        "invalid value: integer `255`, expected i8 at offset 0"
    );
    // Wide formats holding small values are accepted.
    assert_eq!(
        msgpack_serde::from_slice::<u8>(&[0xcf, 0, 0, 0, 0, 0, 0, 0, 7]).unwrap(),
        7
    );
    assert_eq!(
        msgpack_serde::from_slice::<i8>(&[0xd3, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x80])
            .unwrap(),
        -128
    );
    // In a field, the offset is the field value's.
    assert_eq!(
        error::<Ab>(&[0x92, 0xcd, 0x01, 0x2c, 0xa1, b'x']),
        "invalid value: integer `300`, expected u8 at offset 1"
    );
}

#[test]
fn floats() {
    assert_eq!(msgpack_serde::from_slice::<f64>(&[0x01]).unwrap(), 1.0);
    assert_eq!(
        msgpack_serde::from_slice::<f64>(&[0xd0, 0x80]).unwrap(),
        -128.0
    );
    assert_eq!(
        msgpack_serde::from_slice::<f64>(&[0xcf, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff])
            .unwrap(),
        u64::MAX as f64
    );
    assert_eq!(msgpack_serde::from_slice::<f32>(&[0x07]).unwrap(), 7.0);
    // float 32 into f64, widened exactly.
    assert_eq!(
        msgpack_serde::from_slice::<f64>(&[0xca, 0x3f, 0xc0, 0, 0]).unwrap(),
        1.5
    );
    check(
        &1.5f32,
        &[0xca, 0x3f, 0xc0, 0, 0],
        &[0xca, 0x3f, 0xc0, 0, 0],
    );
    check(
        &0.1f64,
        &[0xcb, 0x3f, 0xb9, 0x99, 0x99, 0x99, 0x99, 0x99, 0x9a],
        &[0xcb, 0x3f, 0xb9, 0x99, 0x99, 0x99, 0x99, 0x99, 0x9a],
    );
    assert_eq!(
        error::<f64>(b"\xa11"),
        r#"invalid type: string "1", expected f64 at offset 0"#
    );
}

/// A float of another form inside a run of floats (the slow path, whose
/// call hands the reader back to the fast path): the elements after it
/// read from the right place, trailing bytes are still found, and errors
/// after it name their own offsets.
#[test]
fn floats_of_other_forms_inside_a_run_of_floats() {
    #[derive(Debug, PartialEq, Deserialize)]
    struct Vec3 {
        x: f32,
        y: f32,
        z: f32,
    }
    // y as an int 8, then as a float 64; x and z as float 32.
    let point = |y: &[u8]| {
        let mut bytes = vec![0x93, 0xca, 0x3f, 0xc0, 0, 0];
        bytes.extend_from_slice(y);
        bytes.extend_from_slice(&[0xca, 0xc0, 0x20, 0, 0]);
        bytes
    };
    let expected = Vec3 {
        x: 1.5,
        y: -3.0,
        z: -2.5,
    };
    assert_eq!(
        msgpack_serde::from_slice::<Vec3>(&point(&[0xd0, 0xfd])).unwrap(),
        expected
    );
    let wide = point(&[0xcb, 0xc0, 0x08, 0, 0, 0, 0, 0, 0]);
    assert_eq!(msgpack_serde::from_slice::<Vec3>(&wide).unwrap(), expected);
    let mut two = wide.clone();
    two.extend_from_slice(&wide);
    two.insert(0, 0x92);
    assert_eq!(
        msgpack_serde::from_slice::<Vec<Vec3>>(&two).unwrap(),
        [
            Vec3 {
                x: 1.5,
                y: -3.0,
                z: -2.5
            },
            Vec3 {
                x: 1.5,
                y: -3.0,
                z: -2.5
            }
        ]
    );
    let mut trailing = point(&[0x05]);
    trailing.push(0xc0);
    assert_eq!(
        error::<Vec3>(&trailing),
        "trailing bytes after the value at offset 12"
    );
    // From a reader, where the decoder copies what it reads.
    assert_eq!(
        msgpack_serde::from_reader::<_, Vec<Vec3>>(&two[..]).unwrap(),
        msgpack_serde::from_slice::<Vec<Vec3>>(&two).unwrap()
    );
    // z cut short after y's slow path: the end of the input, as always.
    let mut cut = point(&[0xd0, 0xfd]);
    cut.truncate(cut.len() - 1);
    assert_eq!(error::<Vec3>(&cut), "unexpected end of input at offset 12");
    let mut string = point(&[0xd0, 0xfd]);
    string.splice(8.., [0xa1, b'z']);
    assert_eq!(
        error::<Vec3>(&string),
        r#"invalid type: string "z", expected f32 at offset 8"#
    );
    // The same for f64: y as a float 32 takes the slow path.
    #[derive(Debug, PartialEq, Deserialize)]
    struct Wide {
        x: f64,
        y: f64,
        z: f64,
    }
    let mut bytes = vec![0x93, 0xcb, 0x3f, 0xf8, 0, 0, 0, 0, 0, 0];
    bytes.extend_from_slice(&[0xca, 0xc0, 0x40, 0, 0]);
    bytes.extend_from_slice(&[0xcb, 0xc0, 0x04, 0, 0, 0, 0, 0, 0]);
    assert_eq!(
        msgpack_serde::from_slice::<Wide>(&bytes).unwrap(),
        Wide {
            x: 1.5,
            y: -3.0,
            z: -2.5
        }
    );
    bytes.splice(15.., [0xa1, b'z']);
    assert_eq!(
        error::<Wide>(&bytes),
        r#"invalid type: string "z", expected f64 at offset 15"#
    );
}

#[test]
fn bin_where_a_byte_vec_is_expected() {
    let bin = [0xc4, 0x03, 0x01, 0x02, 0x03];
    assert_eq!(
        msgpack_serde::from_slice::<Vec<u8>>(&bin).unwrap(),
        [1, 2, 3]
    );
    assert_eq!(
        msgpack_serde::from_slice::<[u8; 3]>(&bin).unwrap(),
        [1, 2, 3]
    );
    assert_eq!(
        msgpack_serde::from_reader::<_, Vec<u8>>(&bin[..]).unwrap(),
        [1, 2, 3]
    );
    // And the array form still works.
    assert_eq!(
        msgpack_serde::from_slice::<Vec<u8>>(&[0x93, 0x01, 0x02, 0x03]).unwrap(),
        [1, 2, 3]
    );
    // serde_bytes reads an array of integers too.
    let attachment: Attachment = msgpack_serde::from_slice(b"\x92\xa1a\x92\x01\x02").unwrap();
    assert_eq!(attachment.data, [1, 2]);
}

// ---------------------------------------------------------------- exact bytes

#[test]
fn small_struct_bytes() {
    check(
        &Ab {
            a: 1,
            b: "x".into(),
        },
        &[0x82, 0xa1, 0x61, 0x01, 0xa1, 0x62, 0xa1, 0x78],
        &[0x92, 0x01, 0xa1, 0x78],
    );

    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    struct Point {
        x: i32,
        y: i32,
    }
    check(
        &Point { x: -1, y: 200 },
        &[0x82, 0xa1, b'x', 0xff, 0xa1, b'y', 0xcc, 0xc8],
        &[0x92, 0xff, 0xcc, 0xc8],
    );

    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    struct Empty {}
    check(&Empty {}, &[0x80], &[0x90]);

    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    struct Nested {
        p: Point,
        s: Vec<Shape>,
    }
    check(
        &Nested {
            p: Point { x: 0, y: 1 },
            s: vec![Shape::Empty, Shape::Rect(1, 2)],
        },
        b"\x82\xa1p\x82\xa1x\x00\xa1y\x01\xa1s\x92\xa5Empty\x81\xa4Rect\x92\x01\x02",
        b"\x92\x92\x00\x01\x92\xa5Empty\x81\xa4Rect\x92\x01\x02",
    );
}

#[test]
fn writers_match_vecs() {
    let customer = customer();
    let mut out = Vec::new();
    msgpack_serde::to_writer(&mut out, &customer).unwrap();
    assert_eq!(out, msgpack_serde::to_vec(&customer).unwrap());
    let mut out = Vec::new();
    msgpack_serde::to_writer_compact(&mut out, &customer).unwrap();
    assert_eq!(out, msgpack_serde::to_vec_compact(&customer).unwrap());
    assert_eq!(
        msgpack_serde::from_reader::<_, Customer>(&out[..]).unwrap(),
        customer
    );
}
