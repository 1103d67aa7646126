//! Derived structs and unit enums read directly (the derive's fast path
//! when our decoder holds the bytes: field after field in the form our
//! encoder writes) decode exactly as the serde path does: the same
//! values and the same errors at the same offsets, under any limits,
//! from a slice, through a `Deserializer` and from a reader. The serde
//! path is the same types read through `serde_path_to_error`'s wrapper,
//! which hands every type beneath it a deserializer our decoder does not
//! recognise, so that no direct (or whole) read is tried anywhere.

use std::cell::Cell;
use std::fmt::Debug;

mod direct_read;

use direct_read::{agree, outcome, Outcome};
use msgpack_serde::__private::{DirectRead, DirectReader};
use msgpack_serde::core::encode::write_token;
use msgpack_serde::core::{Reader, Token};
use msgpack_serde::{Config, Deserializer, Limits, MsgPack, UnknownFields};
use proptest::collection::vec;
use proptest::prelude::*;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize, Serializer};

#[derive(MsgPack, Debug, Clone, PartialEq)]
enum Status {
    #[msgpack(tag = 1)]
    Pending,
    #[msgpack(tag = 2)]
    Paid,
    #[msgpack(tag = 300)]
    Refunded,
}

/// Unknown tags read as `Other`.
#[derive(MsgPack, Debug, Clone, PartialEq)]
enum Kind {
    #[msgpack(tag = 1)]
    Known,
    #[msgpack(tag = 2, other)]
    Other,
}

#[derive(MsgPack, Debug, Clone, PartialEq)]
struct Item {
    #[msgpack(tag = 1)]
    sku: String,
    #[msgpack(tag = 2)]
    quantity: u32,
    #[msgpack(tag = 3)]
    discount: Option<u64>,
    #[msgpack(tag = 4)]
    flags: Vec<bool>,
    #[msgpack(tag = 5)]
    delta: i16,
    #[msgpack(tag = 6)]
    position: usize,
    #[msgpack(tag = 7)]
    offset: isize,
    #[msgpack(tag = 8)]
    initial: char,
}

/// Array form: gaps at 0 and 2, a field left out at its default (nil at
/// its place), every integer width.
#[derive(MsgPack, Debug, Clone, PartialEq)]
#[msgpack(array)]
struct Row {
    #[msgpack(tag = 1)]
    small: i8,
    #[msgpack(tag = 3)]
    label: Option<String>,
    #[msgpack(tag = 4, omit_default)]
    count: u16,
    #[msgpack(tag = 5)]
    ratio: f64,
    #[msgpack(tag = 6)]
    byte: u8,
    #[msgpack(tag = 7)]
    wide: i32,
}

/// Recursive, through a `Box`.
#[derive(MsgPack, Debug, Clone, PartialEq)]
struct Chain {
    #[msgpack(tag = 1)]
    value: u8,
    #[msgpack(tag = 2)]
    next: Option<Box<Chain>>,
}

/// Recursive, through a `Vec`.
#[derive(MsgPack, Debug, Clone, PartialEq)]
struct Tree {
    #[msgpack(tag = 1)]
    value: i32,
    #[msgpack(tag = 2)]
    children: Vec<Tree>,
}

