//! Parses `#[msgpack(...)]` attributes into a model of the type.
//!
//! Errors are recorded in the [`Ctxt`] and parsing goes on, so one derive
//! reports every bad attribute at once.

use std::collections::HashSet;

use proc_macro2::Span;
use syn::parse::ParseStream;
use syn::spanned::Spanned;
use syn::{Ident, LitInt, LitStr, Token};

use crate::case::RenameRule;
use crate::ctxt::Ctxt;
use crate::symbol::*;

/// The type being derived, with its attributes parsed.
pub struct Container<'a> {
    pub ident: &'a Ident,
    pub generics: &'a syn::Generics,
    pub attrs: ContainerAttrs,
    pub data: Data<'a>,
}

pub enum Data<'a> {
    Struct(Style, Vec<Field<'a>>),
    Enum(Vec<Variant<'a>>),
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// `struct S { a: T }`
    Named,
    /// `struct S(T, U);`
    Tuple,
    /// `struct S;`
    Unit,
}

pub struct ContainerAttrs {
    /// `#[msgpack(array)]`: a tag-indexed array in binary formats.
    pub array: Option<Span>,
    /// `#[msgpack(omit_default)]` on the container: on every field.
    pub omit_default: bool,
    pub rename_all: Option<RenameRule>,
    /// `#[msgpack(reserved(4, 9..=12))]`: inclusive ranges.
    pub reserved: Vec<(u64, u64)>,
    /// `#[msgpack(crate = "path")]`: where `msgpack_serde` is.
    pub crate_path: syn::Path,
}

pub struct Field<'a> {
    /// `self.<member>`: a name, or a position in a tuple struct.
    pub member: syn::Member,
    pub ty: &'a syn::Type,
    pub original: &'a syn::Field,
    pub attrs: FieldAttrs,
    /// The name in human-readable formats, after `rename` / `rename_all`.
    pub name: String,
}

/// The default is a field with no attributes.
#[derive(Default)]
pub struct FieldAttrs {
    /// The field number, and the attribute that gave it (for spans).
    pub tag: Option<(u64, Span)>,
    /// Whether an attribute of the field failed to parse: checks that
    /// would only repeat that error (a missing tag) stay quiet.
    pub invalid: bool,
    pub rename: Option<String>,
    pub omit_default: Option<Span>,
    pub default: FieldDefault,
    pub skip: bool,
    pub with: Option<syn::Path>,
    /// `#[msgpack(unknown)]`, by the span of the word.
    pub unknown: Option<Span>,
}

#[derive(Default)]
pub enum FieldDefault {
    /// Absent is an error (unless the field is an `Option`).
    #[default]
    None,
    /// `#[msgpack(default)]`: `Default::default()`.
    Trait,
    /// `#[msgpack(default = "path")]`: `path()`.
    Path(syn::ExprPath),
}

pub struct Variant<'a> {
    pub ident: &'a Ident,
    pub style: Style,
    pub fields: Vec<Field<'a>>,
    pub attrs: VariantAttrs,
    pub name: String,
    pub original: &'a syn::Variant,
}

/// The default is a variant with no attributes.
#[derive(Default)]
pub struct VariantAttrs {
    pub tag: Option<(u64, Span)>,
    /// As [`FieldAttrs::invalid`].
    pub invalid: bool,
    pub rename: Option<String>,
    pub other: Option<Span>,
}

