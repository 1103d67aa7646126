//! Property tests for `#[derive(MsgPack)]` across versions: generated
//! messages of two versions of the same types round-trip in each version
//! (whichever struct mode is asked for, from a slice and from a reader),
//! each version reads what the other wrote, a relay through the old
//! version loses nothing the old version can hold, and what either writes
//! is the smallest encoding (a decoded `Value` re-encodes to the same
//! bytes). An array-form struct read from any map relays stably and
//! within a bound, whatever unknown tags the map holds.
//!
//! The fixed examples of the same evolution are in `derive_evolution.rs`.

use std::io::Cursor;

use msgpack_serde::Value;
use proptest::collection::vec;
use proptest::option;
use proptest::prelude::*;
use serde::de::DeserializeOwned;
use serde::Serialize;

/// The first version.
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
        #[msgpack(tag = 5)]
        pub status: Status,
        #[msgpack(tag = 6)]
        pub lines: Vec<Line>,
        #[msgpack(unknown)]
        pub unknown: UnknownFields,
    }

    #[derive(MsgPack, Debug, PartialEq, Clone)]
    #[msgpack(array)]
    pub struct Line {
        #[msgpack(tag = 0)]
        pub sku: String,
        #[msgpack(tag = 1)]
        pub count: u32,
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
}

/// The second version: a field dropped, one renamed, fields and variants
/// added, fields declared in another order.
mod v2 {
    use msgpack_serde::MsgPack;

    pub fn normal_priority() -> u8 {
        5
    }

    #[derive(MsgPack, Debug, PartialEq, Clone)]
    #[msgpack(reserved(3))]
    pub struct Order {
        #[msgpack(tag = 4)]
        pub quantity: u32,
        #[msgpack(tag = 8, default = "normal_priority")]
        pub priority: u8,
        #[msgpack(tag = 2)]
        pub customer: String,
        #[msgpack(tag = 7)]
        pub coupon: Option<String>,
        #[msgpack(tag = 9, default)]
        pub labels: Vec<String>,
        #[msgpack(tag = 1)]
        pub id: u64,
        #[msgpack(tag = 5)]
        pub status: Status,
        #[msgpack(tag = 6)]
        pub lines: Vec<Line>,
    }

