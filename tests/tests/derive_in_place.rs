//! A derived struct's `Vec` field of derived elements is read element by
//! element into the vector's spare slots (msgpack-serde's `VecInPlace`).
//! It reads what serde's `Vec<T>` reads, from every deserializer (ours
//! from a slice and from a reader, serde_json, whose sequences have no
//! size hint, and one whose hint lies), gives the same errors, and drops
//! every element it made exactly once when an element fails or panics.

use std::cell::Cell;
use std::io::Cursor;
use std::panic::{catch_unwind, AssertUnwindSafe};

use msgpack_serde::{Config, MsgPack};
use proptest::collection::vec;
use proptest::prelude::*;
use serde::de::{DeserializeSeed, Deserializer, SeqAccess, Visitor};
use serde::{Deserialize, Serialize};

#[derive(MsgPack, Debug, PartialEq, Clone)]
struct Item {
    #[msgpack(tag = 1)]
    sku: String,
    #[msgpack(tag = 2)]
    quantity: u32,
    #[msgpack(tag = 3)]
    discount: Option<u64>,
}

#[derive(MsgPack, Debug, PartialEq, Clone)]
struct Order {
    #[msgpack(tag = 1)]
    id: u64,
    #[msgpack(tag = 2)]
    items: Vec<Item>,
    #[msgpack(tag = 3)]
    tags: Vec<String>,
}

#[derive(MsgPack, Debug, PartialEq, Clone)]
#[msgpack(array)]
struct ArrayItem {
    #[msgpack(tag = 0)]
    sku: String,
    #[msgpack(tag = 2)]
    quantity: u32,
}

#[derive(MsgPack, Debug, PartialEq, Clone)]
#[msgpack(array)]
struct ArrayOrder {
    #[msgpack(tag = 0)]
    items: Vec<ArrayItem>,
    #[msgpack(tag = 2)]
    nested: Vec<Vec<ArrayItem>>,
}

fn item() -> impl Strategy<Value = Item> {
    ("[a-z0-9-]{0,40}", any::<u32>(), any::<Option<u64>>()).prop_map(|(sku, quantity, discount)| {
        Item {
            sku,
            quantity,
            discount,
        }
    })
}

fn order() -> impl Strategy<Value = Order> {
    (any::<u64>(), vec(item(), 0..40), vec("[a-z]{0,8}", 0..4))
        .prop_map(|(id, items, tags)| Order { id, items, tags })
}

fn array_order() -> impl Strategy<Value = ArrayOrder> {
    let item =
        ("[a-z]{0,20}", any::<u32>()).prop_map(|(sku, quantity)| ArrayItem { sku, quantity });
    (vec(item.clone(), 0..20), vec(vec(item, 0..4), 0..4))
        .prop_map(|(items, nested)| ArrayOrder { items, nested })
}

proptest! {
    #[test]
    fn orders_read_back_from_every_reader(order in order()) {
        for config in [Config::default(), Config::compact()] {
            let bytes = msgpack_serde::to_vec_with_config(&order, config).unwrap();
            prop_assert_eq!(&msgpack_serde::from_slice::<Order>(&bytes).unwrap(), &order);
            let read: Order = msgpack_serde::from_reader(Cursor::new(&bytes)).unwrap();
            prop_assert_eq!(&read, &order);
        }
        // serde_json's sequences have no size hint: every element is
        // read beside the vector and pushed.
        let json = serde_json::to_string(&order).unwrap();
        prop_assert_eq!(&serde_json::from_str::<Order>(&json).unwrap(), &order);
    }

    #[test]
    fn array_orders_read_back(order in array_order()) {
        let bytes = msgpack_serde::to_vec(&order).unwrap();
        prop_assert_eq!(&msgpack_serde::from_slice::<ArrayOrder>(&bytes).unwrap(), &order);
    }

    /// Elements read in place are the elements serde's `Vec<T>` reads
    /// (a `Vec<Item>` at the top: serde's impl, each `Item` by value).
    #[test]
    fn elements_match_serde_vec(order in order()) {
        for config in [Config::default(), Config::compact()] {
            let bytes = msgpack_serde::to_vec_with_config(&order.items, config).unwrap();
            let serde: Vec<Item> = msgpack_serde::from_slice(&bytes).unwrap();
            let bytes = msgpack_serde::to_vec_with_config(&order, config).unwrap();
            let ours = msgpack_serde::from_slice::<Order>(&bytes).unwrap().items;
            prop_assert_eq!(&serde, &ours);
        }
    }
}

#[test]
fn an_empty_vector_reads_back_empty() {
    let order = Order {
        id: 7,
        items: Vec::new(),
        tags: Vec::new(),
    };
    let bytes = msgpack_serde::to_vec(&order).unwrap();
    assert_eq!(bytes, [0x83, 0x01, 0x07, 0x02, 0x90, 0x03, 0x90]);
    let read = msgpack_serde::from_slice::<Order>(&bytes).unwrap();
    assert_eq!(read, order);
    assert_eq!(read.items.capacity(), 0);
}