#[derive(MsgPack, Debug, Clone, PartialEq)]
#[msgpack(array)]
struct Pair(#[msgpack(tag = 0)] u8, #[msgpack(tag = 1)] String);

/// Keeps unknown tags: read directly while there are none.
#[derive(MsgPack, Debug, Clone, PartialEq)]
struct Keeps {
    #[msgpack(tag = 1)]
    a: u8,
    #[msgpack(unknown)]
    rest: UnknownFields,
}

/// Read whole, inside a struct read directly.
#[derive(MsgPack, Debug, Clone, PartialEq)]
struct Point {
    #[msgpack(tag = 1)]
    x: f32,
    #[msgpack(tag = 2)]
    y: f32,
}

#[derive(MsgPack, Debug, Clone, PartialEq)]
struct Order {
    #[msgpack(tag = 1)]
    id: u64,
    #[msgpack(tag = 2)]
    customer: String,
    #[msgpack(tag = 3)]
    status: Status,
    #[msgpack(tag = 4)]
    items: Vec<Item>,
    #[msgpack(tag = 5)]
    rows: Vec<Row>,
    #[msgpack(tag = 6)]
    note: Option<String>,
    #[msgpack(tag = 7)]
    kind: Kind,
    #[msgpack(tag = 8)]
    tree: Option<Tree>,
    #[msgpack(tag = 9)]
    pair: Pair,
    #[msgpack(tag = 10)]
    keeps: Keeps,
    #[msgpack(tag = 11)]
    points: Vec<Point>,
    #[msgpack(tag = 12)]
    bytes: Vec<u8>,
    /// A two-byte key.
    #[msgpack(tag = 200)]
    balance: i64,
    /// A five-byte key.
    #[msgpack(tag = 70000)]
    weight: f32,
    #[msgpack(tag = 13)]
    parent: Option<Box<Item>>,
    #[msgpack(tag = 14)]
    chain: Chain,
}

/// The same bytes decoded as each type, and as vectors of some.
#[track_caller]
fn agree_all(bytes: &[u8], limits: Limits) {
    agree::<Order>(bytes, limits);
    agree::<Vec<Order>>(bytes, limits);
    agree::<Option<Order>>(bytes, limits);
    agree::<Item>(bytes, limits);
    agree::<Vec<Item>>(bytes, limits);
    agree::<Row>(bytes, limits);
    agree::<Vec<Row>>(bytes, limits);
    agree::<Tree>(bytes, limits);
    agree::<Chain>(bytes, limits);
    agree::<Status>(bytes, limits);
    agree::<Vec<Kind>>(bytes, limits);
    agree::<Pair>(bytes, limits);
    agree::<Keeps>(bytes, limits);
}

fn item() -> impl Strategy<Value = Item> {
    (
        "[a-z0-9é]{0,40}",
        any::<u32>(),
        any::<Option<u64>>(),
        vec(any::<bool>(), 0..4),
        any::<i16>(),
        any::<usize>(),
        any::<isize>(),
        any::<char>(),
    )
        .prop_map(
            |(sku, quantity, discount, flags, delta, position, offset, initial)| Item {
                sku,
                quantity,
                discount,
                flags,
                delta,
                position,
                offset,
                initial,
            },
        )
}

fn row() -> impl Strategy<Value = Row> {
    (
        any::<i8>(),
        proptest::option::of("[a-z]{0,3}"),
        prop_oneof![Just(0u16), any::<u16>()],
        any::<f64>(),
        any::<u8>(),
        any::<i32>(),
    )
        .prop_map(|(small, label, count, ratio, byte, wide)| Row {
            small,
            label,
            count,
            ratio,
            byte,
            wide,
        })
}

fn chain() -> impl Strategy<Value = Chain> {
    vec(any::<u8>(), 1..5).prop_map(|values| {
        let mut next = None;
        for &value in values.iter().rev() {
            next = Some(Box::new(Chain { value, next }));
        }
        *next.unwrap()
    })
}

fn tree() -> impl Strategy<Value = Tree> {
    let leaf = any::<i32>().prop_map(|value| Tree {
        value,
        children: Vec::new(),
    });
    leaf.prop_recursive(4, 12, 3, |inner| {
        (any::<i32>(), vec(inner, 0..3)).prop_map(|(value, children)| Tree { value, children })
    })
}

prop_compose! {
    fn order()(
        id in any::<u64>(),
        customer in "[A-Za-z ]{0,12}",
        status in prop_oneof![Just(Status::Pending), Just(Status::Paid), Just(Status::Refunded)],
        items in vec(item(), 0..3),
        rows in vec(row(), 0..3),
        note in proptest::option::of("[a-z]{0,50}"),
        kind in prop_oneof![Just(Kind::Known), Just(Kind::Other)],
        tree in proptest::option::of(tree()),
        pair in (any::<u8>(), "[a-z]{0,3}"),
        a in any::<u8>(),
        points in vec((any::<f32>(), any::<f32>()), 0..3),
        bytes in vec(any::<u8>(), 0..5),
        balance in any::<i64>(),
        weight in any::<f32>(),
        parent in proptest::option::of(item()),
        chain in chain(),
    ) -> Order {
        Order {
            id,
            customer,
            status,
            items,
            rows,
            note,
            kind,
            tree,
            pair: Pair(pair.0, pair.1),
            keeps: Keeps { a, rest: UnknownFields::new() },
            points: points.into_iter().map(|(x, y)| Point { x, y }).collect(),
            bytes,
            balance,
            weight,
            parent: parent.map(Box::new),
            chain,
        }
    }
}

/// `bytes` as a peer might write them: each value, where `wide` says
/// (cycled), in a wider form than ours (integers in 8 bytes, a float 64
/// as a float 32 where that holds it, strings, arrays and maps with
/// 16-bit lengths).
fn widened(bytes: &[u8], wide: &[bool]) -> Vec<u8> {
    let mut reader = Reader::new(bytes);
    let mut out = Vec::new();
    for &wide in wide.iter().cycle() {
        if reader.remaining().is_empty() {
            break;
        }
        let token = reader.read_token().unwrap();
        let (marker, body): (u8, Vec<u8>) = match token {
            Token::Int(n) if wide => match n.as_u64() {
                Some(n) => (0xcf, n.to_be_bytes().into()),
                None => (0xd3, (n.as_i128() as i64).to_be_bytes().into()),
            },
            Token::F64(x) if wide && (x as f32) as f64 == x => {
                (0xca, (x as f32).to_be_bytes().into())
            }
            Token::Str(text) if wide => {
                let len = (text.len() as u16).to_be_bytes();
                (0xda, [&len[..], text.as_bytes()].concat())
            }
            Token::Array(len) if wide => (0xdc, (len as u16).to_be_bytes().into()),
            Token::Map(len) if wide => (0xde, (len as u16).to_be_bytes().into()),
            token => {
                write_token(&mut out, token).unwrap();
                continue;
            }
        };
        out.push(marker);
        out.extend(body);
    }
    out
}

/// Limits from tight to the defaults.
fn limits() -> impl Strategy<Value = Limits> {
    (1usize..8, 1usize..120)
        .prop_map(|(depth, values)| Limits::default().max_depth(depth).max_values(values))
}

/// Every way our encoder writes `order` and its parts; human-readable
/// (keys by name, which the direct read does not take) among them.
fn encodings(order: &Order) -> Vec<Vec<u8>> {
    vec![
        msgpack_serde::to_vec(order).unwrap(),
        msgpack_serde::to_vec_with_config(order, Config::named().human_readable(true)).unwrap(),
        msgpack_serde::to_vec(&[order, order]).unwrap(),
        msgpack_serde::to_vec(&order.items).unwrap(),
        msgpack_serde::to_vec(&order.rows).unwrap(),
        msgpack_serde::to_vec(&order.tree).unwrap(),
        msgpack_serde::to_vec(&order.chain).unwrap(),
    ]
}

fn example() -> Order {
    Order {
        id: 300,
        customer: "Ada".into(),
        status: Status::Refunded,
        items: vec![Item {
            sku: "A-1".into(),
            quantity: 70_000,
            discount: None,
            flags: vec![true, false],
            delta: -200,
            position: usize::MAX,
            offset: -70_000,
            initial: 'é',
        }],
        rows: vec![Row {
            small: -3,
            label: Some("x".into()),
            count: 0,
            ratio: 0.5,
            byte: 255,
            wide: -70_000,
        }],
        note: Some("a note longer than thirty-two bytes, so not in one window".into()),
        kind: Kind::Known,
        tree: Some(Tree {
            value: 1,
            children: vec![Tree {
                value: 2,
                children: Vec::new(),
            }],
        }),
        pair: Pair(7, "seven".into()),
        keeps: Keeps {
            a: 1,
            rest: UnknownFields::new(),
        },
        points: vec![Point {
            x: 1.5,
            y: f32::NAN,
        }],
        bytes: vec![1, 200],
        balance: -1,
        weight: 2.0,
        parent: None,
        chain: Chain {
            value: 1,
            next: Some(Box::new(Chain {
                value: 2,
                next: None,
            })),
        },
    }
}

#[test]
fn every_prefix_and_every_byte_changed_decodes_as_the_serde_path() {
    let order = example();
    let bytes = msgpack_serde::to_vec(&order).unwrap();
    let back: Order = msgpack_serde::from_slice(&bytes).unwrap();
    assert_eq!(format!("{back:?}"), format!("{order:?}"));
    for end in 0..=bytes.len() {
        agree_all(&bytes[..end], Limits::default());
    }
    // Each byte in turn replaced by a few that change its meaning: a
    // nil, a fixint, another width, a str 8, a fixmap and a reserved one.
    for at in 0..bytes.len() {
        for byte in [0xc0, 0x05, 0xcc, 0xd0, 0xd9, 0x81, 0xc1, bytes[at] ^ 1] {
            let mut changed = bytes.clone();
            changed[at] = byte;
            agree_all(&changed, Limits::default());
        }
    }
}

#[test]
fn the_limits_refuse_as_on_the_serde_path() {
    let bytes = msgpack_serde::to_vec(&example()).unwrap();
    for depth in 1..6 {
        for values in (1..90).step_by(7) {
            let limits = Limits::default().max_depth(depth).max_values(values);
            agree_all(&bytes, limits);
        }
    }
}

#[test]
fn other_forms_take_the_serde_path() {
    // `Keeps { a: 5 }`, and an unknown tag 2 kept: keys out of tag order,
    // by name, of a wider form than ours, a duplicate; a wider value.
    let cases: [(&[u8], &str); 6] = [
        (&[0x81, 0x01, 0x05], "Ok(5, [])"),
        (&[0x82, 0x02, 0x06, 0x01, 0x05], "Ok(5, [2])"),
        (&[0x81, 0xa1, b'a', 0x05], "Ok(5, [])"),
        (&[0x81, 0xcc, 0x01, 0x05], "Ok(5, [])"),
        (&[0x81, 0x01, 0xcc, 0x05], "Ok(5, [])"),
        (
            &[0x82, 0x01, 0x05, 0x01, 0x06],
            "Err(duplicate field `a` (tag 1) at offset 0)",
        ),
    ];
    for (bytes, expected) in cases {
        agree_all(bytes, Limits::default());
        let keeps = msgpack_serde::from_slice::<Keeps>(bytes)
            .map(|keeps| {
                let tags: Vec<u64> = keeps.rest.iter().map(|(tag, _)| tag).collect();
                format!("{}, {tags:?}", keeps.a)
            })
            .map_err(|error| error.to_string());
        assert_eq!(
            format!("{keeps:?}").replace('"', ""),
            expected,
            "{bytes:02x?}"
        );
    }
}

thread_local! {
    /// How many `Counted` values serde read on this thread.
    static SERDE_READS: Cell<usize> = const { Cell::new(0) };
    /// How many `Counted` values were read directly on this thread.
    static DIRECT_READS: Cell<usize> = const { Cell::new(0) };
}

/// A byte that counts its reads through serde: none when the struct
/// holding it is read directly.
#[derive(Debug, PartialEq)]
struct Counted(u8);

impl DirectRead for Counted {
    fn reads_direct() -> bool {
        true
    }

    fn read_direct(reader: &mut DirectReader<'_, '_>) -> Option<Self> {
        DIRECT_READS.set(DIRECT_READS.get() + 1);
        u8::read_direct(reader).map(Counted)
    }
}

impl<'de> Deserialize<'de> for Counted {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        SERDE_READS.set(SERDE_READS.get() + 1);
        u8::deserialize(deserializer).map(Counted)
    }
}

