//! A JSON Schema (draft 2020-12) of the JSON form of the types: what
//! serde_json writes for them, by field and variant name.

use msgpack_serde::schema::{FieldDef, Payload, Presence, SchemaDocument, Shape, TypeDef};
use serde_json::{json, Map, Value};

use crate::Error;

/// The JSON Schema of `doc`'s root type in its JSON form, every derived
/// type under `$defs`.
///
/// ```
/// use msgpack_serde::schema::Schema;
///
/// #[derive(msgpack_serde::MsgPack)]
/// struct Point { #[msgpack(tag = 1)] x: i32, #[msgpack(tag = 2)] label: Option<String> }
///
/// let schema = msgpack_codegen::json_schema(&Point::schema()).unwrap();
/// assert_eq!(schema["$schema"], "https://json-schema.org/draft/2020-12/schema");
/// let x = serde_json::json!({"type": "integer", "minimum": i32::MIN, "maximum": i32::MAX});
/// assert_eq!(schema["$defs"]["Point"]["properties"]["x"], x);
/// assert_eq!(schema["$defs"]["Point"]["required"], serde_json::json!(["x"]));
/// ```
pub fn json_schema(doc: &SchemaDocument) -> Result<Value, Error> {
    crate::check(doc)?;
    let defs: Map<String, Value> = doc
        .types
        .iter()
        .map(|(name, def)| (name.clone(), type_schema(def)))
        .collect();
    Ok(json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$ref": format!("#/$defs/{}", doc.root),
        "$defs": defs,
    }))
}

fn type_schema(def: &TypeDef) -> Value {
    match def {
        TypeDef::Struct { unit: true, .. } => json!({"type": "null"}),
        TypeDef::Struct {
            fields, unknown, ..
        } => object(fields, *unknown),
        TypeDef::Enum { variants, .. } => {
            let one_of: Vec<Value> = variants
                .iter()
                .map(|variant| {
                    let payload = match &variant.payload {
                        Payload::Unit => return json!({"const": variant.name}),
                        Payload::Newtype(shape) => shape_schema(shape),
                        Payload::Tuple(shapes) => shape_schema(&Shape::Tuple(shapes.clone())),
                        Payload::Struct(fields) => object(fields, false),
                    };
                    json!({
                        "type": "object",
                        "properties": {variant.name.clone(): payload},
                        "required": [variant.name],
                        "additionalProperties": false,
                    })
                })
                .collect();
            json!({"oneOf": one_of})
        }
    }
}

/// A struct's JSON form: its fields by name. Only required fields must be
/// there (serde_json leaves out `None`; readers fill in defaults).
fn object(fields: &[FieldDef], unknown: bool) -> Value {
    let properties: Map<String, Value> = fields
        .iter()
        .map(|field| {
            let shape = match (&field.presence, &field.shape) {
                (Presence::Optional, Shape::Optional(inner)) => inner,
                (_, shape) => shape,
            };
            (field.name.clone(), shape_schema(shape))
        })
        .collect();
    let required: Vec<&str> = fields
        .iter()
        .filter(|f| f.presence == Presence::Required)
        .map(|f| f.name.as_str())
        .collect();
    let mut schema = json!({"type": "object", "properties": properties, "required": required});
    if !unknown {
        schema["additionalProperties"] = json!(false);
    }
    schema
}

fn shape_schema(shape: &Shape) -> Value {
    match shape {
        Shape::Bool => json!({"type": "boolean"}),
        Shape::Int => json!({"type": "integer"}),
        int if int.int_range().is_some() => {
            let (min, max) = int.int_range().unwrap_or_default();
            json!({"type": "integer", "minimum": min, "maximum": max})
        }
        // NaN and the infinities are `null` in serde_json's output.
        Shape::F32 | Shape::Float => json!({"type": ["number", "null"]}),
        Shape::Str => json!({"type": "string"}),
        Shape::Bytes => {
            json!({"type": "array", "items": {"type": "integer", "minimum": 0, "maximum": 255}})
        }
        Shape::Array(item) => json!({"type": "array", "items": shape_schema(item)}),
        Shape::Map(key, value) => {
            let mut schema = json!({"type": "object", "additionalProperties": shape_schema(value)});
            // serde_json writes integer keys as their digits.
            if key.int_range().is_some() {
                schema["propertyNames"] = json!({"pattern": "^-?[0-9]+$"});
            }
            schema
        }
        Shape::Optional(inner) => json!({"anyOf": [shape_schema(inner), {"type": "null"}]}),
        Shape::Tuple(items) => json!({
            "type": "array",
            "prefixItems": items.iter().map(shape_schema).collect::<Vec<_>>(),
            "minItems": items.len(),
            "maxItems": items.len(),
        }),
        // serde_json writes the extension as its type and its bytes.
        Shape::Timestamp => json!({
            "type": "array",
            "prefixItems": [{"const": -1}, shape_schema(&Shape::Bytes)],
            "minItems": 2,
            "maxItems": 2,
        }),
        Shape::Named(name) => json!({"$ref": format!("#/$defs/{name}")}),
        _ => json!({}),
    }
}
