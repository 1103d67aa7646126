//! `msgpack inspect --summary`: where the bytes go, per key path and per
//! type, the largest first.

use std::collections::HashMap;
use std::io::Write;

use msgpack_serde::core::{Family, Token};
use msgpack_serde::json::MAX_DEPTH;

use crate::cli::InspectArgs;
use crate::error::{Failure, Result};
use crate::io::{open_output, read_all};
use crate::walk::{Role, Walk};

pub fn run(args: &InspectArgs) -> Result<()> {
    let input = read_all(args.io.file.as_ref())?;
    let mut out = open_output(args.io.output.as_ref())?;
    let Summary { paths, types } = tally(&input)?;
    let total = input.len().max(1) as f64;
    let share = |bytes: usize| 100.0 * bytes as f64 / total;

    writeln!(out, "{:>10}  {:>6}  {:>7}  path", "bytes", "share", "count")?;
    for (path, tally) in sorted(paths) {
        writeln!(
            out,
            "{:>10}  {:>5.1}%  {:>7}  {path}",
            tally.bytes,
            share(tally.bytes),
            tally.count
        )?;
    }
    writeln!(out)?;
    writeln!(out, "{:>10}  {:>6}  {:>7}  type", "bytes", "share", "count")?;
    for (family, tally) in sorted(types) {
        writeln!(
            out,
            "{:>10}  {:>5.1}%  {:>7}  {family}",
            tally.bytes,
            share(tally.bytes),
            tally.count
        )?;
    }
    out.flush()?;
    Ok(())
}

#[derive(Clone, Copy, Debug, Default)]
pub struct Tally {
    pub bytes: usize,
    pub count: usize,
}

/// Where a value's bytes go.
#[derive(Debug, Default)]
pub struct Summary {
    /// The bytes under each key path: a value, its key and everything in
    /// it; array indices as `[]`.
    pub paths: HashMap<String, Tally>,
    /// Each type's own bytes: a container's header, a scalar whole.
    pub types: HashMap<&'static str, Tally>,
}

/// An array or map whose bytes are added up when it closes.
struct Open {
    /// Its path; `None` for a map key (its bytes go to its value's path).
    path: Option<String>,
    /// Where its bytes start: its key's offset when it is a map's value.
    start: usize,
    depth: usize,
}

/// The [`Summary`] of the one value of `input`, in one pass: a container's
/// bytes are its span, taken when it closes, so the time is linear in the
/// input (times the depth, for the paths' text, which [`MAX_DEPTH`] bounds).
pub fn tally(input: &[u8]) -> Result<Summary> {
    let mut walk = Walk::new(input);
    let mut paths: HashMap<String, Tally> = HashMap::new();
    let mut types: HashMap<&'static str, Tally> = HashMap::new();
    let mut open: Vec<Open> = Vec::new();
    // The offset and bytes of the key just read: its value's path counts
    // them too.
    let mut key: Option<(usize, usize)> = None;
    let close = |open: &mut Vec<Open>,
                 paths: &mut HashMap<String, Tally>,
                 key: &mut Option<(usize, usize)>,
                 depth: usize,
                 end: usize| {
        while open.last().is_some_and(|last| last.depth >= depth) {
            let closed = open.pop().expect("just checked");
            match closed.path {
                Some(path) => paths.entry(path).or_default().bytes += end - closed.start,
                None => *key = Some((closed.start, end - closed.start)),
            }
        }
    };
    while let Some(item) = walk.next_item() {
        let item =
            item.map_err(|error| Failure::invalid(format!("{error}, at {}", walk.path(false))))?;
        close(&mut open, &mut paths, &mut key, item.depth, item.offset);
        // Inside a map key that is an array or map: no paths of their own.
        let in_key = open.iter().any(|o| o.path.is_none());
        let own = item.bytes.len();
        let kind = types.entry(family_name(item.token)).or_default();
        kind.bytes += own;
        kind.count += 1;
        let is_container = matches!(item.token, Token::Array(_) | Token::Map(_));
        if is_container && item.depth >= MAX_DEPTH {
            return Err(Failure::invalid(format!(
                "nesting exceeds the depth limit of {MAX_DEPTH} at offset {}",
                item.offset
            )));
        }
        if in_key {
            if is_container {
                open.push(Open {
                    path: Some(String::new()),
                    start: item.offset,
                    depth: item.depth,
                });
            }
            continue;
        }
        if let Role::Key(_) = item.role {
            if is_container {
                open.push(Open {
                    path: None,
                    start: item.offset,
                    depth: item.depth,
                });
            } else {
                key = Some((item.offset, own));
            }
            continue;
        }
        let path = walk.path(true);
        let (start, key_bytes) = match (item.role, key.take()) {
            (Role::Value(_), Some((offset, bytes))) => (offset, bytes),
            _ => (item.offset, 0),
        };
        let entry = paths.entry(path.clone()).or_default();
        entry.count += 1;
        if is_container {
            open.push(Open {
                path: Some(path),
                start,
                depth: item.depth,
            });
        } else {
            entry.bytes += key_bytes + own;
        }
    }
    close(&mut open, &mut paths, &mut key, 0, walk.position());
    paths.remove("");
    if walk.position() < input.len() {
        return Err(Failure::invalid(format!(
            "trailing bytes after the value at offset {}",
            walk.position()
        )));
    }
    Ok(Summary { paths, types })
}

fn family_name(token: Token<'_>) -> &'static str {
    let family = match token {
        Token::Nil => Family::Nil,
        Token::Bool(_) => Family::Bool,
        Token::Int(_) => Family::Int,
        Token::F32(_) => Family::F32,
        Token::F64(_) => Family::F64,
        Token::Str(_) => Family::Str,
        Token::Bin(_) => Family::Bin,
        Token::Array(_) => Family::Array,
        Token::Map(_) => Family::Map,
        Token::Ext(_, _) => Family::Ext,
    };
    match family {
        Family::Nil => "nil",
        Family::Bool => "bool",
        Family::Int => "int",
        Family::F32 => "float 32",
        Family::F64 => "float 64",
        Family::Str => "str",
        Family::Bin => "bin",
        Family::Array => "array (headers)",
        Family::Map => "map (headers)",
        Family::Ext => "ext",
        Family::Reserved => "reserved",
    }
}

/// Largest first, then by name.
fn sorted<K: Ord>(map: HashMap<K, Tally>) -> Vec<(K, Tally)> {
    let mut entries: Vec<_> = map.into_iter().collect();
    entries.sort_by(|a, b| b.1.bytes.cmp(&a.1.bytes).then_with(|| a.0.cmp(&b.0)));
    entries
}
