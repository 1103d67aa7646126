//! A stream of MessagePack values back to back, one at a time, in memory
//! bounded by the largest value: each value's end is found by
//! msgpack-core's `Framer`, fed each read as it arrives, so a value that
//! comes in many small reads (a pipe) is scanned once, not again at each.

use std::io::Read;

use msgpack_serde::core::{Error, ErrorKind, Framed, Framer, Limits};

/// What reading the next value found wrong.
#[derive(Debug)]
pub enum FrameError {
    /// The bytes are not MessagePack: the error, its offset in the stream.
    Invalid(Error),
    /// The value is larger than the limit (its offset, the limit).
    TooLarge { offset: usize, limit: usize },
    /// Reading the input failed.
    Io(std::io::Error),
}

/// Values read from `R`, back to back.
pub struct Frames<R> {
    reader: R,
    buffer: Vec<u8>,
    start: usize,
    end: usize,
    /// The stream offset of `buffer[0]`.
    base: usize,
    eof: bool,
    max_bytes: Option<usize>,
    /// Where values end; its offsets are the stream's. Depth and value
    /// count are the checks' to count, as they read each value.
    framer: Framer,
}

/// Where the framer found the value at the front to end.
enum Found {
    /// It is whole: its length.
    Whole(usize),
    /// The input ended before it began.
    End,
    /// The input ended inside it.
    Cut,
    /// It is not MessagePack.
    Invalid(Error),
}

impl<R: Read> Frames<R> {
    pub fn new(reader: R, max_bytes: Option<usize>) -> Self {
        Frames {
            reader,
            buffer: vec![0; 1 << 16],
            start: 0,
            end: 0,
            base: 0,
            eof: false,
            max_bytes,
            framer: Framer::new(Limits::unlimited()).max_len(max_bytes.unwrap_or(usize::MAX)),
        }
    }

    /// The next whole value and its offset in the stream; `None` at the end
    /// of the input.
    pub fn next_value(&mut self) -> Result<Option<(usize, &[u8])>, FrameError> {
        let offset = self.base + self.start;
        let len = match self.frame()? {
            Found::Whole(len) => len,
            Found::End => return Ok(None),
            Found::Cut => {
                let error = Error::new(ErrorKind::UnexpectedEof, self.base + self.end);
                return Err(FrameError::Invalid(error));
            }
            Found::Invalid(error) => return Err(FrameError::Invalid(error)),
        };
        self.start += len;
        Ok(Some((offset, &self.buffer[self.start - len..self.start])))
    }

    /// The next value as `parse` reads it from the buffered input (and the
    /// stream offset it starts at): it gives the value's length, or an
    /// error and whether more input could mend it. `Ok` gives the value's
    /// offset and length, `None` at the end of the input; a value longer
    /// than `max_bytes`, whole in the buffer or not, is `TooLarge`.
    ///
    /// A value whole in the buffer is read in one pass, with no framing
    /// first. One that goes on past it is framed as the rest arrives, then
    /// parsed once whole; if the input ends inside it, or it turns out not
    /// to be MessagePack, `parse` says what is wrong with what arrived.
    pub fn next_by<E: From<FrameError>>(
        &mut self,
        mut parse: impl FnMut(&[u8], usize) -> Result<usize, (bool, E)>,
    ) -> Result<Option<(usize, usize)>, E> {
        while self.start == self.end {
            if self.eof {
                return Ok(None);
            }
            self.fill()?;
        }
        let offset = self.base + self.start;
        let len = match parse(&self.buffer[self.start..self.end], offset) {
            Ok(len) => {
                self.too_large(offset, len)?;
                self.framer.skipped(len);
                len
            }
            Err((true, _)) if !self.eof => match self.frame()? {
                Found::Whole(len) => parse(&self.buffer[self.start..self.start + len], offset)
                    .map_err(|(_, error)| error)?,
                Found::End => unreachable!("the buffer holds the value's first bytes"),
                Found::Cut | Found::Invalid(_) => {
                    let error = match parse(&self.buffer[self.start..self.end], offset) {
                        Err((_, error)) => error,
                        // The framer and `parse` disagree: the framer's word.
                        Ok(_) => FrameError::Invalid(self.framing_error()).into(),
                    };
                    return Err(error);
                }
            },
            Err((_, error)) => return Err(error),
        };
        self.start += len;
        Ok(Some((offset, len)))
    }

    /// Frames the value at the front of the buffer, reading until it is
    /// whole; the buffer's front stays where it was.
    fn frame(&mut self) -> Result<Found, FrameError> {
        // Bytes of the value fed to the framer so far (from `start`).
        let mut fed = 0;
        loop {
            if self.start + fed < self.end {
                let offset = self.base + self.start;
                match self.framer.feed(&self.buffer[self.start + fed..self.end]) {
                    Ok(Framed::Value { len, .. }) => return Ok(Found::Whole(len)),
                    Ok(Framed::NeedMore) => fed = self.end - self.start,
                    Err(error) => {
                        return match error.kind() {
                            ErrorKind::FrameLimitExceeded { limit } => {
                                Err(FrameError::TooLarge { offset, limit })
                            }
                            _ => Ok(Found::Invalid(error)),
                        }
                    }
                }
            } else if self.eof {
                return Ok(if fed == 0 { Found::End } else { Found::Cut });
            }
            self.fill()?;
        }
    }

