//! Types read directly in shapes beside `derive_direct_read.rs`'s:
//! characters at their edges, recursion through `Box`, `Vec` and
//! `Option` in several arrangements, mutual recursion among them, and
//! vectors whose elements are written into their slots: longer than
//! serde reserves room for at once, of zero-sized elements, and one
//! whose element's read panics. Each decodes as the serde path does
//! (`direct_read::agree`): whole, cut anywhere, and with any byte
//! changed.

mod direct_read;

use std::cell::{Cell, RefCell};
use std::panic::{catch_unwind, AssertUnwindSafe};

use direct_read::agree;
use msgpack_serde::__private::{reserved_for, DirectRead, DirectReader};
use msgpack_serde::{Limits, MsgPack};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

#[derive(MsgPack, Debug, PartialEq)]
struct Letter {
    #[msgpack(tag = 1)]
    c: char,
    #[msgpack(tag = 2)]
    maybe: Option<char>,
}

/// Recursive through an `Option<Box<_>>` of another type, which recurses
/// back through a `Vec`.
#[derive(MsgPack, Debug, PartialEq)]
struct Outer {
    #[msgpack(tag = 1)]
    n: u8,
    #[msgpack(tag = 2)]
    inner: Option<Box<Inner>>,
}

#[derive(MsgPack, Debug, PartialEq)]
struct Inner {
    #[msgpack(tag = 1)]
    outers: Vec<Outer>,
}

/// Recursive through a `Vec` of `Option`s.
#[derive(MsgPack, Debug, PartialEq)]
struct Sparse {
    #[msgpack(tag = 1)]
    items: Vec<Option<Sparse>>,
}

/// Recursive through a `Box` of a `Vec`, in array form.
#[derive(MsgPack, Debug, PartialEq)]
#[msgpack(array)]
#[allow(clippy::box_collection)]
struct Boxed {
    #[msgpack(tag = 0)]
    x: f32,
    #[msgpack(tag = 1)]
    inner: Box<Vec<Boxed>>,
}

thread_local! {
    /// How many `Tick`s and `Dropped`s were read directly on this thread.
    static TICKS: Cell<usize> = const { Cell::new(0) };
    /// The `Dropped` values dropped on this thread, in order.
    static DROPPED: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// A `u64` that counts its direct reads.
#[derive(Debug, PartialEq)]
struct Tick(u64);

impl DirectRead for Tick {
    fn reads_direct() -> bool {
        true
    }

    fn read_direct(reader: &mut DirectReader<'_, '_>) -> Option<Self> {
        TICKS.set(TICKS.get() + 1);
        u64::read_direct(reader).map(Tick)
    }
}

impl<'de> Deserialize<'de> for Tick {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        u64::deserialize(deserializer).map(Tick)
    }
}

impl Serialize for Tick {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_u64(self.0)
    }
}

/// A byte that counts its direct reads and notes when it is dropped.
#[derive(Debug)]
struct Dropped(u8);

impl Drop for Dropped {
    fn drop(&mut self) {
        DROPPED.with_borrow_mut(|dropped| dropped.push(self.0));
    }
}

impl DirectRead for Dropped {
    fn reads_direct() -> bool {
        true
    }

    fn read_direct(reader: &mut DirectReader<'_, '_>) -> Option<Self> {
        TICKS.set(TICKS.get() + 1);
        u8::read_direct(reader).map(Dropped)
    }
}

impl<'de> Deserialize<'de> for Dropped {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        u8::deserialize(deserializer).map(Dropped)
    }
}

impl Serialize for Dropped {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_u8(self.0)
    }
}

fn explode() -> u8 {
    panic!("no default here")
}

/// An element whose read panics where its second field is left out.
#[derive(MsgPack, Debug)]
struct Fragile {
    #[msgpack(tag = 1)]
    dropped: Dropped,
    #[msgpack(tag = 2, default = "explode")]
    x: u8,
}

