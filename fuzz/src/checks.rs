//! What each fuzz target checks: one public function per target, which
//! must return normally whatever the input. A panic is a bug, in the
//! decoder or in the property asserted here.
//!
//! Shared with `tests/tests/regression.rs`, which includes this file and
//! runs every function on every seed and every regression input.

use std::io::{self, Cursor, Read};
use std::time::SystemTime;

use msgpack_core::{encode, Error as WireError, ErrorKind, Limits, Reader, Timestamp};
use msgpack_serde::{Deserializer, RawValue, StreamDeserializer, Value, ValueRef};
use serde::de::{DeserializeOwned, IgnoredAny};
use serde::{Deserialize, Serialize};

use super::budget;
use super::fast_paths::{direct_reads_agree, number_loop_agrees, whole_reads_agree};
use super::types::{
    serde_path, Customer, Line, Order, Plain, Point, Request, Segment, Span, Tally,
};

/// Memory that any decode may use whatever its input.
const BASE_BUDGET: usize = 64 * 1024;

/// Memory per input byte that decoding a `Value` may use at its peak: a
/// node per byte at most (every value takes a byte), plus the bytes of
/// strings and binary data, plus the open containers' vectors.
const VALUE_BUDGET_PER_BYTE: usize = 2 * std::mem::size_of::<Value>() + 8;

/// What decoding a `Value` with no depth limit may use at its peak on
/// top of [`VALUE_BUDGET_PER_BYTE`], per input byte. Every byte may open
/// a container, and msgpack-core's decoder keeps a 64-byte frame for each
/// open one (its vector, a pending map key, its length) on a stack whose
/// vector holds up to twice the frames it needs; the third frame is room
/// for a growth that moves the stack, its old and new blocks held at
/// once. Under the default depth limit of 128, the frames take less than
/// [`BASE_BUDGET`].
const UNLIMITED_DEPTH_PER_BYTE: usize = 3 * 64;

/// Memory per input byte that decoding into the fuzzed serde types may
/// use at its peak. Depends on the type: a `Vec<T>` reserves up to one
/// `T` for every byte left (serde caps it at 1 MiB), and an untagged enum
/// buffers its input as serde `Content` first.
pub(crate) const TYPED_BUDGET_PER_BYTE: usize = 256;

/// Runs the decode `f` of `len` bytes of input, and fails if its memory
/// peaked above the budget. Measures only where a counting allocator is
/// installed (the fuzz targets).
pub(crate) fn within<T>(what: &str, len: usize, per_byte: usize, f: impl FnOnce() -> T) -> T {
    let (result, usage) = budget::measure(f);
    let limit = BASE_BUDGET + per_byte * len;
    assert!(
        usage.peak <= limit,
        "{what}: {len} bytes of input took {} bytes at the peak (budget {limit})",
        usage.peak
    );
    result
}

/// Whether two values are the same, floats compared bit for bit (so NaN
/// is itself). Iterative: values decoded without a depth limit can be
/// deeper than the stack allows recursion for.
pub fn same(a: &Value, b: &Value) -> bool {
    let mut pending = vec![(a, b)];
    while let Some((a, b)) = pending.pop() {
        match (a, b) {
            (Value::F32(x), Value::F32(y)) if x.to_bits() == y.to_bits() => {}
            (Value::F64(x), Value::F64(y)) if x.to_bits() == y.to_bits() => {}
            (Value::F32(_) | Value::F64(_), _) => return false,
            (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
                pending.extend(x.iter().zip(y));
            }
            (Value::Map(x), Value::Map(y)) if x.len() == y.len() => {
                for ((xk, xv), (yk, yv)) in x.iter().zip(y) {
                    pending.push((xk, yk));
                    pending.push((xv, yv));
                }
            }
            (Value::Array(_) | Value::Map(_), _) => return false,
            // Scalars on the left: `==` does not recurse into `b`, since
            // a scalar never equals a container.
            (a, b) => {
                if a != b {
                    return false;
                }
            }
        }
    }
    true
}

