//! `msgpack validate`: the format's rules and the limits, checked item by
//! item without building the value; the first problem with its offset and
//! path.

use std::io::Write;

use msgpack_serde::core::{Token, TIMESTAMP_EXT_TYPE};
use msgpack_serde::Timestamp;

use crate::cli::ValidateArgs;
use crate::cmd::decode::frame_failure;
use crate::cmd::validate_fast::valid_end;
use crate::error::{Failure, Result};
use crate::frames::{FrameError, Frames};
use crate::io::{input_name, open_input, read_all};
use crate::walk::Walk;

/// The limits one value is checked against.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub max_depth: usize,
    pub max_values: Option<usize>,
    pub max_bytes: Option<usize>,
}

pub fn run(args: &ValidateArgs) -> Result<()> {
    let limits = Limits {
        max_depth: args.max_depth,
        max_values: args.max_values,
        max_bytes: args.max_bytes,
    };
    let name = input_name(args.file.as_deref());
    if args.lines {
        // Each value is checked in one pass over the buffered input, more
        // read when it ends inside one: no framing pass first.
        let mut frames = Frames::new(open_input(args.file.as_ref())?, limits.max_bytes);
        let (mut count, mut bytes) = (0usize, 0usize);
        loop {
            let next = frames.next_by(|input, offset| {
                check(input, offset, &limits)
                    .map_err(|problem| (problem.more, LineError::Problem(problem.text)))
            });
            let line = count + 1;
            let found = next.map_err(|error| match error {
                LineError::Problem(text) => Failure::invalid(format!("line {line}: {text}")),
                LineError::Frame(error) => frame_failure(error, line, &name),
            })?;
            let Some((offset, len)) = found else { break };
            count += 1;
            bytes = offset + len;
        }
        writeln!(
            std::io::stdout().lock(),
            "valid: {count} value{}, {bytes} bytes",
            if count == 1 { "" } else { "s" }
        )?;
    } else {
        let input = read_all(args.file.as_ref())?;
        if let Some(limit) = limits.max_bytes.filter(|&limit| input.len() > limit) {
            return Err(Failure::invalid(format!(
                "input exceeds the size limit of {limit} bytes at offset {limit}"
            )));
        }
        let end = check(&input, 0, &limits).map_err(|problem| Failure::invalid(problem.text))?;
        if end < input.len() {
            return Err(Failure::invalid(format!(
                "trailing bytes after the value at offset {end}"
            )));
        }
        writeln!(
            std::io::stdout().lock(),
            "valid: 1 value, {} bytes",
            input.len()
        )?;
    }
    Ok(())
}

/// What is wrong with a value.
#[derive(Debug)]
pub struct Problem {
    /// What, at which offset and path: `invalid UTF-8 in string at offset
    /// 13, at $.items[0].sku`.
    pub text: String,
    /// Whether the input ended inside the value: more input could mend it.
    pub more: bool,
}

/// A failure checking a stream.
enum LineError {
    Problem(String),
    Frame(FrameError),
}

impl From<FrameError> for LineError {
    fn from(error: FrameError) -> LineError {
        LineError::Frame(error)
    }
}

/// Checks the value at the start of `input` (at `base` in the stream);
/// `Ok` gives where it ends.
pub fn check(input: &[u8], base: usize, limits: &Limits) -> std::result::Result<usize, Problem> {
    let fast = STACK.with_borrow_mut(|stack| valid_end(input, limits, stack));
    match fast {
        Some(end) => Ok(end),
        // Say what is wrong, and where.
        None => check_walk(&mut Walk::new(input), base, limits),
    }
}

thread_local! {
    /// The fast path's stack, kept from one value to the next.
    static STACK: std::cell::RefCell<Vec<u64>> = const { std::cell::RefCell::new(Vec::new()) };
}

pub(crate) fn check_walk(
    walk: &mut Walk<'_>,
    base: usize,
    limits: &Limits,
) -> std::result::Result<usize, Problem> {
    let mut values: u64 = 1;
    let max_values = limits.max_values.map_or(u64::MAX, |n| n as u64);
    let problem = |text: &str, offset: usize, walk: &Walk<'_>| Problem {
        text: format!(
            "{text} at offset {}, at {}",
            base + offset,
            walk.path(false)
        ),
        more: false,
    };
    let too_many = || format!("more values than the limit of {max_values}");
    if max_values == 0 {
        return Err(problem(&too_many(), 0, walk));
    }
    while let Some(item) = walk.next_item() {
        let item = item.map_err(|error| Problem {
            more: error.is_eof(),
            ..problem(&error.kind().to_string(), error.offset(), walk)
        })?;
        let children = match item.token {
            Token::Array(len) => u64::from(len),
            Token::Map(len) => u64::from(len) * 2,
            Token::Ext(TIMESTAMP_EXT_TYPE, data) if Timestamp::from_ext_data(data).is_none() => {
                return Err(problem("invalid timestamp", item.offset, walk));
            }
            _ => continue,
        };
        if item.depth + 1 > limits.max_depth {
            let text = format!("nesting exceeds the depth limit of {}", limits.max_depth);
            return Err(problem(&text, item.offset, walk));
        }
        values += children;
        if values > max_values {
            return Err(problem(&too_many(), item.offset, walk));
        }
    }
    Ok(walk.position())
}

#[cfg(test)]
mod tests {
    use super::*;

    const DEFAULT: Limits = Limits {
        max_depth: 128,
        max_values: None,
        max_bytes: None,
    };

    #[test]
    fn problems_with_offset_and_path() {
        // {"items": [{"sku": <bad utf-8>}]}
        let bytes = b"\x81\xa5items\x91\x81\xa3sku\xa1\xff";
        assert_eq!(
            check(bytes, 0, &DEFAULT).unwrap_err().text,
            "invalid UTF-8 in string at offset 13, at $.items[0].sku"
        );
        assert_eq!(
            check(b"\x92\x01\xc1", 0, &DEFAULT).unwrap_err().text,
            "reserved marker 0xc1 at offset 2, at $[1]"
        );
        assert_eq!(
            check(b"\x92\x01", 10, &DEFAULT).unwrap_err().text,
            "unexpected end of input at offset 12, at $[1]"
        );
        assert_eq!(check(b"\xd6\xff\x00\x00\x00\x00", 0, &DEFAULT).unwrap(), 6);
        assert_eq!(
            check(b"\xd4\xff\x00", 0, &DEFAULT).unwrap_err().text,
            "invalid timestamp at offset 0, at $"
        );
    }

    #[test]
    fn limits() {
        let depth = Limits {
            max_depth: 1,
            ..DEFAULT
        };
        assert_eq!(
            check(b"\x91\x91\xc0", 0, &depth).unwrap_err().text,
            "nesting exceeds the depth limit of 1 at offset 1, at $[0]"
        );
        let values = Limits {
            max_values: Some(3),
            ..DEFAULT
        };
        assert_eq!(check(b"\x92\x01\x02", 0, &values).unwrap(), 3);
        assert_eq!(
            check(b"\x93\x01\x02\x03", 0, &values).unwrap_err().text,
            "more values than the limit of 3 at offset 0, at $"
        );
    }
}
