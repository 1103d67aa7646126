//! The compatibility check between two versions of a schema.

use std::fmt;

use super::{FieldDef, Payload, Presence, SchemaDocument, Shape, TypeDef, VariantDef};

/// The breaking changes between two versions of a schema.
///
/// `Display` prints one change a line, each with the type it is in.
///
/// ```
/// use msgpack_serde::schema::{check_compatible, Schema};
///
/// mod v1 {
///     #[derive(msgpack_serde::MsgPack)]
///     pub struct User { #[msgpack(tag = 1)] pub id: u64 }
/// }
/// mod v2 {
///     #[derive(msgpack_serde::MsgPack)]
///     pub struct User { #[msgpack(tag = 1)] pub id: String }
/// }
///
/// let report = check_compatible(&v1::User::schema(), &v2::User::schema());
/// let reason = "tag 1 reused with another type: field `id` was u64, field `id` is str";
/// assert_eq!(report.breaking, [("User".to_string(), reason.to_string())]);
/// assert_eq!(report.to_string(), format!("User: {reason}\n"));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CompatibilityReport {
    /// Each breaking change, as `(type name, reason)`.
    pub breaking: Vec<(String, String)>,
}

impl CompatibilityReport {
    /// Whether the new version reads what the old one wrote and the other
    /// way round.
    ///
    /// ```
    /// use msgpack_serde::schema::{check_compatible, Schema};
    ///
    /// mod v1 {
    ///     #[derive(msgpack_serde::MsgPack)]
    ///     pub struct User { #[msgpack(tag = 1)] pub id: u64 }
    /// }
    /// mod v2 {
    ///     #[derive(msgpack_serde::MsgPack)]
    ///     pub struct User {
    ///         #[msgpack(tag = 1)] pub id: u64,
    ///         #[msgpack(tag = 2)] pub nickname: Option<String>, // new and optional
    ///     }
    /// }
    ///
    /// assert!(check_compatible(&v1::User::schema(), &v2::User::schema()).is_compatible());
    /// ```
    pub fn is_compatible(&self) -> bool {
        self.breaking.is_empty()
    }

    fn push(&mut self, ty: &str, reason: String) {
        self.breaking.push((ty.to_string(), reason));
    }
}

impl fmt::Display for CompatibilityReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.breaking
            .iter()
            .try_for_each(|(ty, reason)| writeln!(f, "{ty}: {reason}"))
    }
}

/// The changes from `old` to `new` that break old readers of new data or
/// new readers of old data:
///
/// - a tag reused with another type (or a field or variant kind changed);
/// - a removed field or variant whose tag is not reserved, and a removed
///   required field even when its tag is (old readers still require it);
/// - a new required field;
/// - a field that turned required, or a required field that turned
///   optional (new writers leave `None` out, old readers require it);
/// - a variant whose tag changed;
/// - a type that changed from struct to enum or back.
///
/// New optional or defaulted fields, new variants, renames that keep the
/// tag, and removed optional fields whose tag is reserved are compatible.
///
/// ```
/// use msgpack_serde::schema::{check_compatible, Schema};
///
/// mod v1 {
///     #[derive(msgpack_serde::MsgPack)]
///     pub struct Order { #[msgpack(tag = 1)] pub id: u64, #[msgpack(tag = 2)] pub note: Option<String> }
/// }
/// mod v2 {
///     #[derive(msgpack_serde::MsgPack)]
///     pub struct Order { #[msgpack(tag = 1)] pub id: u64 }
/// }
/// mod v3 {
///     #[derive(msgpack_serde::MsgPack)]
///     #[msgpack(reserved(2))]
///     pub struct Order { #[msgpack(tag = 1)] pub id: u64 }
/// }
///
/// let report = check_compatible(&v1::Order::schema(), &v2::Order::schema());
/// assert_eq!(
///     report.to_string(),
///     "Order: field `note` (tag 2) was removed without reserving its tag: reserve it with #[msgpack(reserved(2))]\n"
/// );
/// assert!(check_compatible(&v1::Order::schema(), &v3::Order::schema()).is_compatible());
/// ```
pub fn check_compatible(old: &SchemaDocument, new: &SchemaDocument) -> CompatibilityReport {
    let mut report = CompatibilityReport::default();
    for (name, old_def) in &old.types {
        let Some(new_def) = new.types.get(name) else {
            continue;
        };
        match (old_def, new_def) {
            (
                TypeDef::Struct {
                    fields: old_fields, ..
                },
                TypeDef::Struct {
                    fields: new_fields,
                    reserved,
                    ..
                },
            ) => check_fields(&mut report, name, old_fields, new_fields, reserved),
            (
                TypeDef::Enum {
                    variants: old_variants,
                    ..
                },
                TypeDef::Enum {
                    variants: new_variants,
                    reserved,
                },
            ) => check_variants(&mut report, name, old_variants, new_variants, reserved),
            _ => report.push(name, "changed between struct and enum".to_string()),
        }
    }
    report
}

