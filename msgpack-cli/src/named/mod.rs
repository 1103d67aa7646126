//! `--schema`: the tagged MessagePack of derived types rewritten as the
//! same MessagePack with field and variant names instead of tags (for
//! `decode`, which then writes it as JSON), the names rewritten back to
//! the exact tagged bytes (for `encode`), and the names of the tags at
//! each offset (for `inspect`).
//!
//! Tags no field or variant has stay under their number, as the string
//! `"#N"`, both ways; a field or variant keyed by its name, as the derive
//! also reads it, stays so. A struct read from an array
//! (`#[msgpack(array)]`) becomes a map of its present positions (nil a
//! gap, but where [`FieldDef::nil_is_value`]), and back. What the Rust
//! types would not read is an error: a value of another type, an integer
//! out of its type's range, a required field absent, a field twice, a
//! data variant's bare tag; and so is what would not come back the same
//! way: a key that is neither a tag nor a name (the derive skips it), a
//! known tag written as `"#N"`, a value that writes nil where the array
//! would read nil as the field's default.

mod fields;
mod variant;

use std::collections::HashMap;

use msgpack_serde::core::{encode, Reader, Timestamp, Token};
use msgpack_serde::json::MAX_DEPTH;
use msgpack_serde::schema::{FieldDef, Presence, SchemaDocument, Shape, TypeDef};

/// How far past its last tag an array struct read from a map keeps an
/// unknown field, as Rust's derive does (`ARRAY_UNKNOWN_GAP`).
const ARRAY_UNKNOWN_GAP: u64 = 64;

/// Which way a rewrite goes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Direction {
    /// Tags to names (`decode`, `inspect`).
    ToNames,
    /// Names to tags (`encode`).
    ToTags,
}

/// What a tag at an offset stands for, for `inspect`.
pub type Names = HashMap<usize, Name>;

/// What `inspect` shows for a tag.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Name {
    /// A field's or a data variant's tag (a map key or an array position):
    /// `customer (tag 2)`, shown where the key is.
    Tag(String),
    /// A unit variant's number: its name, shown beside it.
    Variant(String),
}

/// `bytes` (one value of the document's root type) with names for tags,
/// and the name of each tag by its offset in `bytes`.
pub fn to_names(doc: &SchemaDocument, bytes: &[u8]) -> Result<(Vec<u8>, Names), String> {
    let mut rewrite = Rewrite::new(doc, bytes, Direction::ToNames);
    rewrite.named(&doc.root)?;
    if !rewrite.reader.is_empty() {
        return Err(format!(
            "trailing bytes after the value at offset {}",
            rewrite.reader.position()
        ));
    }
    Ok((rewrite.out, rewrite.names))
}

/// `bytes` (one value with names, as `encode` reads JSON) with tags for
/// names: the bytes the Rust type writes. Errors name the path, the
/// offsets being those of bytes the user never saw.
pub fn to_tags(doc: &SchemaDocument, bytes: &[u8]) -> Result<Vec<u8>, String> {
    let mut rewrite = Rewrite::new(doc, bytes, Direction::ToTags);
    rewrite.named(&doc.root)?;
    Ok(rewrite.out)
}

struct Rewrite<'a, 'd> {
    doc: &'d SchemaDocument,
    input: &'a [u8],
    reader: Reader<'a>,
    out: Vec<u8>,
    direction: Direction,
    /// Where the rewrite is, as `$.field[2].other`.
    path: Vec<String>,
    names: Names,
    /// Derived types entered and not left: a recursive type nests as deep
    /// as its input, so this is bounded like the JSON's nesting.
    depth: usize,
}

impl<'a, 'd> Rewrite<'a, 'd> {
    fn new(doc: &'d SchemaDocument, input: &'a [u8], direction: Direction) -> Self {
        Rewrite {
            doc,
            input,
            reader: Reader::new(input),
            out: Vec::with_capacity(input.len() + input.len() / 2),
            direction,
            path: Vec::new(),
            names: Names::new(),
            depth: 0,
        }
    }

    /// An error where the reader is.
    fn fail(&self, message: impl std::fmt::Display) -> String {
        self.fail_at(self.reader.position(), message)
    }

