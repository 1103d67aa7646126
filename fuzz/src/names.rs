//! The `schema_names` target's check: `msgpack --schema`, which rewrites
//! a derived type's tagged bytes with names for tags (`decode`,
//! `inspect`) and back (`encode`), on [`Order`]'s schema, against what
//! the derive itself reads.

use std::sync::OnceLock;

use msgpack_cli::__fuzz::{to_names, to_tags};
use msgpack_serde::schema::{Schema, SchemaDocument};
use msgpack_serde::to_vec;

use super::checks::{within, TYPED_BUDGET_PER_BYTE};
use super::types::Order;

fn schema() -> &'static SchemaDocument {
    static SCHEMA: OnceLock<SchemaDocument> = OnceLock::new();
    SCHEMA.get_or_init(Order::schema)
}

/// The rewrite never panics and stays within the memory budget. What
/// the derive reads as an `Order`, the rewrite takes to names, unless a
/// key is neither a tag nor a field's or variant's name (the derive skips
/// it; the rewrite refuses it, as it could not write it back). Whatever
/// the rewrite takes to names goes back to tags, which read as the same
/// `Order`, and those tags are what names and tags again give (the first
/// tags may differ from the input: an integer in a float field comes
/// back a float, as the derive writes it).
pub fn schema_names(data: &[u8]) {
    let doc = schema();
    let named = within("to_names", data.len(), TYPED_BUDGET_PER_BYTE, || {
        to_names(doc, data)
    });
    let order = msgpack_serde::from_slice::<Order>(data);
    let names = match (named, &order) {
        (Ok(names), _) => names,
        (Err(error), Ok(_)) if error.contains("neither a tag nor a name") => return,
        (Err(error), Ok(order)) => {
            panic!("the derive reads {order:?}, the rewrite refuses it: {error}")
        }
        (Err(_), Err(_)) => return,
    };
    let tags = within("to_tags", names.len(), TYPED_BUDGET_PER_BYTE, || {
        to_tags(doc, &names)
    })
    .unwrap_or_else(|error| panic!("names written by the rewrite refused back: {error}"));
    if let Ok(order) = order {
        // Compared as bytes: a NaN is not equal to itself.
        let back = msgpack_serde::from_slice::<Order>(&tags).map(|back| to_vec(&back).unwrap());
        assert_eq!(back.ok(), Some(to_vec(&order).unwrap()), "{order:?}");
    }
    let names = to_names(doc, &tags)
        .unwrap_or_else(|error| panic!("tags written by the rewrite refused: {error}"));
    let again = to_tags(doc, &names)
        .unwrap_or_else(|error| panic!("names written by the rewrite refused back: {error}"));
    assert_eq!(again, tags, "tags, names and tags again differ");
}