/// How deep containers nest in `value` (a scalar is 0, `[[1]]` is 2), and
/// how many values it holds, itself included: what [`Limits`] count.
fn shape(value: &Value) -> (usize, usize) {
    let mut depth = 0;
    let mut count = 0;
    let mut pending = vec![(value, 0)];
    while let Some((value, level)) = pending.pop() {
        count += 1;
        match value {
            Value::Array(items) => {
                depth = depth.max(level + 1);
                pending.extend(items.iter().map(|item| (item, level + 1)));
            }
            Value::Map(pairs) => {
                depth = depth.max(level + 1);
                for (k, v) in pairs {
                    pending.push((k, level + 1));
                    pending.push((v, level + 1));
                }
            }
            _ => {}
        }
    }
    (depth, count)
}

/// A few strict prefix lengths of an input of `len` bytes: the empty
/// one, the last one and some between (all of them would be quadratic).
fn prefixes(len: usize) -> impl Iterator<Item = usize> {
    let mut lengths = vec![
        0,
        len / 3,
        len / 2,
        len.saturating_sub(2),
        len.saturating_sub(1),
    ];
    lengths.retain(|&n| n < len);
    lengths.dedup();
    lengths.into_iter()
}

/// A reader that hands out its input a few bytes at a time, and is
/// interrupted every other call: framing must not depend on read sizes.
struct Trickle<'a> {
    input: &'a [u8],
    step: usize,
    interrupt: bool,
}

impl<'a> Trickle<'a> {
    fn new(input: &'a [u8]) -> Self {
        // A step from the input, so that the fuzzer varies it too.
        let step = input.first().map_or(1, |&b| 1 + (b as usize % 7));
        Trickle {
            input,
            step,
            interrupt: false,
        }
    }
}

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.interrupt = !self.interrupt;
        if self.interrupt {
            return Err(io::ErrorKind::Interrupted.into());
        }
        let n = buf.len().min(self.step).min(self.input.len());
        buf[..n].copy_from_slice(&self.input[..n]);
        self.input = &self.input[n..];
        Ok(n)
    }
}

/// Decodes one value with the core decoder under `limits`; it must fill
/// `data`.
fn decode_with(data: &[u8], limits: Limits) -> Result<Value, WireError> {
    let mut reader = Reader::with_limits(data, limits)?;
    let value = Value::decode(&mut reader)?;
    reader.finish()?;
    Ok(value)
}

/// Decodes one value through serde under `limits`; it must fill `data`.
fn deserialize_with(data: &[u8], limits: Limits) -> msgpack_serde::Result<Value> {
    let mut de = Deserializer::from_slice(data).with_limits(limits);
    let value = Value::deserialize(&mut de)?;
    de.end()?;
    Ok(value)
}

/// The same from a reader.
fn deserialize_from_reader_with(data: &[u8], limits: Limits) -> msgpack_serde::Result<Value> {
    let mut de = Deserializer::from_reader(Cursor::new(data)).with_limits(limits);
    let value = Value::deserialize(&mut de)?;
    de.end()?;
    Ok(value)
}