impl<'a> Container<'a> {
    /// Parses `input`; `None` when its shape cannot be derived at all (a
    /// union), with the error recorded.
    pub fn from_ast(cx: &Ctxt, input: &'a syn::DeriveInput) -> Option<Container<'a>> {
        let attrs = ContainerAttrs::from_ast(cx, &input.attrs);
        let data = match &input.data {
            syn::Data::Struct(data) => {
                let (style, fields) = fields_from_ast(cx, &data.fields, attrs.rename_all);
                Data::Struct(style, fields)
            }
            syn::Data::Enum(data) => {
                let variants = data
                    .variants
                    .iter()
                    .map(|v| Variant::from_ast(cx, v, attrs.rename_all))
                    .collect();
                Data::Enum(variants)
            }
            syn::Data::Union(data) => {
                cx.error_spanned_by(
                    data.union_token,
                    "#[derive(MsgPack)] does not support unions",
                );
                return None;
            }
        };
        Some(Container {
            ident: &input.ident,
            generics: &input.generics,
            attrs,
            data,
        })
    }
}

/// Parses every `#[msgpack(...)]` in `attrs`, calling `each` for each
/// item; reports unknown (naming the `known` ones) and repeated items.
/// Returns whether there was an error.
fn parse_msgpack_attrs(
    cx: &Ctxt,
    attrs: &[syn::Attribute],
    known: &[&str],
    mut each: impl FnMut(&str, &syn::meta::ParseNestedMeta<'_>) -> syn::Result<bool>,
) -> bool {
    let mut invalid = false;
    let mut seen = HashSet::new();
    for attr in attrs.iter().filter(|a| a.path().is_ident(MSGPACK)) {
        let result = attr.parse_nested_meta(|meta| {
            let name = meta
                .path
                .get_ident()
                .map(Ident::to_string)
                .unwrap_or_default();
            if !each(&name, &meta)? {
                let shown = meta.path.to_token_stream_string();
                let expected = known.join("`, `");
                return Err(meta.error(format!(
                    "unknown msgpack attribute `{shown}`; expected one of `{expected}`"
                )));
            }
            if !seen.insert(name.clone()) {
                invalid = true;
                cx.error_spanned_by(&meta.path, format!("duplicate msgpack attribute `{name}`"));
            }
            Ok(())
        });
        if let Err(error) = result {
            invalid = true;
            cx.syn_error(error);
        }
    }
    invalid
}

trait PathString {
    fn to_token_stream_string(&self) -> String;
}

impl PathString for syn::Path {
    fn to_token_stream_string(&self) -> String {
        quote::ToTokens::to_token_stream(self)
            .to_string()
            .replace(' ', "")
    }
}

fn parse_str(meta: &syn::meta::ParseNestedMeta<'_>) -> syn::Result<LitStr> {
    meta.value()?.parse()
}

fn parse_tag(meta: &syn::meta::ParseNestedMeta<'_>) -> syn::Result<(u64, Span)> {
    let lit: LitInt = meta.value()?.parse()?;
    Ok((lit.base10_parse()?, lit.span()))
}

impl ContainerAttrs {
    fn from_ast(cx: &Ctxt, attrs: &[syn::Attribute]) -> Self {
        let mut out = ContainerAttrs {
            array: None,
            omit_default: false,
            rename_all: None,
            reserved: Vec::new(),
            crate_path: syn::parse_quote!(::msgpack_serde),
        };
        parse_msgpack_attrs(cx, attrs, CONTAINER, |name, meta| {
            match name {
                ARRAY => out.array = Some(meta.path.span()),
                OMIT_DEFAULT => out.omit_default = true,
                RENAME_ALL => {
                    let rule = parse_str(meta)?;
                    match RenameRule::from_str(&rule.value()) {
                        Some(r) => out.rename_all = Some(r),
                        None => {
                            let message = format!(
                                "unknown rename_all rule; expected one of {}",
                                RenameRule::NAMES
                            );
                            cx.error_spanned_by(rule, message);
                        }
                    }
                }
                RESERVED => {
                    let content;
                    syn::parenthesized!(content in meta.input);
                    out.reserved.extend(parse_reserved(&content)?);
                }
                CRATE => out.crate_path = parse_str(meta)?.parse()?,
                _ => return Ok(false),
            }
            Ok(true)
        });
        out
    }
}

/// `4, 9..=12`: single numbers and inclusive ranges.
fn parse_reserved(input: ParseStream<'_>) -> syn::Result<Vec<(u64, u64)>> {
    let mut ranges = Vec::new();
    while !input.is_empty() {
        let low: LitInt = input.parse()?;
        let low_value: u64 = low.base10_parse()?;
        let high_value = if input.peek(Token![..=]) {
            input.parse::<Token![..=]>()?;
            let high: LitInt = input.parse()?;
            let high_value: u64 = high.base10_parse()?;
            if high_value < low_value {
                return Err(syn::Error::new(
                    high.span(),
                    "reserved range ends before it starts",
                ));
            }
            high_value
        } else if input.peek(Token![..]) {
            return Err(input.error("use an inclusive range: `9..=12`"));
        } else {
            low_value
        };
        ranges.push((low_value, high_value));
        if !input.is_empty() {
            input.parse::<Token![,]>()?;
        }
    }
    Ok(ranges)
}

fn fields_from_ast<'a>(
    cx: &Ctxt,
    fields: &'a syn::Fields,
    rename_all: Option<RenameRule>,
) -> (Style, Vec<Field<'a>>) {
    let style = match fields {
        syn::Fields::Named(_) => Style::Named,
        syn::Fields::Unnamed(_) => Style::Tuple,
        syn::Fields::Unit => Style::Unit,
    };
    let fields = fields
        .iter()
        .enumerate()
        .map(|(index, field)| {
            let attrs = FieldAttrs::from_ast(cx, &field.attrs);
            let (member, ident_name) = match &field.ident {
                Some(ident) => (syn::Member::Named(ident.clone()), ident.to_string()),
                None => (syn::Member::Unnamed(index.into()), index.to_string()),
            };
            let name = match (&attrs.rename, rename_all) {
                (Some(name), _) => name.clone(),
                (None, Some(rule)) if style == Style::Named => rule.apply(&ident_name),
                _ => ident_name.trim_start_matches("r#").to_string(),
            };
            // Tuple fields are numbered by position unless a tag is given.
            let mut attrs = attrs;
            if style == Style::Tuple
                && attrs.tag.is_none()
                && attrs.unknown.is_none()
                && !attrs.skip
            {
                attrs.tag = Some((index as u64, field.ty.span()));
            }
            Field {
                member,
                ty: &field.ty,
                original: field,
                attrs,
                name,
            }
        })
        .collect();
    (style, fields)
}

impl FieldAttrs {
    fn from_ast(cx: &Ctxt, attrs: &[syn::Attribute]) -> Self {
        let mut out = FieldAttrs::default();
        out.invalid = parse_msgpack_attrs(cx, attrs, FIELD, |name, meta| {
            match name {
                TAG => out.tag = Some(parse_tag(meta)?),
                RENAME => out.rename = Some(parse_str(meta)?.value()),
                OMIT_DEFAULT => out.omit_default = Some(meta.path.span()),
                DEFAULT => {
                    out.default = if meta.input.peek(Token![=]) {
                        FieldDefault::Path(parse_str(meta)?.parse()?)
                    } else {
                        FieldDefault::Trait
                    }
                }
                SKIP => out.skip = true,
                WITH => out.with = Some(parse_str(meta)?.parse()?),
                UNKNOWN => out.unknown = Some(meta.path.span()),
                _ => return Ok(false),
            }
            Ok(true)
        });
        out
    }
}

impl<'a> Variant<'a> {
    fn from_ast(cx: &Ctxt, variant: &'a syn::Variant, rename_all: Option<RenameRule>) -> Self {
        let mut attrs = VariantAttrs::default();
        attrs.invalid = parse_msgpack_attrs(cx, &variant.attrs, VARIANT, |name, meta| {
            match name {
                TAG => attrs.tag = Some(parse_tag(meta)?),
                RENAME => attrs.rename = Some(parse_str(meta)?.value()),
                OTHER => attrs.other = Some(meta.path.span()),
                _ => return Ok(false),
            }
            Ok(true)
        });
        let name = match (&attrs.rename, rename_all) {
            (Some(name), _) => name.clone(),
            (None, Some(rule)) => rule.apply(&variant.ident.to_string()),
            (None, None) => variant.ident.to_string(),
        };
        // Fields of a struct variant take their own rename_all from none:
        // they keep their names, as serde does.
        let (style, fields) = fields_from_ast(cx, &variant.fields, None);
        Variant {
            ident: &variant.ident,
            style,
            fields,
            attrs,
            name,
            original: variant,
        }
    }

