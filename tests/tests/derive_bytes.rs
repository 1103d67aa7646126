//! Exact bytes of derived structs and enums, in map and array form, and
//! their JSON (names) through serde_json.

use msgpack_serde::{MsgPack, UnknownFields};

#[derive(MsgPack, Debug, PartialEq, Clone)]
struct Order {
    #[msgpack(tag = 1)]
    id: u64,
    #[msgpack(tag = 2)]
    customer: String,
    #[msgpack(tag = 3)]
    note: Option<String>,
}

#[derive(MsgPack, Debug, PartialEq)]
#[msgpack(array)]
struct Point {
    #[msgpack(tag = 0)]
    x: i32,
    #[msgpack(tag = 2)]
    z: Option<i32>,
    #[msgpack(tag = 3)]
    label: Option<String>,
}

#[derive(MsgPack, Debug, PartialEq)]
enum Status {
    #[msgpack(tag = 1)]
    Pending,
    #[msgpack(tag = 2)]
    Shipped(String),
    #[msgpack(tag = 3)]
    Moved {
        #[msgpack(tag = 1)]
        from: u8,
        #[msgpack(tag = 2)]
        to: u8,
    },
    #[msgpack(tag = 4)]
    Pair(u8, bool),
    #[msgpack(tag = 0, other)]
    Unknown,
}

#[track_caller]
fn check<T>(value: &T, bytes: &[u8])
where
    T: serde::Serialize + for<'de> serde::Deserialize<'de> + PartialEq + std::fmt::Debug,
{
    assert_eq!(msgpack_serde::to_vec(value).unwrap(), bytes);
    assert_eq!(&msgpack_serde::from_slice::<T>(bytes).unwrap(), value);
}

#[test]
fn struct_is_a_map_keyed_by_tag_without_none_fields() {
    let order = Order {
        id: 42,
        customer: "Ada".into(),
        note: None,
    };
    check(&order, &[0x82, 0x01, 0x2a, 0x02, 0xa3, b'A', b'd', b'a']);
    let order = Order {
        note: Some("x".into()),
        ..order
    };
    check(
        &order,
        &[
            0x83, 0x01, 0x2a, 0x02, 0xa3, b'A', b'd', b'a', 0x03, 0xa1, b'x',
        ],
    );
}

