//! Schema evolution with `#[derive(MsgPack)]`: two versions of the same
//! messages, each reading what the other wrote; and every attribute of the
//! derive, checked as exact bytes (or exact JSON).

use std::collections::BTreeMap;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use msgpack_serde::{msgpack, MsgPack, UnknownFields};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

/// The first version of the messages.
mod v1 {
    use msgpack_serde::{MsgPack, UnknownFields};

    #[derive(MsgPack, Debug, PartialEq, Clone)]
    pub struct Order {
        #[msgpack(tag = 1)]
        pub id: u64,
        #[msgpack(tag = 2)]
        pub customer: String,
        /// Dropped in v2, which reserves tag 3.
        #[msgpack(tag = 3)]
        pub note: Option<String>,
        /// Renamed `quantity` in v2.
        #[msgpack(tag = 4)]
        pub qty: u32,
    }

    /// A service that passes orders on: it keeps what it does not know.
    #[derive(MsgPack, Debug, PartialEq, Clone)]
    pub struct Relay {
        #[msgpack(tag = 1)]
        pub id: u64,
        #[msgpack(unknown)]
        pub unknown: UnknownFields,
    }

    #[derive(MsgPack, Debug, PartialEq, Clone)]
    #[msgpack(array)]
    pub struct ArrayRelay {
        #[msgpack(tag = 0)]
        pub id: u64,
        #[msgpack(tag = 2)]
        pub name: String,
        #[msgpack(unknown)]
        pub unknown: UnknownFields,
    }

    #[derive(MsgPack, Debug, PartialEq, Clone)]
    pub enum Status {
        #[msgpack(tag = 1)]
        Pending,
        #[msgpack(tag = 2)]
        Shipped {
            #[msgpack(tag = 1)]
            carrier: String,
        },
        #[msgpack(tag = 0, other)]
        Unknown,
    }

    /// As `Status`, without a catch-all variant.
    #[derive(MsgPack, Debug, PartialEq, Clone)]
    pub enum StrictStatus {
        #[msgpack(tag = 1)]
        Pending,
        #[msgpack(tag = 2)]
        Shipped {
            #[msgpack(tag = 1)]
            carrier: String,
        },
    }
}

/// The second version: fields added, removed, reordered and renamed.
mod v2 {
    use msgpack_serde::MsgPack;

    pub fn normal_priority() -> u8 {
        5
    }

    #[derive(MsgPack, Debug, PartialEq, Clone)]
    #[msgpack(reserved(3))]
    pub struct Order {
        /// Was `qty`; declared first now.
        #[msgpack(tag = 4)]
        pub quantity: u32,
        /// New, with a default from a function.
        #[msgpack(tag = 6, default = "normal_priority")]
        pub priority: u8,
        #[msgpack(tag = 2)]
        pub customer: String,
        /// New and optional.
        #[msgpack(tag = 5)]
        pub coupon: Option<String>,
        /// New, with `Default::default()`.
        #[msgpack(tag = 7, default)]
        pub labels: Vec<String>,
        #[msgpack(tag = 1)]
        pub id: u64,
    }

    #[derive(MsgPack, Debug, PartialEq, Clone)]
    pub struct Relay {
        #[msgpack(tag = 1)]
        pub id: u64,
        #[msgpack(tag = 2)]
        pub name: String,
        #[msgpack(tag = 3)]
        pub discount: Option<f64>,
        #[msgpack(tag = 9)]
        pub lines: Vec<(String, u32)>,
    }

    #[derive(MsgPack, Debug, PartialEq, Clone)]
    #[msgpack(array)]
    pub struct ArrayRelay {
        #[msgpack(tag = 0)]
        pub id: u64,
        #[msgpack(tag = 1, default)]
        pub urgent: bool,
        #[msgpack(tag = 2)]
        pub name: String,
        #[msgpack(tag = 3)]
        pub discount: Option<u8>,
        #[msgpack(tag = 5)]
        pub lines: Vec<u32>,
    }

    #[derive(MsgPack, Debug, PartialEq, Clone)]
    pub enum Status {
        #[msgpack(tag = 1)]
        Pending,
        #[msgpack(tag = 2)]
        Shipped {
            #[msgpack(tag = 1)]
            carrier: String,
            #[msgpack(tag = 2)]
            tracking: Option<String>,
        },
        #[msgpack(tag = 3)]
        Delivered,
        #[msgpack(tag = 4)]
        Returned(String),
        #[msgpack(tag = 0, other)]
        Unknown,
    }
}

/// A version that made v2's optional `coupon` required: it cannot read
/// what v1 wrote.
mod v3 {
    use msgpack_serde::MsgPack;

    #[derive(MsgPack, Debug, PartialEq)]
    pub struct Order {
        #[msgpack(tag = 1)]
        pub id: u64,
        #[msgpack(tag = 5)]
        pub coupon: String,
    }
}

