//! A struct's fields, both ways: tags (a map, or a tag-indexed array) to
//! a map of names, and back.

use std::collections::HashSet;

use msgpack_serde::core::marker::NIL;
use msgpack_serde::core::Token;
use msgpack_serde::schema::{FieldDef, Layout, Presence};

use super::{kind, not_a_key, Direction, Name, Rewrite, ARRAY_UNKNOWN_GAP};

impl<'d> Rewrite<'_, 'd> {
    /// A struct's fields: a map (or an array) of tags one way, a map of
    /// names the other. `keeps`: it has unknown fields.
    pub(super) fn fields(
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
                let last = fields.iter().map(|f| f.tag).max().unwrap_or(0);
                // An array struct read from a map drops, as the derive
                // does, an unknown field that is nil (a gap in its array)
                // or far past its last tag (a run of nils before it).
                let dropped = |field: Option<&FieldDef>, tag: u64, nil: bool| {
                    layout == Layout::Array
                        && field.is_none()
                        && (nil || tag > last.saturating_add(ARRAY_UNKNOWN_GAP))
                };
                // The map's length comes first: what is dropped is
                // counted beforehand (only an array struct drops any).
                let mut entries = len;
                if layout == Layout::Array {
                    let mut scan = self.reader.clone();
                    for _ in 0..len {
                        let tag = match scan.read_token() {
                            Ok(Token::Int(tag)) => tag.as_u64(),
                            Ok(_) => None,
                            Err(error) => return Err(self.fail(error.kind())),
                        };
                        let field = tag.and_then(|tag| fields.iter().find(|f| f.tag == tag));
                        let nil = scan.peek_byte() == Ok(NIL);
                        entries -= u32::from(tag.is_some_and(|tag| dropped(field, tag, nil)));
                        scan.skip().map_err(|error| self.fail(error.kind()))?;
                    }
                }
                self.write(Token::Map(entries));
                let mut seen = Vec::new();
                // Rust's derive finds a tag twice among the fields, and
                // among the unknown fields it keeps: all of them, but for
                // an array struct none far past its last tag.
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
                    if dropped(field, tag, self.reader.peek_byte() == Ok(NIL)) {
                        self.reader
                            .skip()
                            .map_err(|error| self.fail(error.kind()))?;
                        continue;
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
                    present += u32::from(!gap(tag, scan.peek_byte() == Ok(NIL)));
                    scan.skip().map_err(|error| self.fail(error.kind()))?;
                }
                self.write(Token::Map(present));
                for tag in 0..u64::from(len) {
                    let at = self.reader.position();
                    if gap(tag, self.reader.peek_byte() == Ok(NIL)) {
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
                        // A known tag goes by its name, whose value is checked.
                        if let Some(field) = fields.iter().find(|f| f.tag == tag) {
                            let message = format!(
                                "{ty}: `{key}` is the tag of field `{}`: use its name",
                                field.name
                            );
                            return Err(self.fail(message));
                        }
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
        // A field left out at its default is nil in an array: another value
        // that writes nil would read back as the default.
        for (tag, value) in &entries {
            let field = fields.iter().find(|f| f.tag == *tag);
            if let Some(field) =
                field.filter(|f| f.omit_default && f.presence != Presence::Optional)
            {
                let default_not_nil = matches!(field.default.as_deref(), Some(d) if d != [NIL]);
                if value[..] == [NIL] && default_not_nil {
                    return Err(self.fail(format!(
                        "{ty}: field `{}` (tag {tag}) is not its default but writes nil, which an #[msgpack(array)] struct reads as the field left out",
                        field.name
                    )));
                }
            }
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
}

/// The error of a tag that a struct's map has twice, as Rust's derive
/// words it.
fn duplicate(ty: &str, field: Option<&FieldDef>, tag: u64) -> String {
    match field {
        Some(field) => format!("{ty}: duplicate field `{}` (tag {tag})", field.name),
        None => format!("{ty}: duplicate field with tag {tag}"),
    }
}
