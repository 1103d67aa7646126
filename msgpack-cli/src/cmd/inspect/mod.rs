//! `msgpack inspect`: every item with its offset, bytes, format and value,
//! indented by nesting, map keys beside their values.

pub mod summary;

use std::io::{IsTerminal, Write};

use anstyle::{AnsiColor, Style};
use msgpack_serde::core::{Marker, Token, TIMESTAMP_EXT_TYPE};
use msgpack_serde::json::{self, MAX_DEPTH};
use msgpack_serde::Timestamp;

use crate::cli::{Color, InspectArgs};
use crate::cmd::schema;
use crate::error::{Failure, Result};
use crate::io::{open_output, read_all};
use crate::named::{self, Name};
use crate::walk::{Item, Role, Walk};

/// Bytes shown in the hex column before it is cut with `…`.
const HEX_BYTES: usize = 10;
/// Characters of a string shown before it is cut with `…`.
const TEXT_CHARS: usize = 48;

pub fn run(args: &InspectArgs) -> Result<()> {
    let schema = args.schema.as_deref().map(schema::read).transpose()?;
    let input = read_all(args.io.file.as_ref())?;
    // With a schema, what each tag stands for, by its offset.
    let names = match &schema {
        Some(doc) => named::to_names(doc, &input).map_err(Failure::invalid)?.1,
        None => named::Names::new(),
    };
    let mut out = open_output(args.io.output.as_ref())?;
    let paint = Paint::new(args.color, args.io.output.is_none());
    let mut walk = Walk::new(&input);
    let mut pending_key: Option<Item<'_>> = None;
    loop {
        if let (Some(max), Some(index)) = (args.max_items, walk.next_entry()) {
            if index == max as u64 {
                let indent = walk.depth();
                let (entries, bytes) = walk.skip_rest().map_err(Failure::invalid)?;
                let offset = walk.position() - bytes;
                let text = format!("… {entries} more, {bytes} bytes");
                writeln!(
                    out,
                    "{}  {:<w$}  {}{}",
                    paint.offset(offset),
                    "",
                    "  ".repeat(indent),
                    paint.dim(&text),
                    w = HEX_WIDTH
                )?;
                continue;
            }
        }
        let Some(item) = walk.next_item() else { break };
        let item =
            item.map_err(|error| Failure::invalid(format!("{error}, at {}", walk.path(false))))?;
        let is_container = matches!(item.token, Token::Array(_) | Token::Map(_));
        if matches!(item.role, Role::Key(_)) && !is_container {
            pending_key = Some(item);
            continue;
        }
        let key = pending_key.take();
        let mut line = String::new();
        let offset = key.map_or(item.offset, |key| key.offset);
        let hex = match key {
            Some(key) => hex_of(&[key.bytes, item.bytes].concat()),
            None => hex_of(item.bytes),
        };
        line.push_str(&"  ".repeat(item.depth));
        match (key, item.role) {
            (Some(key), _) => {
                let text = match names.get(&key.offset) {
                    Some(Name::Tag(name)) => name.clone(),
                    _ => key_text(&key),
                };
                line.push_str(&paint.key(&format!("{text}:")));
                line.push(' ');
            }
            // An array or map as a key has lines of its own: say which is
            // the key and which its value.
            (None, Role::Key(_)) => line.push_str(&paint.key("(key) ")),
            (None, Role::Value(_)) => line.push_str(&paint.key("(value) ")),
            // An array position that the schema names: a field's tag.
            (None, _) => {
                if let Some(Name::Tag(name)) = names.get(&item.offset) {
                    line.push_str(&paint.key(&format!("{name}:")));
                    line.push(' ');
                }
            }
        }
        line.push_str(&paint.format(&format_name(&item)));
        let value = value_text(&item);
        if !value.is_empty() {
            line.push(' ');
            line.push_str(&paint.value(&item.token, &value));
        }
        // A unit variant: its number, and the name the schema gives it.
        if let Some(Name::Variant(name)) = names.get(&item.offset) {
            line.push_str(&paint.dim(&format!(" ({name})")));
        }
        // An empty container has nothing to collapse (and skipping "the
        // rest" of it would skip its siblings).
        let has_children = matches!(item.token, Token::Array(n) | Token::Map(n) if n > 0);
        let too_deep = args
            .max_depth
            .is_some_and(|max| has_children && item.depth >= max);
        if too_deep {
            let (entries, bytes) = walk.skip_rest().map_err(Failure::invalid)?;
            if entries > 0 {
                line.push_str(&paint.dim(&format!(" … {entries} collapsed, {bytes} bytes")));
            }
        } else if is_container && item.depth >= MAX_DEPTH {
            // Each line is indented by its depth: unbounded, a few bytes
            // of nesting would print gigabytes.
            return Err(Failure::invalid(format!(
                "nesting exceeds the depth limit of {MAX_DEPTH} at offset {} (--max-depth collapses it)",
                item.offset
            )));
        }
        writeln!(out, "{}  {}  {}", paint.offset(offset), hex, line)?;
    }
    if walk.position() < input.len() {
        return Err(Failure::invalid(format!(
            "trailing bytes after the value at offset {}",
            walk.position()
        )));
    }
    out.flush()?;
    Ok(())
}

