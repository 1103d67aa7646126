//! Direct reads: a struct without generics or `with` fields, and a unit
//! enum, implement msgpack-serde's `DirectRead`, whose `reads_direct`
//! says whether all its fields' types are read directly (integers up to
//! 64 bits, floats, booleans, strings, characters, `Option`s, `Vec`s and
//! `Box`es of them, other such derived types); when they are, its
//! `deserialize` first asks our decoder to read it so (see
//! msgpack-serde's `de/direct.rs`): field after field, in the form our
//! encoder writes, with the reader's position in a local. Any other bytes (keys by name, in another order,
//! of another width, or a kept unknown field) and any other deserializer
//! take the serde path, which decides every error.

use proc_macro2::TokenStream;
use quote::quote;

use super::{members, slot};
use crate::attr::{Container, Data, Field, Style, Variant};
use crate::expand::{always_written, whole};

/// The `DirectRead` impl of a struct or unit enum read directly; nothing
/// for any other type.
pub(super) fn impl_direct_read(cont: &Container<'_>) -> TokenStream {
    let private = private(cont);
    let ident = cont.ident;
    let ((reads, reads_nested), read, opens) = match reads_directly(cont) {
        // Given to a sink: written into a vector's slot in place.
        Some(Data::Struct(_, fields)) => {
            let (reads, read) = struct_read(cont, fields);
            let read = quote! {
                #[cfg_attr(not(debug_assertions), inline(always))]
                fn read_direct_to<__S: #private::Sink<Self>>(
                    __reader: &mut #private::DirectReader<'_, '_>,
                    __sink: __S,
                ) -> #private::Option<__S::Out> {
                    use #private::{ViaDirectRead as _, ViaNotDirectRead as _};
                    #read
                }
            };
            (reads, read, quote!())
        }
        // A unit variant is an integer: no container.
        Some(Data::Enum(variants)) => {
            let read = enum_read(cont, variants);
            let read = quote! {
                #[cfg_attr(not(debug_assertions), inline(always))]
                fn read_direct(__reader: &mut #private::DirectReader<'_, '_>) -> #private::Option<Self> {
                    #read
                }
            };
            (
                (quote!(true), quote!(true)),
                read,
                quote!(
                    const OPENS: bool = false;
                ),
            )
        }
        None => return quote!(),
    };
    quote! {
        #[automatically_derived]
        impl #private::DirectRead for #ident {
            #[inline(always)]
            fn reads_direct() -> bool {
                use #private::{ViaDirectRead as _, ViaNotDirectRead as _};
                #reads
            }

            #[inline(always)]
            fn reads_direct_nested() -> bool {
                use #private::{ViaDirectRead as _, ViaNotDirectRead as _};
                #reads_nested
            }

            #opens

            #read
        }
    }
}

/// The statements that open `deserialize` (and `deserialize_into`) for a
/// type read directly: the value, given to `sink`, when our decoder reads
/// it so (a struct's `sink` is a `Sink`; `None` for an enum, returned as
/// it is); nothing for any other type.
pub(super) fn read(cont: &Container<'_>, sink: Option<&TokenStream>) -> TokenStream {
    if reads_directly(cont).is_none() {
        return quote!();
    }
    let private = private(cont);
    let value = match sink {
        Some(sink) => quote!(#private::Sink::finish(#sink, __value)),
        None => quote!(__value),
    };
    quote! {
        let mut __deserializer = __deserializer;
        if let #private::Some(__value) = #private::read_direct::<_, Self>(&mut __deserializer) {
            return #private::Ok(#value);
        }
    }
}

fn private(cont: &Container<'_>) -> TokenStream {
    let krate = &cont.attrs.crate_path;
    quote!(#krate::__private)
}

/// The type's data when it may be read directly: a struct without
/// generics with fields written, none through a `with` module, or an
/// enum without generics whose variants are all units.
fn reads_directly<'a>(cont: &'a Container<'a>) -> Option<&'a Data<'a>> {
    if !cont.generics.params.is_empty() {
        return None;
    }
    let may = match &cont.data {
        Data::Struct(Style::Named | Style::Tuple, fields) => {
            fields.iter().any(Field::is_wire)
                && fields.iter().all(|field| field.attrs.with.is_none())
        }
        Data::Struct(Style::Unit, _) => false,
        Data::Enum(variants) => {
            !variants.is_empty() && variants.iter().all(|v| v.style == Style::Unit)
        }
    };
    may.then_some(&cont.data)
}

