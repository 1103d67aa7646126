//! A walk over the items of one MessagePack value, in order, without
//! recursion: what `inspect`, `inspect --summary` and `validate` read.
//!
//! A container walker of its own beside msgpack-core's `Reader::skip`
//! (which it calls for `skip_rest`): those commands need every item with
//! its offset, bytes, depth, role in its container and path, where `skip`
//! only finds where a value ends. Each item is read by msgpack-core's
//! `Reader::read_token`, so the format's rules are core's.

use std::fmt::Write as _;

use msgpack_serde::core::{Error, Marker, Reader, Token};

/// Where an item sits in its container.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// The value itself.
    Root,
    /// Element `n` of an array.
    Element(u32),
    /// The key of entry `n` of a map.
    Key(u32),
    /// The value of entry `n` of a map.
    Value(u32),
}

/// One item: a scalar whole, or the header of an array or map.
#[derive(Clone, Copy, Debug)]
pub struct Item<'a> {
    pub offset: usize,
    /// The item's own bytes: header and payload of a scalar, the header of
    /// a container.
    pub bytes: &'a [u8],
    pub marker: Marker,
    pub token: Token<'a>,
    /// Containers around it.
    pub depth: usize,
    pub role: Role,
}

/// An array or map whose children are being walked.
#[derive(Debug)]
struct Open {
    is_map: bool,
    /// Children in all: elements, or keys and values.
    total: u64,
    next: u64,
    /// The offset of the last key read, for paths.
    key_at: Option<usize>,
}

/// The items of the value at the start of `input`.
#[derive(Debug)]
pub struct Walk<'a> {
    reader: Reader<'a>,
    stack: Vec<Open>,
    started: bool,
}

impl<'a> Walk<'a> {
    pub fn new(input: &'a [u8]) -> Self {
        Walk {
            reader: Reader::new(input),
            stack: Vec::new(),
            started: false,
        }
    }

    /// The offset of the next byte to read.
    pub fn position(&self) -> usize {
        self.reader.position()
    }

    /// Containers open around the next item.
    pub fn depth(&self) -> usize {
        self.stack.len()
    }

    /// The next item, `None` once the value is complete.
    pub fn next_item(&mut self) -> Option<Result<Item<'a>, Error>> {
        self.pop_complete();
        let depth = self.stack.len();
        let role = match self.stack.last_mut() {
            None if self.started => return None,
            None => {
                self.started = true;
                Role::Root
            }
            Some(open) => {
                let n = open.next;
                open.next += 1;
                match (open.is_map, n % 2) {
                    (false, _) => Role::Element(n as u32),
                    (true, 0) => Role::Key((n / 2) as u32),
                    (true, _) => Role::Value((n / 2) as u32),
                }
            }
        };
        let offset = self.reader.position();
        let item = self.reader.peek_marker().and_then(|marker| {
            let token = self.reader.read_token()?;
            Ok((marker, token))
        });
        let (marker, token) = match item {
            Ok(item) => item,
            Err(error) => return Some(Err(error)),
        };
        if let (Role::Key(_), Some(open)) = (role, self.stack.last_mut()) {
            open.key_at = Some(offset);
        }
        match token {
            Token::Array(len) => self.open(false, u64::from(len)),
            Token::Map(len) => self.open(true, u64::from(len) * 2),
            _ => {}
        }
        let bytes = &self.reader.input()[offset..self.reader.position()];
        Some(Ok(Item {
            offset,
            bytes,
            marker,
            token,
            depth,
            role,
        }))
    }

    fn open(&mut self, is_map: bool, total: u64) {
        self.stack.push(Open {
            is_map,
            total,
            next: 0,
            key_at: None,
        });
    }

    /// Closes the containers whose children are all read.
    fn pop_complete(&mut self) {
        while self
            .stack
            .last()
            .is_some_and(|open| open.next == open.total)
        {
            self.stack.pop();
        }
    }

    /// The index of the entry (or element) the next item starts, in the
    /// innermost open container; `None` at the top or inside an entry.
    pub fn next_entry(&mut self) -> Option<u64> {
        self.pop_complete();
        let open = self.stack.last()?;
        match (open.is_map, open.next % 2) {
            (false, _) => Some(open.next),
            (true, 0) => Some(open.next / 2),
            (true, _) => None,
        }
    }

    /// Skips what is left of the innermost open container: the number of
    /// entries (or elements) skipped and their bytes.
    pub fn skip_rest(&mut self) -> Result<(u64, usize), Error> {
        self.pop_complete();
        let Some(open) = self.stack.last_mut() else {
            return Ok((0, 0));
        };
        let start = self.reader.position();
        let left = open.total - open.next;
        open.next = open.total;
        let entries = if open.is_map { left.div_ceil(2) } else { left };
        for _ in 0..left {
            self.reader.skip()?;
        }
        Ok((entries, self.reader.position() - start))
    }

    /// The path of the item last returned (or failing to be read), as
    /// `$.items[3].sku`; array indices as `[]` when `collapse_indices`.
    pub fn path(&self, collapse_indices: bool) -> String {
        let mut path = String::from("$");
        for open in &self.stack {
            if open.next == 0 {
                break;
            }
            let child = open.next - 1;
            if !open.is_map {
                if collapse_indices {
                    path.push_str("[]");
                } else {
                    let _ = write!(path, "[{child}]");
                }
            } else if child % 2 == 1 {
                let input = self.reader.input();
                if let Some(Ok(key)) = open.key_at.map(|at| Reader::new(&input[at..]).read_token())
                {
                    push_key(&mut path, key);
                }
            }
        }
        path
    }
}