/// Asserts the exact bytes of `value`, that they read back as `value`,
/// and that every shorter prefix is an end-of-input error.
#[track_caller]
fn check<T>(value: &T, bytes: &[u8])
where
    T: Serialize + DeserializeOwned + PartialEq + std::fmt::Debug,
{
    assert_eq!(msgpack_serde::to_vec(value).unwrap(), bytes, "{value:?}");
    assert_eq!(&msgpack_serde::from_slice::<T>(bytes).unwrap(), value);
    for end in 0..bytes.len() {
        let error = msgpack_serde::from_slice::<T>(&bytes[..end]).unwrap_err();
        assert!(error.is_eof(), "prefix {:x?}: {error}", &bytes[..end]);
    }
}

/// `value` written by one version and read by another.
#[track_caller]
fn relay<T: Serialize, U: DeserializeOwned>(value: &T) -> U {
    msgpack_serde::from_slice(&msgpack_serde::to_vec(value).unwrap()).unwrap()
}

fn v1_order() -> v1::Order {
    v1::Order {
        id: 42,
        customer: "Ada".into(),
        note: Some("ring twice".into()),
        qty: 3,
    }
}

fn v2_order() -> v2::Order {
    v2::Order {
        quantity: 3,
        priority: 9,
        customer: "Ada".into(),
        coupon: Some("SPRING".into()),
        labels: vec!["gift".into()],
        id: 42,
    }
}

#[test]
fn each_version_writes_its_fields_in_source_order() {
    check(
        &v1_order(),
        &[
            0x84, 0x01, 0x2a, 0x02, 0xa3, b'A', b'd', b'a', 0x03, 0xaa, b'r', b'i', b'n', b'g',
            b' ', b't', b'w', b'i', b'c', b'e', 0x04, 0x03,
        ],
    );
    check(
        &v2_order(),
        &[
            0x86, 0x04, 0x03, 0x06, 0x09, 0x02, 0xa3, b'A', b'd', b'a', 0x05, 0xa6, b'S', b'P',
            b'R', b'I', b'N', b'G', 0x07, 0x91, 0xa4, b'g', b'i', b'f', b't', 0x01, 0x2a,
        ],
    );
}

#[test]
fn old_reader_skips_the_tags_it_does_not_know() {
    let old: v1::Order = relay(&v2_order());
    assert_eq!(
        old,
        v1::Order {
            id: 42,
            customer: "Ada".into(),
            note: None,
            qty: 3,
        }
    );
}

#[test]
fn new_reader_fills_absent_fields_with_none_and_defaults() {
    let new: v2::Order = relay(&v1_order());
    assert_eq!(
        new,
        v2::Order {
            quantity: 3,
            priority: 5,
            customer: "Ada".into(),
            coupon: None,
            labels: Vec::new(),
            id: 42,
        }
    );
}

#[test]
fn a_renamed_field_keeps_its_tag_and_so_its_value() {
    let new: v2::Order = relay(&v1::Order {
        qty: 17,
        ..v1_order()
    });
    assert_eq!(new.quantity, 17);
    let old: v1::Order = relay(&v2::Order {
        quantity: 18,
        ..v2_order()
    });
    assert_eq!(old.qty, 18);
}

#[test]
fn an_absent_required_field_is_an_error_naming_field_and_tag() {
    let bytes = msgpack_serde::to_vec(&v1_order()).unwrap();
    let error = msgpack_serde::from_slice::<v3::Order>(&bytes).unwrap_err();
    assert_eq!(
        error.to_string(),
        "missing field `coupon` (tag 5) at offset 0"
    );
    assert!(error.is_data());
    // Nested one level down, the offset is the inner map's.
    let bytes = msgpack_serde::to_vec(&vec![msgpack!({1: 1, 5: "A"}), msgpack!({1: 2})]).unwrap();
    let error = msgpack_serde::from_slice::<Vec<v3::Order>>(&bytes).unwrap_err();
    assert_eq!(
        error.to_string(),
        "missing field `coupon` (tag 5) at offset 7"
    );
}

#[test]
fn unknown_fields_survive_a_relay_through_the_old_version() {
    let original = v2::Relay {
        id: 7,
        name: "Ada".into(),
        discount: Some(0.5),
        lines: vec![("tea".into(), 2), ("cake".into(), 1)],
    };
    let bytes = msgpack_serde::to_vec(&original).unwrap();
    let old: v1::Relay = msgpack_serde::from_slice(&bytes).unwrap();
    assert_eq!(old.id, 7);
    assert_eq!(old.unknown.len(), 3);
    assert_eq!(old.unknown.get(2), Some(&msgpack!("Ada")));
    assert_eq!(old.unknown.get(3), Some(&msgpack!(0.5)));
    assert_eq!(
        old.unknown.get(9),
        Some(&msgpack!([["tea", 2], ["cake", 1]]))
    );
    // v1 writes its own field, then the unknown ones by tag: here the
    // same order as v2, so the same bytes.
    let relayed = msgpack_serde::to_vec(&old).unwrap();
    assert_eq!(relayed, bytes);
    assert_eq!(
        msgpack_serde::from_slice::<v2::Relay>(&relayed).unwrap(),
        original
    );

    // A field v2 leaves out is not invented by the relay.
    let sparse = v2::Relay {
        discount: None,
        lines: Vec::new(),
        ..original
    };
    let old: v1::Relay = relay(&sparse);
    assert_eq!(old.unknown.len(), 2);
    assert_eq!(relay::<_, v2::Relay>(&old), sparse);
}

