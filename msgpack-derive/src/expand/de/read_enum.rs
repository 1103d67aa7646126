//! The `Deserialize` impl of an enum: unit variants from a bare tag or
//! name, the others from a one-entry map from tag or name to payload.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::{fields_visitor, key_index};
use crate::attr::{Container, Style, Variant};

/// An enum from a bare tag or name (unit variants) or a one-entry map
/// from tag or name to payload.
pub(super) fn read_enum(
    cont: &Container<'_>,
    generics: &syn::Generics,
    variants: &[Variant<'_>],
) -> TokenStream {
    let krate = &cont.attrs.crate_path;
    let private = quote!(#krate::__private);
    let ident = cont.ident;
    let enum_name = ident.to_string();
    let (impl_generics, visitor_ty, where_clause) = generics.split_for_impl();
    let (_, container_ty, _) = cont.generics.split_for_impl();
    let tags: Vec<u64> = variants.iter().map(|v| v.tag()).collect();
    let names: Vec<&str> = variants.iter().map(|v| v.name.as_str()).collect();
    let positions: Vec<usize> = (0..variants.len()).collect();
    let key_index = key_index(&private, &tags, &names);
    let other = variants
        .iter()
        .find(|v| v.attrs.other.is_some())
        .map(|v| v.ident);

    let unit_arms = variants.iter().zip(&positions).map(|(variant, i)| {
        let variant_ident = variant.ident;
        match variant.style {
            Style::Unit => quote!(#private::Some(#i) => #private::Ok(#ident::#variant_ident),),
            _ => {
                let message = format!(
                    "variant `{}` of enum {enum_name} carries data",
                    variant.name
                );
                quote!(#private::Some(#i) => #private::Err(__E::custom(#message)),)
            }
        }
    });
    let unit_arms: Vec<_> = unit_arms.collect();
    let unit_fallback = match other {
        Some(other) => quote!(_ => #private::Ok(#ident::#other),),
        None => quote!(_ => #private::Err(#private::unknown_variant(&__key, #enum_name)),),
    };

    let mut variant_visitors = Vec::new();
    let map_arms = variants.iter().zip(&positions).map(|(variant, i)| {
        let variant_ident = variant.ident;
        let types: Vec<_> = variant.fields.iter().map(|f| f.ty).collect();
        match variant.style {
            Style::Unit => quote! {
                #private::Some(#i) => {
                    __map.next_value::<#private::Skip>()?;
                    #ident::#variant_ident
                }
            },
            Style::Tuple if types.len() == 1 => quote! {
                #private::Some(#i) => #ident::#variant_ident(__map.next_value::<#(#types)*>()?),
            },
            Style::Tuple => {
                let bindings: Vec<_> = (0..types.len())
                    .map(|n| format_ident!("__f{}", n))
                    .collect();
                quote! {
                    #private::Some(#i) => {
                        let (#(#bindings,)*) = __map.next_value::<(#(#types,)*)>()?;
                        #ident::#variant_ident(#(#bindings),*)
                    }
                }
            }
            Style::Named => {
                let visitor = format_ident!("__VariantVisitor{}", i);
                let expecting = format!("struct variant {enum_name}::{}", variant.ident);
                variant_visitors.push(fields_visitor(
                    cont,
                    generics,
                    &visitor,
                    &variant.fields,
                    quote!(#ident::#variant_ident),
                    &expecting,
                ));
                quote! {
                    #private::Some(#i) => __map.next_value_seed(#visitor {
                        sink: #private::ByValue,
                        marker: #private::PhantomData,
                        lifetime: #private::PhantomData,
                    })?,
                }
            }
        }
    });
    let map_arms: Vec<_> = map_arms.collect();
    let map_fallback = match other {
        Some(other) => quote! {
            _ => {
                __map.next_value::<#private::Skip>()?;
                #ident::#other
            }
        },
        None => quote!(_ => return #private::Err(#private::unknown_variant(&__key, #enum_name)),),
    };
    let expecting = format!("enum {enum_name}");
    // Without variants every arm returns: what follows the match is dead.
    let allow_dead = variants
        .is_empty()
        .then(|| quote!(#[allow(unreachable_code)]));

    quote! {
        #(#variant_visitors)*
        struct __EnumVisitor #impl_generics #where_clause {
            marker: #private::PhantomData<fn() -> #ident #container_ty>,
            lifetime: #private::PhantomData<&'de ()>,
        }

        impl #impl_generics __EnumVisitor #visitor_ty #where_clause {
            fn unit<__E: #private::serde::de::Error>(__key: #private::FieldKey<'_>) -> #private::Result<#ident #container_ty, __E> {
                match #key_index {
                    #(#unit_arms)*
                    #unit_fallback
                }
            }
        }

        impl #impl_generics #private::serde::de::Visitor<'de> for __EnumVisitor #visitor_ty #where_clause {
            type Value = #ident #container_ty;

            fn expecting(&self, __f: &mut #private::Formatter<'_>) -> ::core::fmt::Result {
                __f.write_str(#expecting)
            }

            fn visit_u64<__E: #private::serde::de::Error>(self, __tag: u64) -> #private::Result<Self::Value, __E> {
                Self::unit(#private::FieldKey::Tag(__tag))
            }

            fn visit_i64<__E: #private::serde::de::Error>(self, __tag: i64) -> #private::Result<Self::Value, __E> {
                match u64::try_from(__tag) {
                    #private::Ok(__tag) => Self::unit(#private::FieldKey::Tag(__tag)),
                    #private::Err(_) => Self::unit(#private::FieldKey::Other),
                }
            }

            fn visit_str<__E: #private::serde::de::Error>(self, __name: &str) -> #private::Result<Self::Value, __E> {
                Self::unit(#private::FieldKey::Name(__name.into()))
            }

            #allow_dead
            fn visit_map<__A>(self, mut __map: __A) -> #private::Result<Self::Value, __A::Error>
            where
                __A: #private::serde::de::MapAccess<'de>,
            {
                let __key = match __map.next_key::<#private::FieldKey<'de>>()? {
                    #private::Some(__key) => __key,
                    #private::None => return #private::Err(#private::not_one_entry(#enum_name)),
                };
                let __value = match #key_index {
                    #(#map_arms)*
                    #map_fallback
                };
                if __map.next_key::<#private::serde::de::IgnoredAny>()?.is_some() {
                    return #private::Err(#private::not_one_entry(#enum_name));
                }
                #private::Ok(__value)
            }
        }

        __deserializer.deserialize_any(__EnumVisitor { marker: #private::PhantomData, lifetime: #private::PhantomData })
    }
}
