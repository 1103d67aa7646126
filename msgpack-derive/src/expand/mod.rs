//! Generates the `Serialize`, `Deserialize` and `Schema` impls, and
//! `Whole` for the structs read whole (`DirectRead`, for the types read
//! directly, is generated with `Deserialize`, in `de/read_direct.rs`).

mod de;
mod direct;
mod schema;
mod ser;
mod whole;

use proc_macro2::TokenStream;
use quote::quote;
use syn::parse_quote;

use crate::attr::{Container, Field, FieldDefault};

/// Everything the derive emits, in an anonymous const so helper names
/// stay private.
pub fn expand(cont: &Container<'_>) -> TokenStream {
    let ser = ser::expand(cont);
    let de = de::expand(cont);
    let schema = schema::expand(cont);
    let whole = whole::impl_whole(cont);
    quote! {
        #[doc(hidden)]
        #[allow(non_upper_case_globals, unused_attributes, unused_qualifications, clippy::all)]
        const _: () = {
            #ser
            #de
            #whole
            #schema
        };
    }
}

/// The emission for a type whose attributes had errors: the errors, plus
/// stub impls so that uses of the type do not add "trait not implemented"
/// noise.
pub fn expand_stubs(
    input: &syn::DeriveInput,
    krate: &syn::Path,
    errors: syn::Error,
) -> TokenStream {
    let ident = &input.ident;
    let name = ident.to_string();
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    let mut de_generics = input.generics.clone();
    de_generics.params.insert(0, parse_quote!('de));
    let (de_impl_generics, _, _) = de_generics.split_for_impl();
    let errors = errors.to_compile_error();
    quote! {
        #errors
        const _: () = {
            impl #impl_generics #krate::__private::serde::Serialize for #ident #ty_generics #where_clause {
                fn serialize<__S: #krate::__private::serde::Serializer>(&self, _: __S) -> #krate::__private::Result<__S::Ok, __S::Error> {
                    unimplemented!()
                }
            }
            impl #de_impl_generics #krate::__private::serde::Deserialize<'de> for #ident #ty_generics #where_clause {
                fn deserialize<__D: #krate::__private::serde::Deserializer<'de>>(_: __D) -> #krate::__private::Result<Self, __D::Error> {
                    unimplemented!()
                }
            }
            impl #impl_generics #krate::__private::schema::Schema for #ident #ty_generics #where_clause {
                const NAME: &'static str = #name;
                fn definition(_: &mut #krate::__private::schema::Registry) -> #krate::__private::schema::TypeDef {
                    unimplemented!()
                }
            }
            impl #impl_generics #krate::__private::schema::Describe for #ident #ty_generics #where_clause {
                fn shape(_: &mut #krate::__private::schema::Registry) -> #krate::__private::schema::Shape {
                    unimplemented!()
                }
            }
        };
    }
}

/// Whether an absent-equals-default field is left out when it is default.
pub(crate) fn omits_default(cont: &Container<'_>, field: &Field<'_>) -> bool {
    field.attrs.omit_default.is_some() || cont.attrs.omit_default
}

/// Whether the writer writes `field` whatever its value: it is not
/// `omit_default`, and it is not an `Option` left out when `None` (one with
/// `default = "path"` is written, `None` as nil, since absent reads as
/// `path()`).
pub(crate) fn always_written(cont: &Container<'_>, field: &Field<'_>) -> bool {
    !omits_default(cont, field)
        && (!field.is_option() || matches!(field.attrs.default, FieldDefault::Path(_)))
}

/// `generics` with `bound` on every type parameter.
fn bounded(generics: &syn::Generics, bound: syn::TypeParamBound) -> syn::Generics {
    let mut generics = generics.clone();
    for param in generics.type_params_mut() {
        param.bounds.push(bound.clone());
    }
    generics
}

/// `generics` with a lifetime `'__a` in front, for helper structs that
/// borrow from the value.
fn with_borrow(generics: &syn::Generics) -> syn::Generics {
    let mut generics = generics.clone();
    generics.params.insert(0, parse_quote!('__a));
    generics
}
