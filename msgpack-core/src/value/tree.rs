//! Iterative decode, walk, encode and drop, shared by `Value` and `ValueRef`.
//!
//! None of these recurse: an explicit stack on the heap holds the open
//! containers, so the depth of a value never touches the call stack.

use alloc::vec::Vec;
use core::slice;

use crate::{encode, EncodeError, Error, ErrorKind, Owed, Reader, Token, Write};

/// What one node of a value tree is.
pub(crate) enum View<'v, T> {
    Scalar(Token<'v>),
    Array(&'v [T]),
    Map(&'v [(T, T)]),
}

/// A value tree that can be walked and dropped without recursion.
pub(crate) trait Node: Sized {
    fn view(&self) -> View<'_, Self>;

    /// Moves this node's children (keys and values alike) into `into`.
    fn take_children(&mut self, into: &mut Vec<Self>);

    fn has_children(&self) -> bool {
        match self.view() {
            View::Scalar(_) => false,
            View::Array(items) => !items.is_empty(),
            View::Map(pairs) => !pairs.is_empty(),
        }
    }
}

/// A value tree that can be built from tokens borrowed for `'a`.
pub(crate) trait Build<'a>: Sized {
    /// A scalar token: never `Token::Array` or `Token::Map`.
    fn from_scalar(token: Token<'a>) -> Self;
    fn array(items: Vec<Self>) -> Self;
    fn map(pairs: Vec<(Self, Self)>) -> Self;
}

/// `Node`, `Build` and an iterative `Drop` for a value enum with the
/// variants of `Value` and `ValueRef`: `value_tree!(Value)`, or
/// `value_tree!(ValueRef<'a>)` for one that borrows for `'a`. The two
/// differ only in what a scalar's string, bytes and extension data are:
/// `.into()` copies a token's borrowed ones into `Value`'s owned ones, and
/// hands them on as they are to `ValueRef`.
macro_rules! value_tree {
    ($value:ident $(<$a:lifetime>)?) => {
        impl$(<$a>)? Drop for $value$(<$a>)? {
            fn drop(&mut self) {
                tree::drop_iteratively(self);
            }
        }

        impl$(<$a>)? Node for $value$(<$a>)? {
            fn view(&self) -> View<'_, Self> {
                match self {
                    $value::Nil => View::Scalar(Token::Nil),
                    $value::Bool(b) => View::Scalar(Token::Bool(*b)),
                    $value::Int(n) => View::Scalar(Token::Int(*n)),
                    $value::F32(x) => View::Scalar(Token::F32(*x)),
                    $value::F64(x) => View::Scalar(Token::F64(*x)),
                    $value::Str(s) => View::Scalar(Token::Str(s)),
                    $value::Bin(b) => View::Scalar(Token::Bin(b)),
                    $value::Ext(ty, data) => View::Scalar(Token::Ext(*ty, data)),
                    $value::Array(items) => View::Array(items),
                    $value::Map(pairs) => View::Map(pairs),
                }
            }

            fn take_children(&mut self, into: &mut Vec<Self>) {
                match self {
                    $value::Array(items) => into.append(items),
                    $value::Map(pairs) => pairs.drain(..).for_each(|(k, v)| into.extend([k, v])),
                    _ => {}
                }
            }
        }

        impl<'a> Build<'a> for $value$(<$a>)? {
            fn from_scalar(token: Token<'a>) -> Self {
                match token {
                    Token::Nil => $value::Nil,
                    Token::Bool(b) => $value::Bool(b),
                    Token::Int(n) => $value::Int(n),
                    Token::F32(x) => $value::F32(x),
                    Token::F64(x) => $value::F64(x),
                    Token::Str(s) => $value::Str(s.into()),
                    Token::Bin(b) => $value::Bin(b.into()),
                    Token::Ext(ty, data) => $value::Ext(ty, data.into()),
                    // decode() builds containers itself and never passes them here.
                    Token::Array(_) | Token::Map(_) => $value::Nil,
                }
            }

            fn array(items: Vec<Self>) -> Self {
                $value::Array(items)
            }

            fn map(pairs: Vec<(Self, Self)>) -> Self {
                $value::Map(pairs)
            }
        }
    };
}
pub(super) use value_tree;

/// A container being filled.
enum Open<T> {
    Array {
        items: Vec<T>,
        len: usize,
    },
    Map {
        pairs: Vec<(T, T)>,
        key: Option<T>,
        len: usize,
    },
}

/// Assembles a value tree from a depth-first stream of scalars and
/// container headers, with the open containers on a heap stack.
struct Builder<T> {
    open: Vec<Open<T>>,
}

impl<'a, T: Build<'a>> Builder<T> {
    fn new() -> Self {
        Builder { open: Vec::new() }
    }

    /// How many containers are open.
    fn depth(&self) -> usize {
        self.open.len()
    }

    /// Opens a container of `len` elements (pairs, for a map). Returns the
    /// whole tree if this completed it.
    fn start(&mut self, len: usize, is_map: bool) -> Option<T> {
        match (len, is_map) {
            (0, false) => self.push(T::array(Vec::new())),
            (0, true) => self.push(T::map(Vec::new())),
            (_, false) => {
                self.open.push(Open::Array {
                    items: Vec::with_capacity(len),
                    len,
                });
                None
            }
            (_, true) => {
                self.open.push(Open::Map {
                    pairs: Vec::with_capacity(len),
                    key: None,
                    len,
                });
                None
            }
        }
    }

    /// Hands a finished value to the innermost open container, closing
    /// every container it completes. Returns the whole tree once done.
    fn push(&mut self, mut done: T) -> Option<T> {
        loop {
            match self.open.last_mut() {
                None => return Some(done),
                Some(Open::Array { items, len }) => {
                    items.push(done);
                    if items.len() < *len {
                        return None;
                    }
                    done = T::array(core::mem::take(items));
                }
                Some(Open::Map { pairs, key, len }) => match key.take() {
                    None => {
                        *key = Some(done);
                        return None;
                    }
                    Some(k) => {
                        pairs.push((k, done));
                        if pairs.len() < *len {
                            return None;
                        }
                        done = T::map(core::mem::take(pairs));
                    }
                },
            }
            self.open.pop();
        }
    }
}

/// Decodes one value that must fill `bytes` exactly, under the default
/// limits.
pub(crate) fn from_slice<'a, T: Build<'a>>(bytes: &'a [u8]) -> Result<T, Error> {
    let mut reader = Reader::new(bytes);
    let value = decode(&mut reader)?;
    reader.finish()?;
    Ok(value)
}

/// Decodes one value under the reader's limits.
pub(crate) fn decode<'a, T: Build<'a>>(reader: &mut Reader<'a>) -> Result<T, Error> {
    let limits = reader.limits();
    let mut builder = Builder::new();
    // Values counted against the limit: this one, and the elements of each
    // container, all counted when its header is read.
    let mut values: usize = 1;
    if values > limits.values() {
        let limit = limits.values();
        return Err(Error::new(
            ErrorKind::ValueLimitExceeded { limit },
            reader.position(),
        ));
    }
    // Values still to read, this one included, across all open containers.
    let mut owed = Owed::new(1);
    loop {
        let start = reader.position();
        owed.pay(1);
        let finished = match reader.read_token()? {
            token @ (Token::Array(len) | Token::Map(len)) => {
                if builder.depth() >= limits.depth() {
                    let limit = limits.depth();
                    return Err(Error::new(ErrorKind::DepthLimitExceeded { limit }, start));
                }
                let is_map = matches!(token, Token::Map(_));
                // Elements the rest of the input cannot hold fail now,
                // before any allocation.
                let claimed = (len as u64) << (is_map as u32);
                let Some(more) = owed.claimed(claimed, reader.remaining_len()) else {
                    return Err(Error::new(ErrorKind::UnexpectedEof, reader.input().len()));
                };
                owed = more;
                // Within the input's length, so within a usize.
                values += claimed as usize;
                if values > limits.values() {
                    let limit = limits.values();
                    return Err(Error::new(ErrorKind::ValueLimitExceeded { limit }, start));
                }
                builder.start(len as usize, is_map)
            }
            scalar => builder.push(T::from_scalar(scalar)),
        };
        if let Some(value) = finished {
            return Ok(value);
        }
    }
}

/// Copies a value tree into another representation (`Value` to
/// `ValueRef` and back) without recursion.
pub(crate) fn convert<'v, S: Node, T: Build<'v>>(root: &'v S) -> T {
    let mut builder = Builder::new();
    let mut result = None;
    let _ = walk(root, |event| -> Result<(), core::convert::Infallible> {
        let finished = match event {
            Event::Scalar(token) => builder.push(T::from_scalar(token)),
            Event::ArrayStart(len) => builder.start(len, false),
            Event::MapStart(len) => builder.start(len, true),
            Event::Comma | Event::Colon | Event::ArrayEnd | Event::MapEnd => None,
        };
        if finished.is_some() {
            result = finished;
        }
        Ok(())
    });
    // The walk always completes the tree.
    result.unwrap_or_else(|| T::from_scalar(Token::Nil))
}

/// One step of a depth-first walk over a value tree.
pub(crate) enum Event<'v> {
    Scalar(Token<'v>),
    ArrayStart(usize),
    MapStart(usize),
    /// Before every element, key or pair but the first of its container.
    Comma,
    /// Between a key and its value.
    Colon,
    ArrayEnd,
    MapEnd,
}

enum Walking<'v, T> {
    Array(slice::Iter<'v, T>),
    Map {
        pairs: slice::Iter<'v, (T, T)>,
        value: Option<&'v T>,
    },
}

/// Calls `visit` for every event of a depth-first walk of `root`.
pub(crate) fn walk<'v, T: Node, E>(
    root: &'v T,
    mut visit: impl FnMut(Event<'v>) -> Result<(), E>,
) -> Result<(), E> {
    let mut stack: Vec<(Walking<'v, T>, bool)> = Vec::new();
    let mut next = Some(root);
    loop {
        if let Some(node) = next.take() {
            match node.view() {
                View::Scalar(token) => visit(Event::Scalar(token))?,
                View::Array(items) => {
                    visit(Event::ArrayStart(items.len()))?;
                    stack.push((Walking::Array(items.iter()), true));
                }
                View::Map(pairs) => {
                    visit(Event::MapStart(pairs.len()))?;
                    stack.push((
                        Walking::Map {
                            pairs: pairs.iter(),
                            value: None,
                        },
                        true,
                    ));
                }
            }
        }
        let Some((walking, first)) = stack.last_mut() else {
            return Ok(());
        };
        match walking {
            Walking::Array(items) => match items.next() {
                Some(item) => next = Some(item),
                None => {
                    stack.pop();
                    visit(Event::ArrayEnd)?;
                    continue;
                }
            },
            Walking::Map { pairs, value } => match value.take() {
                Some(v) => {
                    visit(Event::Colon)?;
                    next = Some(v);
                    continue;
                }
                None => match pairs.next() {
                    Some((k, v)) => {
                        next = Some(k);
                        *value = Some(v);
                    }
                    None => {
                        stack.pop();
                        visit(Event::MapEnd)?;
                        continue;
                    }
                },
            },
        }
        if !core::mem::replace(first, false) {
            visit(Event::Comma)?;
        }
    }
}

/// Writes a value tree, each part in its smallest form.
pub(crate) fn encode<T: Node, W: Write>(
    root: &T,
    out: &mut W,
) -> Result<(), EncodeError<W::Error>> {
    walk(root, |event| match event {
        Event::Scalar(token) => encode::write_token(out, token).map(drop),
        Event::ArrayStart(len) => encode::write_array_len(out, len).map(drop),
        Event::MapStart(len) => encode::write_map_len(out, len).map(drop),
        Event::Comma | Event::Colon | Event::ArrayEnd | Event::MapEnd => Ok(()),
    })
}

/// Empties `root` of its descendants without recursion, so that the
/// compiler's drop glue only ever sees shallow nodes.
pub(crate) fn drop_iteratively<T: Node>(root: &mut T) {
    // Flat containers are freed by the drop glue in one step: only nested
    // ones need the work list (and its allocation).
    let nested = match root.view() {
        View::Scalar(_) => false,
        View::Array(items) => items.iter().any(Node::has_children),
        View::Map(pairs) => pairs
            .iter()
            .any(|(k, v)| k.has_children() || v.has_children()),
    };
    if !nested {
        return;
    }
    let mut pending = Vec::new();
    root.take_children(&mut pending);
    while let Some(mut node) = pending.pop() {
        node.take_children(&mut pending);
        // `node` is now childless and drops here without going deeper.
    }
}