/// Target `value_decode`: `Value` and `ValueRef` decode alike, within the
/// memory budget; a decoded value encodes and displays the same either
/// way; serde's `Value` agrees; every strict prefix is an end-of-input
/// error at its end; each limit, set just below what the value needs,
/// stops it with its own error, through the core decoder and serde alike.
pub fn value_decode(data: &[u8]) {
    let owned = within(
        "Value::from_slice",
        data.len(),
        VALUE_BUDGET_PER_BYTE,
        || Value::from_slice(data),
    );
    let borrowed = within(
        "ValueRef::from_slice",
        data.len(),
        VALUE_BUDGET_PER_BYTE,
        || ValueRef::from_slice(data),
    );
    let via_serde = within(
        "from_slice::<Value>",
        data.len(),
        VALUE_BUDGET_PER_BYTE,
        || msgpack_serde::from_slice::<Value>(data),
    );
    let owned = match (owned, borrowed) {
        (Ok(owned), Ok(borrowed)) => {
            assert!(same(&owned, &borrowed.to_owned_value()));
            let bytes = owned.to_vec().expect("a decoded value encodes");
            let mut borrowed_bytes = Vec::new();
            borrowed.encode(&mut borrowed_bytes).unwrap();
            assert_eq!(borrowed_bytes, bytes);
            assert_eq!(owned.to_string(), borrowed.to_string());
            owned
        }
        (Err(owned), Err(borrowed)) => {
            assert_eq!(owned, borrowed);
            assert!(owned.offset() <= data.len(), "{owned} is past the input");
            assert!(
                via_serde.is_err(),
                "serde decodes what the core rejects: {owned}"
            );
            return;
        }
        (owned, borrowed) => panic!("Value gives {owned:?} but ValueRef {borrowed:?}"),
    };
    match via_serde {
        Ok(via_serde) => assert!(same(&via_serde, &owned)),
        Err(error) => panic!("serde rejects what the core decodes: {error}"),
    }

    for len in prefixes(data.len()) {
        let eof = WireError::new(ErrorKind::UnexpectedEof, len);
        assert_eq!(Value::from_slice(&data[..len]).err(), Some(eof));
        assert_eq!(ValueRef::from_slice(&data[..len]).err(), Some(eof));
        let error = msgpack_serde::from_slice::<Value>(&data[..len]).unwrap_err();
        assert_eq!(error.wire_kind(), Some(ErrorKind::UnexpectedEof), "{error}");
    }

    let (depth, count) = shape(&owned);
    let exact = Limits::default()
        .max_depth(depth)
        .max_values(count)
        .max_bytes(data.len());
    assert!(decode_with(data, exact).is_ok());
    assert!(deserialize_with(data, exact).is_ok());
    assert!(deserialize_from_reader_with(data, exact).is_ok());
    let mut tighter = vec![(
        exact.max_values(count - 1),
        ErrorKind::ValueLimitExceeded { limit: count - 1 },
    )];
    if depth > 0 {
        let limit = depth - 1;
        tighter.push((
            exact.max_depth(limit),
            ErrorKind::DepthLimitExceeded { limit },
        ));
    }
    if !data.is_empty() {
        let limit = data.len() - 1;
        tighter.push((
            exact.max_bytes(limit),
            ErrorKind::SizeLimitExceeded { limit },
        ));
    }
    for (limits, kind) in tighter {
        assert_eq!(decode_with(data, limits).map_err(|e| e.kind()), Err(kind));
        let error = deserialize_with(data, limits).unwrap_err();
        assert_eq!(error.wire_kind(), Some(kind), "{error}");
        let error = deserialize_from_reader_with(data, limits).unwrap_err();
        assert_eq!(error.wire_kind(), Some(kind), "{error}");
    }
}

/// Target `round_trip`: a decoded value encodes to the smallest form
/// (never longer than its input), which decodes to the same value and
/// encodes to the same bytes again; serde's `to_vec`, `to_vec_compact`,
/// `to_value`, `from_value` and `RawValue` all agree with it.
pub fn round_trip(data: &[u8]) {
    let mut reader = Reader::new(data);
    let Ok(value) = Value::decode(&mut reader) else {
        return;
    };
    let consumed = reader.position();
    let bytes = value.to_vec().expect("a decoded value encodes");
    assert!(
        bytes.len() <= consumed,
        "{consumed} bytes re-encode to {}: not the smallest form",
        bytes.len()
    );
    let again = Value::from_slice(&bytes).expect("a re-encoded value decodes");
    assert!(same(&again, &value), "{again} != {value}");
    assert_eq!(
        again.to_vec().unwrap(),
        bytes,
        "the smallest form is not stable"
    );

    assert_eq!(msgpack_serde::to_vec(&value).unwrap(), bytes);
    assert_eq!(msgpack_serde::to_vec_compact(&value).unwrap(), bytes);
    let via_serde: Value = msgpack_serde::from_slice(&bytes).unwrap();
    assert!(same(&via_serde, &value));
    let converted = msgpack_serde::to_value(&value).unwrap();
    assert!(same(&converted, &value));
    let back: Value = msgpack_serde::from_value(value.clone()).unwrap();
    assert!(same(&back, &value));
    let raw: RawValue = msgpack_serde::from_slice(&data[..consumed]).unwrap();
    assert_eq!(raw.as_bytes(), &data[..consumed]);
    assert_eq!(msgpack_serde::to_vec(&raw).unwrap(), &data[..consumed]);
}

