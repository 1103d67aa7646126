//! [`Reader::skip`]: finding where a value ends in a slice: the fix
//! families by arithmetic on the marker byte, the rest by a table step.

use crate::marker::{fix_scalar_payload, FIXARRAY, FIXSTR};
use crate::{Error, ErrorKind, Family, Length, Marker, Reader};

/// What one marker byte asks of the walk: move past `bytes` more bytes
/// and owe `values` more values, after reading a length field when `field`
/// says so.
#[derive(Clone, Copy)]
struct Step {
    bytes: u8,
    values: u8,
    field: Field,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Field {
    /// None: every length is in the marker byte (a fixstr's payload, a
    /// scalar's, a fixmap's entries).
    None,
    /// A length field of `width` bytes counting bytes of payload, moved
    /// past besides `bytes` (an extension's type byte).
    Bytes { width: u8 },
    /// A length field of `width` bytes counting elements, each `values`
    /// values.
    Elements { width: u8 },
    /// 0xc1, which is no value.
    Reserved,
}

impl Step {
    /// The step for `byte`, from the same rules as every other reader
    /// ([`Marker::family`], [`Marker::length`], [`Marker::header_len`]).
    const fn of(byte: u8) -> Step {
        let marker = Marker::from_u8(byte);
        let (per_element, extra) = match marker.family() {
            Family::Array => (1, 0),
            Family::Map => (2, 0),
            Family::Str | Family::Bin => (0, 0),
            Family::Ext => (0, 1),
            Family::Reserved => return Step::new(0, 0, Field::Reserved),
            // A scalar's payload is its header: no length, a fixed size.
            _ => return Step::new(marker.header_len() as u8, 0, Field::None),
        };
        match (marker.length(), per_element) {
            (Length::Fixed(len), 0) => Step::new(len as u8 + extra, 0, Field::None),
            // A fixarray or fixmap holds at most 15 entries: 30 values.
            (Length::Fixed(len), _) => Step::new(0, len as u8 * per_element, Field::None),
            (Length::Field(width), 0) => Step::new(extra, 0, Field::Bytes { width: width as u8 }),
            (Length::Field(width), _) => {
                Step::new(0, per_element, Field::Elements { width: width as u8 })
            }
        }
    }