impl Serialize for Counted {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_u8(self.0)
    }
}

/// Tags declared out of order: our encoder writes the map in
/// declaration order, and the direct read takes it in that order.
#[derive(MsgPack, Debug, PartialEq)]
struct Backwards {
    #[msgpack(tag = 2)]
    b: Counted,
    #[msgpack(tag = 1)]
    a: u8,
    #[msgpack(tag = 3)]
    c: Option<Counted>,
}

/// `bytes` as `Backwards`, and how many `Counted` serde read.
fn backwards(bytes: &[u8]) -> (Outcome, usize) {
    SERDE_READS.set(0);
    let value = outcome(msgpack_serde::from_slice::<Backwards>(bytes));
    (value, SERDE_READS.get())
}

#[test]
fn our_encoders_maps_are_read_directly_in_declaration_order() {
    let value = Backwards {
        b: Counted(2),
        a: 1,
        c: Some(Counted(3)),
    };
    let bytes = msgpack_serde::to_vec(&value).unwrap();
    assert_eq!(bytes, [0x83, 0x02, 0x02, 0x01, 0x01, 0x03, 0x03]);
    let read: Outcome = Ok(format!("{value:?}"));
    assert_eq!(backwards(&bytes), (read.clone(), 0));
    // A newer writer's fields after ours: skipped, still directly.
    let newer = [
        &bytes[..],
        &[0x09, 0x92, 0xa1, b'x', 0xc0, 0xcc, 0x80, 0xc3],
    ]
    .concat();
    let newer = [&[0x85][..], &newer[1..]].concat();
    assert_eq!(backwards(&newer), (read.clone(), 0));
    agree::<Backwards>(&newer, Limits::default());
    // Tag order (another writer's): read by serde, to the same value.
    let tag_order = [0x83, 0x01, 0x01, 0x02, 0x02, 0x03, 0x03];
    assert_eq!(backwards(&tag_order), (read.clone(), 2));
    // A field's tag among the newer fields: a repeated field, serde's error.
    let repeated = [0x84, 0x02, 0x02, 0x01, 0x01, 0x03, 0x03, 0x01, 0x05];
    let (error, _) = backwards(&repeated);
    assert_eq!(error, Err("duplicate field `a` (tag 1) at offset 0".into()));
    agree::<Backwards>(&repeated, Limits::default());
    // A newer field deeper than the limits allow: serde's skip checks
    // no limit, and neither does the direct read's.
    let deep = [&[0x84][..], &bytes[1..], &[0x09, 0x91, 0x91, 0xc0]].concat();
    assert_eq!(backwards(&deep), (read.clone(), 0));
    agree::<Backwards>(&deep, Limits::default().max_depth(1));
    let two = [&[0x92][..], &deep, &newer].concat();
    agree::<Vec<Backwards>>(&two, Limits::default().max_depth(2).max_values(20));
}

