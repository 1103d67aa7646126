//! The whole-struct read of a struct of floats (points, vectors, colours,
//! quaternions): when its bytes are exactly those our encoder writes for
//! it, a fixed pattern of headers, keys and float markers, msgpack-serde's
//! decoder hands them over at once and the struct is built from them with
//! one bounds check, where the serde path pays a key dispatch, a slot and
//! the limit accounting per field. Any other bytes (another key order,
//! another width, an absent field, a peer's map keyed by name) and any
//! other deserializer take the serde path, which decides every error.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use crate::attr::{Container, Data, Field, Style};

/// The longest struct read whole: its header is one byte (a fixmap of up
/// to 15 fields, a fixarray of up to 15 positions).
const MAX_ITEMS: u64 = 15;

/// A field of a struct read whole: its type's marker and width.
struct Float<'a> {
    field: &'a Field<'a>,
    marker: u8,
    width: usize,
}

/// The floats of a struct that is read whole: every field written, as
/// `f32` or `f64` itself, without a `with` module, and few enough for a
/// one-byte header. `None` for any other struct.
fn floats<'a>(cont: &'a Container<'a>) -> Option<Vec<Float<'a>>> {
    let Data::Struct(Style::Named | Style::Tuple, fields) = &cont.data else {
        return None;
    };
    let floats = fields
        .iter()
        .map(|field| {
            if !field.is_wire() || field.attrs.with.is_some() {
                return None;
            }
            let (marker, width) = match primitive(field.ty)? {
                "f32" => (0xca, 4),
                "f64" => (0xcb, 8),
                _ => return None,
            };
            Some(Float {
                field,
                marker,
                width,
            })
        })
        .collect::<Option<Vec<_>>>()?;
    let items = match cont.attrs.array {
        Some(_) => floats.iter().map(|f| f.field.tag() + 1).max()?,
        None => floats.len() as u64,
    };
    (items <= MAX_ITEMS).then_some(floats)
}

/// The name of a type written as one bare identifier (`f32`), seen
/// through the invisible group a `macro_rules!` argument arrives in.
fn primitive(mut ty: &syn::Type) -> Option<&'static str> {
    while let syn::Type::Group(group) = ty {
        ty = &group.elem;
    }
    let syn::Type::Path(path) = ty else {
        return None;
    };
    let ident = path.path.get_ident().filter(|_| path.qself.is_none())?;
    ["f32", "f64"].into_iter().find(|name| ident == name)
}

/// The statement that opens `deserialize` for a struct of floats: the
/// struct, returned, when our decoder holds its bytes in the form our
/// encoder writes; nothing for any other struct.
pub fn read(cont: &Container<'_>) -> TokenStream {
    let Some(floats) = floats(cont) else {
        return quote!();
    };
    let private = {
        let krate = &cont.attrs.crate_path;
        quote!(#krate::__private)
    };
    // The pattern of the bytes, with a binding for each float's bytes,
    // and the values the decoder counts: keys and values of a map, the
    // positions (gaps included) of an array.
    let mut pattern: Vec<TokenStream> = Vec::new();
    let mut members = Vec::new();
    let values = match cont.attrs.array {
        Some(_) => {
            let mut by_tag: Vec<&Float<'_>> = floats.iter().collect();
            by_tag.sort_by_key(|f| f.field.tag());
            let len = by_tag.last().map_or(0, |f| f.field.tag() + 1);
            pattern.push(byte(0x90 | len as u8));
            let mut next = 0;
            for float in by_tag {
                for _ in next..float.field.tag() {
                    pattern.push(byte(0xc0));
                }
                members.push(float_bytes(float, members.len(), &mut pattern));
                next = float.field.tag() + 1;
            }
            len
        }
        None => {
            pattern.push(byte(0x80 | floats.len() as u8));
            for float in &floats {
                pattern.extend(uint(float.field.tag()).into_iter().map(byte));
                members.push(float_bytes(float, members.len(), &mut pattern));
            }
            2 * floats.len() as u64
        }
    };
    let values = values as u32;
    let len = pattern.len();
    quote! {
        let mut __deserializer = __deserializer;
        if let #private::Some(__value) = #private::read_whole::<_, _, #len>(
            &mut __deserializer,
            #values,
            |__bytes| match __bytes {
                [#(#pattern),*] => #private::Some(Self { #(#members),* }),
                _ => #private::None,
            },
        ) {
            return #private::Ok(__value);
        }
    }
}

/// Pushes `float`'s marker and a binding for each of its bytes onto
/// `pattern`; gives the field's initializer from those bindings.
fn float_bytes(float: &Float<'_>, index: usize, pattern: &mut Vec<TokenStream>) -> TokenStream {
    pattern.push(byte(float.marker));
    let bindings: Vec<_> = (0..float.width)
        .map(|i| format_ident!("__b{}_{}", index, i))
        .collect();
    pattern.extend(bindings.iter().map(|b| quote!(#b)));
    let member = &float.field.member;
    let ty = float.field.ty;
    quote!(#member: <#ty>::from_be_bytes([#(*#bindings),*]))
}

/// A byte of the pattern, as a literal.
fn byte(value: u8) -> TokenStream {
    let literal = Literal::u8_unsuffixed(value);
    quote!(#literal)
}

/// A tag as our encoder writes it as a map key: its smallest unsigned form.
fn uint(tag: u64) -> Vec<u8> {
    match tag {
        0..=0x7f => vec![tag as u8],
        0x80..=0xff => vec![0xcc, tag as u8],
        0x100..=0xffff => [&[0xcd][..], &(tag as u16).to_be_bytes()].concat(),
        0x1_0000..=0xffff_ffff => [&[0xce][..], &(tag as u32).to_be_bytes()].concat(),
        _ => [&[0xcf][..], &tag.to_be_bytes()].concat(),
    }
}