/// Target `skip`: `Reader::skip` consumes exactly what decoding consumes,
/// and fails where decoding fails, except for invalid UTF-8, which only
/// decoding checks. serde's `IgnoredAny` and `RawValue` skip alike, from
/// a slice and from a reader.
pub fn skip(data: &[u8]) {
    let mut reader = Reader::new(data);
    let skipped = reader.skip();
    let skip_end = reader.position();
    assert!(skip_end <= data.len());

    let mut decoder = Reader::with_limits(data, Limits::unlimited()).unwrap();
    let decoded = within(
        "ValueRef::decode",
        data.len(),
        VALUE_BUDGET_PER_BYTE + UNLIMITED_DEPTH_PER_BYTE,
        || ValueRef::decode(&mut decoder),
    );
    match (&skipped, &decoded) {
        (_, Ok(_)) => {
            assert_eq!(skipped, Ok(()));
            assert_eq!(skip_end, decoder.position());
        }
        (Ok(()), Err(error)) => assert_eq!(error.kind(), ErrorKind::InvalidUtf8),
        (Err(skip_error), Err(error)) => {
            // Both stop where the first error is, except that `skip`
            // stops as soon as the values still owed outnumber the bytes
            // left (decoding checks that only at container headers), and
            // that only decoding checks UTF-8.
            let early_eof = skip_error.kind() == ErrorKind::UnexpectedEof;
            if error.kind() != ErrorKind::InvalidUtf8 && !early_eof {
                assert_eq!(skip_error, error);
            }
            assert!(skip_error.offset() <= data.len());
        }
    }

    let whole = skipped.is_ok() && skip_end == data.len();
    let raw = msgpack_serde::from_slice::<RawValue>(data);
    assert_eq!(raw.is_ok(), whole, "{raw:?}");
    if let Ok(raw) = raw {
        assert_eq!(raw.as_bytes(), data);
        assert!(RawValue::from_bytes(data.to_vec()).is_ok());
    }
    let ignored = msgpack_serde::from_slice::<IgnoredAny>(data);
    assert_eq!(ignored.is_ok(), whole, "{ignored:?}");
    let ignored = msgpack_serde::from_reader::<_, IgnoredAny>(Cursor::new(data));
    assert_eq!(ignored.is_ok(), whole, "{ignored:?}");
    let raw = msgpack_serde::from_reader::<_, RawValue>(Cursor::new(data));
    assert_eq!(raw.is_ok(), whole, "{raw:?}");
}

/// Decodes `data` as `T` from a slice, a `Cursor` and a reader that
/// trickles, and checks that they agree: all succeed with the same value
/// or all fail (the two readers with the same error).
fn agree<T: DeserializeOwned + Serialize>(what: &str, data: &[u8]) -> Option<T> {
    let from_slice = within(what, data.len(), TYPED_BUDGET_PER_BYTE, || {
        msgpack_serde::from_slice::<T>(data)
    });
    let from_reader = within(what, data.len(), TYPED_BUDGET_PER_BYTE, || {
        msgpack_serde::from_reader::<_, T>(Cursor::new(data))
    });
    let trickled = msgpack_serde::from_reader::<_, T>(Trickle::new(data));
    let encoded = |result: &msgpack_serde::Result<T>| match result {
        Ok(value) => Ok(msgpack_serde::to_vec(value).expect("a decoded value encodes")),
        Err(error) => Err(error.to_string()),
    };
    assert_eq!(encoded(&from_reader), encoded(&trickled), "{what}");
    match (from_slice, from_reader) {
        (Ok(a), Ok(b)) => {
            let (a, b) = (Ok(a), Ok(b));
            assert_eq!(encoded(&b), encoded(&a), "{what}");
            a.ok()
        }
        (Err(_), Err(_)) => None,
        (a, b) => panic!(
            "{what}: from_slice gives {:?} but from_reader {:?}",
            encoded(&a),
            encoded(&b)
        ),
    }
}