/// A vector of them, read directly.
#[derive(MsgPack, Debug)]
struct Fragiles {
    #[msgpack(tag = 1)]
    items: Vec<Fragile>,
}

/// A zero-sized element.
#[derive(MsgPack, Debug, PartialEq, Clone, Copy)]
enum One {
    #[msgpack(tag = 1)]
    Only,
}

#[derive(MsgPack, Debug, PartialEq)]
struct Ones {
    #[msgpack(tag = 1)]
    ones: Vec<One>,
}

/// Sixteen fields of 8 bytes: a large element, so that a vector of them
/// outgrows serde's first reservation within a short input.
#[derive(MsgPack, Debug, PartialEq)]
struct Wide {
    #[msgpack(tag = 1)]
    a: Tick,
    #[msgpack(tag = 2)]
    b: u64,
    #[msgpack(tag = 3)]
    c: u64,
    #[msgpack(tag = 4)]
    d: u64,
    #[msgpack(tag = 5)]
    e: u64,
    #[msgpack(tag = 6)]
    f: u64,
    #[msgpack(tag = 7)]
    g: u64,
    #[msgpack(tag = 8)]
    h: u64,
    #[msgpack(tag = 9)]
    i: u64,
    #[msgpack(tag = 10)]
    j: u64,
    #[msgpack(tag = 11)]
    k: u64,
    #[msgpack(tag = 12)]
    l: u64,
    #[msgpack(tag = 13)]
    m: u64,
    #[msgpack(tag = 14)]
    n: u64,
    #[msgpack(tag = 15)]
    o: u64,
    #[msgpack(tag = 16)]
    p: u64,
}

/// Vectors whose elements a direct read writes into their slots.
#[derive(MsgPack, Debug, PartialEq)]
struct Lists {
    #[msgpack(tag = 1)]
    wides: Vec<Wide>,
    #[msgpack(tag = 2)]
    names: Vec<String>,
}

/// `value`'s bytes, every prefix of them and each byte changed a few
/// ways, decode as `T` as on the serde path.
fn agree_around<T: Serialize + DeserializeOwned + std::fmt::Debug>(value: &T) {
    let bytes = msgpack_serde::to_vec(value).unwrap();
    let back: T = msgpack_serde::from_slice(&bytes).unwrap();
    assert_eq!(format!("{back:?}"), format!("{value:?}"));
    for end in 0..=bytes.len() {
        agree::<T>(&bytes[..end], Limits::default());
    }
    for at in 0..bytes.len() {
        for byte in [0xc0, 0x01, 0x90, 0x91, 0x81, 0xa1, 0xcc, bytes[at] ^ 1] {
            let mut changed = bytes.clone();
            changed[at] = byte;
            agree::<T>(&changed, Limits::default());
            agree::<T>(&changed, Limits::default().max_depth(3).max_values(12));
        }
    }
}

#[test]
fn characters_at_their_edges_decode_as_the_serde_path() {
    // A str of no character, one of each UTF-8 length, two, invalid
    // UTF-8, one character in a str 8 and a str 16, and not a str.
    let strs: [&[u8]; 11] = [
        b"\xa0",
        b"\xa1x",
        b"\xa2\xc3\xa9",
        b"\xa3\xe2\x82\xac",
        b"\xa4\xf0\x9f\x9a\xb2",
        b"\xa2ab",
        b"\xa1\xff",
        b"\xd9\x01x",
        b"\xda\x00\x01x",
        b"\x05",
        b"\xc0",
    ];
    for text in strs {
        let one = [&[0x81, 0x01][..], text].concat();
        agree::<Letter>(&one, Limits::default());
        let both = [&[0x82, 0x01][..], text, &[0x02], text].concat();
        agree::<Letter>(&both, Limits::default());
    }
    let read = |bytes: &[u8]| msgpack_serde::from_slice::<Letter>(bytes).map(|letter| letter.c);
    assert_eq!(read(b"\x81\x01\xa4\xf0\x9f\x9a\xb2").unwrap(), '🚲');
    assert_eq!(
        read(b"\x81\x01\xa2ab").unwrap_err().to_string(),
        "invalid value: string \"ab\", expected a character at offset 2"
    );
    agree_around(&Letter {
        c: 'é',
        maybe: Some('x'),
    });
}

