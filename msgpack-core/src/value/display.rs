//! Readable diagnostic text for values: JSON-like, with bin and ext in hex.

use core::fmt::{self, Write as _};

use super::tree::{walk, Event, Node};
use super::{Value, ValueRef};
use crate::Token;

/// Writes `root` as `{"id": 7, "raw": bin(00ff), "at": ext(-1, 00000001)}`.
fn display<T: Node>(root: &T, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    walk(root, |event| match event {
        Event::Scalar(token) => write_scalar(f, token),
        Event::ArrayStart(_) => f.write_char('['),
        Event::ArrayEnd => f.write_char(']'),
        Event::MapStart(_) => f.write_char('{'),
        Event::MapEnd => f.write_char('}'),
        Event::Comma => f.write_str(", "),
        Event::Colon => f.write_str(": "),
    })
}

fn write_scalar(f: &mut fmt::Formatter<'_>, token: Token<'_>) -> fmt::Result {
    match token {
        Token::Nil => f.write_str("null"),
        Token::Bool(b) => write!(f, "{b}"),
        Token::Int(n) => write!(f, "{n}"),
        Token::F32(x) => write!(f, "{x:?}"),
        Token::F64(x) => write!(f, "{x:?}"),
        Token::Str(s) => write_quoted(f, s),
        Token::Bin(bytes) => {
            f.write_str("bin(")?;
            write_hex(f, bytes)?;
            f.write_char(')')
        }
        Token::Ext(ty, data) => {
            write!(f, "ext({ty}, ")?;
            write_hex(f, data)?;
            f.write_char(')')
        }
        // Containers come as events of their own.
        Token::Array(_) | Token::Map(_) => Ok(()),
    }
}

fn write_hex(f: &mut fmt::Formatter<'_>, bytes: &[u8]) -> fmt::Result {
    bytes.iter().try_for_each(|byte| write!(f, "{byte:02x}"))
}

/// Writes `s` as a JSON string literal.
fn write_quoted(f: &mut fmt::Formatter<'_>, s: &str) -> fmt::Result {
    f.write_char('"')?;
    for c in s.chars() {
        match c {
            '"' => f.write_str("\\\"")?,
            '\\' => f.write_str("\\\\")?,
            '\n' => f.write_str("\\n")?,
            '\r' => f.write_str("\\r")?,
            '\t' => f.write_str("\\t")?,
            c if (c as u32) < 0x20 => write!(f, "\\u{:04x}", c as u32)?,
            c => f.write_char(c)?,
        }
    }
    f.write_char('"')
}

/// ```
/// use msgpack_core::Value;
///
/// let value = Value::Array(vec![Value::Nil, "a\"b".into(), Value::Ext(5, vec![1, 2])]);
/// assert_eq!(value.to_string(), r#"[null, "a\"b", ext(5, 0102)]"#);
/// ```
impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        display(self, f)
    }
}

impl fmt::Display for ValueRef<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        display(self, f)
    }
}