/// Target `from_reader`: `from_reader` agrees with `from_slice` for
/// `Value`, a derived type, a plain serde type and `IgnoredAny`, whether
/// the reader hands out everything at once or a few bytes at a time; and
/// a size limit just below the input stops the reader.
pub fn from_reader(data: &[u8]) {
    let value = agree::<Value>("Value", data);
    agree::<Order>("Order", data);
    agree::<Plain>("Plain", data);
    let ignored = msgpack_serde::from_slice::<IgnoredAny>(data).is_ok();
    let read = msgpack_serde::from_reader::<_, IgnoredAny>(Trickle::new(data)).is_ok();
    assert_eq!(ignored, read);

    if value.is_some() {
        let limits = Limits::default().max_bytes(data.len() - 1);
        let error = deserialize_from_reader_with(data, limits).unwrap_err();
        let limit = data.len() - 1;
        assert_eq!(
            error.wire_kind(),
            Some(ErrorKind::SizeLimitExceeded { limit })
        );
    }
}

/// `value` encoded with structs as maps, or as arrays when `compact`.
fn encode_as<T: Serialize + ?Sized>(value: &T, compact: bool) -> Vec<u8> {
    let result = match compact {
        false => msgpack_serde::to_vec(value),
        true => msgpack_serde::to_vec_compact(value),
    };
    result.expect("a decoded value encodes")
}

/// Encodes `value` in both struct modes and decodes it back as `$ty`: the
/// bytes of the second encoding must equal the first's (comparing bytes,
/// not values, lets NaN round-trip).
macro_rules! round_trips {
    ($ty:ty, $value:expr) => {{
        let value = $value;
        for compact in [false, true] {
            let bytes = encode_as(value, compact);
            let back: $ty = match msgpack_serde::from_slice(&bytes) {
                Ok(back) => back,
                Err(error) => panic!(
                    "{value:?} encodes (compact: {compact}) to {bytes:02x?}, which fails: {error}"
                ),
            };
            assert_eq!(encode_as(&back, compact), bytes, "compact: {compact}");
        }
    }};
}

/// How many times its input a relayed `Order` may grow: a float field
/// read from a one-byte integer is written in nine bytes, and a line read
/// from a map as `{0: "", 1: 0, 2: 0, 67: 0}` (9 bytes) becomes an array
/// of 68 (71 bytes).
const RELAY_GROWTH: usize = 16;

/// Target `from_slice_derived`: whatever decodes as the derived `Order`,
/// within the memory budget, round-trips in both struct modes (keeping
/// its unknown fields), and reads the same from a reader; structs of
/// floats read whole decode as their serde-path twins do, and types read
/// directly as the serde path reads them.
pub fn from_slice_derived(data: &[u8]) {
    direct_reads_agree::<Customer>("Customer", data);
    direct_reads_agree::<Vec<Line>>("Vec<Line>", data);
    direct_reads_agree::<(Customer, Vec<Customer>)>("(Customer, Vec<Customer>)", data);
    direct_reads_agree::<Vec<Tally>>("Vec<Tally>", data);
    whole_reads_agree::<Vec<Point>, Vec<serde_path::Point>>(data);
    whole_reads_agree::<(Point, Vec<Span>), (serde_path::Point, Vec<serde_path::Span>)>(data);
    whole_reads_agree::<Vec<Segment>, Vec<serde_path::Segment>>(data);
    let Some(order) = agree::<Order>("Order", data) else {
        return;
    };
    round_trips!(Order, &order);
    // Unknown fields are written back: each is in the re-encoding, and a
    // line (array form) read from a map pads at most 64 nils (past its
    // largest field tag) before one, so a relay cannot turn a few bytes
    // into many.
    let relayed = msgpack_serde::to_vec(&order).unwrap();
    assert!(
        relayed.len() <= RELAY_GROWTH * data.len(),
        "{} bytes relayed as {}",
        data.len(),
        relayed.len()
    );
    let as_value = Value::from_slice(&relayed).unwrap();
    for (tag, value) in order.unknown.iter() {
        let found = as_value
            .as_map()
            .unwrap()
            .iter()
            .find(|(k, _)| k.as_u64() == Some(tag))
            .map(|(_, v)| v);
        assert!(found.is_some_and(|found| same(found, value)), "tag {tag}");
    }
}

