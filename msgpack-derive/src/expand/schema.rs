//! The `Schema` and `Describe` impls: the type's wire description as data.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

use crate::attr::{Container, Data, Field, FieldDefault, Style};
use crate::expand::omits_default;

pub fn expand(cont: &Container<'_>) -> TokenStream {
    let krate = &cont.attrs.crate_path;
    let schema = quote!(#krate::__private::schema);
    let ident = cont.ident;
    let name = ident.to_string();
    let (impl_generics, ty_generics, where_clause) = cont.generics.split_for_impl();
    let reserved = cont
        .attrs
        .reserved
        .iter()
        .map(|(low, high)| quote!((#low, #high)));
    let reserved = quote!(::std::vec![#((#reserved)),*]);
    let definition = match &cont.data {
        Data::Struct(_, fields) => {
            let layout = if cont.attrs.array.is_some() {
                quote!(Array)
            } else {
                quote!(Map)
            };
            let unknown = fields.iter().any(|f| f.attrs.unknown.is_some());
            let unit = matches!(cont.data, Data::Struct(Style::Unit, _));
            let fields = field_defs(cont, fields);
            quote! {
                #schema::TypeDef::Struct {
                    layout: #schema::Layout::#layout,
                    fields: #fields,
                    reserved: #reserved,
                    unknown: #unknown,
                    unit: #unit,
                }
            }
        }
        Data::Enum(variants) => {
            let variants = variants.iter().map(|variant| {
                let name = &variant.name;
                let tag = variant.tag();
                let other = variant.attrs.other.is_some();
                let shapes: Vec<_> = variant.fields.iter().map(|f| shape_of(&schema, f.ty)).collect();
                let payload = match variant.style {
                    Style::Unit => None,
                    Style::Tuple if shapes.len() == 1 => Some(quote!(#schema::Payload::Newtype(#(#shapes)*))),
                    Style::Tuple => Some(quote!(#schema::Payload::Tuple(::std::vec![#(#shapes),*]))),
                    Style::Named => {
                        let fields = field_defs(cont, &variant.fields);
                        Some(quote!(#schema::Payload::Struct(#fields)))
                    }
                };
                let payload = match payload {
                    None => quote!(#krate::__private::None),
                    Some(payload) => quote! {
                        #krate::__private::Some(|__registry: &mut #schema::Registry| #payload)
                    },
                };
                quote! {
                    #schema::VariantSpec { name: #name, tag: #tag, payload: #payload, other: #other }
                }
            });
            quote! {
                #schema::TypeDef::Enum {
                    variants: #schema::variants(__registry, &[#(#variants),*]),
                    reserved: #reserved,
                }
            }
        }
    };
    quote! {
        #[automatically_derived]
        impl #impl_generics #schema::Schema for #ident #ty_generics #where_clause {
            const NAME: &'static str = #name;

            fn definition(__registry: &mut #schema::Registry) -> #schema::TypeDef {
                #[allow(unused_imports)]
                use #schema::{ViaDescribe as _, ViaTypeName as _};
                #definition
            }
        }

        #[automatically_derived]
        impl #impl_generics #schema::Describe for #ident #ty_generics #where_clause {
            fn shape(__registry: &mut #schema::Registry) -> #schema::Shape {
                __registry.named::<Self>()
            }
        }
    }
}

/// The shape of `ty`, found at compile time by autoref specialization,
/// built from `__registry`. In the closures of a table (a field's shape,
/// a variant's payload): closures that capture nothing keep the table a
/// constant, promoted to read-only data.
fn shape_of(schema: &TokenStream, ty: &syn::Type) -> TokenStream {
    quote!((&&#schema::Probe::<#ty>::new()).shape(__registry))
}

fn field_defs(cont: &Container<'_>, fields: &[Field<'_>]) -> TokenStream {
    let krate = &cont.attrs.crate_path;
    let schema = quote!(#krate::__private::schema);
    let defs = fields.iter().filter(|f| f.is_wire()).map(|field| {
        let name = &field.name;
        let tag = field.tag();
        let ty = field.ty;
        let shape = shape_of(&schema, ty);
        // `default = "path"` on an `Option` reads absent as `path()`.
        let optional = field.is_option() && !matches!(field.attrs.default, FieldDefault::Path(_));
        let defaulted = !optional
            && (!matches!(field.attrs.default, FieldDefault::None) || omits_default(cont, field));
        let none = quote!(#krate::__private::None);
        let (presence, default) = match (optional, defaulted) {
            (true, _) => (quote!(Optional), none),
            (_, true) => {
                let bytes = default_bytes(cont, field);
                (quote!(Default), quote!(#krate::__private::Some(|| #bytes)))
            }
            _ => (quote!(Required), none),
        };
        let omit_default = omits_default(cont, field);
        quote! {
            #schema::FieldSpec {
                name: #name,
                tag: #tag,
                shape: |__registry: &mut #schema::Registry| #shape,
                presence: #schema::Presence::#presence,
                omit_default: #omit_default,
                default: #default,
            }
        }
    });
    quote!(#schema::fields(__registry, &[#(#defs),*]))
}

/// The expression of a `default` field's default as MessagePack bytes:
/// what a reader in another language takes for it when absent, written
/// through the field's `with` module when it has one. Left `None` where
/// the schema impl cannot name the value: a field type that mentions the
/// type's type or const parameters (the impl has no `Serialize` or
/// `Default` bounds on them), or, through `with` (named in an item of its
/// own), its lifetimes or `Self`.
fn default_bytes(cont: &Container<'_>, field: &Field<'_>) -> TokenStream {
    let krate = &cont.attrs.crate_path;
    if mentions_generics(field.ty, cont.generics, field.attrs.with.is_some()) {
        return quote!(#krate::__private::None);
    }
    // The same expressions, spanned at the type, as the `Deserialize`
    // impl's: a type without `Default` is one error there, not one more.
    let ty = field.ty;
    let span = ty.span();
    let private = quote!(#krate::__private);
    let value = match &field.attrs.default {
        FieldDefault::Path(path) => quote!(#path()),
        _ if omits_default(cont, field) && !field.is_option() => {
            quote_spanned!(span=> #private::omit_default::<#ty>().default())
        }
        _ => quote_spanned!(span=> <#ty as #private::Default>::default()),
    };
    let Some(with) = &field.attrs.with else {
        return quote!(#private::default_bytes::<#ty>(#value));
    };
    quote! {{
        struct __DefaultWith(#ty);
        impl #private::serde::Serialize for __DefaultWith {
            fn serialize<__S>(&self, __s: __S) -> #private::Result<__S::Ok, __S::Error>
            where
                __S: #private::serde::Serializer,
            {
                #with::serialize(&self.0, __s)
            }
        }
        #private::default_bytes::<__DefaultWith>(__DefaultWith(#value))
    }}
}

/// Whether `ty` names one of `generics`' type or const parameters (whose
/// bounds the impl does not have), or, when `in_item` (it is named in an
/// item of its own, `with`'s wrapper, out of the impl's scope), one of its
/// lifetimes or `Self`.
fn mentions_generics(ty: &syn::Type, generics: &syn::Generics, in_item: bool) -> bool {
    use proc_macro2::TokenTree;
    use quote::ToTokens;

    fn walk(tokens: TokenStream, names: &[String], after_quote: bool) -> bool {
        let mut quote = after_quote;
        for token in tokens {
            match token {
                TokenTree::Group(group) => {
                    if walk(group.stream(), names, false) {
                        return true;
                    }
                    quote = false;
                }
                TokenTree::Ident(ident) => {
                    let name = ident.to_string();
                    let name = if quote { format!("'{name}") } else { name };
                    if names.contains(&name) {
                        return true;
                    }
                    quote = false;
                }
                TokenTree::Punct(punct) => quote = punct.as_char() == '\'',
                TokenTree::Literal(_) => quote = false,
            }
        }
        false
    }

    let mut names: Vec<String> = generics
        .params
        .iter()
        .filter_map(|param| match param {
            syn::GenericParam::Type(param) => Some(param.ident.to_string()),
            syn::GenericParam::Lifetime(param) => in_item.then(|| param.lifetime.to_string()),
            syn::GenericParam::Const(param) => Some(param.ident.to_string()),
        })
        .collect();
    if in_item {
        names.push("Self".into());
    }
    walk(ty.to_token_stream(), &names, false)
}