    const fn new(bytes: u8, values: u8, field: Field) -> Step {
        Step {
            bytes,
            values,
            field,
        }
    }
}

/// The first marker byte past the fix families that `skip` reads by
/// arithmetic (fixints, fixmap, fixarray, fixstr).
const TABLED: u8 = 0xc0;

/// [`Step::of`] every byte from [`TABLED`] to 0xdf (negative fixints
/// follow), computed once at compile time.
const STEPS: [Step; 32] = {
    let mut steps = [Step::new(0, 0, Field::Reserved); 32];
    let mut index = 0;
    while index < 32 {
        steps[index] = Step::of(TABLED + index as u8);
        index += 1;
    }
    steps
};

impl Reader<'_> {
    /// Skips one whole value, containers with everything in them.
    ///
    /// The one walker that only finds a value's end in a slice; over a
    /// stream that arrives in pieces, [`Framer`](crate::Framer) follows
    /// the same rules ([`Owed`](crate::Owed), [`Marker::length`])
    /// resumably. Walkers that must also know each item (its path, which
    /// map a key belongs to, UTF-8 and limits in one pass) say where they
    /// live why they walk on their own.
    ///
    /// Iterative, not recursive: a 1,000,000-deep input costs no stack. It
    /// stops with [`UnexpectedEof`](ErrorKind::UnexpectedEof) as soon as
    /// the values still owed could not fit in the remaining input. On
    /// error the reader is left at the reserved marker, or at the end of
    /// the input when it ends too soon.
    ///
    /// ```
    /// use msgpack_core::Reader;
    ///
    /// let mut reader = Reader::new(&[0x92, 0x91, 0xc0, 0xa1, b'x', 0x07]);
    /// reader.skip().unwrap();
    /// assert_eq!(reader.read_int::<u8>(), Ok(7));
    /// ```
    pub fn skip(&mut self) -> Result<(), Error> {
        // This is the framing of every message msgpack-rpc reads, so it
        // walks a local copy of the input and position (through `self`,
        // each step would store the position and load it again) and makes
        // one check per value.
        let input = self.remaining();
        let len = input.len() as u64;
        let mut pos: u64 = 0;
        // Values still to skip. Every value takes at least a byte, so the
        // walk stops as soon as `pos + owed` passes the end, which also
        // catches a payload that runs past it. Both stay below
        // `len + 2 * u32::MAX + 16`: no overflow.
        let mut owed: u64 = 1;
        let result = loop {
            if pos + owed > len {
                break Err(self.eof());
            }
            if owed == 0 {
                break Ok(());
            }
            owed -= 1;
            // `pos + 1 <= pos + owed <= len`, checked above.
            let byte = input[pos as usize];
            pos += 1;
            // Most values are of a fix family, whose marker holds all
            // there is to know: read by arithmetic and predicted branches,
            // so that the next position does not wait for a table load.
            if let Some(payload) = fix_scalar_payload(byte) {
                pos += payload;
                continue;
            }
            if byte < FIXSTR {
                let entries = u64::from(byte & 0x0f);
                owed += if byte < FIXARRAY {
                    2 * entries
                } else {
                    entries
                };
                continue;
            }
            let step = STEPS[usize::from(byte - TABLED)];
            // Then the other scalars and the fixext, on their own, not one
            // case of a jump table.
            if step.field == Field::None {
                pos += u64::from(step.bytes);
                owed += u64::from(step.values);
                continue;
            }
            match step.field {
                Field::Bytes { width } => match length(input, pos, width) {
                    Some(payload) => pos += u64::from(width) + payload + u64::from(step.bytes),
                    None => break Err(self.eof()),
                },
                Field::Elements { width } => match length(input, pos, width) {
                    Some(count) => {
                        pos += u64::from(width);
                        owed += u64::from(step.values) * count;
                    }
                    None => break Err(self.eof()),
                },
                Field::Reserved => {
                    pos -= 1;
                    break Err(Error::new(
                        ErrorKind::ReservedMarker,
                        self.position() + pos as usize,
                    ));
                }
                Field::None => {}
            }
        };
        // Past the end only after a payload that runs past it.
        self.consume(pos.min(len) as usize);
        result
    }
}

/// The big-endian length field of `width` (1, 2 or 4) bytes at `pos`, if
/// all there.
#[inline(always)]
fn length(input: &[u8], pos: u64, width: u8) -> Option<u64> {
    let field = input.get(pos as usize..)?;
    Some(match width {
        1 => u64::from(*field.first()?),
        2 => u64::from(u16::from_be_bytes(*field.first_chunk()?)),
        _ => u64::from(u32::from_be_bytes(*field.first_chunk()?)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    /// `skip`'s arithmetic for the fix families agrees with [`Step::of`],
    /// the rules its table is made from: each such marker, followed by
    /// the payload bytes and owed values its step asks for (zeros, then
    /// nils), is skipped exactly, and is cut off without the last byte.
    #[test]
    fn fix_families_skip_as_their_step_says() {
        for byte in (0x00..TABLED).chain(0xe0..=0xff) {
            let step = Step::of(byte);
            assert!(step.field == Field::None, "{byte:#04x}");
            let mut input = vec![byte];
            input.resize(1 + usize::from(step.bytes), 0x00);
            input.resize(input.len() + usize::from(step.values), 0xc0);
            let mut reader = Reader::new(&input);
            assert_eq!(reader.skip(), Ok(()), "{byte:#04x}");
            assert_eq!(reader.position(), input.len(), "{byte:#04x}");
            if input.len() > 1 {
                let short = &input[..input.len() - 1];
                assert_eq!(
                    Reader::new(short).skip().map_err(|error| error.kind()),
                    Err(ErrorKind::UnexpectedEof),
                    "{byte:#04x}"
                );
            }
        }
    }
}
