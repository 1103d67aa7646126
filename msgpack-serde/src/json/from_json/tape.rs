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
//! The buffers simd-json parses into are kept per thread, for documents
//! up to [`MAX_INPUT`]: about 28 bytes for each of a document's
//! structural characters (brackets, commas, colons, quotes; a 24-byte tape
//! entry and a 4-byte index) and twice its length. A document longer than
//! [`KEEP_BELOW`] has its buffers dropped after it, so what a thread keeps
//! stays under about half a MiB (a 16 KiB `[0,0,...]`), about 20 KiB after
//! a 1 KiB document. A document longer than [`MAX_INPUT`] goes to
//! serde_json, which reads it without a tape.
//!
//! Cargo unifies a dependency's features across a build: another crate
//! could turn on simd-json's `approx-number-parsing` (floats off by a
//! unit in the last place) or `big-int-as-float`, and change the numbers
//! read here without a change to this crate. Each thread's buffers are
//! first tried on [`PROBES`], hard decimals and integers past 64 bits,
//! against serde_json; if the tape reads any of them differently, that
//! thread never uses it. A check of known cases, not a proof, against a
//! build this crate does not make itself.

use std::cell::RefCell;
use std::mem;

use msgpack_core::{marker, Room};
use simd_json::{Buffers, Node, StaticNode, Tape, INPUT_PADDING};

use super::{put_float, put_str, write_through_serde_json, FromJson};

/// The longest document read through the tape, in bytes.
pub(super) const MAX_INPUT: usize = 64 * 1024;

/// The longest document after which the thread keeps its buffers.
pub(super) const KEEP_BELOW: usize = 16 * 1024;

/// The most levels of arrays and objects simd-json is asked to take,
/// under serde_json's limit (127 levels read, the 128th refused): any
/// document deeper is serde_json's to read or refuse.
pub(super) const TAPE_MAX_DEPTH: usize = 100;

/// Numbers the tape must read as serde_json does, or not take at all,
/// for a thread to use it; the first must be taken. Decimals that an
/// inexact parse reads a unit in the last place off the nearest float,
/// the edges of the subnormals and of the range, more digits than 64
/// bits hold, negative zeros, and integers past u64 and i64.
const PROBES: [&str; 4] = [
    "[-2.5927524301294156e206,2.2250738585072011e-308,2.4703282292062327e-324,\
     0.30000000000000004,1.7976931348623157e308,8.98846567431158e307,1e23,\
     9007199254740993.0,123456789012345678901234567890e-10,-0.0,-0]",
    "[18446744073709551616]",
    "[-9223372036854775809]",
    "[123456789012345678901234567890]",
];

/// What simd-json parses into, kept between documents on one thread.
struct Scratch {
    buffers: Buffers,
    /// A copy of the document with simd-json's padding after it: its
    /// strings are unescaped in place.
    input: Vec<u8>,
    /// Empty between documents; only its allocation is kept.
    tape: Tape<'static>,
}

impl Scratch {
    /// No buffers yet.
    fn new() -> Scratch {
        Scratch {
            buffers: Buffers::with_max_depth(0, TAPE_MAX_DEPTH),
            input: Vec::new(),
            tape: Tape(Vec::new()),
        }
    }

    /// Appends `json` to `out` through the tape, or returns false, where
    /// simd-json refuses it or a value is beyond MessagePack's (`out`
    /// then holds more than before, for the caller to cut).
    fn write(&mut self, json: &[u8], out: &mut Vec<u8>, f32: bool) -> bool {
        self.input.clear();
        self.input.extend_from_slice(json);
        self.input.resize(json.len() + INPUT_PADDING, 0);
        // The kept tape's allocation, for this document's lifetime (an empty
        // vector in its place: `Tape::null()` would allocate).
        let mut tape = Tape(mem::take(&mut self.tape.0)).reset();
        let written =
            simd_json::fill_tape_padded(&mut self.input, json.len(), &mut self.buffers, &mut tape)
                .is_ok()
                && write_nodes(&tape.0, json.len(), out, f32).is_some();
        self.tape = tape.reset();
        written
    }
}

/// This thread's buffers, once [`PROBES`] read as serde_json reads them;
/// `None` if they did not.
struct Trusted(Option<Scratch>);

impl Trusted {
    fn new() -> Trusted {
        let mut scratch = Scratch::new();
        Trusted(probes_agree(&mut scratch).then_some(scratch))
    }
}

thread_local! {
    static SCRATCH: RefCell<Trusted> = RefCell::new(Trusted::new());
}

/// Whether the tape reads every one of [`PROBES`] as serde_json does (or
/// leaves it to serde_json), and takes the first.
fn probes_agree(scratch: &mut Scratch) -> bool {
    PROBES.iter().enumerate().all(|(index, probe)| {
        let mut tape = Vec::new();
        let taken = scratch.write(probe.as_bytes(), &mut tape, false);
        let mut serde = Vec::new();
        let read = write_through_serde_json(probe.as_bytes(), &mut serde, FromJson::plain());
        if taken {
            read.is_ok() && tape == serde
        } else {
            index > 0
        }
    })
}

/// Appends `json`, one plain JSON document, to `out` as MessagePack and
/// returns true; or returns false, `out`'s bytes as they were (its
/// capacity may have grown), where serde_json must read it: simd-json
/// refused it, it is longer than [`MAX_INPUT`], or this thread does not
/// use the tape (its buffers are gone, in the thread's teardown, or
/// [`PROBES`] read differently).
pub(super) fn write_plain(json: &[u8], out: &mut Vec<u8>, f32: bool) -> bool {
    if json.len() > MAX_INPUT {
        return false;
    }
    let start = out.len();
    // `try_with`: during a thread's teardown (a thread-local's destructor
    // writing JSON) the buffers may be gone, and serde_json reads it.
    let written = SCRATCH.try_with(|trusted| {
        let Ok(mut trusted) = trusted.try_borrow_mut() else {
            return false;
        };
        let Some(scratch) = &mut trusted.0 else {
            return false;
        };
        let written = scratch.write(json, out, f32);
        if json.len() > KEEP_BELOW {
            *scratch = Scratch::new();
        }
        written
    });
    let written = written.unwrap_or(false);
    if !written {
        out.truncate(start);
    }
    written
}

/// Writes the tape's nodes in order; `None` for a string or container
/// too long for MessagePack, or a 128-bit integer (what was written
/// before it is the caller's to cut).
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

#[cfg(test)]
mod tests;