    #[derive(MsgPack, Debug, PartialEq, Clone)]
    #[msgpack(array)]
    pub struct Line {
        #[msgpack(tag = 0)]
        pub sku: String,
        #[msgpack(tag = 1)]
        pub count: u32,
        #[msgpack(tag = 2)]
        pub price: Option<i64>,
        #[msgpack(tag = 3, default)]
        pub gift: bool,
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

fn text() -> impl Strategy<Value = String> {
    "(?s).{0,12}"
}

fn v1_status() -> impl Strategy<Value = v1::Status> {
    prop_oneof![
        Just(v1::Status::Pending),
        text().prop_map(|carrier| v1::Status::Shipped { carrier }),
        Just(v1::Status::Unknown),
    ]
}

fn v1_order() -> impl Strategy<Value = v1::Order> {
    let line = (text(), any::<u32>()).prop_map(|(sku, count)| v1::Line {
        sku,
        count,
        unknown: Default::default(),
    });
    (
        any::<u64>(),
        text(),
        option::of(text()),
        any::<u32>(),
        v1_status(),
        vec(line, 0..4),
    )
        .prop_map(|(id, customer, note, qty, status, lines)| v1::Order {
            id,
            customer,
            note,
            qty,
            status,
            lines,
            unknown: Default::default(),
        })
}

fn v2_status() -> impl Strategy<Value = v2::Status> {
    prop_oneof![
        Just(v2::Status::Pending),
        (text(), option::of(text()))
            .prop_map(|(carrier, tracking)| v2::Status::Shipped { carrier, tracking }),
        Just(v2::Status::Delivered),
        text().prop_map(v2::Status::Returned),
        Just(v2::Status::Unknown),
    ]
}

fn v2_order() -> impl Strategy<Value = v2::Order> {
    let line = (
        text(),
        any::<u32>(),
        option::of(any::<i64>()),
        any::<bool>(),
    )
        .prop_map(|(sku, count, price, gift)| v2::Line {
            sku,
            count,
            price,
            gift,
        });
    (
        any::<u32>(),
        any::<u8>(),
        text(),
        option::of(text()),
        vec(text(), 0..3),
        any::<u64>(),
        v2_status(),
        vec(line, 0..4),
    )
        .prop_map(
            |(quantity, priority, customer, coupon, labels, id, status, lines)| v2::Order {
                quantity,
                priority,
                customer,
                coupon,
                labels,
                id,
                status,
                lines,
            },
        )
}

/// `value` written in both struct modes reads back equal from a slice and
/// from a reader, and the bytes are the smallest encoding.
fn round_trips<T>(value: &T) -> Result<(), TestCaseError>
where
    T: Serialize + DeserializeOwned + PartialEq + std::fmt::Debug,
{
    let named = msgpack_serde::to_vec(value).unwrap();
    let compact = msgpack_serde::to_vec_compact(value).unwrap();
    // The derive decides its layout whatever the mode.
    prop_assert_eq!(&compact, &named);
    prop_assert_eq!(&msgpack_serde::from_slice::<T>(&named).unwrap(), value);
    prop_assert_eq!(
        &msgpack_serde::from_reader::<_, T>(Cursor::new(&named)).unwrap(),
        value
    );
    let as_value = Value::from_slice(&named).unwrap();
    prop_assert_eq!(as_value.to_vec().unwrap(), named);
    Ok(())
}

/// What v1 makes of a v2 status.
fn v1_status_of(status: &v2::Status) -> v1::Status {
    match status {
        v2::Status::Pending => v1::Status::Pending,
        v2::Status::Shipped { carrier, .. } => v1::Status::Shipped {
            carrier: carrier.clone(),
        },
        _ => v1::Status::Unknown,
    }
}

/// What v2 makes of a v1 status.
fn v2_status_of(status: &v1::Status) -> v2::Status {
    match status {
        v1::Status::Pending => v2::Status::Pending,
        v1::Status::Shipped { carrier } => v2::Status::Shipped {
            carrier: carrier.clone(),
            tracking: None,
        },
        v1::Status::Unknown => v2::Status::Unknown,
    }
}

/// Unknown fields for an array-form `v1::Line` (fields at tags 0 and 1),
/// by tag: near its fields, past the 64 it keeps from a map, anywhere;
/// nil or not.
fn line_unknowns() -> impl Strategy<Value = std::collections::BTreeMap<u64, Value>> {
    let tag = prop_oneof![2u64..=70, 60u64..=200, any::<u64>()];
    let value = prop_oneof![
        Just(Value::Nil),
        any::<i64>().prop_map(Value::from),
        text().prop_map(Value::from),
    ];
    proptest::collection::btree_map(tag, value, 0..6)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Read from a map, an array-form struct keeps its non-nil unknown
    /// fields up to 64 tags past its largest field tag (1 here), writes
    /// them back nil-padded, and reads that back as itself: the relay is
    /// stable, and grows the message by at most 64 nils and a header.
    #[test]
    fn an_array_form_struct_relays_a_map_stably_and_within_bounds(
        sku in text(),
        count in any::<u32>(),
        unknowns in line_unknowns(),
    ) {
        let mut entries = vec![(Value::from(0u64), Value::from(sku.clone())), (Value::from(1u64), Value::from(count))];
        entries.extend(unknowns.iter().map(|(tag, value)| (Value::from(*tag), value.clone())));
        let input = msgpack_serde::to_vec(&Value::Map(entries)).unwrap();
        let line: v1::Line = msgpack_serde::from_slice(&input).unwrap();
        prop_assert_eq!(&line.sku, &sku);
        prop_assert_eq!(line.count, count);
        let kept: Vec<(u64, &Value)> = unknowns
            .iter()
            .filter(|(tag, value)| **tag <= 65 && !value.is_nil())
            .map(|(tag, value)| (*tag, value))
            .collect();
        prop_assert_eq!(line.unknown.iter().collect::<Vec<_>>(), kept);
        let relayed = msgpack_serde::to_vec(&line).unwrap();
        prop_assert!(relayed.len() <= input.len() + 64 + 3, "{} -> {}", input.len(), relayed.len());
        let again: v1::Line = msgpack_serde::from_slice(&relayed).unwrap();
        prop_assert_eq!(&again, &line);
        prop_assert_eq!(msgpack_serde::to_vec(&again).unwrap(), relayed);
    }

    #[test]
    fn each_version_round_trips(old in v1_order(), new in v2_order()) {
        round_trips(&old)?;
        round_trips(&new)?;
    }

    #[test]
    fn the_old_version_reads_the_new(new in v2_order()) {
        let bytes = msgpack_serde::to_vec(&new).unwrap();
        let old: v1::Order = msgpack_serde::from_slice(&bytes).unwrap();
        prop_assert_eq!(old.id, new.id);
        prop_assert_eq!(&old.customer, &new.customer);
        prop_assert_eq!(old.qty, new.quantity);
        prop_assert_eq!(&old.note, &None);
        prop_assert_eq!(&old.status, &v1_status_of(&new.status));
        prop_assert_eq!(old.lines.len(), new.lines.len());
        for (old, new) in old.lines.iter().zip(&new.lines) {
            prop_assert_eq!(&old.sku, &new.sku);
            prop_assert_eq!(old.count, new.count);
        }
        // The fields it does not know are kept, by tag.
        prop_assert!(old.unknown.contains(8));
        prop_assert_eq!(old.unknown.contains(7), new.coupon.is_some());
        round_trips(&old)?;
    }

    #[test]
    fn the_new_version_reads_the_old(old in v1_order()) {
        let bytes = msgpack_serde::to_vec(&old).unwrap();
        let new: v2::Order = msgpack_serde::from_slice(&bytes).unwrap();
        let lines = old
            .lines
            .iter()
            .map(|line| v2::Line {
                sku: line.sku.clone(),
                count: line.count,
                price: None,
                gift: false,
            })
            .collect();
        let expected = v2::Order {
            quantity: old.qty,
            priority: v2::normal_priority(),
            customer: old.customer.clone(),
            coupon: None,
            labels: Vec::new(),
            id: old.id,
            status: v2_status_of(&old.status),
            lines,
        };
        prop_assert_eq!(new, expected);
    }

    #[test]
    fn a_relay_through_the_old_version_keeps_what_it_can_hold(mut new in v2_order()) {
        // The old version has no room for the variants and variant fields
        // it does not know: keep to those it does.
        new.status = match new.status {
            v2::Status::Shipped { carrier, .. } => v2::Status::Shipped { carrier, tracking: None },
            v2::Status::Pending => v2::Status::Pending,
            _ => v2::Status::Unknown,
        };
        let bytes = msgpack_serde::to_vec(&new).unwrap();
        let old: v1::Order = msgpack_serde::from_slice(&bytes).unwrap();
        let relayed = msgpack_serde::to_vec(&old).unwrap();
        let back: v2::Order = msgpack_serde::from_slice(&relayed).unwrap();
        prop_assert_eq!(back, new);
        // Fields in tag order on both sides: the relay writes the bytes
        // it was given, up to the order of the fields.
        let sorted = |bytes: &[u8]| {
            let mut pairs = Value::from_slice(bytes).unwrap().into_map().unwrap();
            pairs.sort_by_key(|(k, _)| k.as_u64());
            pairs
        };
        prop_assert_eq!(sorted(&relayed), sorted(&bytes));
    }
}