#[test]
fn recursion_through_boxes_vecs_and_options_decodes_as_the_serde_path() {
    let leaf = |n| Outer { n, inner: None };
    agree_around(&Outer {
        n: 1,
        inner: Some(Box::new(Inner {
            outers: vec![leaf(2), leaf(3)],
        })),
    });
    agree_around(&Sparse {
        items: vec![
            None,
            Some(Sparse { items: vec![None] }),
            Some(Sparse { items: vec![] }),
        ],
    });
    agree_around(&Boxed {
        x: 1.5,
        inner: Box::new(vec![Boxed {
            x: -2.0,
            inner: Box::new(vec![]),
        }]),
    });
}

#[test]
fn vectors_longer_than_serde_reserves_for_grow_as_they_are_read() {
    // serde reserves room for 1 MiB of elements at most; past it, each
    // element read into the vector's next slot makes room first.
    let wides = 8195;
    assert!(reserved_for::<Wide>(wides) < wides - 2);
    let wide = |i: u64| Wide {
        a: Tick(i),
        b: 1,
        c: 2,
        d: 3,
        e: 4,
        f: 5,
        g: 6,
        h: 7,
        i: 8,
        j: 9,
        k: 10,
        l: 11,
        m: 12,
        n: 13,
        o: 14,
        p: i % 3,
    };
    let value = Lists {
        wides: (0..wides as u64).map(wide).collect(),
        names: (0..100).map(|i| format!("name {i}")).collect(),
    };
    let bytes = msgpack_serde::to_vec(&value).unwrap();
    TICKS.set(0);
    let back: Lists = msgpack_serde::from_slice(&bytes).unwrap();
    assert!(back == value);
    assert_eq!(TICKS.get(), wides, "every element read directly");
    agree::<Lists>(&bytes, Limits::default());
    // Cut in the last name; and with the last element's last field a nil:
    // the read gives up there, and serde's error.
    agree::<Lists>(&bytes[..bytes.len() - 1], Limits::default());
    let names = msgpack_serde::to_vec(&value.names).unwrap();
    let at = bytes.len() - names.len() - 2;
    assert_eq!(&bytes[at - 1..=at], &[16, ((wides - 1) % 3) as u8]);
    let mut changed = bytes.clone();
    changed[at] = 0xc0;
    agree::<Lists>(&changed, Limits::default());
}

#[test]
fn zero_sized_elements_are_read_into_their_vector() {
    let value = Ones {
        ones: vec![One::Only; 1000],
    };
    let bytes = msgpack_serde::to_vec(&value).unwrap();
    assert_eq!(msgpack_serde::from_slice::<Ones>(&bytes).unwrap(), value);
    agree::<Ones>(&bytes, Limits::default());
    agree::<Ones>(&bytes[..bytes.len() - 1], Limits::default());
}

#[test]
fn an_element_whose_read_panics_leaves_every_element_dropped_once() {
    // Three elements with both fields, then one without its second,
    // whose default panics while the direct read builds it.
    let element = |d: u8| [0x82, 0x01, d, 0x02, 0x07];
    let bytes = [
        &[0x81, 0x01, 0x94][..],
        &element(0),
        &element(1),
        &element(2),
        &[0x81, 0x01, 3],
    ]
    .concat();
    DROPPED.with_borrow_mut(Vec::clear);
    TICKS.set(0);
    let read = catch_unwind(AssertUnwindSafe(|| {
        msgpack_serde::from_slice::<Fragiles>(&bytes)
    }));
    assert!(read.is_err(), "the default panicked");
    assert_eq!(TICKS.get(), 4, "read directly");
    let mut dropped = DROPPED.with_borrow(Clone::clone);
    dropped.sort();
    assert_eq!(dropped, [0, 1, 2, 3]);
}
