//! Whole reads: a struct whose fields are floats, or structs read whole
//! themselves (points, vectors, triangles, colours), implements
//! msgpack-serde's `Whole`, its fixed pattern of headers, keys, nils
//! and float markers composed from its fields' by autoref
//! specialization, and its `deserialize` first asks our decoder to read
//! it whole (see msgpack-serde's `de/whole.rs`). Any other bytes (another
//! key order, another width, an absent field, a peer's map keyed by
//! name) and any other deserializer take the serde path, which decides
//! every error.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::attr::{Container, Data, Field, Style};

/// The most items a struct read whole has: its header is one byte (a
/// fixmap of up to 15 fields, a fixarray of up to 15 positions).
const MAX_ITEMS: u64 = 15;

/// Types that are never read whole: left out at compile time rather than
/// found out by the autoref probe at run time, so that most structs get
/// no `Whole` impl to compile.
const NOT_WHOLE: &[&str] = &[
    "bool", "char", "str", "String", "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16",
    "i32", "i64", "i128", "isize",
];

/// The wire fields of a struct that may be read whole: a struct without
/// generics whose every field is written, without a `with` module, and
/// of a type named by a plain path (`f32`, `Vec3`, `geometry::Point`)
/// that may be read whole, few enough for a one-byte header. `None` for
/// any other struct.
pub(super) fn fields<'a>(cont: &'a Container<'a>) -> Option<&'a [Field<'a>]> {
    let Data::Struct(Style::Named | Style::Tuple, fields) = &cont.data else {
        return None;
    };
    let plain = fields
        .iter()
        .all(|field| field.is_wire() && field.attrs.with.is_none() && may_be_whole(field.ty));
    if !plain || fields.is_empty() || !cont.generics.params.is_empty() {
        return None;
    }
    (items(cont, fields) <= MAX_ITEMS).then_some(fields)
}

/// The items of the struct's header: its fields in map form, its
/// positions (gaps included) in array form.
fn items(cont: &Container<'_>, fields: &[Field<'_>]) -> u64 {
    match cont.attrs.array {
        Some(_) => fields.iter().map(|f| f.tag() + 1).max().unwrap_or(0),
        None => fields.len() as u64,
    }
}

/// Whether a field's type may be read whole: a path without generic
/// arguments, seen through the invisible group a `macro_rules!` argument
/// arrives in, that does not name a type that never is.
fn may_be_whole(mut ty: &syn::Type) -> bool {
    while let syn::Type::Group(group) = ty {
        ty = &group.elem;
    }
    let syn::Type::Path(path) = ty else {
        return false;
    };
    let plain = path.qself.is_none()
        && path
            .path
            .segments
            .iter()
            .all(|segment| segment.arguments.is_none());
    let last = path.path.segments.last();
    plain && last.is_some_and(|last| !NOT_WHOLE.iter().any(|name| last.ident == name))
}

/// The `Whole` impl of a struct that may be read whole; nothing for any
/// other.
pub fn impl_whole(cont: &Container<'_>) -> TokenStream {
    let Some(fields) = fields(cont) else {
        return quote!();
    };
    let private = {
        let krate = &cont.attrs.crate_path;
        quote!(#krate::__private)
    };
    // The struct's items in the order they are written, as steps of the
    // layout and of the read.
    let mut layout = Vec::new();
    let mut read = Vec::new();
    let mut members = Vec::new();
    let via = |ty: &syn::Type| quote!((&#private::Via::<#ty>::new()));
    let mut field_step = |field: &Field<'_>, layout: &mut Vec<TokenStream>, read: &mut Vec<_>| {
        let via = via(field.ty);
        let binding = format_ident!("__field{}", members.len());
        layout.push(quote!(.field(#via.whole_layout())?));
        read.push(quote!(let #binding = #via.whole_read(__bytes)?;));
        let member = &field.member;
        members.push(quote!(#member: #binding));
    };
    let len = items(cont, fields);
    let (open, header) = match cont.attrs.array {
        Some(_) => {
            let mut by_tag: Vec<&Field<'_>> = fields.iter().collect();
            by_tag.sort_by_key(|f| f.tag());
            let mut next = 0;
            for field in by_tag {
                for _ in next..field.tag() {
                    layout.push(quote!(.nil()));
                    read.push(quote!(__bytes.byte(0xc0)?;));
                }
                field_step(field, &mut layout, &mut read);
                next = field.tag() + 1;
            }
            (quote!(array), 0x90 | len as u8)
        }
        None => {
            for field in fields {
                let tag = field.tag();
                layout.push(quote!(.key(#tag)));
                read.push(quote!(__bytes.key(#tag)?;));
                field_step(field, &mut layout, &mut read);
            }
            (quote!(map), 0x80 | len as u8)
        }
    };
    let len = len as usize;
    let ident = cont.ident;
    quote! {
        #[automatically_derived]
        impl #private::Whole for #ident {
            #[inline(always)]
            fn layout() -> #private::Option<#private::Layout> {
                use #private::{ViaNotWhole as _, ViaWhole as _};
                #private::Layout::#open(#len) #(#layout)* .finish()
            }

            #[inline(always)]
            fn read(__bytes: &mut #private::WholeBytes<'_>) -> #private::Option<Self> {
                use #private::{ViaNotWhole as _, ViaWhole as _};
                __bytes.byte(#header)?;
                #(#read)*
                #private::Some(Self { #(#members),* })
            }
        }
    }
}

/// The statement that opens `deserialize` (and `deserialize_into`) for
/// a struct that may be read whole: the struct, given to `sink`, when our
/// decoder reads it whole; nothing for any other struct.
pub fn read(cont: &Container<'_>, sink: &TokenStream) -> TokenStream {
    if fields(cont).is_none() {
        return quote!();
    }
    let private = {
        let krate = &cont.attrs.crate_path;
        quote!(#krate::__private)
    };
    quote! {
        let mut __deserializer = __deserializer;
        if let #private::Some(__value) = #private::read_whole::<_, Self>(&mut __deserializer) {
            return #private::Ok(#private::Sink::finish(#sink, __value));
        }
    }
}