/// Array form: `Counted` at position 1, a gap at 0.
#[derive(MsgPack, Debug, PartialEq)]
#[msgpack(array)]
struct Positions {
    #[msgpack(tag = 1)]
    a: Counted,
    #[msgpack(tag = 2)]
    b: Option<u8>,
}

#[test]
fn a_newer_writers_positions_past_ours_are_skipped_directly() {
    let read = |bytes: &[u8]| {
        SERDE_READS.set(0);
        let value = outcome(msgpack_serde::from_slice::<Positions>(bytes));
        (value, SERDE_READS.get())
    };
    let value: Outcome = Ok(format!(
        "{:?}",
        Positions {
            a: Counted(7),
            b: Some(8)
        }
    ));
    let ours = msgpack_serde::to_vec(&Positions {
        a: Counted(7),
        b: Some(8),
    })
    .unwrap();
    assert_eq!(ours, [0x93, 0xc0, 0x07, 0x08]);
    assert_eq!(read(&ours), (value.clone(), 0));
    // Two more positions, an array and a string: skipped, still directly.
    let newer = [0x95, 0xc0, 0x07, 0x08, 0x91, 0xc3, 0xa1, b'x'];
    assert_eq!(read(&newer), (value.clone(), 0));
    agree::<Positions>(&newer, Limits::default());
    agree::<Vec<Positions>>(&[&[0x92][..], &newer, &ours].concat(), Limits::default());
    // A value in the gap at 0: read by serde, to the same value.
    let in_gap = [0x93, 0x01, 0x07, 0x08];
    assert_eq!(read(&in_gap), (value, 1));
    // A reserved marker past ours: serde's error.
    let reserved = [0x94, 0xc0, 0x07, 0x08, 0xc1];
    agree::<Positions>(&reserved, Limits::default());
    assert!(read(&reserved).0.is_err());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn any_order_decodes_as_the_serde_path(
        order in order(),
        limits in limits(),
        cuts in vec(any::<prop::sample::Index>(), 1..4),
        changes in vec((any::<prop::sample::Index>(), any::<u8>()), 1..4),
        wide in vec(prop::bool::weighted(0.2), 1..40),
    ) {
        let mut encodings = encodings(&order);
        encodings.push(widened(&encodings[0], &wide));
        for bytes in encodings {
            agree_all(&bytes, Limits::default());
            agree_all(&bytes, limits);
            for cut in &cuts {
                agree_all(&bytes[..cut.index(bytes.len() + 1)], limits);
            }
            let mut changed = bytes.clone();
            for (at, byte) in &changes {
                changed[at.index(bytes.len())] = *byte;
            }
            agree_all(&changed, limits);
        }
    }
}