fn is_reserved(reserved: &[(u64, u64)], tag: u64) -> bool {
    reserved
        .iter()
        .any(|&(low, high)| (low..=high).contains(&tag))
}

/// The shape with an outer `Option` removed: optionality is the field's
/// presence, checked on its own.
fn unwrap_optional(shape: &Shape) -> &Shape {
    match shape {
        Shape::Optional(inner) => inner,
        other => other,
    }
}

/// The shape as the wire tells it: integers of every range as `int`
/// and floats of both widths as `float`, since each reads the others'
/// bytes (a range that narrows is not judged here), and documents
/// written before ranges were recorded say `int` and `float`.
fn wire(shape: &Shape) -> Shape {
    match shape {
        shape if shape.int_range().is_some() => Shape::Int,
        Shape::F32 => Shape::Float,
        Shape::Array(item) => Shape::Array(Box::new(wire(item))),
        Shape::Optional(item) => Shape::Optional(Box::new(wire(item))),
        Shape::Map(key, value) => Shape::Map(Box::new(wire(key)), Box::new(wire(value))),
        Shape::Tuple(items) => Shape::Tuple(items.iter().map(wire).collect()),
        other => other.clone(),
    }
}

fn wire_payload(payload: &Payload) -> Payload {
    match payload {
        Payload::Newtype(shape) => Payload::Newtype(wire(shape)),
        Payload::Tuple(shapes) => Payload::Tuple(shapes.iter().map(wire).collect()),
        other => other.clone(),
    }
}

fn check_fields(
    report: &mut CompatibilityReport,
    ty: &str,
    old: &[FieldDef],
    new: &[FieldDef],
    reserved: &[(u64, u64)],
) {
    for old_field in old {
        match new.iter().find(|f| f.tag == old_field.tag) {
            Some(new_field) => {
                let (old_shape, new_shape) = (unwrap_optional(&old_field.shape), unwrap_optional(&new_field.shape));
                if wire(old_shape) != wire(new_shape) {
                    report.push(
                        ty,
                        format!(
                            "tag {} reused with another type: field `{}` was {old_shape}, field `{}` is {new_shape}",
                            old_field.tag, old_field.name, new_field.name
                        ),
                    );
                }
                if old_field.presence == Presence::Required && new_field.presence == Presence::Optional {
                    report.push(
                        ty,
                        format!(
                            "field `{}` (tag {}) turned optional, but older readers require it and newer writers leave out None",
                            new_field.name, new_field.tag
                        ),
                    );
                }
                if old_field.presence != Presence::Required && new_field.presence == Presence::Required {
                    report.push(
                        ty,
                        format!(
                            "field `{}` (tag {}) turned required, but older writers may leave it out",
                            new_field.name, new_field.tag
                        ),
                    );
                }
            }
            None if !is_reserved(reserved, old_field.tag) => report.push(
                ty,
                format!(
                    "field `{}` (tag {}) was removed without reserving its tag: reserve it with #[msgpack(reserved({}))]",
                    old_field.name, old_field.tag, old_field.tag
                ),
            ),
            None if old_field.presence == Presence::Required => report.push(
                ty,
                format!(
                    "required field `{}` (tag {}) was removed, but older readers require it",
                    old_field.name, old_field.tag
                ),
            ),
            None => {}
        }
    }
    for new_field in new.iter().filter(|f| f.presence == Presence::Required) {
        if !old.iter().any(|f| f.tag == new_field.tag) {
            report.push(
                ty,
                format!(
                    "new field `{}` (tag {}) is required, but older writers do not send it",
                    new_field.name, new_field.tag
                ),
            );
        }
    }
}

fn check_variants(
    report: &mut CompatibilityReport,
    ty: &str,
    old: &[VariantDef],
    new: &[VariantDef],
    reserved: &[(u64, u64)],
) {
    for old_variant in old {
        if let Some(new_variant) = new.iter().find(|v| v.name == old_variant.name) {
            if new_variant.tag != old_variant.tag {
                report.push(
                    ty,
                    format!(
                        "variant `{}` changed tag from {} to {}",
                        old_variant.name, old_variant.tag, new_variant.tag
                    ),
                );
                continue;
            }
        }
        match new.iter().find(|v| v.tag == old_variant.tag) {
            Some(new_variant) => match (&old_variant.payload, &new_variant.payload) {
                (Payload::Struct(old_fields), Payload::Struct(new_fields)) => {
                    let scope = format!("{ty}::{}", new_variant.name);
                    check_fields(report, &scope, old_fields, new_fields, &[]);
                }
                (old_payload, new_payload)
                    if wire_payload(old_payload) != wire_payload(new_payload) =>
                {
                    report.push(
                        ty,
                        format!(
                            "tag {} reused with another payload: variant `{}` became `{}`",
                            old_variant.tag, old_variant.name, new_variant.name
                        ),
                    )
                }
                _ => {}
            },
            None if !is_reserved(reserved, old_variant.tag) => report.push(
                ty,
                format!(
                    "variant `{}` (tag {}) was removed without reserving its tag",
                    old_variant.name, old_variant.tag
                ),
            ),
            None => {}
        }
    }
}