/// Characters of a key a path shows: every item under a key repeats it, so
/// a 64 KiB key must not be copied into each of their paths.
const KEY_CHARS: usize = 40;

/// `.name` for identifier keys, `["any text"]` for other strings, `[42]`
/// for integers, `[<type>]` for the rest.
fn push_key(path: &mut String, key: Token<'_>) {
    match key {
        Token::Str(text) if text.chars().nth(KEY_CHARS).is_some() => {
            let cut: String = text.chars().take(KEY_CHARS).collect();
            let quoted = serde_json::Value::from(cut).to_string();
            let _ = write!(path, "[{}…\"]", &quoted[..quoted.len() - 1]);
        }
        Token::Str(text) if is_identifier(text) => {
            path.push('.');
            path.push_str(text);
        }
        Token::Str(text) => {
            let _ = write!(path, "[{}]", serde_json::Value::from(text));
        }
        Token::Int(integer) => match integer.as_u64() {
            Some(n) => {
                let _ = write!(path, "[{n}]");
            }
            None => {
                let _ = write!(path, "[{}]", integer.as_i64().unwrap_or_default());
            }
        },
        Token::Bool(value) => {
            let _ = write!(path, "[{value}]");
        }
        Token::Nil => path.push_str("[null]"),
        _ => path.push_str("[?]"),
    }
}

fn is_identifier(text: &str) -> bool {
    let mut chars = text.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items_in_order_with_roles_and_depths() {
        // {"a": [1, "x"], 2: nil}
        let bytes = b"\x82\xa1a\x92\x01\xa1x\x02\xc0";
        let mut walk = Walk::new(bytes);
        let mut seen = Vec::new();
        while let Some(item) = walk.next_item() {
            let item = item.unwrap();
            seen.push((item.offset, item.bytes.len(), item.depth, item.role));
        }
        assert_eq!(
            seen,
            [
                (0, 1, 0, Role::Root),
                (1, 2, 1, Role::Key(0)),
                (3, 1, 1, Role::Value(0)),
                (4, 1, 2, Role::Element(0)),
                (5, 2, 2, Role::Element(1)),
                (7, 1, 1, Role::Key(1)),
                (8, 1, 1, Role::Value(1)),
            ]
        );
        assert_eq!(walk.position(), bytes.len());
    }

    #[test]
    fn paths() {
        // {"items": [{"sku": 1}], "two words": {7: 0}}
        let bytes = b"\x82\xa5items\x91\x81\xa3sku\x01\xa9two words\x81\x07\x00";
        let mut walk = Walk::new(bytes);
        let mut paths = Vec::new();
        while let Some(item) = walk.next_item() {
            item.unwrap();
            paths.push(walk.path(false));
        }
        assert_eq!(
            paths,
            [
                "$",
                "$",
                "$.items",
                "$.items[0]",
                "$.items[0]",
                "$.items[0].sku",
                "$",
                "$[\"two words\"]",
                "$[\"two words\"]",
                "$[\"two words\"][7]"
            ]
        );
    }

    #[test]
    fn long_keys_are_cut_in_paths() {
        let key = "k".repeat(100);
        let mut bytes = vec![0x81, 0xd9, 100];
        bytes.extend(key.as_bytes());
        bytes.push(0x01);
        let mut walk = Walk::new(&bytes);
        let mut last = String::new();
        while let Some(item) = walk.next_item() {
            item.unwrap();
            last = walk.path(false);
        }
        assert_eq!(last, format!("$[\"{}…\"]", "k".repeat(40)));
    }

    #[test]
    fn skipping_the_rest_of_a_container() {
        let bytes = b"\x93\x01\x02\x03\xc3";
        let mut walk = Walk::new(bytes);
        walk.next_item().unwrap().unwrap();
        walk.next_item().unwrap().unwrap();
        assert_eq!(walk.skip_rest().unwrap(), (2, 2));
        assert!(walk.next_item().is_none());
        assert_eq!(walk.position(), 4);
    }
}
