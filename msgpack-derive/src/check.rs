//! Cross-field rules, one function each. Every violation is recorded;
//! checking goes on so the user sees them all.

use std::collections::HashMap;
use std::hash::Hash;

use proc_macro2::Span;
use syn::spanned::Spanned;

use crate::attr::{Container, Data, Field, Style, Variant};
use crate::ctxt::Ctxt;

pub fn check(cx: &Ctxt, cont: &Container<'_>) {
    match &cont.data {
        Data::Struct(_, fields) => {
            check_field_tags(cx, &cont.attrs.reserved, fields);
            check_field_names(cx, fields);
            check_one_unknown(cx, fields);
            check_unknown_alone(cx, fields);
        }
        Data::Enum(variants) => {
            check_array_on_enum(cx, cont);
            check_variant_tags(cx, &cont.attrs.reserved, variants);
            check_unique_names(
                cx,
                "variant",
                variants
                    .iter()
                    .map(|v| (v.name.as_str(), v.ident.to_string(), v.ident.span())),
            );
            check_one_other(cx, variants);
            check_other_is_unit(cx, variants);
            for variant in variants {
                // An enum's reserved numbers are variant numbers: the
                // fields of a struct variant are numbered apart.
                check_field_tags(cx, &[], &variant.fields);
                check_field_names(cx, &variant.fields);
                match variant.style {
                    Style::Tuple => check_tuple_variant_fields_plain(cx, variant),
                    _ => check_no_unknown_in_variant(cx, &variant.fields),
                }
            }
        }
    }
}

