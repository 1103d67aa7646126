//! `msgpack encode`: JSON (or JSON Lines) to MessagePack.

use std::io::{BufRead, Write};

use crate::cli::EncodeArgs;
use crate::error::{Failure, Result};
use crate::from_json::{self, Options};
use crate::io::{input_name, open_input, open_output, read_all};

pub fn run(args: &EncodeArgs) -> Result<()> {
    let options = Options { f32: args.f32 };
    let name = input_name(args.io.file.as_deref());
    let mut out = open_output(args.io.output.as_ref())?;
    let mut buffer = Vec::with_capacity(1 << 12);
    if args.lines {
        let mut input = open_input(args.io.file.as_ref())?;
        let mut line = Vec::new();
        let (mut number, mut offset) = (0usize, 0usize);
        loop {
            line.clear();
            let read = input
                .read_until(b'\n', &mut line)
                .map_err(|error| Failure::io(&name, error))?;
            if read == 0 {
                break;
            }
            number += 1;
            if !line.iter().all(u8::is_ascii_whitespace) {
                buffer.clear();
                encode(&line, &mut buffer, options).map_err(|(message, at)| {
                    Failure::invalid(format!(
                        "line {number}: {message} at offset {}",
                        offset + at
                    ))
                })?;
                out.write_all(&buffer)?;
            }
            offset += read;
        }
    } else {
        let json = read_all(args.io.file.as_ref())?;
        encode(&json, &mut buffer, options)
            .map_err(|(message, at)| Failure::invalid(format!("{message} at offset {at}")))?;
        out.write_all(&buffer)?;
    }
    out.flush()?;
    Ok(())
}

/// Encodes the one JSON value of `json` into `out`; an error gives its
/// message and byte offset.
fn encode(
    json: &[u8],
    out: &mut Vec<u8>,
    options: Options,
) -> std::result::Result<(), (String, usize)> {
    let mut deserializer = serde_json::Deserializer::from_slice(json);
    // from_json counts MessagePack nesting instead.
    deserializer.disable_recursion_limit();
    let mut serializer = msgpack_serde::Serializer::new(std::mem::take(out));
    let result = from_json::transcode(&mut deserializer, &mut serializer, options)
        .map_err(|error| (error.to_string(), None))
        .and_then(|()| {
            deserializer
                .end()
                .map_err(|error| (error.to_string(), Some(error)))
        });
    *out = serializer.into_inner();
    result.map_err(|(text, error)| locate(json, &text, error.as_ref()))
}

/// An error's message without serde_json's "at line L column C", and the
/// byte offset that position is at.
fn locate(json: &[u8], text: &str, error: Option<&serde_json::Error>) -> (String, usize) {
    let (message, line, column) = match text.rsplit_once(" at line ") {
        Some((message, position)) => {
            let mut numbers = position
                .split(" column ")
                .map(|n| n.parse::<usize>().unwrap_or(0));
            (
                message.to_string(),
                numbers.next().unwrap_or(0),
                numbers.next().unwrap_or(0),
            )
        }
        None => (
            text.to_string(),
            error.map_or(0, serde_json::Error::line),
            error.map_or(0, serde_json::Error::column),
        ),
    };
    let line_start = if line <= 1 {
        0
    } else {
        json.iter()
            .enumerate()
            .filter(|(_, &byte)| byte == b'\n')
            .nth(line - 2)
            .map_or(json.len(), |(index, _)| index + 1)
    };
    (
        message,
        (line_start + column.saturating_sub(1)).min(json.len()),
    )
}
