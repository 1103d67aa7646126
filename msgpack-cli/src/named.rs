//! `--schema`: the tagged MessagePack of derived types rewritten as the
//! same MessagePack with field and variant names instead of tags (for
//! `decode`, which then writes it as JSON), the names rewritten back to
//! the exact tagged bytes (for `encode`), and the names of the tags at
//! each offset (for `inspect`).
//!
//! Tags no field or variant has stay under their number, as the string
//! `"#N"`, both ways. A struct read from an array (`#[msgpack(array)]`)
//! becomes a map of its present positions (nil a gap, but where
//! [`FieldDef::nil_is_value`]), and back. What the Rust types
//! would not read is an error: a value of another type, an integer out
//! of its type's range, a required field absent, a field twice.

use std::collections::{HashMap, HashSet};

use msgpack_serde::core::{encode, Reader, Timestamp, Token};
use msgpack_serde::json::MAX_DEPTH;
use msgpack_serde::schema::{
    FieldDef, Layout, Payload, Presence, SchemaDocument, Shape, TypeDef, VariantDef,
};

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

    /// A struct's fields: a map (or an array) of tags one way, a map of
    /// names the other. `keeps`: it has unknown fields.
    fn fields(
        &mut self,
        ty: &str,
        fields: &'d [FieldDef],
        layout: Layout,
        keeps: bool,
    ) -> Result<(), String> {
        match (self.direction, self.peek()?) {
            (Direction::ToNames, Token::Map(len)) => {
                let start = self.reader.position();
                self.token()?;
                self.write(Token::Map(len));
                let mut seen = Vec::new();
                // Rust's derive finds a tag twice among the fields, and
                // among the unknown fields it keeps: all of them, but for
                // an array struct none far past its last tag.
                let last = fields.iter().map(|f| f.tag).max().unwrap_or(0);
                let kept = |field: Option<&FieldDef>, tag: u64| {
                    field.is_some()
                        || keeps
                            && (layout == Layout::Map
                                || tag <= last.saturating_add(ARRAY_UNKNOWN_GAP))
                };
                let mut tags = HashSet::new();
                for _ in 0..len {
                    let at = self.reader.position();
                    // A field's name is a key too, as the derive reads
                    // it; other keys the derive skips are refused here.
                    let key = self.token()?;
                    let (tag, field) = match key {
                        Token::Int(tag) => match tag.as_u64() {
                            Some(tag) => (tag, fields.iter().find(|f| f.tag == tag)),
                            None => return Err(self.fail_at(at, not_a_key(ty, &key))),
                        },
                        Token::Str(name) => match fields.iter().find(|f| f.name == name) {
                            Some(field) => (field.tag, Some(field)),
                            None => return Err(self.fail_at(at, not_a_key(ty, &key))),
                        },
                        _ => return Err(self.fail_at(at, not_a_key(ty, &key))),
                    };
                    if kept(field, tag) && !tags.insert(tag) {
                        return Err(self.fail_at(at, duplicate(ty, field, tag)));
                    }
                    seen.extend(field.map(|f| f.tag));
                    self.entry_to_names(at, tag, field)?;
                }
                self.missing(ty, fields, &seen, start)
            }
            (Direction::ToNames, Token::Array(len)) if layout == Layout::Array => {
                let start = self.reader.position();
                self.token()?;
                let mut seen = Vec::new();
                // Nil is a gap, unless it is the value of a field the
                // writer never leaves out: only present positions are
                // entries.
                let types = &self.doc.types;
                let gap = |tag: u64, nil: bool| {
                    nil && !fields.iter().any(|f| f.tag == tag && f.nil_is_value(types))
                };
                let mut scan = self.reader.clone();
                let mut present = 0u32;
                for tag in 0..u64::from(len) {
                    present += u32::from(!gap(tag, scan.peek_byte() == Ok(0xc0)));
                    scan.skip().map_err(|error| self.fail(error.kind()))?;
                }
                self.write(Token::Map(present));
                for tag in 0..u64::from(len) {
                    let at = self.reader.position();
                    if gap(tag, self.reader.peek_byte() == Ok(0xc0)) {
                        self.reader
                            .skip()
                            .map_err(|error| self.fail(error.kind()))?;
                        continue;
                    }
                    let field = fields.iter().find(|f| f.tag == tag);
                    seen.extend(field.map(|f| f.tag));
                    self.entry_to_names(at, tag, field)?;
                }
                self.missing(ty, fields, &seen, start)
            }
            (Direction::ToTags, Token::Map(len)) => {
                self.fields_to_tags(ty, fields, layout, keeps, len)
            }
            (_, other) => {
                Err(self.fail(format!("{ty}: expected a struct, found {}", kind(&other))))
            }
        }
    }

    /// One field of a struct read with tags: its name (or `#N`) and value.
    fn entry_to_names(
        &mut self,
        at: usize,
        tag: u64,
        field: Option<&FieldDef>,
    ) -> Result<(), String> {
        match field {
            Some(field) => {
                self.write_str(&field.name);
                self.names
                    .insert(at, Name::Tag(format!("{} (tag {})", field.name, field.tag)));
                self.path.push(format!(".{}", field.name));
                self.value(&field.shape)?;
            }
            None => {
                self.write_str(&format!("#{tag}"));
                self.names
                    .insert(at, Name::Tag(format!("unknown (tag {tag})")));
                self.path.push(format!(".#{tag}"));
                self.copy()?;
            }
        }
        self.path.pop();
        Ok(())
    }

    /// A struct's map of names as tags: a map, or for an array layout a
    /// tag-indexed array with nil in the gaps.
    fn fields_to_tags(
        &mut self,
        ty: &str,
        fields: &[FieldDef],
        layout: Layout,
        keeps: bool,
        len: u32,
    ) -> Result<(), String> {
        self.token()?;
        let mut entries: Vec<(u64, Vec<u8>)> = Vec::with_capacity(len as usize);
        for _ in 0..len {
            let key = match self.token()? {
                Token::Str(key) => key,
                other => {
                    return Err(self.fail(format!(
                        "{ty}: a key that is not a field name ({})",
                        kind(&other)
                    )))
                }
            };
            let outer = std::mem::take(&mut self.out);
            self.path.push(format!(".{key}"));
            let tag = match fields.iter().find(|f| f.name == key) {
                Some(field) => {
                    self.value(&field.shape)?;
                    field.tag
                }
                None => match key
                    .strip_prefix('#')
                    .and_then(|digits| digits.parse::<u64>().ok())
                {
                    Some(tag) => {
                        self.copy()?;
                        tag
                    }
                    None => return Err(self.fail(format!("{ty} has no field `{key}`"))),
                },
            };
            self.path.pop();
            let value = std::mem::replace(&mut self.out, outer);
            entries.push((tag, value));
        }
        // What Rust's derive would find twice (an unknown field only when
        // it keeps them; an array has a place for one value a tag, below).
        let mut tags = HashSet::new();
        for (tag, _) in &entries {
            let field = fields.iter().find(|f| f.tag == *tag);
            if (field.is_some() || keeps) && !tags.insert(*tag) {
                return Err(self.fail(duplicate(ty, field, *tag)));
            }
        }
        let seen: Vec<u64> = entries.iter().map(|(tag, _)| *tag).collect();
        self.missing(ty, fields, &seen, 0)?;
        if layout == Layout::Map {
            self.write(Token::Map(len));
            for (tag, value) in entries {
                self.write_tag(tag);
                self.out.extend_from_slice(&value);
            }
            return Ok(());
        }
        entries.sort_by_key(|(tag, _)| *tag);
        // Each tag up to the last is a place in the array: one far past
        // the fields' would be a run of nils (2^64 of them for the
        // largest), which Rust's derive, reading a map, would not keep.
        let last = fields.iter().map(|f| f.tag).max().unwrap_or(0);
        if let Some((tag, _)) = entries
            .iter()
            .find(|(tag, _)| *tag > last.saturating_add(ARRAY_UNKNOWN_GAP))
        {
            return Err(self.fail(format!(
                "{ty}: tag {tag} is more than {ARRAY_UNKNOWN_GAP} past the last field's, too far for an array"
            )));
        }
        let slots = entries.last().map_or(0, |(tag, _)| tag.saturating_add(1));
        if slots > u64::from(u32::MAX) || entries.windows(2).any(|pair| pair[0].0 == pair[1].0) {
            return Err(self.fail(format!("{ty}: a tag repeated or too large for an array")));
        }
        self.write(Token::Array(slots as u32));
        let mut next = 0;
        for (tag, value) in entries {
            while next < tag {
                self.write(Token::Nil);
                next += 1;
            }
            self.out.extend_from_slice(&value);
            next += 1;
        }
        Ok(())
    }

    /// An enum: a unit variant's tag or name, a one-entry map from tag or
    /// name to payload.
    fn variant(&mut self, ty: &str, variants: &'d [VariantDef]) -> Result<(), String> {
        let at = self.reader.position();
        match self.token()? {
            Token::Map(1) => {
                self.write(Token::Map(1));
                let at = self.reader.position();
                let key = self.token()?;
                let variant = self.key_variant(ty, variants, at, key)?;
                match variant.map(|v| (v, &v.payload)) {
                    Some((variant, payload)) => {
                        self.path.push(format!(".{}", variant.name));
                        match payload {
                            Payload::Unit => self.copy()?,
                            Payload::Newtype(shape) => self.value(shape)?,
                            Payload::Tuple(shapes) => self.value(&Shape::Tuple(shapes.clone()))?,
                            Payload::Struct(fields) => self.fields(
                                &format!("{ty}::{}", variant.name),
                                fields,
                                Layout::Map,
                                false,
                            )?,
                        }
                        self.path.pop();
                    }
                    None => self.copy()?,
                }
                Ok(())
            }
            key @ (Token::Int(_) | Token::Str(_)) => {
                // A unit variant is a value: `inspect` shows its name beside it.
                if let Some(variant) = self.key_variant(ty, variants, at, key)? {
                    if variant.payload != Payload::Unit {
                        let message = format!("{ty}: variant `{}` carries data", variant.name);
                        return Err(self.fail_at(at, message));
                    }
                    self.names.insert(at, Name::Variant(variant.name.clone()));
                }
                Ok(())
            }
            other => Err(self.fail_at(
                at,
                format!("{ty}: expected a variant, found {}", kind(&other)),
            )),
        }
    }

    /// Writes a variant's key (a tag, or a name) the other way round and
    /// gives the variant, `None` for a tag no variant has.
    fn key_variant(
        &mut self,
        ty: &str,
        variants: &'d [VariantDef],
        at: usize,
        key: Token<'_>,
    ) -> Result<Option<&'d VariantDef>, String> {
        match (self.direction, key) {
            // A variant's name is a key too, as the derive reads it.
            (Direction::ToNames, key @ (Token::Int(_) | Token::Str(_))) => {
                let (tag, variant) = match key {
                    Token::Int(tag) => match tag.as_u64() {
                        Some(tag) => (tag, variants.iter().find(|v| v.tag == tag)),
                        None => return Err(self.fail_at(at, not_a_key(ty, &key))),
                    },
                    Token::Str(name) => match variants.iter().find(|v| v.name == name) {
                        Some(variant) => (variant.tag, Some(variant)),
                        None => return Err(self.fail_at(at, not_a_key(ty, &key))),
                    },
                    _ => unreachable!("matched above"),
                };
                match variant {
                    Some(variant) => {
                        self.write_str(&variant.name);
                        self.names.insert(
                            at,
                            Name::Tag(format!("{} (tag {})", variant.name, variant.tag)),
                        );
                    }
                    None => {
                        self.write_str(&format!("#{tag}"));
                        self.names
                            .insert(at, Name::Tag(format!("unknown variant (tag {tag})")));
                    }
                }
                Ok(variant)
            }
            (Direction::ToTags, Token::Str(name)) => match variants.iter().find(|v| v.name == name)
            {
                Some(variant) => {
                    self.write_tag(variant.tag);
                    Ok(Some(variant))
                }
                None => match name
                    .strip_prefix('#')
                    .and_then(|digits| digits.parse::<u64>().ok())
                {
                    Some(tag) => {
                        self.write_tag(tag);
                        Ok(None)
                    }
                    None => Err(self.fail(format!("{ty} has no variant `{name}`"))),
                },
            },
            (_, other) => Err(self.fail_at(
                at,
                format!("{ty}: expected a variant, found {}", kind(&other)),
            )),
        }
    }
}

/// The error of a tag that a struct's map has twice, as Rust's derive
/// words it.
fn duplicate(ty: &str, field: Option<&FieldDef>, tag: u64) -> String {
    match field {
        Some(field) => format!("{ty}: duplicate field `{}` (tag {tag})", field.name),
        None => format!("{ty}: duplicate field with tag {tag}"),
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