    /// The variant's tag; `check` has made sure it has one before any
    /// code is generated.
    pub fn tag(&self) -> u64 {
        self.attrs.tag.map_or(0, |(tag, _)| tag)
    }
}

impl Field<'_> {
    /// Whether the field is written and read at all.
    pub fn is_wire(&self) -> bool {
        !self.attrs.skip && self.attrs.unknown.is_none()
    }

    /// The field's tag; only called for wire fields, which `check` has
    /// made sure have one.
    pub fn tag(&self) -> u64 {
        self.attrs.tag.map_or(0, |(tag, _)| tag)
    }

    /// Whether the field's type is written `Option<...>`: absent means `None`.
    pub fn is_option(&self) -> bool {
        self.is_named("Option")
    }

    /// Whether the field's type is named `Vec` (the last segment of its
    /// path): its elements may be read in place.
    pub fn is_vec(&self) -> bool {
        self.is_named("Vec")
    }

    /// Whether the last segment of the field type's path is `name`.
    fn is_named(&self, name: &str) -> bool {
        let mut ty = self.ty;
        // A type passed through `macro_rules!` arrives wrapped in an
        // invisible group.
        while let syn::Type::Group(group) = ty {
            ty = &group.elem;
        }
        match ty {
            syn::Type::Path(path) if path.qself.is_none() => path
                .path
                .segments
                .last()
                .is_some_and(|segment| segment.ident == name),
            _ => false,
        }
    }
}
