//! A stream of MessagePack values back to back, one at a time, in memory
//! bounded by the largest value: each value's end is found by
//! msgpack-core's `Reader::skip`, reading more while it needs more.

use std::io::Read;

use msgpack_serde::core::{Error, ErrorKind, Reader};

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
        }
    }

    /// The next whole value and its offset in the stream; `None` at the end
    /// of the input.
    pub fn next_value(&mut self) -> Result<Option<(usize, &[u8])>, FrameError> {
        let found = self.next_by(|input, offset| {
            let mut probe = Reader::new(input);
            probe.skip().map(|()| probe.position()).map_err(|error| {
                let more = error.kind() == ErrorKind::UnexpectedEof;
                let error = Error::new(error.kind(), offset + error.offset());
                (more, FrameError::Invalid(error))
            })
        })?;
        let Some((_, len)) = found else {
            return Ok(None);
        };
        Ok(found.map(|(offset, _)| (offset, &self.buffer[self.start - len..self.start])))
    }

    /// The next value as `parse` reads it from the buffered input (and the
    /// stream offset it starts at): it gives the value's length, or an
    /// error and whether more input could mend it. `Ok` gives the value's
    /// offset and length, `None` at the end of the input; a value longer
    /// than `max_bytes`, whole in the buffer or not, is `TooLarge`. Reading
    /// one value in one pass, a check needs no framing first.
    pub fn next_by<E: From<FrameError>>(
        &mut self,
        mut parse: impl FnMut(&[u8], usize) -> Result<usize, (bool, E)>,
    ) -> Result<Option<(usize, usize)>, E> {
        loop {
            if self.start < self.end {
                let offset = self.base + self.start;
                match parse(&self.buffer[self.start..self.end], offset) {
                    Ok(len) => {
                        if let Some(limit) = self.max_bytes.filter(|&limit| len > limit) {
                            return Err(FrameError::TooLarge { offset, limit }.into());
                        }
                        self.start += len;
                        return Ok(Some((offset, len)));
                    }
                    Err((true, _)) if !self.eof => {}
                    Err((_, error)) => return Err(error),
                }
                if let Some(limit) = self
                    .max_bytes
                    .filter(|&limit| self.end - self.start > limit)
                {
                    return Err(FrameError::TooLarge { offset, limit }.into());
                }
            } else if self.eof {
                return Ok(None);
            }
            // Read until what is buffered has doubled before parsing the
            // value again from its start: a large value arriving in small
            // reads (a pipe) then costs linear time, not quadratic.
            let want = ((self.end - self.start) * 2).max(1);
            let cap = self
                .max_bytes
                .map_or(usize::MAX, |limit| limit.saturating_add(1));
            loop {
                self.fill().map_err(E::from)?;
                let have = self.end - self.start;
                if self.eof || have >= want || have >= cap {
                    break;
                }
            }
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