/// Every field that is written has a tag; no tag is used twice; no tag is
/// reserved. A field whose attribute did not parse has had its error: it
/// is not also reported as missing a tag.
fn check_field_tags(cx: &Ctxt, reserved: &[(u64, u64)], fields: &[Field<'_>]) {
    let mut first_use = HashMap::new();
    for field in fields.iter().filter(|f| f.is_wire()) {
        let Some((tag, span)) = field.attrs.tag else {
            if !field.attrs.invalid {
                let message = format!(
                    "field `{}` needs a field number: #[msgpack(tag = N)]",
                    field.name
                );
                match &field.original.ident {
                    Some(ident) => cx.error_spanned_by(ident, message),
                    None => cx.error_spanned_by(field.original, message),
                }
            }
            continue;
        };
        check_not_reserved(cx, reserved, tag, span);
        check_unique_tag(cx, &mut first_use, "field", &field.name, tag, span);
    }
}

/// No two written fields share a name (after `rename` / `rename_all`):
/// human-readable formats key fields by name.
fn check_field_names(cx: &Ctxt, fields: &[Field<'_>]) {
    let named = fields.iter().filter(|f| f.is_wire()).map(|f| {
        let span = match &f.original.ident {
            Some(ident) => ident.span(),
            None => f.original.ty.span(),
        };
        let code_name = match &f.member {
            syn::Member::Named(ident) => ident.to_string(),
            syn::Member::Unnamed(index) => index.index.to_string(),
        };
        (f.name.as_str(), code_name, span)
    });
    check_unique_names(cx, "field", named);
}

/// Reports each name of `named` (name, what the code calls it, span)
/// used a second time, at both places.
fn check_unique_names<'n>(
    cx: &Ctxt,
    what: &str,
    named: impl Iterator<Item = (&'n str, String, Span)>,
) {
    let mut first_use = HashMap::new();
    for (name, code_name, span) in named {
        record_use(cx, &mut first_use, name, code_name, span, |first| {
            (
                format!("duplicate name `{name}`: {what} `{first}` already has it (human-readable formats key by name)"),
                format!("name `{name}` first used here"),
            )
        });
    }
}

/// No field or variant uses a reserved tag.
fn check_not_reserved(cx: &Ctxt, reserved: &[(u64, u64)], tag: u64, span: Span) {
    let range = reserved
        .iter()
        .copied()
        .find(|&(low, high)| (low..=high).contains(&tag));
    let message = match range {
        None => return,
        Some((low, high)) if low == high => {
            format!("tag {tag} is reserved by #[msgpack(reserved({tag}))]")
        }
        Some((low, high)) => {
            format!("tag {tag} is in the range {low}..={high} reserved by #[msgpack(reserved(..))]")
        }
    };
    cx.syn_error(syn::Error::new(span, message));
}

/// At most one field collects unknown fields.
fn check_one_unknown(cx: &Ctxt, fields: &[Field<'_>]) {
    for field in fields
        .iter()
        .skip_while(|f| f.attrs.unknown.is_none())
        .skip(1)
    {
        if let Some(span) = field.attrs.unknown {
            let message = "only one field can be #[msgpack(unknown)]";
            cx.syn_error(syn::Error::new(span, message));
        }
    }
}

/// The unknown-fields field takes no tag, is not skipped, and has no
/// other field attribute.
fn check_unknown_alone(cx: &Ctxt, fields: &[Field<'_>]) {
    for field in fields {
        let Some(span) = field.attrs.unknown else {
            continue;
        };
        if field.attrs.tag.is_some() || field.attrs.skip || field.attrs.with.is_some() {
            let message = "#[msgpack(unknown)] takes no tag, skip or with";
            cx.syn_error(syn::Error::new(span, message));
        }
    }
}

/// Enum variants carry no unknown-fields field: a relay keeps the whole
/// variant or none of it.
fn check_no_unknown_in_variant(cx: &Ctxt, fields: &[Field<'_>]) {
    for span in fields.iter().filter_map(|f| f.attrs.unknown) {
        let message = "#[msgpack(unknown)] is for struct fields, not variant fields";
        cx.syn_error(syn::Error::new(span, message));
    }
}

/// A tuple variant's fields are written as they are, in order: no field
/// attribute applies to them, so one is an error rather than ignored.
fn check_tuple_variant_fields_plain(cx: &Ctxt, variant: &Variant<'_>) {
    let attrs = variant.fields.iter().flat_map(|f| &f.original.attrs);
    for attr in attrs.filter(|a| a.path().is_ident(crate::symbol::MSGPACK)) {
        cx.error_spanned_by(
            attr,
            "#[msgpack(...)] does not apply to the fields of a tuple variant; use a struct variant",
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
fn check_variant_tags(cx: &Ctxt, reserved: &[(u64, u64)], variants: &[Variant<'_>]) {
    let mut first_use = HashMap::new();
    for variant in variants {
        let Some((tag, span)) = variant.attrs.tag else {
            if !variant.attrs.invalid {
                let message = format!(
                    "variant `{}` needs a variant number: #[msgpack(tag = N)]",
                    variant.ident
                );
                cx.error_spanned_by(variant.ident, message);
            }
            continue;
        };
        check_not_reserved(cx, reserved, tag, span);
        check_unique_tag(
            cx,
            &mut first_use,
            "variant",
            &variant.ident.to_string(),
            tag,
            span,
        );
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
            let ident = variant.ident;
            let fields = &variant.original.fields;
            let message = "#[msgpack(other)] must be a unit variant";
            cx.error_spanned_by(quote::quote!(#ident #fields), message);
        }
    }
}

/// No tag is used twice among the fields (variants) of one type: records
/// the first use of `tag`, or reports a second one at both places.
fn check_unique_tag(
    cx: &Ctxt,
    first_use: &mut HashMap<u64, (String, Span)>,
    what: &str,
    name: &str,
    tag: u64,
    span: Span,
) {
    record_use(cx, first_use, tag, name.to_string(), span, |first| {
        (
            format!("duplicate tag {tag}: {what} `{first}` already uses it"),
            format!("tag {tag} first used here"),
        )
    });
}

/// Records that `user` (at `span`) uses `key`, or, when another did
/// first, reports both places with the messages `messages(first user)`
/// gives: one for the second use, one for the first.
fn record_use<K: Eq + Hash>(
    cx: &Ctxt,
    first_use: &mut HashMap<K, (String, Span)>,
    key: K,
    user: String,
    span: Span,
    messages: impl FnOnce(&str) -> (String, String),
) {
    match first_use.get(&key) {
        Some((first, first_span)) => {
            let (duplicate, first_here) = messages(first);
            cx.syn_error(syn::Error::new(span, duplicate));
            cx.syn_error(syn::Error::new(*first_span, first_here));
        }
        None => {
            first_use.insert(key, (user, span));
        }
    }
}
