//! `msgpack validate`: the format's rules and msgpack-core's [`Limits`],
//! checked item by item without building the value; the first problem
//! with its offset and path. [`check`] says whether a value is valid and
//! where it ends: first by the one-loop fast path of [`fast`], and only
//! for a value that fails, by the walk that says what and where.

mod check;
mod fast;

use std::io::Write;

use msgpack_serde::core::{Error, ErrorKind, Reader};
use msgpack_serde::Limits;

use crate::cli::ValidateArgs;
use crate::error::{Failure, Result};
use crate::frames::{FrameError, Frames};
use crate::io::{input_name, open_input, read_all};

pub use check::{check, Problem};

pub fn run(args: &ValidateArgs) -> Result<()> {
    let limits = Limits::new()
        .max_depth(args.max_depth)
        .max_values(args.max_values.unwrap_or(usize::MAX))
        .max_bytes(args.max_bytes.unwrap_or(usize::MAX));
    let name = input_name(args.file.as_deref());
    if args.lines {
        // Each value is checked in one pass over the buffered input, more
        // read when it ends inside one: no framing pass first.
        let mut frames = Frames::new(open_input(args.file.as_ref())?, args.max_bytes);
        let (mut count, mut bytes) = (0usize, 0usize);
        loop {
            let next = frames.next_by(|input, offset| {
                check(input, offset, &limits)
                    .map_err(|problem| (problem.more, LineError::Problem(problem.text)))
            });
            let line = count + 1;
            let found = next.map_err(|error| match error {
                LineError::Problem(text) => Failure::invalid(format!("line {line}: {text}")),
                LineError::Frame(error) => Failure::frame(error, line, &name),
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
        // The size limit, in msgpack-core's words.
        Reader::with_limits(&input, limits).map_err(Failure::invalid)?;
        let end = check(&input, 0, &limits).map_err(|problem| Failure::invalid(problem.text))?;
        if end < input.len() {
            let trailing = Error::new(ErrorKind::TrailingBytes, end);
            return Err(Failure::invalid(trailing));
        }
        writeln!(
            std::io::stdout().lock(),
            "valid: 1 value, {} bytes",
            input.len()
        )?;
    }
    Ok(())
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
