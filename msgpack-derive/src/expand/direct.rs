//! The direct path (`msgpack_serde::__private::Direct`): the same bytes as
//! the `Serialize` impl's map or array, written straight into a reserved
//! room when the serializer is msgpack-serde's own over a `Vec<u8>`. The
//! `Serialize` impl tries it first (`dispatch`) and falls back to serde.

use proc_macro2::TokenStream;
use quote::quote;

use super::ser::{nil_reads_as_default, presence};
use crate::attr::{Container, Data, Field, Style, Variant};

/// Whether the type takes the direct path: an enum of unit variants, or
/// a struct with fields, no type or lifetime parameters (each field's type must be nameable in
/// the impl), no `with` module (its wrapper is local to `serialize`),
/// no unknown-fields member (written back by the serde path), and in
/// array form tags that fit an array's length.
pub fn applies(cont: &Container<'_>) -> bool {
    if !cont.generics.params.is_empty() {
        return false;
    }
    let fields = match &cont.data {
        Data::Struct(Style::Named | Style::Tuple, fields) => fields,
        // Enums of unit variants only: each is its tag.
        Data::Enum(variants) => {
            return !variants.is_empty() && variants.iter().all(|v| v.style == Style::Unit)
        }
        Data::Struct(Style::Unit, _) => return false,
    };
    fields
        .iter()
        .all(|f| f.attrs.with.is_none() && f.attrs.unknown.is_none())
        && (cont.attrs.array.is_none()
            || fields
                .iter()
                .filter(|f| f.is_wire())
                .all(|f| f.tag() < u64::from(u32::MAX)))
}

/// The statement that opens `serialize`: the direct path when the
/// serializer is ours, else `__serializer` given back for serde's path.
pub fn dispatch(cont: &Container<'_>) -> TokenStream {
    let krate = &cont.attrs.crate_path;
    quote! {
        let __serializer = match #krate::__private::direct(self, __serializer) {
            #krate::__private::Ok(__done) => return __done,
            #krate::__private::Err(__serializer) => __serializer,
        };
    }
}

/// The `Direct` impl of a struct for which [`applies`] holds.
pub fn expand(cont: &Container<'_>) -> TokenStream {
    let krate = &cont.attrs.crate_path;
    let ident = cont.ident;
    let fields = match &cont.data {
        Data::Struct(_, fields) => fields,
        Data::Enum(variants) => return expand_unit_enum(cont, variants),
    };
    let mut wire: Vec<&Field<'_>> = fields.iter().filter(|f| f.is_wire()).collect();
    let array = cont.attrs.array.is_some();
    let estimates = wire.iter().map(|field| {
        let ty = field.ty;
        let key = if array { 0 } else { uint_len(field.tag()) };
        quote!(+ #key + (&#krate::__private::Via::<#ty>::new()).estimate())
    });
    let estimates: Vec<TokenStream> = estimates.collect();
    let header: usize = if array { 5 } else { 3 };
    let bound = bound(cont, &wire);
    let body = if array {
        wire.sort_by_key(|field| field.tag());
        array_body(cont, &wire)
    } else {
        map_body(cont, &wire)
    };
    quote! {
        #[automatically_derived]
        impl #krate::__private::Direct for #ident {
            #[inline(always)]
            fn estimate() -> usize {
                #[allow(unused_imports)]
                use #krate::__private::{ViaDirect as _, ViaSerde as _};
                #header #(#estimates)*
            }

            #[inline(always)]
            fn bound() -> #krate::__private::Option<usize> {
                #[allow(unused_imports)]
                use #krate::__private::{ViaDirect as _, ViaSerde as _};
                #bound
            }

            // Inlined always when optimized only: unoptimized, every
            // field's write would stay in the frame of every level of a
            // recursive value (msgpack-serde's `ser.rs`).
            #[cfg_attr(not(debug_assertions), inline(always))]
            fn put(&self, __out: &mut #krate::__private::Out<'_>) -> #krate::__private::Result<(), #krate::Error> {
                #[allow(unused_imports)]
                use #krate::__private::{ViaDirect as _, ViaSerde as _};
                #body
            }
        }
    }
}

/// The `Direct` impl of an enum of unit variants: each variant its tag,
/// as the serde path's `serialize_u64`.
fn expand_unit_enum(cont: &Container<'_>, variants: &[Variant<'_>]) -> TokenStream {
    let krate = &cont.attrs.crate_path;
    let ident = cont.ident;
    let arms = variants.iter().map(|variant| {
        let variant_ident = variant.ident;
        let tag = variant.tag();
        quote!(#ident::#variant_ident => __out.tag(#tag),)
    });
    let estimate = variants
        .iter()
        .map(|v| uint_len(v.tag()))
        .max()
        .unwrap_or(1);
    quote! {
        #[automatically_derived]
        impl #krate::__private::Direct for #ident {
            #[inline(always)]
            fn estimate() -> usize {
                #estimate
            }

            #[inline(always)]
            fn bound() -> #krate::__private::Option<usize> {
                #krate::__private::Some(#estimate)
            }

            #[inline(always)]
            fn put(&self, __out: &mut #krate::__private::Out<'_>) -> #krate::__private::Result<(), #krate::Error> {
                match self {
                    #(#arms)*
                }
                #krate::__private::Ok(())
            }
        }
    }
}