/// Target `from_slice_serde`: whatever decodes as the borrowing serde
/// type `Request` (within the memory budget) round-trips in both struct
/// modes; so do `Plain` values, and `Vec<Vec<u64>>`. Vectors of integers
/// read by the decoder's loop agree with an element-by-element reading.
pub fn from_slice_serde(data: &[u8]) {
    number_loop_agrees::<i64>(data);
    number_loop_agrees::<u64>(data);
    number_loop_agrees::<u16>(data);
    number_loop_agrees::<i8>(data);
    let request = within("Request", data.len(), TYPED_BUDGET_PER_BYTE, || {
        msgpack_serde::from_slice::<Request<'_>>(data)
    });
    if let Ok(request) = request {
        round_trips!(Request<'_>, &request);
    }
    if let Ok(plain) = msgpack_serde::from_slice::<Plain>(data) {
        round_trips!(Plain, &plain);
    }
    let nested = within("Vec<Vec<u64>>", data.len(), TYPED_BUDGET_PER_BYTE, || {
        msgpack_serde::from_slice::<Vec<Vec<u64>>>(data)
    });
    if let Ok(nested) = nested {
        round_trips!(Vec<Vec<u64>>, &nested);
    }
}

/// Target `stream`: reading values back to back from a slice and from a
/// reader gives the same values at the same offsets, and those offsets
/// are where `Reader::skip` puts each value's end. After the last value,
/// the rest of the input is invalid, or (when the error is end-of-input)
/// the start of a value that `skip` too finds cut short.
pub fn stream(data: &[u8]) {
    let mut from_slice = Vec::new();
    let mut slice_error = None;
    let mut stream = StreamDeserializer::<_, Value>::from_slice(data);
    let mut offset = stream.byte_offset();
    while let Some(next) = stream.next() {
        match next {
            Ok(value) => {
                assert!(stream.byte_offset() > offset, "a value of no bytes");
                offset = stream.byte_offset();
                from_slice.push((value, offset));
            }
            Err(error) => slice_error = Some(error),
        }
    }
    assert_eq!(stream.byte_offset(), offset);

    for reader in [
        Box::new(Cursor::new(data)) as Box<dyn Read>,
        Box::new(Trickle::new(data)),
    ] {
        let mut stream = StreamDeserializer::<_, Value>::from_reader(reader);
        let mut read = Vec::new();
        let mut read_error = None;
        while let Some(next) = stream.next() {
            match next {
                Ok(value) => read.push((value, stream.byte_offset())),
                Err(error) => read_error = Some(error),
            }
        }
        assert_eq!(read.len(), from_slice.len());
        for ((a, a_offset), (b, b_offset)) in read.iter().zip(&from_slice) {
            assert!(same(a, b));
            assert_eq!(a_offset, b_offset);
        }
        assert_eq!(read_error.is_some(), slice_error.is_some());
    }

    // The offsets are the ends `skip` finds.
    let mut reader = Reader::new(data);
    for (_, end) in &from_slice {
        reader.skip().unwrap();
        assert_eq!(reader.position(), *end);
    }
    match &slice_error {
        None => assert!(reader.is_empty()),
        Some(error) if error.is_eof() => {
            let rest = reader.skip().unwrap_err();
            assert!(
                rest.is_eof(),
                "the stream says end of input, skip says {rest}"
            );
        }
        Some(_) => {}
    }

    // The raw bytes of the values are the input, value after value.
    let raw: Vec<RawValue> = StreamDeserializer::<_, RawValue>::from_slice(data)
        .map_while(Result::ok)
        .collect();
    let joined: Vec<u8> = raw.iter().flat_map(RawValue::as_bytes).copied().collect();
    assert!(data.starts_with(&joined));
    assert!(joined.len() >= from_slice.last().map_or(0, |(_, end)| *end));
}

/// A `SystemTime` field through `msgpack_serde::timestamp`.
#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Event {
    #[serde(with = "msgpack_serde::timestamp")]
    at: SystemTime,
}