#[test]
fn unknown_fields_survive_a_relay_in_array_form() {
    let original = v2::ArrayRelay {
        id: 7,
        urgent: true,
        name: "Ada".into(),
        discount: None,
        lines: vec![1, 2],
    };
    let bytes = msgpack_serde::to_vec(&original).unwrap();
    // Tag-indexed: nil fills tags 3 and 4.
    assert_eq!(
        bytes,
        [0x96, 0x07, 0xc3, 0xa3, b'A', b'd', b'a', 0xc0, 0xc0, 0x92, 0x01, 0x02]
    );
    let old: v1::ArrayRelay = msgpack_serde::from_slice(&bytes).unwrap();
    assert_eq!((old.id, old.name.as_str()), (7, "Ada"));
    // Nil is a gap, not a field.
    assert_eq!(old.unknown.len(), 2);
    assert_eq!(old.unknown.get(1), Some(&msgpack!(true)));
    assert_eq!(old.unknown.get(5), Some(&msgpack!([1, 2])));
    // Unknown fields go back to their positions, between and after the
    // known ones.
    let relayed = msgpack_serde::to_vec(&old).unwrap();
    assert_eq!(relayed, bytes);
    assert_eq!(
        msgpack_serde::from_slice::<v2::ArrayRelay>(&relayed).unwrap(),
        original
    );

    // Without trailing unknown fields the array ends with the last known one.
    let short = v2::ArrayRelay {
        lines: Vec::new(),
        ..original.clone()
    };
    let bytes = msgpack_serde::to_vec(&short).unwrap();
    assert_eq!(
        bytes,
        [0x96, 0x07, 0xc3, 0xa3, b'A', b'd', b'a', 0xc0, 0xc0, 0x90]
    );
    let old: v1::ArrayRelay = msgpack_serde::from_slice(&bytes).unwrap();
    assert_eq!(relay::<_, v2::ArrayRelay>(&old), short);
    let old = v1::ArrayRelay {
        id: 1,
        name: "B".into(),
        unknown: UnknownFields::new(),
    };
    assert_eq!(
        msgpack_serde::to_vec(&old).unwrap(),
        [0x93, 0x01, 0xc0, 0xa1, b'B']
    );
}