/// The hex column: [`HEX_BYTES`] bytes and their spaces, and the `…` that
/// cuts longer ones.
const HEX_WIDTH: usize = HEX_BYTES * 3 + 1;

/// The bytes as hex, cut after [`HEX_BYTES`].
fn hex_of(bytes: &[u8]) -> String {
    let mut text: String = bytes
        .iter()
        .take(HEX_BYTES)
        .map(|byte| format!("{byte:02x} "))
        .collect();
    if bytes.len() > HEX_BYTES {
        text.push('…');
    }
    format!("{:<w$}", text.trim_end(), w = HEX_WIDTH)
}

/// The format's name as the specification calls it, with its length or
/// ext type: `fixmap(2)`, `uint16`, `str8(12)`, `ext8(type 5, 3 bytes)`,
/// `timestamp96`.
pub fn format_name(item: &Item<'_>) -> String {
    let name = match item.marker {
        Marker::FixPos(_) => "fixint".to_string(),
        Marker::FixNeg(_) => "negative fixint".to_string(),
        marker => marker.name().replace(' ', ""),
    };
    match item.token {
        Token::Str(text) => format!("{name}({})", text.len()),
        Token::Bin(bytes) => format!("{name}({})", bytes.len()),
        Token::Array(len) | Token::Map(len) => format!("{name}({len})"),
        Token::Ext(TIMESTAMP_EXT_TYPE, data) if Timestamp::from_ext_data(data).is_some() => {
            format!("timestamp{}", data.len() * 8)
        }
        Token::Ext(ext_type, _) if name.starts_with("fixext") => format!("{name}(type {ext_type})"),
        Token::Ext(ext_type, data) => format!("{name}(type {ext_type}, {} bytes)", data.len()),
        _ => name,
    }
}

/// A map key as the line shows it.
fn key_text(key: &Item<'_>) -> String {
    match key.token {
        Token::Nil => "null".into(),
        Token::Bool(value) => value.to_string(),
        _ => value_text(key),
    }
}

/// The value of a scalar, as JSON would write it where it can.
fn value_text(item: &Item<'_>) -> String {
    match item.token {
        // The format's name says it all.
        Token::Nil | Token::Bool(_) => String::new(),
        Token::Int(integer) => match integer.as_u64() {
            Some(value) => value.to_string(),
            None => integer.as_i64().unwrap_or_default().to_string(),
        },
        // Debug, not Display: `1.0` stays a float, and `1e300` is not
        // three hundred digits.
        Token::F32(value) => format!("{value:?}"),
        Token::F64(value) => format!("{value:?}"),
        Token::Str(text) => {
            let shown: String = text.chars().take(TEXT_CHARS).collect();
            let mut quoted = serde_json::Value::from(shown.as_str()).to_string();
            if shown.len() < text.len() {
                quoted.push('…');
            }
            quoted
        }
        Token::Bin(bytes) => format!("<{} bytes>", bytes.len()),
        Token::Ext(TIMESTAMP_EXT_TYPE, data) => match Timestamp::from_ext_data(data) {
            Some(timestamp) => json::timestamp_text(timestamp).unwrap_or_else(|| {
                format!("{}s {}ns", timestamp.seconds(), timestamp.nanoseconds())
            }),
            None => format!("<{} bytes, not a valid timestamp>", data.len()),
        },
        Token::Ext(_, data) => format!("<{} bytes>", data.len()),
        Token::Array(_) | Token::Map(_) => String::new(),
    }
}

/// Colours, or none.
struct Paint {
    on: bool,
}

impl Paint {
    fn new(color: Color, to_stdout: bool) -> Paint {
        let on = match color {
            Color::Always => true,
            Color::Never => false,
            Color::Auto => {
                to_stdout
                    && std::io::stdout().is_terminal()
                    && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
            }
        };
        Paint { on }
    }

    fn paint(&self, style: Style, text: &str) -> String {
        if self.on {
            format!("{style}{text}{style:#}")
        } else {
            text.to_string()
        }
    }

    fn offset(&self, offset: usize) -> String {
        self.paint(Style::new().dimmed(), &format!("{offset:06}"))
    }

    fn dim(&self, text: &str) -> String {
        self.paint(Style::new().dimmed(), text)
    }

    fn format(&self, text: &str) -> String {
        self.paint(Style::new().fg_color(Some(AnsiColor::Yellow.into())), text)
    }

    fn key(&self, text: &str) -> String {
        self.paint(
            Style::new().fg_color(Some(AnsiColor::Blue.into())).bold(),
            text,
        )
    }

    fn value(&self, token: &Token<'_>, text: &str) -> String {
        let color = match token {
            Token::Str(_) => AnsiColor::Green,
            Token::Int(_) | Token::F32(_) | Token::F64(_) => AnsiColor::Cyan,
            _ => AnsiColor::Magenta,
        };
        self.paint(Style::new().fg_color(Some(color.into())), text)
    }
}
