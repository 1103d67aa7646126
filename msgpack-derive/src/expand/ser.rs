//! The `Serialize` impl: tag-keyed maps (or tag-indexed arrays) in binary
//! formats, names in human-readable ones.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::parse_quote;
use syn::spanned::Spanned;

use super::{always_written, bounded, with_borrow};
use crate::attr::{Container, Data, Field, FieldDefault, Style, Variant};

pub fn expand(cont: &Container<'_>) -> TokenStream {
    let krate = &cont.attrs.crate_path;
    let ident = cont.ident;
    let generics = bounded(
        cont.generics,
        parse_quote!(#krate::__private::serde::Serialize),
    );
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    let body = match &cont.data {
        Data::Struct(Style::Unit, _) => {
            let name = ident.to_string();
            quote!(__serializer.serialize_unit_struct(#name))
        }
        Data::Struct(_, fields) => {
            let values = fields.iter().map(|f| {
                let member = &f.member;
                quote!(&self.#member)
            });
            let values: Vec<_> = values.collect();
            write_fields(cont, &generics, fields, &values, cont.attrs.array.is_some())
        }
        Data::Enum(variants) => write_enum(cont, &generics, variants),
    };
    let (dispatch, direct) = if super::direct::applies(cont) {
        (super::direct::dispatch(cont), super::direct::expand(cont))
    } else {
        (quote!(), quote!())
    };
    quote! {
        #direct
        #[automatically_derived]
        impl #impl_generics #krate::__private::serde::Serialize for #ident #ty_generics #where_clause {
            fn serialize<__S>(&self, __serializer: __S) -> #krate::__private::Result<__S::Ok, __S::Error>
            where
                __S: #krate::__private::serde::Serializer,
            {
                #[allow(unused_imports)]
                use #krate::__private::serde::ser::{SerializeMap as _, SerializeSeq as _};
                #dispatch
                #body
            }
        }
    }
}

/// Statements that write `fields` (whose values are the `&T` expressions
/// in `values`) through `__serializer`, as a map or a tag-indexed array.
fn write_fields(
    cont: &Container<'_>,
    generics: &syn::Generics,
    fields: &[Field<'_>],
    values: &[TokenStream],
    array: bool,
) -> TokenStream {
    let krate = &cont.attrs.crate_path;
    let mut wrappers = Vec::new();
    let mut wire: Vec<(&Field<'_>, TokenStream, TokenStream)> = Vec::new();
    let mut unknown = None;
    for (index, (field, value)) in fields.iter().zip(values).enumerate() {
        if field.attrs.unknown.is_some() {
            unknown = Some(value.clone());
        }
        if !field.is_wire() {
            continue;
        }
        let present = presence(cont, field, value);
        let value = match &field.attrs.with {
            Some(with) => {
                let (decl, value) = with_wrapper(cont, generics, field, with, index, value);
                wrappers.push(decl);
                value
            }
            None => value.clone(),
        };
        wire.push((field, present, value));
    }

    if array {
        wire.sort_by_key(|(field, _, _)| field.tag());
        // Each field's presence, worked out once (a default may be built
        // to compare with).
        let presents: Vec<syn::Ident> = (0..wire.len())
            .map(|i| format_ident!("__present{}", i))
            .collect();
        let present_decls = wire
            .iter()
            .zip(&presents)
            .map(|((_, present, _), local)| quote!(let #local: bool = #present;));
        let last = wire.iter().zip(&presents).map(|((field, _, _), present)| {
            let tag = field.tag();
            quote!(if #present { __last = #krate::__private::Some(#tag); })
        });
        let writes = wire.iter().zip(&presents).map(|((field, _, value), present)| {
            let tag = field.tag();
            let refuse_nil = nil_reads_as_default(cont, field).then(|| {
                let name = &field.name;
                quote! {
                    if #present {
                        #krate::__private::refuse_nil_in_array::<_, __S::Error>(#value, #name, #tag)?;
                    }
                }
            });
            quote! {
                #refuse_nil
                __writer.field(#tag, if #present { #krate::__private::Some(#value) } else { #krate::__private::None })?;
            }
        });
        let known = wire.iter().map(|(field, _, _)| field.tag());
        let unknown_arg = match &unknown {
            Some(value) => quote!(#krate::__private::Some((#value, &[#(#known),*][..]))),
            None => quote!(#krate::__private::None),
        };
        let map = write_map(krate, &wire, &unknown);
        return quote! {
            #(#wrappers)*
            if !__serializer.is_human_readable() {
                #(#present_decls)*
                let mut __last: #krate::__private::Option<u64> = #krate::__private::None;
                #(#last)*
                let mut __writer = #krate::__private::array_writer(__serializer, __last, #unknown_arg)?;
                #(#writes)*
                return __writer.end();
            }
            #map
        };
    }
    let map = write_map(krate, &wire, &unknown);
    quote! {
        #(#wrappers)*
        #map
    }
}

/// Whether `field`, in the array form, must not write nil: it is left out
/// when it equals its default, so a nil at its place reads as that
/// default. (An `Option` left out when `None` reads nil as `None`, which
/// is serde's own reading of nil, as in the map form.)
pub(super) fn nil_reads_as_default(cont: &Container<'_>, field: &Field<'_>) -> bool {
    !always_written(cont, field)
        && (!field.is_option() || matches!(field.attrs.default, FieldDefault::Path(_)))
}

/// The expression that says whether `field` (whose `&T` is `value`) is
/// written. A field is left out only when a reader that finds it absent
/// rebuilds the same value: `None` when absent reads as `None`, a default
/// under `omit_default`. The `Default` / `PartialEq` bounds this needs are
/// spanned at the field type, so a missing impl is reported there (once:
/// the `Deserialize` impl asks through the same helper).
pub(super) fn presence(
    cont: &Container<'_>,
    field: &Field<'_>,
    value: &TokenStream,
) -> TokenStream {
    let krate = &cont.attrs.crate_path;
    let ty = field.ty;
    let span = ty.span();
    if always_written(cont, field) {
        return quote!(true);
    }
    match &field.attrs.default {
        FieldDefault::Path(path) => quote_spanned! {span=>
            !#krate::__private::omit_default_with::<#ty>(#path).is_default(#value)
        },
        _ if field.is_option() => quote!((#value).is_some()),
        _ => quote_spanned! {span=>
            !#krate::__private::omit_default::<#ty>().is_default(#value)
        },
    }
}

/// Writes the fields as a map keyed by tag (or name).
fn write_map(
    krate: &syn::Path,
    wire: &[(&Field<'_>, TokenStream, TokenStream)],
    unknown: &Option<TokenStream>,
) -> TokenStream {
    let counts = wire
        .iter()
        .map(|(_, present, _)| quote!(+ (#present) as usize));
    let writes = wire.iter().map(|(field, present, value)| {
        let tag = field.tag();
        let name = &field.name;
        quote!(if #present { __writer.field(#tag, #name, #value)?; })
    });
    let known = wire.iter().map(|(field, _, _)| field.tag());
    let (unknown_len, unknown_write) = match unknown {
        Some(value) => (
            quote!(+ (#value).len()),
            quote!(__writer.unknown(#value, &[#(#known),*])?;),
        ),
        None => (quote!(), quote!()),
    };
    quote! {
        let __len = 0usize #(#counts)* #unknown_len;
        let mut __writer = #krate::__private::MapWriter::new(__serializer, __len)?;
        #(#writes)*
        #unknown_write
        __writer.end()
    }
}

/// A helper type that serializes one field through its `with` module,
/// and a local of it holding the field: the declarations, and the `&`
/// expression to write.
fn with_wrapper(
    cont: &Container<'_>,
    generics: &syn::Generics,
    field: &Field<'_>,
    with: &syn::Path,
    index: usize,
    value: &TokenStream,
) -> (TokenStream, TokenStream) {
    let krate = &cont.attrs.crate_path;
    let ident = cont.ident;
    let wrapper = format_ident!("__SerializeWith{}", index);
    let ty = field.ty;
    let (_, container_ty, _) = cont.generics.split_for_impl();
    let borrowed = with_borrow(generics);
    let (impl_generics, ty_generics, where_clause) = borrowed.split_for_impl();
    let decl = quote! {
        struct #wrapper #impl_generics #where_clause {
            value: &'__a #ty,
            marker: #krate::__private::PhantomData<fn() -> #ident #container_ty>,
        }
        impl #impl_generics #krate::__private::serde::Serialize for #wrapper #ty_generics #where_clause {
            fn serialize<__S2>(&self, __s: __S2) -> #krate::__private::Result<__S2::Ok, __S2::Error>
            where
                __S2: #krate::__private::serde::Serializer,
            {
                #with::serialize(self.value, __s)
            }
        }
    };
    // A local, not a temporary: the array form passes it on inside an
    // `if`, where a temporary would not live long enough. The marker names
    // its type: the field's type need not mention the type parameters.
    let marker = quote!(#krate::__private::PhantomData::<fn() -> #ident #container_ty>);
    let local = format_ident!("__with{}", index);
    let decl = quote! {
        #decl
        let #local = #wrapper { value: #value, marker: #marker };
    };
    (decl, quote!(&#local))
}

/// A unit variant as its tag (its name when human-readable); any other as
/// a one-entry map from tag (name) to payload.
fn write_enum(
    cont: &Container<'_>,
    generics: &syn::Generics,
    variants: &[Variant<'_>],
) -> TokenStream {
    let krate = &cont.attrs.crate_path;
    let ident = cont.ident;
    let mut wrappers = Vec::new();
    let arms = variants.iter().enumerate().map(|(index, variant)| {
        let variant_ident = variant.ident;
        let tag = variant.tag();
        let name = &variant.name;
        let bindings: Vec<_> = (0..variant.fields.len())
            .map(|i| format_ident!("__f{}", i))
            .collect();
        let (pattern, payload) = match variant.style {
            Style::Unit => {
                return quote! {
                    #ident::#variant_ident => if __serializer.is_human_readable() {
                        __serializer.serialize_str(#name)
                    } else {
                        __serializer.serialize_u64(#tag)
                    }
                };
            }
            Style::Tuple => {
                let pattern = quote!(#ident::#variant_ident(#(#bindings),*));
                let payload = if bindings.len() == 1 {
                    quote!(__f0)
                } else {
                    quote!(&(#(#bindings),*))
                };
                (pattern, payload)
            }
            Style::Named => {
                let members = variant.fields.iter().map(|f| &f.member);
                let pattern = quote!(#ident::#variant_ident { #(#members: #bindings),* });
                let (decl, payload) = variant_wrapper(cont, generics, variant, index, &bindings);
                wrappers.push(decl);
                (pattern, payload)
            }
        };
        quote! {
            #pattern => {
                let mut __map = __serializer.serialize_map(#krate::__private::Some(1))?;
                if __map_human_readable {
                    __map.serialize_entry(#name, #payload)?;
                } else {
                    __map.serialize_entry(&#tag, #payload)?;
                }
                __map.end()
            }
        }
    });
    let arms: Vec<_> = arms.collect();
    if arms.is_empty() {
        // No value of an enum without variants exists.
        return quote!(match *self {});
    }
    quote! {
        #(#wrappers)*
        let __map_human_readable = __serializer.is_human_readable();
        match self {
            #(#arms)*
        }
    }
}

/// A helper type holding references to a struct variant's fields, that
/// serializes them as a struct body.
fn variant_wrapper(
    cont: &Container<'_>,
    generics: &syn::Generics,
    variant: &Variant<'_>,
    index: usize,
    bindings: &[syn::Ident],
) -> (TokenStream, TokenStream) {
    let krate = &cont.attrs.crate_path;
    let ident = cont.ident;
    let wrapper = format_ident!("__Variant{}", index);
    let (_, container_ty, _) = cont.generics.split_for_impl();
    let borrowed = with_borrow(generics);
    let (impl_generics, ty_generics, where_clause) = borrowed.split_for_impl();
    let types = variant.fields.iter().map(|f| f.ty);
    let values: Vec<_> = bindings.iter().map(|b| quote!(self.#b)).collect();
    let body = write_fields(cont, generics, &variant.fields, &values, false);
    let decl = quote! {
        struct #wrapper #impl_generics #where_clause {
            #(#bindings: &'__a #types,)*
            marker: #krate::__private::PhantomData<fn() -> #ident #container_ty>,
        }
        impl #impl_generics #krate::__private::serde::Serialize for #wrapper #ty_generics #where_clause {
            fn serialize<__S>(&self, __serializer: __S) -> #krate::__private::Result<__S::Ok, __S::Error>
            where
                __S: #krate::__private::serde::Serializer,
            {
                #body
            }
        }
    };
    // The marker names its type: the fields need not mention every type
    // parameter.
    let marker = quote!(#krate::__private::PhantomData::<fn() -> #ident #container_ty>);
    let payload = quote!(&#wrapper { #(#bindings,)* marker: #marker });
    (decl, payload)
}