#[test]
fn old_reader_maps_new_variants_to_its_other_variant() {
    check(&v2::Status::Delivered, &[0x03]);
    check(
        &v2::Status::Returned("damaged".into()),
        &[0x81, 0x04, 0xa7, b'd', b'a', b'm', b'a', b'g', b'e', b'd'],
    );
    assert_eq!(
        relay::<_, v1::Status>(&v2::Status::Delivered),
        v1::Status::Unknown
    );
    assert_eq!(
        relay::<_, v1::Status>(&v2::Status::Returned("damaged".into())),
        v1::Status::Unknown
    );
    // A known variant with a new field: the field is skipped.
    let shipped = v2::Status::Shipped {
        carrier: "DHL".into(),
        tracking: Some("123".into()),
    };
    assert_eq!(
        relay::<_, v1::Status>(&shipped),
        v1::Status::Shipped {
            carrier: "DHL".into()
        }
    );
    // And the other way round.
    assert_eq!(
        relay::<_, v2::Status>(&v1::Status::Shipped {
            carrier: "DHL".into()
        }),
        v2::Status::Shipped {
            carrier: "DHL".into(),
            tracking: None
        }
    );
    // In JSON the catch-all takes unknown names.
    assert_eq!(
        serde_json::from_str::<v1::Status>(r#""Delivered""#).unwrap(),
        v1::Status::Unknown
    );
    assert_eq!(
        serde_json::from_str::<v1::Status>(r#"{"Returned":"damaged"}"#).unwrap(),
        v1::Status::Unknown
    );
}

#[test]
fn an_unknown_variant_without_other_is_an_error() {
    let bytes = msgpack_serde::to_vec(&v2::Status::Delivered).unwrap();
    let error = msgpack_serde::from_slice::<v1::StrictStatus>(&bytes).unwrap_err();
    assert_eq!(
        error.to_string(),
        "unknown variant tag 3 of enum StrictStatus at offset 0"
    );
    let bytes = msgpack_serde::to_vec(&v2::Status::Returned("x".into())).unwrap();
    let error = msgpack_serde::from_slice::<v1::StrictStatus>(&bytes).unwrap_err();
    assert_eq!(
        error.to_string(),
        "unknown variant tag 4 of enum StrictStatus at offset 0"
    );
    let error = serde_json::from_str::<v1::StrictStatus>(r#""Delivered""#).unwrap_err();
    assert_eq!(
        error.to_string(),
        "unknown variant `Delivered` of enum StrictStatus at line 1 column 11"
    );
    // A map of other than one entry is no variant.
    let bytes = msgpack_serde::to_vec(&msgpack!({1: null, 2: null})).unwrap();
    let error = msgpack_serde::from_slice::<v1::StrictStatus>(&bytes).unwrap_err();
    assert_eq!(
        error.to_string(),
        "expected a map of one entry for enum StrictStatus at offset 0"
    );
}

fn three() -> u8 {
    3
}

fn some_five() -> Option<u8> {
    Some(5)
}

#[derive(MsgPack, Debug, PartialEq, Default)]
#[msgpack(omit_default)]
struct Counters {
    #[msgpack(tag = 1)]
    hits: u32,
    #[msgpack(tag = 2)]
    name: String,
    #[msgpack(tag = 3)]
    flags: Vec<bool>,
    #[msgpack(tag = 4)]
    limit: Option<u8>,
}

#[derive(MsgPack, Debug, PartialEq)]
struct Settings {
    #[msgpack(tag = 1)]
    id: u8,
    #[msgpack(tag = 2, omit_default)]
    retries: u8,
    #[msgpack(tag = 3)]
    verbose: bool,
    /// Left out when it equals `three()`, the value absent reads as.
    #[msgpack(tag = 4, default = "three", omit_default)]
    level: u8,
    /// Absent reads as `Some(5)`: so `None` must be written.
    #[msgpack(tag = 5, default = "some_five")]
    cap: Option<u8>,
}

#[test]
fn omit_default_on_the_container_leaves_out_every_default_field() {
    check(&Counters::default(), &[0x80]);
    check(
        &Counters {
            hits: 2,
            ..Counters::default()
        },
        &[0x81, 0x01, 0x02],
    );
    check(
        &Counters {
            hits: 0,
            name: "a".into(),
            flags: vec![false],
            limit: Some(0),
        },
        &[0x83, 0x02, 0xa1, b'a', 0x03, 0x91, 0xc2, 0x04, 0x00],
    );
    // In JSON as well.
    assert_eq!(serde_json::to_string(&Counters::default()).unwrap(), "{}");
}

#[test]
fn omit_default_on_a_field_and_default_path() {
    let settings = Settings {
        id: 1,
        retries: 0,
        verbose: false,
        level: 3,
        cap: Some(5),
    };
    check(&settings, &[0x83, 0x01, 0x01, 0x03, 0xc2, 0x05, 0x05]);
    check(
        &Settings {
            retries: 2,
            ..settings
        },
        &[0x84, 0x01, 0x01, 0x02, 0x02, 0x03, 0xc2, 0x05, 0x05],
    );
    // `level` equal to u8's default but not to `three()` is written.
    check(
        &Settings {
            level: 0,
            cap: None,
            ..settings
        },
        &[0x84, 0x01, 0x01, 0x03, 0xc2, 0x04, 0x00, 0x05, 0xc0],
    );
    // Absent: the defaults.
    assert_eq!(
        msgpack_serde::from_slice::<Settings>(&[0x82, 0x01, 0x01, 0x03, 0xc3]).unwrap(),
        Settings {
            id: 1,
            retries: 0,
            verbose: true,
            level: 3,
            cap: Some(5),
        }
    );
}

#[derive(MsgPack, Debug, PartialEq)]
#[msgpack(array, omit_default)]
struct Dense {
    #[msgpack(tag = 0)]
    a: u8,
    #[msgpack(tag = 1)]
    b: u8,
    #[msgpack(tag = 2)]
    c: u8,
}

#[derive(MsgPack, Debug, PartialEq)]
#[msgpack(omit_default)]
enum Adjust {
    #[msgpack(tag = 1)]
    By {
        #[msgpack(tag = 1)]
        amount: i32,
        #[msgpack(tag = 2)]
        reason: String,
    },
}

#[test]
fn omit_default_in_array_form_and_in_struct_variants() {
    // A default field is a nil gap, or left off at the end.
    check(&Dense { a: 0, b: 5, c: 0 }, &[0x92, 0xc0, 0x05]);
    check(&Dense { a: 0, b: 0, c: 0 }, &[0x90]);
    check(&Dense { a: 1, b: 0, c: 2 }, &[0x93, 0x01, 0xc0, 0x02]);
    check(
        &Adjust::By {
            amount: 0,
            reason: "r".into(),
        },
        &[0x81, 0x01, 0x81, 0x02, 0xa1, b'r'],
    );
    check(
        &Adjust::By {
            amount: -1,
            reason: String::new(),
        },
        &[0x81, 0x01, 0x81, 0x01, 0xff],
    );
}

fn placeholder() -> String {
    "cached".into()
}

#[derive(MsgPack, Debug, PartialEq)]
struct Skipping {
    #[msgpack(tag = 1)]
    id: u8,
    #[msgpack(skip)]
    scratch: Vec<u8>,
    #[msgpack(skip, default = "placeholder")]
    cache: String,
}

#[test]
fn skipped_fields_are_not_written_and_read_as_their_default() {
    let value = Skipping {
        id: 1,
        scratch: vec![1, 2, 3],
        cache: "hot".into(),
    };
    let bytes = msgpack_serde::to_vec(&value).unwrap();
    assert_eq!(bytes, [0x81, 0x01, 0x01]);
    assert_eq!(
        msgpack_serde::from_slice::<Skipping>(&bytes).unwrap(),
        Skipping {
            id: 1,
            scratch: Vec::new(),
            cache: "cached".into(),
        }
    );
    assert_eq!(serde_json::to_string(&value).unwrap(), r#"{"id":1}"#);
    // A skipped field's tag is free: data under it is an unknown field.
    assert_eq!(
        msgpack_serde::from_slice::<Skipping>(&[0x82, 0x01, 0x01, 0x02, 0x07])
            .unwrap()
            .scratch,
        Vec::<u8>::new()
    );
}

#[derive(MsgPack, Debug, PartialEq)]
struct Event {
    #[msgpack(tag = 1, with = "msgpack_serde::timestamp")]
    at: SystemTime,
    #[msgpack(tag = 2)]
    name: String,
}

#[derive(MsgPack, Debug, PartialEq)]
#[msgpack(array)]
struct ArrayEvent {
    #[msgpack(tag = 0, with = "msgpack_serde::timestamp")]
    at: SystemTime,
}

#[derive(MsgPack, Debug, PartialEq)]
enum Change {
    #[msgpack(tag = 1)]
    Moved {
        #[msgpack(tag = 1, with = "msgpack_serde::timestamp")]
        at: SystemTime,
    },
}

#[test]
fn with_module_serializes_the_field_through_it() {
    let at = UNIX_EPOCH + Duration::from_secs(1);
    check(
        &Event {
            at,
            name: "a".into(),
        },
        &[0x82, 0x01, 0xd6, 0xff, 0, 0, 0, 1, 0x02, 0xa1, b'a'],
    );
    check(&ArrayEvent { at }, &[0x91, 0xd6, 0xff, 0, 0, 0, 1]);
    check(
        &Change::Moved { at },
        &[0x81, 0x01, 0x81, 0x01, 0xd6, 0xff, 0, 0, 0, 1],
    );
    let error = msgpack_serde::from_slice::<Event>(&[0x82, 0x01, 0x01, 0x02, 0xa1, b'a'])
        .unwrap_err()
        .to_string();
    assert!(error.ends_with("at offset 2"), "{error}");
    // Keys out of tag order are read by the general loop, through the
    // wrapper as well: the same value, and the same error at the offset.
    let reversed = [0x82, 0x02, 0xa1, b'a', 0x01, 0xd6, 0xff, 0, 0, 0, 1];
    assert_eq!(
        msgpack_serde::from_slice::<Event>(&reversed).unwrap(),
        Event {
            at,
            name: "a".into()
        }
    );
    let error = msgpack_serde::from_slice::<Event>(&[0x82, 0x02, 0xa1, b'a', 0x01, 0x01])
        .unwrap_err()
        .to_string();
    assert!(error.ends_with("at offset 5"), "{error}");
}

#[derive(MsgPack, Debug, PartialEq)]
#[msgpack(rename_all = "camelCase")]
struct Customer {
    #[msgpack(tag = 1)]
    first_name: String,
    #[msgpack(tag = 2, rename = "surname")]
    last_name: String,
    #[msgpack(tag = 3)]
    loyalty_points: Option<u32>,
}

#[derive(MsgPack, Debug, PartialEq)]
/// `rename_all` names the variants; struct-variant fields keep their
/// names, as with serde.
#[msgpack(rename_all = "snake_case")]
enum Delivery {
    #[msgpack(tag = 1)]
    OutForDelivery,
    #[msgpack(tag = 2, rename = "left-with-neighbour")]
    LeftWithNeighbour {
        #[msgpack(tag = 1)]
        house_number: u16,
    },
}

#[derive(MsgPack, Debug, PartialEq)]
#[msgpack(rename_all = "SCREAMING-KEBAB-CASE")]
enum Loud {
    #[msgpack(tag = 1)]
    QuiteLoud,
}

#[test]
fn rename_and_rename_all_apply_to_json_names_only() {
    let customer = Customer {
        first_name: "Ada".into(),
        last_name: "Lovelace".into(),
        loyalty_points: Some(7),
    };
    let json = serde_json::to_string(&customer).unwrap();
    assert_eq!(
        json,
        r#"{"firstName":"Ada","surname":"Lovelace","loyaltyPoints":7}"#
    );
    assert_eq!(serde_json::from_str::<Customer>(&json).unwrap(), customer);
    // The binary form is keyed by tag whatever the names.
    check(
        &customer,
        &[
            0x83, 0x01, 0xa3, b'A', b'd', b'a', 0x02, 0xa8, b'L', b'o', b'v', b'e', b'l', b'a',
            b'c', b'e', 0x03, 0x07,
        ],
    );
    assert_eq!(
        serde_json::to_string(&Delivery::OutForDelivery).unwrap(),
        r#""out_for_delivery""#
    );
    let left = Delivery::LeftWithNeighbour { house_number: 12 };
    let json = serde_json::to_string(&left).unwrap();
    assert_eq!(json, r#"{"left-with-neighbour":{"house_number":12}}"#);
    assert_eq!(serde_json::from_str::<Delivery>(&json).unwrap(), left);
    assert_eq!(
        serde_json::to_string(&Loud::QuiteLoud).unwrap(),
        r#""QUITE-LOUD""#
    );
}

#[derive(MsgPack, Debug, PartialEq)]
struct Wrapper<T> {
    #[msgpack(tag = 1)]
    inner: T,
}

/// A type with plain serde derives: a map keyed by name under `to_vec`.
#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Plain {
    a: u8,
}

#[test]
fn generic_types_take_derived_and_plain_parameters() {
    check(&Wrapper { inner: 7u8 }, &[0x81, 0x01, 0x07]);
    check(
        &Wrapper {
            inner: Plain { a: 1 },
        },
        &[0x81, 0x01, 0x81, 0xa1, b'a', 0x01],
    );
    check(
        &Wrapper {
            inner: Wrapper {
                inner: Customer {
                    first_name: "A".into(),
                    last_name: "B".into(),
                    loyalty_points: None,
                },
            },
        },
        &[
            0x81, 0x01, 0x81, 0x01, 0x82, 0x01, 0xa1, b'A', 0x02, 0xa1, b'B',
        ],
    );
}

/// A `with` field whose type does not mention `T`.
#[derive(MsgPack, Debug, PartialEq)]
#[msgpack(array)]
struct Stamped<T> {
    #[msgpack(tag = 0)]
    value: T,
    #[msgpack(tag = 1, with = "msgpack_serde::timestamp")]
    at: SystemTime,
}

/// A struct variant whose fields do not mention `T`.
#[derive(MsgPack, Debug, PartialEq)]
enum Either<T> {
    #[msgpack(tag = 1)]
    Value(T),
    #[msgpack(tag = 2)]
    Empty {
        #[msgpack(tag = 1)]
        reason: String,
    },
}

/// `omit_default` on a type parameter bounded on the struct.
#[derive(MsgPack, Debug, PartialEq)]
struct Counted<T: Default + PartialEq> {
    #[msgpack(tag = 1, omit_default)]
    count: T,
}

#[test]
fn generic_types_with_helpers_that_do_not_mention_the_parameter() {
    let at = UNIX_EPOCH + Duration::from_secs(1);
    check(
        &Stamped { value: true, at },
        &[0x92, 0xc3, 0xd6, 0xff, 0, 0, 0, 1],
    );
    check(
        &Either::Value(Plain { a: 1 }),
        &[0x81, 0x01, 0x81, 0xa1, b'a', 0x01],
    );
    check(
        &Either::<Plain>::Empty { reason: "x".into() },
        &[0x81, 0x02, 0x81, 0x01, 0xa1, b'x'],
    );
    check(&Counted { count: 0u16 }, &[0x80]);
    check(&Counted { count: 300u16 }, &[0x81, 0x01, 0xcd, 0x01, 0x2c]);
}

#[derive(MsgPack, Debug, PartialEq)]
struct Borrowed<'a> {
    #[msgpack(tag = 1)]
    name: &'a str,
    #[msgpack(tag = 2)]
    alias: Option<&'a str>,
}

#[test]
fn borrowed_fields_point_into_the_input() {
    let bytes = [0x82, 0x01, 0xa3, b'A', b'd', b'a', 0x02, 0xa1, b'A'];
    let value: Borrowed<'_> = msgpack_serde::from_slice(&bytes).unwrap();
    assert_eq!(
        value,
        Borrowed {
            name: "Ada",
            alias: Some("A")
        }
    );
    let input = bytes.as_ptr_range();
    assert!(input.contains(&value.name.as_ptr()));
    assert_eq!(value.name.as_ptr(), bytes[3..].as_ptr());
    assert!(input.contains(&value.alias.unwrap().as_ptr()));
    assert_eq!(msgpack_serde::to_vec(&value).unwrap(), bytes);
}

#[derive(MsgPack, Debug, PartialEq)]
struct Pair(u8, String);

#[derive(MsgPack, Debug, PartialEq)]
struct Id(u64);

#[derive(MsgPack, Debug, PartialEq)]
#[msgpack(array)]
struct Rgb(u8, u8, u8);

#[derive(MsgPack, Debug, PartialEq)]
struct Gap(u8, #[msgpack(tag = 5)] u8);

#[derive(MsgPack, Debug, PartialEq)]
struct Marker;

#[test]
fn tuple_struct_fields_are_tagged_by_position() {
    check(&Pair(7, "x".into()), &[0x82, 0x00, 0x07, 0x01, 0xa1, b'x']);
    check(&Id(42), &[0x81, 0x00, 0x2a]);
    check(&Rgb(1, 2, 3), &[0x93, 0x01, 0x02, 0x03]);
    check(&Gap(1, 2), &[0x82, 0x00, 0x01, 0x05, 0x02]);
    check(&Marker, &[0xc0]);
    assert_eq!(
        serde_json::to_string(&Pair(7, "x".into())).unwrap(),
        r#"{"0":7,"1":"x"}"#
    );
}

/// A plain serde type holding a derived one.
#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Envelope {
    kind: String,
    status: v1::Status,
    order: Id,
}

/// A derived type holding plain serde ones.
#[derive(MsgPack, Debug, PartialEq)]
struct Batch {
    #[msgpack(tag = 1)]
    items: Vec<Plain>,
    #[msgpack(tag = 2)]
    by_name: BTreeMap<String, Envelope>,
}

#[test]
fn derived_and_plain_types_nest_both_ways() {
    let envelope = Envelope {
        kind: "k".into(),
        status: v1::Status::Pending,
        order: Id(9),
    };
    // The plain struct is keyed by name, the derived ones by tag.
    let envelope_bytes = [
        0x83, 0xa4, b'k', b'i', b'n', b'd', 0xa1, b'k', 0xa6, b's', b't', b'a', b't', b'u', b's',
        0x01, 0xa5, b'o', b'r', b'd', b'e', b'r', 0x81, 0x00, 0x09,
    ];
    check(&envelope, &envelope_bytes);
    // Under the compact config the plain struct is an array; the derived
    // ones keep their own layout.
    let compact = msgpack_serde::to_vec_compact(&envelope).unwrap();
    assert_eq!(compact, [0x93, 0xa1, b'k', 0x01, 0x81, 0x00, 0x09]);
    assert_eq!(
        msgpack_serde::from_slice::<Envelope>(&compact).unwrap(),
        envelope
    );

    let batch = Batch {
        items: vec![Plain { a: 1 }],
        by_name: BTreeMap::from([("e".to_string(), envelope)]),
    };
    let mut bytes = vec![
        0x82, 0x01, 0x91, 0x81, 0xa1, b'a', 0x01, 0x02, 0x81, 0xa1, b'e',
    ];
    bytes.extend_from_slice(&envelope_bytes);
    check(&batch, &bytes);
    let compact = msgpack_serde::to_vec_compact(&batch).unwrap();
    assert_eq!(
        compact,
        [
            0x82, 0x01, 0x91, 0x91, 0x01, 0x02, 0x81, 0xa1, b'e', 0x93, 0xa1, b'k', 0x01, 0x81,
            0x00, 0x09
        ]
    );
    assert_eq!(msgpack_serde::from_slice::<Batch>(&compact).unwrap(), batch);
    assert_eq!(
        serde_json::to_string(&batch).unwrap(),
        r#"{"items":[{"a":1}],"by_name":{"e":{"kind":"k","status":"Pending","order":{"0":9}}}}"#
    );
}

#[test]
fn the_derive_decides_its_layout_even_under_to_vec_compact() {
    fn same<T: Serialize>(value: &T) {
        assert_eq!(
            msgpack_serde::to_vec_compact(value).unwrap(),
            msgpack_serde::to_vec(value).unwrap()
        );
    }
    same(&v2_order());
    same(&v1::Status::Shipped {
        carrier: "DHL".into(),
    });
    same(&v2::Status::Returned("x".into()));
    same(&v2::Status::Delivered);
    same(&Rgb(1, 2, 3));
    same(&Counters::default());
    same(&Pair(1, "a".into()));
    same(&Marker);
    assert_eq!(
        msgpack_serde::to_vec_compact(&v2::Status::Delivered).unwrap(),
        [0x03]
    );
}

#[test]
fn a_field_always_written_reads_its_nil_back_in_array_form() {
    #[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
    struct Empty;

    #[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
    struct Wrapped(msgpack_serde::Value);

    fn five() -> Option<u8> {
        Some(5)
    }

    #[derive(MsgPack, Debug, PartialEq, Clone)]
    #[msgpack(array)]
    struct Nils {
        #[msgpack(tag = 0)]
        unit: (),
        #[msgpack(tag = 1)]
        value: msgpack_serde::Value,
        #[msgpack(tag = 2)]
        empty: Empty,
        #[msgpack(tag = 3)]
        maybe: Option<u8>,
        #[msgpack(tag = 4)]
        wrapped: Wrapped,
        // Absent reads as `five()`, so `None` is written, as nil.
        #[msgpack(tag = 5, default = "five")]
        capped: Option<u8>,
        #[msgpack(tag = 6)]
        count: u8,
    }

    let nils = Nils {
        unit: (),
        value: msgpack_serde::Value::Nil,
        empty: Empty,
        maybe: None,
        wrapped: Wrapped(msgpack_serde::Value::Nil),
        capped: None,
        count: 1,
    };
    let bytes = msgpack_serde::to_vec(&nils).unwrap();
    assert_eq!(bytes, [0x97, 0xc0, 0xc0, 0xc0, 0xc0, 0xc0, 0xc0, 0x01]);
    assert_eq!(msgpack_serde::from_slice::<Nils>(&bytes).unwrap(), nils);

    // A nil where the type reads none is still a gap, so a missing field.
    let mut gap = bytes.clone();
    gap[7] = 0xc0;
    let error = msgpack_serde::from_slice::<Nils>(&gap).unwrap_err();
    assert_eq!(
        error.to_string(),
        "missing field `count` (tag 6) at offset 0"
    );

    // The schema document carries the same rule for readers elsewhere
    // (`msgpack --schema`, the generated TypeScript and Python). `maybe`
    // reads nil too, but as a gap: it is left out when `None`.
    use msgpack_serde::schema::{Schema, TypeDef};
    let doc = Nils::schema();
    let TypeDef::Struct { fields, .. } = &doc.types["Nils"] else {
        panic!("not a struct")
    };
    let nil_is_value: Vec<bool> = fields.iter().map(|f| f.nil_is_value(&doc.types)).collect();
    assert_eq!(nil_is_value, [true, true, true, false, true, true, false]);
}

#[test]
fn an_array_field_left_out_at_its_default_refuses_to_write_nil() {
    fn five() -> Option<u8> {
        Some(5)
    }

    fn one() -> msgpack_serde::Value {
        msgpack_serde::Value::from(1)
    }

    fn raw_one() -> msgpack_serde::RawValue {
        msgpack_serde::RawValue::from_bytes([0x01]).unwrap()
    }

    #[derive(MsgPack, Debug, PartialEq, Clone)]
    #[msgpack(array)]
    struct Capped {
        #[msgpack(tag = 0, default = "five", omit_default)]
        cap: Option<u8>,
        #[msgpack(tag = 1, default = "one", omit_default)]
        extra: msgpack_serde::Value,
        #[msgpack(tag = 2)]
        id: u8,
        #[msgpack(tag = 3, default = "raw_one", omit_default)]
        raw: msgpack_serde::RawValue,
    }

    // Not nil: written, or left out at the default, and read back.
    let written = Capped {
        cap: Some(3),
        extra: one(),
        id: 7,
        raw: raw_one(),
    };
    let bytes = msgpack_serde::to_vec(&written).unwrap();
    assert_eq!(bytes, [0x93, 0x03, 0xc0, 0x07]);
    assert_eq!(
        msgpack_serde::from_slice::<Capped>(&bytes).unwrap(),
        written
    );

    // `None` is not the default but writes nil, which the array reads as
    // the field left out (`Some(5)`): refused, on the direct path and
    // through serde's.
    let none = Capped {
        cap: None,
        ..written.clone()
    };
    let expected = "field `cap` (tag 0) is not its default but writes nil, which an #[msgpack(array)] struct reads as the field left out";
    assert_eq!(
        msgpack_serde::to_vec(&none).unwrap_err().to_string(),
        expected
    );
    let error = msgpack_serde::to_writer(std::io::sink(), &none).unwrap_err();
    assert_eq!(error.to_string(), expected);
    let nil = Capped {
        extra: msgpack_serde::Value::Nil,
        ..written.clone()
    };
    assert_eq!(
        msgpack_serde::to_vec(&nil).unwrap_err().to_string(),
        "field `extra` (tag 1) is not its default but writes nil, which an #[msgpack(array)] struct reads as the field left out"
    );
    // A raw value's bytes are what it writes: nil there too.
    let raw_nil = Capped {
        raw: msgpack_serde::RawValue::from_bytes([0xc0]).unwrap(),
        ..written.clone()
    };
    assert_eq!(
        msgpack_serde::to_vec(&raw_nil).unwrap_err().to_string(),
        "field `raw` (tag 3) is not its default but writes nil, which an #[msgpack(array)] struct reads as the field left out"
    );

    // The map form tells nil from absent: no refusal there.
    #[derive(MsgPack, Debug, PartialEq)]
    struct Keyed {
        #[msgpack(tag = 0, default = "five", omit_default)]
        cap: Option<u8>,
    }
    let bytes = msgpack_serde::to_vec(&Keyed { cap: None }).unwrap();
    assert_eq!(bytes, [0x81, 0x00, 0xc0]);
    assert_eq!(
        msgpack_serde::from_slice::<Keyed>(&bytes).unwrap(),
        Keyed { cap: None }
    );
}

/// RON tells a map (`{..}`) from a struct (`(..)`) and reads a map only
/// through `deserialize_any`, which is how the derive reads: a derived
/// type round-trips there, its names kept, as in JSON.
#[test]
fn a_derived_type_reads_back_from_ron() {
    let value = v2_order();
    let text = ron::to_string(&value).unwrap();
    assert!(text.starts_with("{\""), "{text}");
    assert_eq!(ron::from_str::<v2::Order>(&text).unwrap(), value);
}