    /// The error that framing the value at the front ended with.
    fn framing_error(&mut self) -> Error {
        match self.framer.feed(&[]) {
            Err(error) => error,
            Ok(_) => Error::new(ErrorKind::UnexpectedEof, self.base + self.end),
        }
    }

    /// `TooLarge` if a value of `len` bytes at `offset` is over the limit.
    fn too_large(&self, offset: usize, len: usize) -> Result<(), FrameError> {
        match self.max_bytes {
            Some(limit) if len > limit => Err(FrameError::TooLarge { offset, limit }),
            _ => Ok(()),
        }
    }

    /// Reads more input after what is buffered, moving the value being
    /// read to the front, and growing the buffer when it is all one value.
    fn fill(&mut self) -> Result<(), FrameError> {
        if self.start > 0 {
            self.buffer.copy_within(self.start..self.end, 0);
            self.base += self.start;
            self.end -= self.start;
            self.start = 0;
        }
        if self.end == self.buffer.len() {
            let grown = self.buffer.len() * 2;
            self.buffer.resize(grown, 0);
        }
        loop {
            match self.reader.read(&mut self.buffer[self.end..]) {
                Ok(0) => {
                    self.eof = true;
                    return Ok(());
                }
                Ok(n) => {
                    self.end += n;
                    return Ok(());
                }
                Err(error) if error.kind() == std::io::ErrorKind::Interrupted => {}
                Err(error) => return Err(FrameError::Io(error)),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use msgpack_serde::core::Reader;

    /// A reader that hands out one byte at a time.
    struct Trickle<'a>(&'a [u8]);

    impl Read for Trickle<'_> {
        fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
            let Some((&first, rest)) = self.0.split_first() else {
                return Ok(0);
            };
            out[0] = first;
            self.0 = rest;
            Ok(1)
        }
    }

    #[test]
    fn values_back_to_back_whatever_the_reads() {
        let mut input = vec![0x01, 0x92, 0xa1, b'x', 0xc0];
        let big = vec![0xc4; 1];
        input.extend(&big);
        input.push(200);
        input.extend(std::iter::repeat_n(7, 200));
        let mut frames = Frames::new(Trickle(&input), None);
        let mut seen = Vec::new();
        while let Some((offset, value)) = frames.next_value().unwrap() {
            seen.push((offset, value.len()));
        }
        assert_eq!(seen, [(0, 1), (1, 4), (5, 202)]);
    }

    #[test]
    fn a_value_that_arrives_in_pieces_is_parsed_twice_not_at_each_piece() {
        // A 100 KB string a byte at a time: `parse` sees its first byte,
        // then the whole value once the framer found its end.
        let mut input = vec![0xdb, 0x00, 0x01, 0x86, 0xa0];
        input.resize(5 + 100_000, b'a');
        input.push(0x07);
        let mut frames = Frames::new(Trickle(&input), None);
        let mut calls = Vec::new();
        let mut parse = |bytes: &[u8], offset: usize| {
            calls.push(bytes.len());
            let mut reader = Reader::new(bytes);
            match reader.skip() {
                Ok(()) => Ok(reader.position()),
                Err(error) => Err((
                    error.kind() == ErrorKind::UnexpectedEof,
                    FrameError::Invalid(Error::new(error.kind(), offset + error.offset())),
                )),
            }
        };
        assert_eq!(
            frames.next_by(&mut parse).unwrap(),
            Some((0, input.len() - 1))
        );
        assert_eq!(
            frames.next_by(&mut parse).unwrap(),
            Some((input.len() - 1, 1))
        );
        assert_eq!(frames.next_by(&mut parse).unwrap(), None);
        assert_eq!(calls, [1, input.len() - 1, 1]);
    }

    #[test]
    fn a_truncated_last_value_is_an_error_at_the_end() {
        let mut frames = Frames::new(&[0x01, 0x92, 0x01][..], None);
        assert_eq!(frames.next_value().unwrap().unwrap().0, 0);
        let Err(FrameError::Invalid(error)) = frames.next_value() else {
            panic!()
        };
        assert_eq!(error.to_string(), "unexpected end of input at offset 3");
    }

    #[test]
    fn a_reserved_byte_is_an_error_at_its_offset() {
        let mut frames = Frames::new(&[0x01, 0x91, 0xc1][..], None);
        frames.next_value().unwrap();
        let Err(FrameError::Invalid(error)) = frames.next_value() else {
            panic!()
        };
        assert_eq!(error.to_string(), "reserved marker 0xc1 at offset 2");
    }

    #[test]
    fn whole_values_over_the_limit_are_too_large() {
        // [1, 2, 3] is 4 bytes, whole in the buffer.
        let input = [0x01, 0x93, 0x01, 0x02, 0x03, 0x01];
        let mut frames = Frames::new(&input[..], Some(3));
        assert_eq!(frames.next_value().unwrap().unwrap().0, 0);
        assert!(matches!(
            frames.next_value(),
            Err(FrameError::TooLarge {
                offset: 1,
                limit: 3
            })
        ));
    }

    #[test]
    fn values_over_the_limit_stop_reading() {
        let mut input = vec![0xc6, 0x10, 0, 0, 0]; // bin 32 of 1 GiB, never sent
        input.extend([0; 100]);
        let mut frames = Frames::new(&input[..], Some(64));
        assert!(matches!(
            frames.next_value(),
            Err(FrameError::TooLarge {
                offset: 0,
                limit: 64
            })
        ));
    }
}
