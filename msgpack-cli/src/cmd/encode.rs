//! `msgpack encode`: JSON (or JSON Lines) to MessagePack.

use std::io::{BufRead, Write};

use msgpack_serde::json::{self, FromJson};

use crate::cli::EncodeArgs;
use crate::cmd::schema;
use crate::error::{Failure, Result};
use crate::io::{input_name, open_input, open_output, read_all};
use crate::named;

pub fn run(args: &EncodeArgs) -> Result<()> {
    let options = FromJson::tagged().f32(args.f32);
    let name = input_name(args.io.file.as_deref());
    let schema = args.schema.as_deref().map(schema::read).transpose()?;
    // With a schema, the names of the JSON as the tags of the derived types.
    let tagged = |buffer: Vec<u8>| -> std::result::Result<Vec<u8>, String> {
        match &schema {
            Some(doc) => named::to_tags(doc, &buffer),
            None => Ok(buffer),
        }
    };
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
                json::write_msgpack(&line, &mut buffer, options).map_err(|error| {
                    Failure::invalid(format!(
                        "line {number}: {} at offset {}",
                        error.message(),
                        offset + error.offset()
                    ))
                })?;
                let bytes = tagged(std::mem::take(&mut buffer))
                    .map_err(|error| Failure::invalid(format!("line {number}: {error}")))?;
                out.write_all(&bytes)?;
            }
            offset += read;
        }
    } else {
        let json = read_all(args.io.file.as_ref())?;
        json::write_msgpack(&json, &mut buffer, options).map_err(|error| {
            Failure::invalid(format!("{} at offset {}", error.message(), error.offset()))
        })?;
        out.write_all(&tagged(buffer).map_err(Failure::invalid)?)?;
    }
    out.flush()?;
    Ok(())
}
