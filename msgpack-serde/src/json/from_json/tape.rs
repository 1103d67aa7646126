//! Plain JSON through simd-json's tape: the fast path of
//! [`write_msgpack`](super::write_msgpack) for the plain style.
//!
//! simd-json parses the whole document into a tape first, which gives
//! every array and object its length before its entries: each header is
//! written once in its final form, with no byte kept and patched. What
//! simd-json accepts, serde_json accepts too, with the same values; what
//! it refuses (or reads differently: a document nested past serde_json's
//! limit, an integer beyond u64 and i64, which simd-json calls invalid)
//! goes to serde_json, whose answer, value or error, is the one given. A
//! test in `tests.rs` checks the two agree, byte for byte, on any
//! document simd-json takes.
//!
//! The buffers simd-json parses into are kept per thread for documents up
//! to [`MAX_INPUT`]; a longer document goes to serde_json, which reads it
//! without a tape of its own (about 24 bytes a value).

use std::cell::RefCell;
use std::mem;

use msgpack_core::{encode, marker, Room};
use simd_json::{Buffers, Node, StaticNode, Tape, INPUT_PADDING};

/// The longest document read through the tape, in bytes: what the
/// buffers kept per thread can grow to stays small.
pub(super) const MAX_INPUT: usize = 64 * 1024;

/// The most levels of arrays and objects simd-json is asked to take,
/// under serde_json's limit (127 levels read, the 128th refused): any
/// document deeper is serde_json's to read or refuse.
const MAX_DEPTH: usize = 100;

/// What simd-json parses into, kept between documents on one thread.
struct Scratch {
    buffers: Buffers,
    /// A copy of the document with simd-json's padding after it: its
    /// strings are unescaped in place.
    input: Vec<u8>,
    /// Empty between documents; only its allocation is kept.
    tape: Tape<'static>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch {
        buffers: Buffers::with_max_depth(0, MAX_DEPTH),
        input: Vec::new(),
        tape: Tape(Vec::new()),
    });
}

/// Appends `json`, one plain JSON document, to `out` as MessagePack and
/// returns true; or returns false, `out` as it was, where serde_json
/// must read it: simd-json refused it, or it is longer than
/// [`MAX_INPUT`].
pub(super) fn write_plain(json: &[u8], out: &mut Vec<u8>, f32: bool) -> bool {
    if json.len() > MAX_INPUT {
        return false;
    }
    let start = out.len();
    // `try_with`: during a thread's teardown (a thread-local's destructor
    // writing JSON) the buffers may be gone, and serde_json reads it.
    let written = SCRATCH.try_with(|scratch| {
        let Ok(mut scratch) = scratch.try_borrow_mut() else {
            return false;
        };
        let scratch = &mut *scratch;
        scratch.input.clear();
        scratch.input.extend_from_slice(json);
        scratch.input.resize(json.len() + INPUT_PADDING, 0);
        // The kept tape's allocation, for this document's lifetime (an empty
        // vector in its place: `Tape::null()` would allocate).
        let mut tape = Tape(mem::take(&mut scratch.tape.0)).reset();
        let written = simd_json::fill_tape_padded(
            &mut scratch.input,
            json.len(),
            &mut scratch.buffers,
            &mut tape,
        )
        .is_ok()
            && write_nodes(&tape.0, json.len(), out, f32).is_some();
        scratch.tape = tape.reset();
        written
    });
    let written = written.unwrap_or(false);
    if !written {
        out.truncate(start);
    }
    written
}

/// Writes the tape's nodes in order; `None`, nothing written, for a
/// string or container too long for MessagePack.
fn write_nodes(nodes: &[Node<'_>], json_len: usize, out: &mut Vec<u8>, f32: bool) -> Option<()> {
    // MessagePack is most often shorter than its JSON: room for as many
    // bytes (which `to_msgpack`'s vector already has) and more only when
    // floats and short numbers outgrow their text.
    let mut room = Room::new(out, json_len);
    for node in nodes {
        match *node {
            Node::String(text) => put_str(&mut room, text)?,
            Node::Object { len, .. } => room.put_map_len(len).ok()?,
            Node::Array { len, .. } => room.put_array_len(len).ok()?,
            Node::Static(StaticNode::Null) => room.put([marker::NIL]),
            Node::Static(StaticNode::Bool(value)) => {
                room.put([if value { marker::TRUE } else { marker::FALSE }]);
            }
            Node::Static(StaticNode::U64(value)) => room.put_uint(value),
            // Only `-0` is a negative zero: serde_json reads it as the
            // float -0.0, keeping the sign.
            Node::Static(StaticNode::I64(0)) => put_float(&mut room, -0.0, f32),
            Node::Static(StaticNode::I64(value)) => room.put_int(value),
            Node::Static(StaticNode::F64(value)) => put_float(&mut room, value, f32),
            // 128-bit integers, when another crate turns on simd-json's
            // `128bit`: serde_json's to read.
            #[allow(unreachable_patterns)]
            _ => return None,
        }
    }
    room.finish();
    Some(())
}

/// A string with its header, in the smallest form.
#[inline(always)]
fn put_str(room: &mut Room<'_>, text: &str) -> Option<()> {
    let bytes = text.as_bytes();
    match bytes.len() {
        len @ 0..=31 => room.put_headed([marker::FIXSTR | len as u8], bytes),
        len @ 32..=255 => room.put_headed([marker::STR8, len as u8], bytes),
        _ => {
            encode::write_str(room, text).ok()?;
        }
    }
    Some(())
}

/// A float 64, or a float 32 when asked for and exact, as serde_json's
/// path writes it.
#[inline(always)]
fn put_float(room: &mut Room<'_>, value: f64, f32: bool) {
    let narrow = value as f32;
    if f32 && f64::from(narrow) == value {
        room.put_marked([marker::F32], narrow.to_bits().to_be_bytes());
    } else {
        room.put_marked([marker::F64], value.to_bits().to_be_bytes());
    }
}

#[cfg(test)]
mod tests;