/// A struct's `reads_direct` and `reads_direct_nested` (every wire
/// field's type read directly, asked so) and `read_direct` bodies.
fn struct_read(
    cont: &Container<'_>,
    fields: &[Field<'_>],
) -> ((TokenStream, TokenStream), TokenStream) {
    let private = private(cont);
    let via = |ty: &syn::Type| quote!((&#private::Via::<#ty>::new()));
    // In declaration order: how our encoder writes a map.
    let wire: Vec<(usize, &Field<'_>)> = fields
        .iter()
        .enumerate()
        .filter(|(_, f)| f.is_wire())
        .collect();
    let ask = |question: TokenStream| {
        let asked = wire.iter().map(|(_, field)| {
            let via = via(field.ty);
            quote!(#via.#question())
        });
        quote!(#(#asked)&&*)
    };
    let reads = (ask(quote!(reads_direct)), ask(quote!(reads_direct_nested)));
    let slot_decls = wire.iter().map(|(i, field)| {
        let (slot, ty) = (slot(*i), field.ty);
        quote!(let mut #slot: #private::Option<#ty> = #private::None;)
    });
    let keeps_unknown = fields.iter().any(|f| f.attrs.unknown.is_some());
    let body = match cont.attrs.array {
        Some(_) => array_body(cont, &private, &wire, &via, keeps_unknown),
        None => map_body(&private, &wire, &via, keeps_unknown),
    };
    let unknown = keeps_unknown.then(|| quote!(let __unknown = #private::UnknownFields::new();));
    let members = members(cont, &private, fields, |_| quote!(return #private::None));
    let ident = cont.ident;
    let fields_read = quote! {
        #(#slot_decls)*
        #body
        #unknown
        #private::Some(#private::Sink::finish(__sink, #ident { #(#members),* }))
    };
    // A struct read whole is read so here too, its fields one by one
    // only from bytes in another form (a field left out, a peer's
    // widths): out of line, so that a vector's loop over the whole reads
    // stays small.
    let read = match whole::fields(cont) {
        Some(_) => quote! {
            if let #private::Some(__value) = __reader.whole::<Self>() {
                return #private::Some(#private::Sink::finish(__sink, __value));
            }
            #[inline(never)]
            fn __read_fields<__S: #private::Sink<#ident>>(
                __reader: &mut #private::DirectReader<'_, '_>,
                __sink: __S,
            ) -> #private::Option<__S::Out> {
                use #private::{ViaDirectRead as _, ViaNotDirectRead as _};
                #fields_read
            }
            __read_fields(__reader, __sink)
        },
        None => fields_read,
    };
    (reads, read)
}

/// A map keyed by tag: each field's key, in declaration order (our
/// encoder's), or the field is absent; then the entries left, which must
/// have keys no field has (a newer writer's fields), skipped as the serde
/// path skips them, unless the struct keeps them.
fn map_body(
    private: &TokenStream,
    wire: &[(usize, &Field<'_>)],
    via: &dyn Fn(&syn::Type) -> TokenStream,
    keeps_unknown: bool,
) -> TokenStream {
    let reads = wire.iter().map(|(i, field)| {
        let (slot, tag, via) = (slot(*i), field.tag(), via(field.ty));
        quote! {
            if __entries.key(__reader, #tag) {
                if #via.opens() {
                    __entries.settle(__reader);
                }
                #slot = #private::Some(#via.read_direct(__reader)?);
            }
        }
    });
    let tags = wire.iter().map(|(_, field)| field.tag());
    let end = match keeps_unknown {
        true => quote!(__entries.end(__reader)?;),
        false => quote!(__entries.skip_unknown(__reader, &[#(#tags),*])?;),
    };
    quote! {
        let mut __entries = __reader.map()?;
        #(#reads)*
        #end
    }
}

/// An array indexed by tag: a nil at each gap, each field at its tag (a
/// nil there the field left out, unless it is always written), the array
/// ending anywhere; then the elements left (a newer writer's fields),
/// skipped as the serde path skips them, unless the struct keeps them.
fn array_body(
    cont: &Container<'_>,
    private: &TokenStream,
    wire: &[(usize, &Field<'_>)],
    via: &dyn Fn(&syn::Type) -> TokenStream,
    keeps_unknown: bool,
) -> TokenStream {
    let mut by_tag = wire.to_vec();
    by_tag.sort_by_key(|(_, field)| field.tag());
    let mut reads = Vec::new();
    let mut next = 0u64;
    for (i, field) in by_tag {
        let (slot, tag, via) = (slot(i), field.tag(), via(field.ty));
        if tag > next {
            reads.push(quote! {
                for _ in #next..#tag {
                    if !__elements.advance() {
                        break '__read;
                    }
                    if !__reader.nil() {
                        return #private::None;
                    }
                }
            });
        }
        let read = quote! {
            if #via.opens() {
                __elements.settle(__reader);
            }
            #slot = #private::Some(#via.read_direct(__reader)?);
        };
        let read = match always_written(cont, field) {
            true => read,
            false => quote!(if !__reader.nil() { #read }),
        };
        reads.push(quote! {
            if !__elements.advance() {
                break '__read;
            }
            #read
        });
        next = tag.saturating_add(1);
    }
    let end = match keeps_unknown {
        true => quote!(__elements.end(__reader)?;),
        false => quote!(__elements.skip_rest(__reader)?;),
    };
    quote! {
        let mut __elements = __reader.array()?;
        '__read: {
            #(#reads)*
        }
        #end
    }
}

/// A unit enum's `read_direct` body: its tag, as an unsigned integer; an
/// unknown one is the `other` variant, if it has one.
fn enum_read(cont: &Container<'_>, variants: &[Variant<'_>]) -> TokenStream {
    let private = private(cont);
    let ident = cont.ident;
    let arms = variants.iter().map(|variant| {
        let (tag, variant_ident) = (variant.tag(), variant.ident);
        quote!(#tag => #private::Some(#ident::#variant_ident),)
    });
    let fallback = match variants.iter().find(|v| v.attrs.other.is_some()) {
        Some(other) => {
            let other = other.ident;
            quote!(_ => #private::Some(#ident::#other),)
        }
        None => quote!(_ => #private::None,),
    };
    quote! {
        match <::core::primitive::u64 as #private::DirectRead>::read_direct(__reader)? {
            #(#arms)*
            #fallback
        }
    }
}