/// The most bytes the struct takes, when every field's type has a
/// bound: the header for all its items, each key, a nil in each gap of
/// the array form, and each field's bound (an absent field takes less).
fn bound(cont: &Container<'_>, wire: &[&Field<'_>]) -> TokenStream {
    let krate = &cont.attrs.crate_path;
    let (items, gaps) = match cont.attrs.array {
        Some(_) => {
            let positions = wire.iter().map(|f| f.tag() + 1).max().unwrap_or(0);
            (positions, positions - wire.len() as u64)
        }
        None => (wire.len() as u64, 0),
    };
    let header = match items {
        0..=15 => 1usize,
        16..=0xffff => 3,
        _ => 5,
    };
    let fixed = header as u64 + gaps;
    let fields = wire.iter().map(|field| {
        let ty = field.ty;
        let key = if cont.attrs.array.is_some() {
            0
        } else {
            uint_len(field.tag())
        };
        quote!(+ #key + (&#krate::__private::Via::<#ty>::new()).bound()?)
    });
    quote!(#krate::__private::Some(#fixed as usize #(#fields)*))
}

/// Bytes of a tag written as a map key.
fn uint_len(tag: u64) -> usize {
    match tag {
        0..=127 => 1,
        128..=0xff => 2,
        0x100..=0xffff => 3,
        0x1_0000..=0xffff_ffff => 5,
        _ => 9,
    }
}

/// Whether `field` is written: the serde path's rule, over `&self.member`.
fn present(cont: &Container<'_>, field: &Field<'_>) -> TokenStream {
    let member = &field.member;
    presence(cont, field, &quote!(&self.#member))
}

/// The field's value through its type's direct path (or serde's).
fn put(cont: &Container<'_>, field: &Field<'_>) -> TokenStream {
    let krate = &cont.attrs.crate_path;
    let member = &field.member;
    let ty = field.ty;
    quote!((&#krate::__private::Via::<#ty>::new()).put(&self.#member, __out)?;)
}

/// The field's tag as a map key, then its value: a tag below 128 is one
/// byte, which the value's first write takes along.
fn put_keyed(cont: &Container<'_>, field: &Field<'_>) -> TokenStream {
    let krate = &cont.attrs.crate_path;
    let member = &field.member;
    let ty = field.ty;
    let tag = field.tag();
    match u8::try_from(tag) {
        Ok(key) if key < 128 => {
            quote!((&#krate::__private::Via::<#ty>::new()).put_keyed(&self.#member, #key, __out)?;)
        }
        _ => {
            let put = put(cont, field);
            quote!(__out.tag(#tag); #put)
        }
    }
}

/// The map keyed by tag, as `MapWriter` writes it.
fn map_body(cont: &Container<'_>, wire: &[&Field<'_>]) -> TokenStream {
    let krate = &cont.attrs.crate_path;
    let presents: Vec<TokenStream> = wire.iter().map(|f| present(cont, f)).collect();
    let writes = wire.iter().zip(&presents).map(|(field, present)| {
        let put = put_keyed(cont, field);
        quote!(if #present { #put })
    });
    quote! {
        let __len = 0usize #(+ (#presents) as usize)*;
        __out.map_len(__len)?;
        #(#writes)*
        #krate::__private::Ok(())
    }
}

/// The tag-indexed array, as `ArrayWriter` writes it: nil in the gaps,
/// ending with the last field present.
fn array_body(cont: &Container<'_>, wire: &[&Field<'_>]) -> TokenStream {
    let krate = &cont.attrs.crate_path;
    let presents: Vec<TokenStream> = wire.iter().map(|f| present(cont, f)).collect();
    let last = wire.iter().zip(&presents).map(|(field, present)| {
        let end = field.tag() + 1;
        quote!(if #present { __len = #end; })
    });
    let writes = wire.iter().zip(&presents).map(|(field, present)| {
        let tag = field.tag();
        let mut put = put(cont, field);
        if nil_reads_as_default(cont, field) {
            let (member, name) = (&field.member, &field.name);
            put = quote! {
                #krate::__private::refuse_nil_in_array::<_, #krate::Error>(&self.#member, #name, #tag)?;
                #put
            };
        }
        quote! {
            if #tag < __len {
                while __next < #tag {
                    __out.nil();
                    __next += 1;
                }
                if #present { #put } else { __out.nil(); }
                __next = #tag + 1;
            }
        }
    });
    quote! {
        let mut __len: u64 = 0;
        #(#last)*
        __out.array_len(__len as usize)?;
        let mut __next: u64 = 0;
        #(#writes)*
        let _ = __next;
        #krate::__private::Ok(())
    }
}