#[test]
fn a_bad_element_is_the_error_serde_vec_gives() {
    // {1: 7, 2: [{1: "a", 2: 1}, {1: "b", 2: "x"}]}
    let bytes = [
        0x82, 0x01, 0x07, 0x02, 0x92, 0x82, 0x01, 0xa1, b'a', 0x02, 0x01, 0x82, 0x01, 0xa1, b'b',
        0x02, 0xa1, b'x',
    ];
    let error = msgpack_serde::from_slice::<Order>(&bytes).unwrap_err();
    assert_eq!(
        error.to_string(),
        "invalid type: string \"x\", expected u32 at offset 16"
    );
    // Not a sequence: the expectation serde's `Vec<T>` names.
    let error = msgpack_serde::from_slice::<Order>(&[0x81, 0x02, 0x07]).unwrap_err();
    assert_eq!(
        error.to_string(),
        "invalid type: integer `7`, expected a sequence at offset 2"
    );
}

thread_local! {
    static LIVE: Cell<isize> = const { Cell::new(0) };
}

/// A field that counts the values alive, and panics when read from 13.
#[derive(Debug)]
struct Counted;

impl<'de> Deserialize<'de> for Counted {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let n = u8::deserialize(deserializer)?;
        assert_ne!(n, 13, "unlucky");
        LIVE.with(|live| live.set(live.get() + 1));
        Ok(Counted)
    }
}

impl Serialize for Counted {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_u8(0)
    }
}

impl Drop for Counted {
    fn drop(&mut self) {
        LIVE.with(|live| live.set(live.get() - 1));
    }
}

#[derive(MsgPack, Debug)]
struct Counting {
    #[msgpack(tag = 1)]
    name: String,
    #[msgpack(tag = 2)]
    counted: Counted,
}

#[derive(MsgPack, Debug)]
struct Counters {
    #[msgpack(tag = 1)]
    all: Vec<Counting>,
}

/// `{1: [{1: "n", 2: v} for v in values]}`
fn counters(values: &[u8]) -> Vec<u8> {
    let mut bytes = vec![0x81, 0x01, 0x90 | values.len() as u8];
    for &value in values {
        bytes.extend([0x82, 0x01, 0xa1, b'n', 0x02, value]);
    }
    bytes
}

#[test]
fn a_failed_or_panicking_element_drops_each_element_once() {
    let read = msgpack_serde::from_slice::<Counters>(&counters(&[1, 2, 3])).unwrap();
    assert_eq!(read.all.len(), 3);
    assert_eq!(LIVE.with(Cell::get), 3);
    drop(read);
    assert_eq!(LIVE.with(Cell::get), 0);

    // The third element's value is not a u8: two made, two dropped.
    let error = msgpack_serde::from_slice::<Counters>(&counters(&[1, 2, 0xc0])).unwrap_err();
    assert_eq!(
        error.to_string(),
        "invalid type: unit value, expected u8 at offset 20"
    );
    assert_eq!(LIVE.with(Cell::get), 0);

    // The third element's read panics.
    let panicked = catch_unwind(AssertUnwindSafe(|| {
        msgpack_serde::from_slice::<Counters>(&counters(&[1, 2, 13, 4]))
    }));
    assert!(panicked.is_err());
    assert_eq!(LIVE.with(Cell::get), 0);
}

/// A sequence of JSON values whose size hint is `hint`, whatever its
/// length.
struct Lying {
    items: std::vec::IntoIter<serde_json::Value>,
    hint: usize,
}

impl<'de> SeqAccess<'de> for Lying {
    type Error = serde_json::Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, serde_json::Error> {
        self.items
            .next()
            .map(|item| seed.deserialize(item))
            .transpose()
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.hint)
    }
}

impl<'de> Deserializer<'de> for Lying {
    type Error = serde_json::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, serde_json::Error> {
        visitor.visit_seq(self)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

#[test]
fn a_size_hint_that_lies_reads_every_element() {
    let items: Vec<Item> = (0..5)
        .map(|i| Item {
            sku: format!("sku-{i}"),
            quantity: i,
            discount: None,
        })
        .collect();
    let values: Vec<serde_json::Value> = items
        .iter()
        .map(|item| serde_json::to_value(item).unwrap())
        .collect();
    for hint in [0, 2, 5, 9, usize::MAX] {
        let lying = Lying {
            items: values.clone().into_iter(),
            hint,
        };
        let read = msgpack_serde::__private::VecInPlace::<Item>::new()
            .deserialize(lying)
            .unwrap();
        assert_eq!(read, items, "hint {hint}");
    }
}

// The borrows are the probe: the method is looked up from `&&FieldSeed`.
#[allow(clippy::needless_borrow)]
#[test]
fn the_probe_reads_vectors_of_derived_structs_in_place() {
    use msgpack_serde::__private::{
        FieldSeed, Plain, VecInPlace, ViaDeserialize as _, ViaInPlace as _,
    };
    let _: VecInPlace<Item> = (&&FieldSeed::<Vec<Item>>::new()).seed();
    let _: VecInPlace<ArrayItem> = (&&FieldSeed::<Vec<ArrayItem>>::new()).seed();
    // Elements without a derived read keep serde's `Vec<T>`.
    let _: Plain<Vec<String>> = (&&FieldSeed::<Vec<String>>::new()).seed();
    let _: Plain<Vec<Vec<ArrayItem>>> = (&&FieldSeed::<Vec<Vec<ArrayItem>>>::new()).seed();
}
