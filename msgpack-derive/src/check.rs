//! Cross-field rules, one function each. Every violation is recorded;
//! checking goes on so the user sees them all.

use std::collections::HashMap;

use crate::attr::{Container, Data, Field, Style, Variant};
use crate::ctxt::Ctxt;

pub fn check(cx: &Ctxt, cont: &Container<'_>) {
    match &cont.data {
        Data::Struct(_, fields) => {
            check_field_tags(cx, cont, fields);
            check_one_unknown(cx, fields);
            check_unknown_alone(cx, fields);
        }
        Data::Enum(variants) => {
            check_array_on_enum(cx, cont);
            check_variant_tags(cx, cont, variants);
            check_one_other(cx, variants);
            check_other_is_unit(cx, variants);
            for variant in variants {
                check_field_tags(cx, cont, &variant.fields);
                check_no_unknown_in_variant(cx, &variant.fields);
            }
        }
    }
}

/// Every field that is written has a tag; no tag is used twice; no tag is
/// reserved.
fn check_field_tags(cx: &Ctxt, cont: &Container<'_>, fields: &[Field<'_>]) {
    let mut first_use: HashMap<u64, &Field<'_>> = HashMap::new();
    for field in fields.iter().filter(|f| f.is_wire()) {
        let Some((tag, span)) = field.attrs.tag else {
            let message = format!(
                "field `{}` needs a field number: #[msgpack(tag = N)]",
                field.name
            );
            cx.error_spanned_by(field.original, message);
            continue;
        };
        if cont.attrs.is_reserved(tag) {
            cx.syn_error(syn::Error::new(
                span,
                format!("tag {tag} is reserved by #[msgpack(reserved(..))]"),
            ));
        }
        match first_use.get(&tag) {
            Some(first) => {
                let message = format!(
                    "duplicate tag {tag}: field `{}` already uses it",
                    first.name
                );
                cx.syn_error(syn::Error::new(span, message));
                let first_span = first.attrs.tag.map_or(span, |(_, s)| s);
                cx.syn_error(syn::Error::new(
                    first_span,
                    format!("tag {tag} first used here"),
                ));
            }
            None => {
                first_use.insert(tag, field);
            }
        }
    }
}

/// At most one field collects unknown fields.
fn check_one_unknown(cx: &Ctxt, fields: &[Field<'_>]) {
    for field in fields.iter().filter(|f| f.attrs.unknown.is_some()).skip(1) {
        cx.error_spanned_by(field.original, "only one field can be #[msgpack(unknown)]");
    }
}

/// The unknown-fields field takes no tag, is not skipped, and has no
/// other field attribute.
fn check_unknown_alone(cx: &Ctxt, fields: &[Field<'_>]) {
    for field in fields.iter().filter(|f| f.attrs.unknown.is_some()) {
        if field.attrs.tag.is_some() || field.attrs.skip || field.attrs.with.is_some() {
            cx.error_spanned_by(
                field.original,
                "#[msgpack(unknown)] takes no tag, skip or with",
            );
        }
    }
}

/// Enum variants carry no unknown-fields field: a relay keeps the whole
/// variant or none of it.
fn check_no_unknown_in_variant(cx: &Ctxt, fields: &[Field<'_>]) {
    for field in fields.iter().filter(|f| f.attrs.unknown.is_some()) {
        cx.error_spanned_by(
            field.original,
            "#[msgpack(unknown)] is for struct fields, not variant fields",
        );
    }
}

/// `array` is a struct layout.
fn check_array_on_enum(cx: &Ctxt, cont: &Container<'_>) {
    if let Some(span) = cont.attrs.array {
        cx.syn_error(syn::Error::new(
            span,
            "#[msgpack(array)] applies to structs, not enums",
        ));
    }
}

/// Every variant has a tag, used once and not reserved.
fn check_variant_tags(cx: &Ctxt, cont: &Container<'_>, variants: &[Variant<'_>]) {
    let mut first_use: HashMap<u64, &Variant<'_>> = HashMap::new();
    for variant in variants {
        let Some((tag, span)) = variant.attrs.tag else {
            let message = format!(
                "variant `{}` needs a number: #[msgpack(tag = N)]",
                variant.ident
            );
            cx.error_spanned_by(variant.ident, message);
            continue;
        };
        if cont.attrs.is_reserved(tag) {
            cx.syn_error(syn::Error::new(
                span,
                format!("tag {tag} is reserved by #[msgpack(reserved(..))]"),
            ));
        }
        match first_use.get(&tag) {
            Some(first) => {
                let message = format!(
                    "duplicate tag {tag}: variant `{}` already uses it",
                    first.ident
                );
                cx.syn_error(syn::Error::new(span, message));
                let first_span = first.attrs.tag.map_or(span, |(_, s)| s);
                cx.syn_error(syn::Error::new(
                    first_span,
                    format!("tag {tag} first used here"),
                ));
            }
            None => {
                first_use.insert(tag, variant);
            }
        }
    }
}

/// At most one variant catches unknown tags.
fn check_one_other(cx: &Ctxt, variants: &[Variant<'_>]) {
    for variant in variants.iter().filter(|v| v.attrs.other.is_some()).skip(1) {
        cx.error_spanned_by(variant.ident, "only one variant can be #[msgpack(other)]");
    }
}

/// The catch-all variant holds no data: there is nothing to put in it.
fn check_other_is_unit(cx: &Ctxt, variants: &[Variant<'_>]) {
    for variant in variants.iter().filter(|v| v.attrs.other.is_some()) {
        if variant.style != Style::Unit {
            cx.error_spanned_by(variant.original, "#[msgpack(other)] must be a unit variant");
        }
    }
}
