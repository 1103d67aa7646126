//! What the fuzz targets (`fuzz/`, feature `fuzzing`) call: the rewrite
//! `--schema` runs on `decode`, `encode` and `inspect`. Not part of the API.

use msgpack_serde::schema::SchemaDocument;

use crate::named;

/// `bytes`, one tagged value of the document's root type, with names
/// for tags, as `decode --schema` writes it before the JSON.
pub fn to_names(doc: &SchemaDocument, bytes: &[u8]) -> Result<Vec<u8>, String> {
    named::to_names(doc, bytes).map(|(named, _)| named)
}

/// `bytes`, one value with names, back with tags, as `encode --schema`
/// writes it.
pub fn to_tags(doc: &SchemaDocument, bytes: &[u8]) -> Result<Vec<u8>, String> {
    named::to_tags(doc, bytes)
}
