//! `msgpack decode`: MessagePack (or a stream of values) to JSON.

use std::io::Write;

use msgpack_serde::core::Reader;
use msgpack_serde::json::{self, ToJson};

use crate::cli::DecodeArgs;
use crate::cmd::schema;
use crate::error::{Failure, Result};
use crate::frames::Frames;
use crate::io::{input_name, open_input, open_output, read_all};
use crate::named;

pub fn run(args: &DecodeArgs) -> Result<()> {
    let options = if args.plain {
        ToJson::plain()
    } else {
        ToJson::tagged()
    };
    let name = input_name(args.io.file.as_deref());
    let schema = args.schema.as_deref().map(schema::read).transpose()?;
    let mut out = open_output(args.io.output.as_ref())?;
    // Each value's JSON is written only once it is whole: invalid input
    // leaves no half value in the output (the values before it, in
    // --lines mode, are all written).
    let mut json = Vec::with_capacity(1 << 12);
    if args.lines {
        let mut frames = Frames::new(open_input(args.io.file.as_ref())?, None);
        let mut number = 0usize;
        loop {
            number += 1;
            let next = frames
                .next_value()
                .map_err(|error| Failure::frame(error, number, &name))?;
            let Some((offset, value)) = next else { break };
            let renamed;
            let value = match &schema {
                Some(doc) => {
                    renamed = named::to_names(doc, value)
                        .map_err(|error| Failure::invalid(format!("line {number}: {error}")))?
                        .0;
                    &renamed[..]
                }
                None => value,
            };
            json.clear();
            let mut reader = Reader::new(value);
            json::write_json(
                &mut reader,
                options.offset(offset),
                &mut serde_json::Serializer::new(&mut json),
            )
            .map_err(|error| json_failure(error, Some(number)))?;
            json.push(b'\n');
            out.write_all(&json)?;
        }
    } else {
        let mut bytes = read_all(args.io.file.as_ref())?;
        if let Some(doc) = &schema {
            bytes = named::to_names(doc, &bytes).map_err(Failure::invalid)?.0;
        }
        let mut reader = Reader::new(&bytes);
        let result = if args.pretty {
            json::write_json(
                &mut reader,
                options,
                &mut serde_json::Serializer::pretty(&mut json),
            )
        } else {
            json::write_json(
                &mut reader,
                options,
                &mut serde_json::Serializer::new(&mut json),
            )
        };
        result.map_err(|error| json_failure(error, None))?;
        if !reader.is_empty() {
            return Err(Failure::invalid(format!(
                "trailing bytes after the value at offset {}",
                reader.position()
            )));
        }
        json.push(b'\n');
        out.write_all(&json)?;
    }
    out.flush()?;
    Ok(())
}

/// A failure of the JSON side: writing the output, or the MessagePack
/// read through it.
fn json_failure(error: serde_json::Error, line: Option<usize>) -> Failure {
    if error.is_io() {
        return Failure::from(std::io::Error::from(error));
    }
    match line {
        Some(line) => Failure::invalid(format!("line {line}: {error}")),
        None => Failure::invalid(error),
    }
}