    /// An error about the item at offset `at`: with the offset when it is
    /// one of the user's bytes (`decode`, `inspect`), else the path alone.
    fn fail_at(&self, at: usize, message: impl std::fmt::Display) -> String {
        let path = format!("${}", self.path.concat());
        match self.direction {
            Direction::ToNames => format!("{message} at offset {at}, at {path}"),
            Direction::ToTags => format!("{message}, at {path}"),
        }
    }

    fn token(&mut self) -> Result<Token<'a>, String> {
        let at = self.reader.position();
        self.reader.read_token().map_err(|error| {
            let path = format!("${}", self.path.concat());
            format!("{} at offset {at}, at {path}", error.kind())
        })
    }

    fn peek(&self) -> Result<Token<'a>, String> {
        let mut reader = self.reader.clone();
        reader.read_token().map_err(|error| self.fail(error.kind()))
    }

    fn write(&mut self, token: Token<'_>) {
        encode::write_token(&mut self.out, token).expect("a length read fits again");
    }

    fn write_str(&mut self, text: &str) {
        self.write(Token::Str(text));
    }

    fn write_tag(&mut self, tag: u64) {
        let _ = encode::write_uint(&mut self.out, tag);
    }

    /// Copies one value as it is.
    fn copy(&mut self) -> Result<(), String> {
        let start = self.reader.position();
        self.reader
            .skip()
            .map_err(|error| self.fail(error.kind()))?;
        self.out
            .extend_from_slice(&self.input[start..self.reader.position()]);
        Ok(())
    }

    fn value(&mut self, shape: &Shape) -> Result<(), String> {
        match shape {
            Shape::Named(name) => self.named(name),
            Shape::Optional(_) if matches!(self.peek()?, Token::Nil) => self.copy(),
            Shape::Optional(inner) => self.value(inner),
            // serde_bytes reads an array of bytes too: each must be one.
            Shape::Bytes if matches!(self.peek()?, Token::Array(_)) => {
                self.value(&Shape::Array(Box::new(Shape::U8)))
            }
            Shape::Array(item) => match self.peek()? {
                Token::Array(len) => {
                    let header = self.token()?;
                    self.write(header);
                    for i in 0..len {
                        self.path.push(format!("[{i}]"));
                        self.value(item)?;
                        self.path.pop();
                    }
                    Ok(())
                }
                other => Err(self.mismatch("an array", &other)),
            },
            Shape::Tuple(items) => match self.peek()? {
                Token::Array(len) if len as usize == items.len() => {
                    let header = self.token()?;
                    self.write(header);
                    for (i, item) in items.iter().enumerate() {
                        self.path.push(format!("[{i}]"));
                        self.value(item)?;
                        self.path.pop();
                    }
                    Ok(())
                }
                other => Err(self.mismatch(&format!("an array of {}", items.len()), &other)),
            },
            Shape::Map(key, value) => match self.peek()? {
                Token::Map(len) => {
                    let header = self.token()?;
                    self.write(header);
                    for i in 0..len {
                        self.path.push(format!("[key {i}]"));
                        self.value(key)?;
                        self.path.pop();
                        self.path.push(format!("[{i}]"));
                        self.value(value)?;
                        self.path.pop();
                    }
                    Ok(())
                }
                other => Err(self.mismatch("a map", &other)),
            },
            shape => self.leaf(shape),
        }
    }

    /// A value of a shape with no parts, checked as the Rust type reads
    /// it and copied, or as the Rust type writes it when from JSON.
    fn leaf(&mut self, shape: &Shape) -> Result<(), String> {
        let token = self.peek()?;
        let fits = match (shape, &token) {
            (Shape::Value | Shape::Other(_), _) => true,
            (Shape::Bool, Token::Bool(_)) => true,
            (shape, Token::Int(n)) if shape.int_range().is_some() => {
                let (low, high) = shape.int_range().unwrap_or_default();
                if !(low..=high).contains(&n.as_i128()) {
                    return Err(self.fail(format!("{n} is out of range for {shape}")));
                }
                true
            }
            (Shape::F32 | Shape::Float, Token::F32(_) | Token::F64(_) | Token::Int(_)) => {
                if self.direction == Direction::ToTags {
                    // JSON's numbers come as float 64 or integers; the
                    // Rust type writes an `f32` as float 32, an `f64` as
                    // float 64.
                    let x = match token {
                        Token::Int(n) => n.as_f64(),
                        Token::F32(x) => f64::from(x),
                        Token::F64(x) => x,
                        _ => unreachable!("matched above"),
                    };
                    self.token()?;
                    self.write(match shape {
                        Shape::F32 => Token::F32(x as f32),
                        _ => Token::F64(x),
                    });
                    return Ok(());
                }
                true
            }
            // rmp-serde writes a 128-bit integer as 16 bytes of bin.
            (Shape::Int, Token::Bin(bytes)) => bytes.len() == 16,
            (Shape::Str, Token::Str(_)) => true,
            // A str too: its UTF-8, as the old raw type was read.
            (Shape::Bytes, Token::Bin(_) | Token::Str(_)) => true,
            (Shape::Timestamp, Token::Ext(-1, data)) => {
                if Timestamp::from_ext_data(data).is_none() {
                    return Err(self.fail("invalid timestamp"));
                }
                true
            }
            _ => false,
        };
        if !fits {
            let expected = match shape {
                Shape::Bool => "a bool".to_string(),
                Shape::F32 | Shape::Float => "a float".to_string(),
                Shape::Str => "a string".to_string(),
                Shape::Bytes => "bin".to_string(),
                Shape::Timestamp => "a timestamp".to_string(),
                other => format!("an integer ({other})"),
            };
            return Err(self.mismatch(&expected, &token));
        }
        self.copy()
    }

    /// The error of a value that is not what the schema says.
    fn mismatch(&self, expected: &str, found: &Token<'_>) -> String {
        self.fail(format!("expected {expected}, found {}", kind(found)))
    }

    /// The required fields of `fields` whose tags are not in `seen`: an
    /// error naming the first, at the struct's offset `at`.
    fn missing(
        &self,
        ty: &str,
        fields: &[FieldDef],
        seen: &[u64],
        at: usize,
    ) -> Result<(), String> {
        match fields
            .iter()
            .find(|f| f.presence == Presence::Required && !seen.contains(&f.tag))
        {
            Some(field) => Err(self.fail_at(
                at,
                format!("{ty}: missing field `{}` (tag {})", field.name, field.tag),
            )),
            None => Ok(()),
        }
    }

    fn named(&mut self, name: &str) -> Result<(), String> {
        let doc = self.doc;
        let Some(def) = doc.types.get(name) else {
            return Err(format!("the type `{name}` is not defined in the schema"));
        };
        if self.depth == MAX_DEPTH {
            return Err(self.fail(format!("nesting exceeds the depth limit of {MAX_DEPTH}")));
        }
        self.depth += 1;
        let result = self.definition(name, def);
        self.depth -= 1;
        result
    }

    fn definition(&mut self, name: &str, def: &'d TypeDef) -> Result<(), String> {
        match def {
            TypeDef::Struct { unit: true, .. } => self.copy(),
            TypeDef::Struct {
                layout,
                fields,
                unknown,
                ..
            } => self.fields(name, fields, *layout, *unknown),
            TypeDef::Enum { variants, .. } => self.variant(name, variants),
        }
    }
}

/// The error of a key that is neither a tag nor a name of `ty`'s fields
/// or variants: the derive skips such a field (and reads such a variant
/// as its `other` one), but the key would not come back from names.
fn not_a_key(ty: &str, key: &Token<'_>) -> String {
    let key = match key {
        Token::Str(name) => format!("`{name}`"),
        Token::Int(number) => number.as_i64().unwrap_or_default().to_string(),
        other => kind(other).to_string(),
    };
    format!("{ty}: a key that is neither a tag nor a name ({key})")
}

fn kind(token: &Token<'_>) -> &'static str {
    match token {
        Token::Nil => "nil",
        Token::Bool(_) => "a bool",
        Token::Int(_) => "an integer",
        Token::F32(_) | Token::F64(_) => "a float",
        Token::Str(_) => "a string",
        Token::Bin(_) => "bin",
        Token::Array(_) => "an array",
        Token::Map(_) => "a map",
        Token::Ext(..) => "an ext",
    }
}
