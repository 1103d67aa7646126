//! Readers in other languages for the types of `#[derive(MsgPack)]`:
//! TypeScript for npm's `@msgpack/msgpack`, Python for PyPI's `msgpack`,
//! and a JSON Schema of the types' JSON form, all from the schema document
//! (`T::schema()`) a project commits. Call it from a `build.rs` or through
//! `msgpack schema codegen`.
//!
//! The generated code follows the derive's rules: required, optional and
//! default fields, `omit_default`, `#[msgpack(other)]`, the array layout,
//! unknown fields kept and written back, integers checked against their
//! Rust type's range, `f32` written as float 32, timestamps with their
//! nanoseconds, and the bytes Rust writes for the same value.
//!
//! A relay is exact, as `UnknownFields` and `Value` are in Rust: `any`
//! values and unknown fields write back byte for byte (floats at their
//! width, integral ones as floats, NaNs with their payload, extensions of
//! every type) when the bytes are read with the generated module's own
//! decoder, `decodeX(decodeExact(bytes))` in TypeScript and
//! `X.from_msgpack(unpackb(data))` in Python. What the packages' own
//! decoders give (`decode(bytes, decoderOptions)`, `msgpack.unpackb`)
//! reads too, but keeps no float's width.
//!
//! ```
//! use msgpack_codegen::Language;
//! use msgpack_serde::schema::Schema;
//!
//! #[derive(msgpack_serde::MsgPack)]
//! struct Order { #[msgpack(tag = 1)] id: u64, #[msgpack(tag = 2)] note: Option<String> }
//!
//! let doc = Order::schema();
//! let typescript = msgpack_codegen::generate(&doc, Language::TypeScript, "order.json").unwrap();
//! assert!(typescript.contains("export interface Order {"));
//! assert!(typescript.contains("export function decodeOrder(value: unknown): Order"));
//! assert!(typescript.contains("export function decodeExact(bytes: Uint8Array): unknown"));
//! let python = msgpack_codegen::generate(&doc, Language::Python, "order.json").unwrap();
//! assert!(python.contains("class Order:"));
//! let json_schema = msgpack_codegen::json_schema(&doc).unwrap();
//! assert_eq!(json_schema["$ref"], "#/$defs/Order");
//! ```

mod json_schema;
mod names;
mod python;
mod taken;
mod typescript;

use std::fmt;

use msgpack_serde::schema::{FieldDef, Layout, Payload, SchemaDocument, Shape, TypeDef};

pub use json_schema::json_schema;

/// The languages readers are generated for.
///
/// ```
/// use msgpack_codegen::Language;
///
/// assert_eq!("typescript".parse::<Language>(), Ok(Language::TypeScript));
/// assert_eq!(Language::Python.file_name("OrderLine"), "order_line.py");
/// assert_eq!(Language::TypeScript.file_name("OrderLine"), "orderLine.ts");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Language {
    /// TypeScript for npm's `@msgpack/msgpack`.
    TypeScript,
    /// Python 3.10 or later for PyPI's `msgpack`.
    Python,
}

impl Language {
    /// The file name for the readers of the document whose root is `root`.
    pub fn file_name(self, root: &str) -> String {
        match self {
            Language::TypeScript => format!("{}.ts", names::camel(root)),
            Language::Python => format!("{}.py", names::snake(root)),
        }
    }
}

impl std::str::FromStr for Language {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        match text {
            "typescript" => Ok(Language::TypeScript),
            "python" => Ok(Language::Python),
            other => Err(format!("unknown language `{other}` (typescript or python)")),
        }
    }
}

/// Why a document cannot be turned into code.
///
/// ```
/// use msgpack_serde::schema::{SchemaDocument, Shape, TypeDef};
///
/// let doc: SchemaDocument = serde_json::from_str(r#"{"root":"Gone","types":{}}"#).unwrap();
/// let error = msgpack_codegen::json_schema(&doc).unwrap_err();
/// assert_eq!(error.to_string(), "the root type `Gone` is not defined in the document");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error(String);

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