/// Target `timestamp`: the input as extension data, and as a whole
/// value. A timestamp read either way has nanoseconds below 10^9, writes
/// back in its smallest form (never longer than what was read), reads
/// back the same through every reader, and converts to `SystemTime` and
/// back unchanged when the platform can hold it.
pub fn timestamp(data: &[u8]) {
    match Timestamp::from_ext_data(data) {
        Some(t) => {
            check_timestamp(t);
            assert!(t.to_ext_data().len() <= data.len());
        }
        None => assert_ne!(data.len(), 4, "every 32-bit timestamp is valid"),
    }

    let mut reader = Reader::new(data);
    let read = reader.read_timestamp();
    if read.is_err() {
        assert_eq!(reader.position(), 0, "a failed read consumed input");
    }
    let read = read.and_then(|t| reader.finish().map(|()| t)).ok();
    let via_value = Value::from_slice(data).ok().and_then(|v| v.as_timestamp());
    assert_eq!(via_value, read);
    let via_serde = msgpack_serde::from_slice::<Timestamp>(data).ok();
    assert_eq!(via_serde, read);
    let via_reader = msgpack_serde::from_reader::<_, Timestamp>(Cursor::new(data)).ok();
    assert_eq!(via_reader, read);
    if let Some(t) = read {
        check_timestamp(t);
        let mut bytes = Vec::new();
        encode::write_timestamp(&mut bytes, t).unwrap();
        assert!(bytes.len() <= data.len());
        let event = msgpack_serde::from_slice::<Event>(&[&[0x91][..], data].concat());
        match SystemTime::try_from(t) {
            Ok(at) => assert_eq!(event.unwrap(), Event { at }),
            Err(_) => assert!(event.is_err()),
        }
    }
}

fn check_timestamp(t: Timestamp) {
    assert!(t.nanoseconds() < 1_000_000_000);
    assert_eq!(Timestamp::new(t.seconds(), t.nanoseconds()), Some(t));
    let data = t.to_ext_data();
    assert!(matches!(data.len(), 4 | 8 | 12));
    assert_eq!(Timestamp::from_ext_data(&data), Some(t));

    let mut bytes = Vec::new();
    encode::write_timestamp(&mut bytes, t).unwrap();
    let mut reader = Reader::new(&bytes);
    assert_eq!(reader.read_timestamp(), Ok(t));
    assert!(reader.is_empty());
    assert_eq!(msgpack_serde::to_vec(&t).unwrap(), bytes);
    assert_eq!(msgpack_serde::from_slice::<Timestamp>(&bytes).unwrap(), t);
    assert_eq!(Value::from_slice(&bytes).unwrap().as_timestamp(), Some(t));

    if let Ok(time) = SystemTime::try_from(t) {
        assert_eq!(Timestamp::try_from(time), Ok(t));
        let event = Event { at: time };
        let bytes = msgpack_serde::to_vec(&event).unwrap();
        assert_eq!(msgpack_serde::from_slice::<Event>(&bytes).unwrap(), event);
    }
}