/// Not read directly: `u128` is not.
#[derive(MsgPack, Debug, PartialEq)]
struct Opaque {
    #[msgpack(tag = 1)]
    wide: u128,
}

/// Holds types that are not read directly behind a `Vec` and a `Box`.
#[derive(MsgPack, Debug, PartialEq)]
struct Holder {
    #[msgpack(tag = 1)]
    first: Counted,
    #[msgpack(tag = 2)]
    many: Vec<Opaque>,
}

#[derive(MsgPack, Debug, PartialEq)]
struct BoxHolder {
    #[msgpack(tag = 1)]
    first: Counted,
    #[msgpack(tag = 2)]
    one: Box<Opaque>,
}

/// How many `Counted` were read directly and through serde decoding `T`.
fn reads<T: DeserializeOwned + Debug>(bytes: &[u8]) -> (Outcome, usize, usize) {
    SERDE_READS.set(0);
    DIRECT_READS.set(0);
    let value = outcome(msgpack_serde::from_slice::<T>(bytes));
    (value, DIRECT_READS.get(), SERDE_READS.get())
}

#[test]
fn a_struct_holding_a_type_not_read_directly_is_not_tried() {
    let holder = Holder {
        first: Counted(1),
        many: vec![Opaque { wide: 2 }],
    };
    let bytes = msgpack_serde::to_vec(&holder).unwrap();
    assert_eq!(bytes, [0x82, 0x01, 0x01, 0x02, 0x91, 0x81, 0x01, 0x02]);
    assert_eq!(reads::<Holder>(&bytes), (Ok(format!("{holder:?}")), 0, 1));
    let boxed = BoxHolder {
        first: Counted(1),
        one: Box::new(Opaque { wide: 2 }),
    };
    let bytes = msgpack_serde::to_vec(&boxed).unwrap();
    assert_eq!(reads::<BoxHolder>(&bytes), (Ok(format!("{boxed:?}")), 0, 1));
    // Types that are, behind the same: read directly.
    let backwards = Backwards {
        b: Counted(2),
        a: 1,
        c: None,
    };
    let bytes = msgpack_serde::to_vec(&vec![backwards]).unwrap();
    let (_, direct, serde) = reads::<Vec<Backwards>>(&bytes);
    assert_eq!((direct, serde), (1, 0));
    let (_, direct, serde) = reads::<Box<Backwards>>(&bytes[1..]);
    assert_eq!((direct, serde), (1, 0));
}

#[test]
fn a_slice_deserializer_reads_its_values_directly() {
    let value = Backwards {
        b: Counted(2),
        a: 1,
        c: Some(Counted(3)),
    };
    let one = msgpack_serde::to_vec(&value).unwrap();
    let both = [&one[..], &one].concat();
    SERDE_READS.set(0);
    DIRECT_READS.set(0);
    let mut de = Deserializer::from_slice(&both);
    assert_eq!(Backwards::deserialize(&mut de).unwrap(), value);
    assert_eq!(Backwards::deserialize(&mut de).unwrap(), value);
    de.end().unwrap();
    assert_eq!((DIRECT_READS.get(), SERDE_READS.get()), (4, 0));
}