/// The readers of every type in `doc`, in `language`, as one file's text;
/// `origin` (the schema document's path) is named in its first line.
///
/// From a `build.rs`, on the committed schema document:
///
/// ```no_run
/// use msgpack_codegen::Language;
/// use msgpack_serde::schema::SchemaDocument;
///
/// fn main() -> Result<(), Box<dyn std::error::Error>> {
///     println!("cargo:rerun-if-changed=schema/order.json");
///     let doc: SchemaDocument = serde_json::from_str(&std::fs::read_to_string("schema/order.json")?)?;
///     for (language, dir) in [(Language::TypeScript, "web/src/generated"), (Language::Python, "service/generated")] {
///         let code = msgpack_codegen::generate(&doc, language, "schema/order.json")?;
///         std::fs::write(format!("{dir}/{}", language.file_name(&doc.root)), code)?;
///     }
///     Ok(())
/// }
/// ```
///
/// ```
/// use msgpack_codegen::Language;
/// use msgpack_serde::schema::Schema;
///
/// #[derive(msgpack_serde::MsgPack)]
/// enum Status { #[msgpack(tag = 1)] Active, #[msgpack(tag = 0, other)] Unknown }
///
/// let python = msgpack_codegen::generate(&Status::schema(), Language::Python, "status.json").unwrap();
/// assert!(python.starts_with("# Generated by msgpack-codegen from status.json"));
/// assert!(python.contains("class Status(enum.Enum):\n    Active = 1\n    Unknown = 0\n"));
/// ```
pub fn generate(doc: &SchemaDocument, language: Language, origin: &str) -> Result<String, Error> {
    check(doc)?;
    taken::check(doc, language)?;
    match language {
        Language::TypeScript => typescript::generate(doc, origin),
        Language::Python => python::generate(doc, origin),
    }
}

/// `Some` for an `#[msgpack(array)]` struct: the tags of its fields whose
/// nil is their value, not a gap ([`FieldDef::nil_is_value`]); `None` for
/// a map struct.
fn array_nils(doc: &SchemaDocument, fields: &[FieldDef], layout: Layout) -> Option<Vec<u64>> {
    (layout == Layout::Array).then(|| {
        fields
            .iter()
            .filter(|f| f.nil_is_value(&doc.types))
            .map(|f| f.tag)
            .collect()
    })
}

/// Refuses what no language can read: a root or a named type not in the
/// document, a type without a schema.
fn check(doc: &SchemaDocument) -> Result<(), Error> {
    if !doc.types.contains_key(&doc.root) {
        return Err(Error(format!(
            "the root type `{}` is not defined in the document",
            doc.root
        )));
    }
    for (name, def) in &doc.types {
        for (member, shape) in members(def) {
            check_shape(doc, name, member, shape)?;
        }
    }
    Ok(())
}

/// The shapes of a type's fields (or its variants' payloads), each with
/// the field's (or the variant's) name.
fn members(def: &TypeDef) -> Vec<(&str, &Shape)> {
    match def {
        TypeDef::Struct { fields, .. } => {
            fields.iter().map(|f| (f.name.as_str(), &f.shape)).collect()
        }
        TypeDef::Enum { variants, .. } => variants
            .iter()
            .flat_map(|v| match &v.payload {
                Payload::Unit => Vec::new(),
                Payload::Newtype(shape) => vec![(v.name.as_str(), shape)],
                Payload::Tuple(shapes) => shapes.iter().map(|s| (v.name.as_str(), s)).collect(),
                Payload::Struct(fields) => {
                    fields.iter().map(|f| (f.name.as_str(), &f.shape)).collect()
                }
            })
            .collect(),
    }
}

fn check_shape(doc: &SchemaDocument, ty: &str, member: &str, shape: &Shape) -> Result<(), Error> {
    match shape {
        Shape::Array(item) | Shape::Optional(item) => check_shape(doc, ty, member, item),
        Shape::Map(key, value) => {
            check_shape(doc, ty, member, key)?;
            check_shape(doc, ty, member, value)
        }
        Shape::Tuple(items) => items
            .iter()
            .try_for_each(|item| check_shape(doc, ty, member, item)),
        Shape::Named(name) if !doc.types.contains_key(name) => Err(Error(format!(
            "{ty}.{member}: the type `{name}` is not defined in the document"
        ))),
        Shape::Other(rust) => Err(Error(format!(
            "{ty}.{member}: the Rust type `{rust}` has no schema (give it a `Describe` impl)"
        ))),
        _ => Ok(()),
    }
}