#[test]
fn struct_speaks_json_by_name() {
    let order = Order {
        id: 42,
        customer: "Ada".into(),
        note: None,
    };
    let json = serde_json::to_string(&order).unwrap();
    assert_eq!(json, r#"{"id":42,"customer":"Ada"}"#);
    assert_eq!(serde_json::from_str::<Order>(&json).unwrap(), order);
}

#[test]
fn array_form_is_tag_indexed_with_nil_gaps_and_no_trailing_absent() {
    check(
        &Point {
            x: 1,
            z: None,
            label: None,
        },
        &[0x91, 0x01],
    );
    check(
        &Point {
            x: 1,
            z: Some(3),
            label: None,
        },
        &[0x93, 0x01, 0xc0, 0x03],
    );
    check(
        &Point {
            x: -1,
            z: None,
            label: Some("a".into()),
        },
        &[0x94, 0xff, 0xc0, 0xc0, 0xa1, b'a'],
    );
}

/// Gaps of one and of several positions, and no unknown-field member:
/// what the gaps hold is skipped, whatever it is.
#[derive(MsgPack, Debug, PartialEq)]
#[msgpack(array)]
struct Sparse {
    #[msgpack(tag = 1)]
    a: u8,
    #[msgpack(tag = 4)]
    b: Option<u8>,
}

#[test]
fn array_gaps_of_any_width_are_skipped_when_read() {
    check(
        &Sparse { a: 1, b: Some(2) },
        &[0x95, 0xc0, 0x01, 0xc0, 0xc0, 0x02],
    );
    check(&Sparse { a: 1, b: None }, &[0x92, 0xc0, 0x01]);
    // Values in the gaps and after the last field: data from a newer
    // version, skipped.
    let newer = [
        0x97, 0xa1, b'x', 0x01, 0x92, 0x01, 0x02, 0xcc, 0xff, 0x02, 0xc3, 0x80,
    ];
    assert_eq!(
        msgpack_serde::from_slice::<Sparse>(&newer).unwrap(),
        Sparse { a: 1, b: Some(2) }
    );
    // An array that ends inside a gap leaves the later fields absent.
    assert_eq!(
        msgpack_serde::from_slice::<Sparse>(&[0x93, 0xc0, 0x07, 0xc0]).unwrap(),
        Sparse { a: 7, b: None }
    );
    let error = msgpack_serde::from_slice::<Sparse>(&[0x91, 0xc0]).unwrap_err();
    assert_eq!(error.to_string(), "missing field `a` (tag 1) at offset 0");
}

#[test]
fn enums_are_tags_or_one_entry_maps() {
    check(&Status::Pending, &[0x01]);
    check(&Status::Shipped("x".into()), &[0x81, 0x02, 0xa1, b'x']);
    check(
        &Status::Moved { from: 1, to: 2 },
        &[0x81, 0x03, 0x82, 0x01, 0x01, 0x02, 0x02],
    );
    check(&Status::Pair(7, true), &[0x81, 0x04, 0x92, 0x07, 0xc3]);
    assert_eq!(
        msgpack_serde::from_slice::<Status>(&[0x09]).unwrap(),
        Status::Unknown
    );
    assert_eq!(
        msgpack_serde::from_slice::<Status>(&[0x81, 0x09, 0x90]).unwrap(),
        Status::Unknown
    );
    assert_eq!(
        serde_json::to_string(&Status::Pending).unwrap(),
        r#""Pending""#
    );
    assert_eq!(
        serde_json::to_string(&Status::Moved { from: 1, to: 2 }).unwrap(),
        r#"{"Moved":{"from":1,"to":2}}"#
    );
}

#[test]
fn reads_name_keyed_maps_and_tag_indexed_arrays() {
    let order = Order {
        id: 42,
        customer: "Ada".into(),
        note: None,
    };
    let named =
        msgpack_serde::to_vec(&msgpack_serde::msgpack!({"id": 42, "customer": "Ada"})).unwrap();
    assert_eq!(msgpack_serde::from_slice::<Order>(&named).unwrap(), order);
    let array = msgpack_serde::to_vec(&msgpack_serde::msgpack!([null, 42, "Ada"])).unwrap();
    assert_eq!(msgpack_serde::from_slice::<Order>(&array).unwrap(), order);
}

#[test]
fn missing_and_duplicate_fields_are_errors_naming_field_and_tag() {
    let missing = msgpack_serde::to_vec(&msgpack_serde::msgpack!({1: 42})).unwrap();
    let error = msgpack_serde::from_slice::<Order>(&missing).unwrap_err();
    assert_eq!(
        error.to_string(),
        "missing field `customer` (tag 2) at offset 0"
    );
    let duplicate =
        msgpack_serde::to_vec(&msgpack_serde::msgpack!({1: 42, 1: 43, 2: "A"})).unwrap();
    let error = msgpack_serde::from_slice::<Order>(&duplicate).unwrap_err();
    assert_eq!(
        error.to_string(),
        "duplicate field `id` (tag 1) at offset 0"
    );
}

/// Keys in tag order, any other order, unknown tags between known ones,
/// and names read the same.
#[test]
fn keys_in_any_order_read_the_same() {
    let order = Order {
        id: 42,
        customer: "Ada".into(),
        note: Some("n".into()),
    };
    let orders = [
        msgpack_serde::msgpack!({1: 42, 2: "Ada", 3: "n"}),
        msgpack_serde::msgpack!({3: "n", 2: "Ada", 1: 42}),
        msgpack_serde::msgpack!({1: 42, 3: "n", 2: "Ada"}),
        msgpack_serde::msgpack!({1: 42, 9: [true], 2: "Ada", 7: {}, 3: "n"}),
        msgpack_serde::msgpack!({"id": 42, 2: "Ada", "note": "n"}),
    ];
    for keys in orders {
        let bytes = msgpack_serde::to_vec(&keys).unwrap();
        let read: Order = msgpack_serde::from_slice(&bytes).unwrap();
        assert_eq!(read, order, "{keys}");
    }
}

#[test]
fn a_key_repeated_after_the_fields_in_order_is_a_duplicate() {
    for (keys, field) in [
        (
            msgpack_serde::msgpack!({1: 42, 2: "A", 3: "n", 2: "B"}),
            "`customer` (tag 2)",
        ),
        (
            msgpack_serde::msgpack!({1: 42, 2: "A", 1: 43}),
            "`id` (tag 1)",
        ),
        (
            msgpack_serde::msgpack!({2: "A", 1: 42, 1: 43}),
            "`id` (tag 1)",
        ),
        (
            msgpack_serde::msgpack!({1: 42, 2: "A", "customer": "B"}),
            "`customer` (tag 2)",
        ),
    ] {
        let bytes = msgpack_serde::to_vec(&keys).unwrap();
        let error = msgpack_serde::from_slice::<Order>(&bytes).unwrap_err();
        assert_eq!(
            error.to_string(),
            format!("duplicate field {field} at offset 0"),
            "{keys}"
        );
    }
}

#[derive(MsgPack, Debug, PartialEq)]
struct Relay {
    #[msgpack(tag = 1)]
    id: u64,
    #[msgpack(unknown)]
    unknown: UnknownFields,
}

#[test]
fn unknown_fields_survive_a_relay() {
    let newer = msgpack_serde::to_vec(&msgpack_serde::msgpack!({1: 7, 5: [1, 2], 9: "x"})).unwrap();
    let relay: Relay = msgpack_serde::from_slice(&newer).unwrap();
    assert_eq!(relay.unknown.len(), 2);
    assert_eq!(msgpack_serde::to_vec(&relay).unwrap(), newer);
}

#[test]
fn a_repeated_unknown_tag_is_an_error_like_a_repeated_known_one() {
    let bytes = msgpack_serde::to_vec(&msgpack_serde::msgpack!({1: 7, 5: "a", 5: "b"})).unwrap();
    let error = msgpack_serde::from_slice::<Relay>(&bytes).unwrap_err();
    assert_eq!(error.to_string(), "duplicate field with tag 5 at offset 0");
}

/// Structs with nothing on the wire, and the largest tag.
#[derive(MsgPack, Debug, PartialEq)]
struct Nothing {}

#[derive(MsgPack, Debug, PartialEq)]
struct OnlyUnknown {
    #[msgpack(unknown)]
    unknown: UnknownFields,
}

#[derive(MsgPack, Debug, PartialEq)]
struct LargestTag {
    #[msgpack(tag = 18446744073709551615)]
    last: bool,
}

#[derive(MsgPack, Debug, PartialEq)]
#[msgpack(array)]
struct LargestTagArray {
    #[msgpack(tag = 18446744073709551615)]
    last: bool,
}

#[test]
fn empty_structs_and_the_largest_tag() {
    check(&Nothing {}, &[0x80]);
    assert_eq!(
        msgpack_serde::from_slice::<Nothing>(&[0x81, 0x01, 0x02]).unwrap(),
        Nothing {}
    );
    assert_eq!(
        msgpack_serde::from_slice::<Nothing>(&[0x92, 0x01, 0x02]).unwrap(),
        Nothing {}
    );
    let relayed: OnlyUnknown = msgpack_serde::from_slice(&[0x81, 0x05, 0xc3]).unwrap();
    assert_eq!(relayed.unknown.len(), 1);
    assert_eq!(msgpack_serde::to_vec(&relayed).unwrap(), [0x81, 0x05, 0xc3]);
    check(
        &LargestTag { last: true },
        &[
            0x81, 0xcf, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xc3,
        ],
    );
    // As a position, the largest tag asks for an array longer than u64.
    let error = msgpack_serde::to_vec(&LargestTagArray { last: true }).unwrap_err();
    assert_eq!(error.to_string(), "array field tag too large");
}

#[derive(MsgPack, Debug, PartialEq)]
enum Never {}

#[test]
fn an_enum_without_variants_reads_nothing() {
    let error = msgpack_serde::from_slice::<Never>(&[0x01]).unwrap_err();
    assert_eq!(
        error.to_string(),
        "unknown variant tag 1 of enum Never at offset 0"
    );
}

#[derive(MsgPack, Debug, PartialEq)]
#[msgpack(array)]
struct ArrayWithUnknown {
    #[msgpack(tag = 0)]
    id: u8,
    #[msgpack(unknown)]
    unknown: UnknownFields,
}

#[test]
fn an_unknown_field_with_a_known_tag_is_refused_when_written() {
    // Only `UnknownFields::insert` can make one; decoding never does.
    let mut unknown = UnknownFields::new();
    unknown.insert(0, msgpack_serde::Value::from(7));
    // Without a known field, tag 0 is free.
    let free = OnlyUnknown {
        unknown: unknown.clone(),
    };
    assert_eq!(msgpack_serde::to_vec(&free).unwrap(), [0x81, 0x00, 0x07]);
    let error = msgpack_serde::to_vec(&ArrayWithUnknown { id: 1, unknown }).unwrap_err();
    assert_eq!(
        error.to_string(),
        "unknown field with tag 0, the tag of a known field"
    );
    let mut unknown = UnknownFields::new();
    unknown.insert(1, msgpack_serde::Value::from(7));
    let error = msgpack_serde::to_vec(&MapWithUnknown { id: 1, unknown }).unwrap_err();
    assert_eq!(
        error.to_string(),
        "unknown field with tag 1, the tag of a known field"
    );
}

#[derive(MsgPack, Debug, PartialEq)]
struct MapWithUnknown {
    #[msgpack(tag = 1)]
    id: u64,
    #[msgpack(unknown)]
    unknown: UnknownFields,
}

#[test]
fn an_array_form_struct_keeps_unknown_tags_from_a_map_only_near_its_fields() {
    // Written back, an unknown field sits at its tag's position: tag 64
    // (the largest field tag, 0, plus 64) costs 63 nils.
    let near = msgpack_serde::to_vec(&msgpack_serde::msgpack!({0: 1, 64: "x"})).unwrap();
    let relayed: ArrayWithUnknown = msgpack_serde::from_slice(&near).unwrap();
    assert_eq!(relayed.unknown.get(64), Some(&msgpack_serde::msgpack!("x")));
    let written = msgpack_serde::to_vec(&relayed).unwrap();
    assert_eq!(written[..4], [0xdc, 0x00, 0x41, 0x01]);
    assert!(written[4..4 + 63].iter().all(|&byte| byte == 0xc0));
    assert_eq!(written[4 + 63..], [0xa1, b'x']);

    // One further is skipped, as every unknown tag of a struct without
    // `UnknownFields` is: kept, a few bytes could become gigabytes of nils.
    for tag in [65, 1 << 40, u64::MAX] {
        let far = msgpack_serde::to_vec(&msgpack_serde::msgpack!({0: 1, tag: "x", 2: 7})).unwrap();
        let relayed: ArrayWithUnknown = msgpack_serde::from_slice(&far).unwrap();
        assert_eq!(
            relayed.unknown.iter().collect::<Vec<_>>(),
            [(2, &msgpack_serde::Value::from(7))]
        );
        assert_eq!(
            msgpack_serde::to_vec(&relayed).unwrap(),
            [0x93, 0x01, 0xc0, 0x07]
        );
    }

    // A map-form struct writes unknown fields as map entries, at any tag.
    let far = msgpack_serde::to_vec(&msgpack_serde::msgpack!({1: 1, (1u64 << 40): "x"})).unwrap();
    let relayed: MapWithUnknown = msgpack_serde::from_slice(&far).unwrap();
    assert_eq!(msgpack_serde::to_vec(&relayed).unwrap(), far);

    // From an array, every position was a value in the input.
    let mut long = vec![0xdc, 0x00, 0x64, 0x01];
    long.extend([0xc0; 98]);
    long.push(0x07);
    let relayed: ArrayWithUnknown = msgpack_serde::from_slice(&long).unwrap();
    assert_eq!(
        relayed.unknown.get(99),
        Some(&msgpack_serde::Value::from(7))
    );
    assert_eq!(msgpack_serde::to_vec(&relayed).unwrap(), long);
}

#[test]
fn an_array_form_struct_drops_nil_unknown_fields_read_from_a_map() {
    // In the array form nil is a gap: kept, `5: nil` would not survive
    // the next read.
    let bytes = msgpack_serde::to_vec(&msgpack_serde::msgpack!({0: 1, 5: null, 6: "x"})).unwrap();
    let relayed: ArrayWithUnknown = msgpack_serde::from_slice(&bytes).unwrap();
    assert_eq!(
        relayed.unknown.iter().collect::<Vec<_>>(),
        [(6, &msgpack_serde::msgpack!("x"))]
    );
    let written = msgpack_serde::to_vec(&relayed).unwrap();
    assert_eq!(
        written,
        [0x97, 0x01, 0xc0, 0xc0, 0xc0, 0xc0, 0xc0, 0xa1, b'x']
    );
    let again: ArrayWithUnknown = msgpack_serde::from_slice(&written).unwrap();
    assert_eq!(again, relayed);

    // Dropped after the whole map, so a repeated tag is still an error.
    for entries in [[(5, 1), (5, 0)], [(5, 0), (5, 1)], [(5, 0), (5, 0)]] {
        let mut bytes = vec![0x83, 0x00, 0x01];
        for (tag, is_one) in entries {
            bytes.extend([tag, if is_one == 1 { 0x01 } else { 0xc0 }]);
        }
        let error = msgpack_serde::from_slice::<ArrayWithUnknown>(&bytes).unwrap_err();
        assert_eq!(
            error.to_string(),
            "duplicate field with tag 5 at offset 0",
            "{bytes:02x?}"
        );
    }
}
