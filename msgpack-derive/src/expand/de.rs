//! The `Deserialize` impl of a struct (and `DeserializeInPlace`): accepts
//! a tag-keyed map, a name-keyed map or a tag-indexed array; skips (or
//! keeps) unknown tags; fills absent fields with their defaults. Enums
//! are `read_enum`'s.

use proc_macro2::{Group, Span, TokenStream, TokenTree};
use quote::{format_ident, quote, quote_spanned};
use syn::parse_quote;
use syn::spanned::Spanned;

use super::{always_written, omits_default, whole};

mod read_direct;
mod read_enum;
use crate::attr::{Container, Data, Field, FieldDefault, Style};
use read_direct::impl_direct_read;
use read_enum::read_enum;

/// The container's generics with `'de` in front: `'de: 'a` for each of
/// its lifetimes and `T: Deserialize<'de>` for each type parameter.
fn de_generics(cont: &Container<'_>) -> syn::Generics {
    let krate = &cont.attrs.crate_path;
    let mut generics = cont.generics.clone();
    let lifetimes: Vec<syn::Lifetime> = generics.lifetimes().map(|l| l.lifetime.clone()).collect();
    for param in generics.type_params_mut() {
        param
            .bounds
            .push(parse_quote!(#krate::__private::serde::Deserialize<'de>));
    }
    let mut de: syn::LifetimeParam = parse_quote!('de);
    de.bounds.extend(lifetimes);
    generics.params.insert(0, syn::GenericParam::Lifetime(de));
    generics
}

pub fn expand(cont: &Container<'_>) -> TokenStream {
    let krate = &cont.attrs.crate_path;
    let ident = cont.ident;
    let generics = de_generics(cont);
    let (impl_generics, _, where_clause) = generics.split_for_impl();
    let (_, ty_generics, _) = cont.generics.split_for_impl();
    let body = match &cont.data {
        Data::Struct(Style::Unit, _) => {
            quote! {
                __deserializer.deserialize_any(#krate::__private::serde::de::IgnoredAny)?;
                #krate::__private::Ok(#ident)
            }
        }
        Data::Struct(_, fields) => return expand_struct(cont, &generics, fields),
        Data::Enum(variants) => {
            let direct = read_direct::read(cont, None);
            let read = read_enum(cont, &generics, variants);
            quote!(#direct #read)
        }
    };
    let direct_read = impl_direct_read(cont);
    quote! {
        #direct_read

        #[automatically_derived]
        impl #impl_generics #krate::__private::serde::Deserialize<'de> for #ident #ty_generics #where_clause {
            fn deserialize<__D>(__deserializer: __D) -> #krate::__private::Result<Self, __D::Error>
            where
                __D: #krate::__private::serde::Deserializer<'de>,
            {
                #body
            }
        }
    }
}

/// A struct with fields: its visitor, `Deserialize`, which returns the
/// struct, and `DeserializeInPlace`, which writes it into a slot (a
/// `Vec` field's elements are read so).
fn expand_struct(
    cont: &Container<'_>,
    generics: &syn::Generics,
    fields: &[Field<'_>],
) -> TokenStream {
    let krate = &cont.attrs.crate_path;
    let private = quote!(#krate::__private);
    let ident = cont.ident;
    let (impl_generics, _, where_clause) = generics.split_for_impl();
    let (_, ty_generics, _) = cont.generics.split_for_impl();
    let expecting = format!("struct {ident}");
    let unit = decoding_unit(ident);
    let visitor = fields_visitor(
        cont,
        generics,
        &format_ident!("__Visitor"),
        fields,
        quote!(#ident),
        &expecting,
    );
    let read = |sink: TokenStream| {
        let whole = whole::read(cont, &sink);
        let direct = read_direct::read(cont, Some(&sink));
        quote! {
            #whole
            #direct
            #private::#unit::deserialize_struct(__deserializer, __Visitor { sink: #sink, marker: #private::PhantomData, lifetime: #private::PhantomData })
        }
    };
    let by_value = read(quote!(#private::ByValue));
    let in_place = read(quote!(__slot));
    let direct_read = impl_direct_read(cont);
    quote! {
        #direct_read
        #visitor
        const _: () = assert!(
            #private::DECODING_UNITS == #DECODING_UNITS,
            "msgpack-derive and msgpack-serde disagree on the decoding units",
        );

        #[automatically_derived]
        impl #impl_generics #private::serde::Deserialize<'de> for #ident #ty_generics #where_clause {
            fn deserialize<__D>(__deserializer: __D) -> #private::Result<Self, __D::Error>
            where
                __D: #private::serde::Deserializer<'de>,
            {
                #by_value
            }
        }

        #[automatically_derived]
        impl #impl_generics #private::DeserializeInPlace<'de> for #ident #ty_generics #where_clause {
            fn deserialize_into<'__s, __D>(
                __deserializer: __D,
                __slot: #private::Slot<'__s, Self>,
            ) -> #private::Result<#private::Filled<'__s>, __D::Error>
            where
                __D: #private::serde::Deserializer<'de>,
            {
                #in_place
            }
        }
    }
}

/// How many `__private::unit*` modules msgpack-serde has: the generated
/// code asserts it equals msgpack-serde's `DECODING_UNITS`, so the two
/// crates cannot disagree unnoticed.
const DECODING_UNITS: u64 = 4;

/// Which of msgpack-serde's `__private::unit*` modules decodes the struct
/// `ident`: one picked by a hash of its name, so that a crate's structs
/// spread over them and each struct stays in its own.
fn decoding_unit(ident: &syn::Ident) -> syn::Ident {
    // FNV-1a: stable across builds and compilers, unlike std's hasher.
    let hash = ident
        .to_string()
        .bytes()
        .fold(0xcbf2_9ce4_8422_2325_u64, |hash, byte| {
            (hash ^ byte as u64).wrapping_mul(0x0100_0000_01b3)
        });
    format_ident!("unit{}", hash % DECODING_UNITS)
}

/// An expression: the position (`Option<usize>`) in `tags` / `names` of
/// the field or variant that `__key` (a `FieldKey`) names. A `match`, which
/// the compiler turns into a jump table or a few comparisons, rather than
/// a search through a slice.
fn key_index(private: &TokenStream, tags: &[u64], names: &[&str]) -> TokenStream {
    let positions = 0..tags.len();
    let name_positions = 0..names.len();
    // Typed: without fields or variants, nothing else says what it holds.
    quote! {{
        let __index: #private::Option<usize> = match &__key {
            #private::FieldKey::Tag(__tag) => match *__tag {
                #(#tags => #private::Some(#positions),)*
                _ => #private::None,
            },
            #private::FieldKey::Name(__name) => match &**__name {
                #(#names => #private::Some(#name_positions),)*
                _ => #private::None,
            },
            #private::FieldKey::Other => #private::None,
        };
        __index
    }}
}

/// The `Option` local that holds field `index` (in declaration order)
/// until the struct is built: the reads fill it, `build` empties it.
fn slot(index: usize) -> syn::Ident {
    format_ident!("__field{}", index)
}

/// One field as the wire carries it: what the map, the array and the
/// build code each need of it.
struct WireField<'a> {
    field: &'a Field<'a>,
    /// Whether the writer writes the field whatever its value
    /// ([`always_written`]): in an array, a nil there is its value when
    /// its type reads one, not a gap.
    always_written: bool,
    /// The `Option` local holding the value until the struct is built.
    slot: syn::Ident,
    tag: u64,
    /// The type read: the field's, or its `with` module's wrapper.
    read_ty: TokenStream,
    /// How the read value becomes the field's (`.value` for a wrapper).
    unwrap: TokenStream,
}

impl WireField<'_> {
    /// Where an error in the field's read is reported: at the field's
    /// type, with the derive's hygiene (the type's own would not see the
    /// generated locals when a `macro_rules!` passes it as tokens).
    fn error_span(&self) -> Span {
        Span::call_site().located_at(self.field.ty.span())
    }

    /// Whether the field's seed is found by the autoref probe: a `Vec`
    /// without a `with` module.
    fn probes(&self) -> bool {
        self.field.is_vec() && self.field.attrs.with.is_none()
    }

    /// An expression: the seed the field is read with. A `Vec` field's
    /// is found by msgpack-serde's autoref probe, which reads derived
    /// elements into the vector in place; any other field's is
    /// `T::deserialize` (`Plain`).
    fn seed(&self, private: &TokenStream) -> TokenStream {
        let read_ty = &self.read_ty;
        let span = self.error_span();
        let spanned = respan(private.clone(), span);
        if self.probes() {
            // The probe's traits are in scope in the visitor's methods.
            quote_spanned!(span=> (&&#spanned::FieldSeed::<#read_ty>::new()).seed())
        } else {
            quote_spanned!(span=> #spanned::Plain::<#read_ty>::new())
        }
    }

    /// An expression: the value of the map entry whose key was just read.
    /// Spanned at the field's type, where a type that does not implement
    /// `Deserialize` is reported.
    fn read_from_map(&self, private: &TokenStream) -> TokenStream {
        let unwrap = &self.unwrap;
        let seed = self.seed(private);
        let span = self.error_span();
        quote_spanned!(span=> __map.next_value_seed(#seed)?#unwrap)
    }

    /// An expression: the next array element, `None` past the end, nil
    /// (a gap) as `Some(None)`. Spanned as `read_from_map`.
    fn read_from_seq(&self, private: &TokenStream) -> TokenStream {
        let unwrap = &self.unwrap;
        let unwrap = (!unwrap.is_empty()).then(|| quote!(.map(|__v| __v.map(|__w| __w #unwrap))));
        let seed = self.seed(private);
        let span = self.error_span();
        let private = respan(private.clone(), span);
        quote_spanned!(span=> __seq.next_element_seed(#private::NilOrSeed(#seed))? #unwrap)
    }
}

/// `tokens` located at `span`, each keeping its own hygiene: the paths of
/// an expression spanned at a field's type, so that an error in it
/// points there.
fn respan(tokens: TokenStream, span: Span) -> TokenStream {
    tokens
        .into_iter()
        .map(|mut token| {
            if let TokenTree::Group(group) = &token {
                let mut respanned = Group::new(group.delimiter(), respan(group.stream(), span));
                respanned.set_span(group.span().located_at(span));
                token = TokenTree::Group(respanned);
            } else {
                token.set_span(token.span().located_at(span));
            }
            token
        })
        .collect()
}

/// The generated code for unknown tags: kept in the `unknown` field if
/// the struct has one, else skipped.
struct UnknownReads {
    /// Declares `__unknown` (or nothing).
    decl: TokenStream,
    /// Handles the value of the map entry with the unknown `__key`.
    map: TokenStream,
    /// Handles the array element at `__position`, which no field has;
    /// breaks out of `'__read` at the end of the array.
    seq: TokenStream,
    /// Runs after the map's last entry.
    end: TokenStream,
}

/// The reads of tags no field has, for a struct with an `unknown` field
/// (`keeps`) or without one.
fn unknown_reads(
    cont: &Container<'_>,
    private: &TokenStream,
    wire: &[WireField<'_>],
    keeps: bool,
) -> UnknownReads {
    if !keeps {
        return UnknownReads {
            decl: quote!(),
            map: quote!({ __map.next_value::<#private::Skip>()?; }),
            seq: quote! {
                if __seq.next_element::<#private::Skip>()?.is_none() {
                    break '__read;
                }
            },
            end: quote!(),
        };
    }
    // An array-form struct writes an unknown field at its tag's position,
    // where nil is a gap. From a map it keeps only tags that cannot blow
    // up into a long run of nils, and drops nil values (after the map,
    // so that repeated tags are still found), as reading an array does.
    let (keep_tag, end) = match cont.attrs.array {
        Some(_) => {
            let last = wire.iter().map(|w| w.tag).max().unwrap_or(0);
            (
                quote!(if __tag <= #last.saturating_add(#private::ARRAY_UNKNOWN_GAP)),
                quote!(#private::drop_nil_unknown(&mut __unknown);),
            )
        }
        None => (quote!(), quote!()),
    };
    UnknownReads {
        decl: quote!(let mut __unknown = #private::UnknownFields::new();),
        map: quote! {
            match __key.tag() {
                #private::Some(__tag) #keep_tag => #private::insert_unknown(&mut __unknown, __tag, __map.next_value::<#private::Value>()?)?,
                _ => { __map.next_value::<#private::Skip>()?; }
            }
        },
        seq: quote! {
            match __seq.next_element::<#private::Value>()? {
                #private::None => break '__read,
                #private::Some(__value) => if !__value.is_nil() { __unknown.insert(__position, __value) },
            }
        },
        end,
    }
}

/// The fields the wire carries, in tag order, each with its `with`
/// wrapper type (pushed onto `wrappers`) if it has one.
fn wire_fields<'a>(
    cont: &Container<'_>,
    generics: &syn::Generics,
    fields: &'a [Field<'a>],
    wrappers: &mut Vec<TokenStream>,
) -> Vec<WireField<'a>> {
    let krate = &cont.attrs.crate_path;
    let private = quote!(#krate::__private);
    let ident = cont.ident;
    let (impl_generics, visitor_ty, where_clause) = generics.split_for_impl();
    let (_, container_ty, _) = cont.generics.split_for_impl();
    let mut wire: Vec<WireField<'a>> = fields
        .iter()
        .enumerate()
        .filter(|(_, f)| f.is_wire())
        .map(|(i, field)| {
            let ty = field.ty;
            let slot = slot(i);
            let always_written = always_written(cont, field);
            let Some(with) = &field.attrs.with else {
                return WireField { field, always_written, slot, tag: field.tag(), read_ty: quote!(#ty), unwrap: quote!() };
            };
            let wrapper = format_ident!("__DeserializeWith{}", i);
            wrappers.push(quote! {
                struct #wrapper #impl_generics #where_clause {
                    value: #ty,
                    marker: #private::PhantomData<fn() -> #ident #container_ty>,
                    lifetime: #private::PhantomData<&'de ()>,
                }
                impl #impl_generics #private::serde::Deserialize<'de> for #wrapper #visitor_ty #where_clause {
                    fn deserialize<__D2>(__d: __D2) -> #private::Result<Self, __D2::Error>
                    where
                        __D2: #private::serde::Deserializer<'de>,
                    {
                        #private::Ok(#wrapper {
                            value: #with::deserialize(__d)?,
                            marker: #private::PhantomData,
                            lifetime: #private::PhantomData,
                        })
                    }
                }
            });
            WireField { field, always_written, slot, tag: field.tag(), read_ty: quote!(#wrapper #visitor_ty), unwrap: quote!(.value) }
        })
        .collect();
    wire.sort_by_key(|w| w.tag);
    wire
}

/// `visit_map`'s body: one loop, one key read and one read of each field,
/// chosen by a `match` on the key.
///
/// Not a chain of comparisons for keys in tag order before the loop: it
/// compiles every field's read and a key read a second time, which the
/// users' build times pay for, and decodes no faster on hardware that
/// predicts the jump table (the measurements are in `benches/RESULTS.md`,
/// issue 15).
fn map_body(
    private: &TokenStream,
    wire: &[WireField<'_>],
    unknown: &UnknownReads,
    build: &TokenStream,
) -> TokenStream {
    let tags: Vec<u64> = wire.iter().map(|w| w.tag).collect();
    let names: Vec<&str> = wire.iter().map(|w| w.field.name.as_str()).collect();
    let key_index = key_index(private, &tags, &names);
    let arms = wire.iter().enumerate().map(|(i, w)| {
        let (slot, tag, name) = (&w.slot, w.tag, &w.field.name);
        let read = w.read_from_map(private);
        quote! {
            #private::Some(#i) => {
                if #slot.is_some() {
                    return #private::Err(#private::duplicate_field(#name, #tag));
                }
                #slot = #private::Some(#read);
            }
        }
    });
    let (decl, unknown_map, end) = (&unknown.decl, &unknown.map, &unknown.end);
    quote! {
        #decl
        while let #private::Some(__key) = __map.next_key::<#private::FieldKey<'de>>()? {
            match #key_index {
                #(#arms)*
                _ => #unknown_map
            }
        }
        #end
        #build
    }
}

/// `visit_seq`'s body: the array read position by position, in
/// straight-line code: gaps (unknown or absent tags) in a loop each,
/// fields one read each, then whatever follows the last field. The array
/// may end anywhere.
fn seq_body(
    private: &TokenStream,
    wire: &[WireField<'_>],
    unknown: &UnknownReads,
    keeps: bool,
    build: &TokenStream,
) -> TokenStream {
    let unknown_seq = &unknown.seq;
    // Gaps count their position only to keep unknown fields at it.
    let read_gap = |from: u64, to: Option<u64>| match (keeps, to) {
        (true, Some(to)) => quote! {
            __position = #from;
            while __position < #to {
                #unknown_seq
                __position += 1;
            }
        },
        (true, None) => quote! {
            __position = #from;
            loop {
                #unknown_seq
                __position += 1;
            }
        },
        (false, Some(to)) => quote!(for _ in #from..#to { #unknown_seq }),
        (false, None) => quote!(loop { #unknown_seq }),
    };
    let mut reads = Vec::new();
    // The position after the last field read; `None` past `u64::MAX`.
    let mut next = Some(0u64);
    for w in wire {
        if let Some(from) = next.filter(|&from| w.tag > from) {
            reads.push(read_gap(from, Some(w.tag)));
        }
        let (slot, read) = (&w.slot, w.read_from_seq(private));
        // A field the writer never leaves out is never a gap: a nil there
        // is its value when its type reads one from nil (`()`, a unit
        // struct, `Value`).
        let nil = match w.always_written {
            true => {
                let (read_ty, unwrap) = (&w.read_ty, &w.unwrap);
                let unwrap = (!unwrap.is_empty()).then(|| quote!(.map(|__w| __w #unwrap)));
                quote!(#private::Some(#private::None) => #slot = #private::from_nil::<#read_ty>() #unwrap,)
            }
            false => quote!(),
        };
        reads.push(quote! {
            match #read {
                #private::None => break '__read,
                #nil
                #private::Some(__value) => #slot = __value,
            }
        });
        next = w.tag.checked_add(1);
    }
    if let Some(from) = next {
        reads.push(read_gap(from, None));
    }
    let position_decl = keeps.then(|| quote!(let mut __position: u64;));
    let decl = &unknown.decl;
    quote! {
        #decl
        #position_decl
        '__read: {
            #(#reads)*
        }
        #build
    }
}

/// An expression: `Ok(construct { .. })` from the slots, each absent
/// field given its default, `None`, or a missing-field error.
fn build(
    cont: &Container<'_>,
    private: &TokenStream,
    fields: &[Field<'_>],
    construct: &TokenStream,
) -> TokenStream {
    let members = members(cont, private, fields, |field| {
        let name = &field.name;
        let tag = field.tag();
        quote!(return #private::Err(#private::missing_field(#name, #tag)))
    });
    quote!(#private::Ok(#private::Sink::finish(self.sink, #construct { #(#members),* })))
}

/// `member: value` for each field, from the slots (`__unknown` for the
/// unknown fields), each absent field given its default, `None`, or what
/// `missing` makes of it.
fn members(
    cont: &Container<'_>,
    private: &TokenStream,
    fields: &[Field<'_>],
    missing: impl Fn(&Field<'_>) -> TokenStream,
) -> Vec<TokenStream> {
    let members = fields.iter().enumerate().map(|(i, field)| {
        let member = &field.member;
        let slot = slot(i);
        // Spanned at the type, so a missing `Default` is reported there;
        // `omit_default` asks through the helper the `Serialize` impl uses,
        // so the two errors are one.
        let ty = field.ty;
        let span = ty.span();
        let default = match &field.attrs.default {
            FieldDefault::Path(path) => quote!(#path()),
            _ if omits_default(cont, field) && !field.is_option() => {
                quote_spanned!(span=> #private::omit_default::<#ty>().default())
            }
            _ => quote_spanned!(span=> <#ty as #private::Default>::default()),
        };
        let value = if field.attrs.unknown.is_some() {
            quote!(__unknown)
        } else if field.attrs.skip {
            default
        } else {
            let absent = if !matches!(field.attrs.default, FieldDefault::None)
                || omits_default(cont, field)
            {
                default
            } else if field.is_option() {
                quote!(#private::None)
            } else {
                missing(field)
            };
            quote!(match #slot { #private::Some(__v) => __v, #private::None => #absent })
        };
        quote!(#member: #value)
    });
    members.collect()
}

/// A visitor (also a `DeserializeSeed`) that reads `fields` from a map or
/// a tag-indexed array and builds `construct { fields }`.
fn fields_visitor(
    cont: &Container<'_>,
    generics: &syn::Generics,
    visitor: &syn::Ident,
    fields: &[Field<'_>],
    construct: TokenStream,
    expecting: &str,
) -> TokenStream {
    let krate = &cont.attrs.crate_path;
    let private = quote!(#krate::__private);
    let ident = cont.ident;
    let (_, container_ty, _) = cont.generics.split_for_impl();
    // The visitor is generic over where it puts the value (`Sink`):
    // returned, or written into a vector's slot.
    let mut sink_generics = generics.clone();
    sink_generics
        .params
        .push(parse_quote!(__S: #private::Sink<#ident #container_ty>));
    let (impl_generics, visitor_ty, where_clause) = sink_generics.split_for_impl();

    let mut wrappers = Vec::new();
    let wire = wire_fields(cont, generics, fields, &mut wrappers);
    let keeps_unknown = fields.iter().any(|f| f.attrs.unknown.is_some());
    let unknown = unknown_reads(cont, &private, &wire, keeps_unknown);
    let build = build(cont, &private, fields, &construct);
    let map_body = map_body(&private, &wire, &unknown, &build);
    let seq_body = seq_body(&private, &wire, &unknown, keeps_unknown, &build);
    let slots = wire.iter().map(|w| &w.slot);
    let slot_types = wire.iter().map(|w| w.field.ty);
    let slot_decls = quote!(#(let mut #slots: #private::Option<#slot_types> = #private::None;)*);
    // The probe's traits, where a field needs them, at the derive's span:
    // at a field's, the one it does not pick would be an unused import.
    let probe_traits = wire
        .iter()
        .any(WireField::probes)
        .then(|| quote!(use #private::{ViaDeserialize as _, ViaInPlace as _};));
    // msgpack-serde visits each container kind at one site, where these
    // inline always: `inline` builds the users' crates slower for hardly
    // fewer instructions, `never` decodes slower (`benches/RESULTS.md`,
    // issue 15).
    let visit = |method: TokenStream, access: TokenStream, arg: TokenStream, body| {
        quote! {
            #[inline(always)]
            fn #method<__A>(self, mut #arg: __A) -> #private::Result<Self::Value, __A::Error>
            where
                __A: #private::serde::de::#access<'de>,
            {
                #probe_traits
                #slot_decls
                #body
            }
        }
    };
    let visit_map = visit(
        quote!(visit_map),
        quote!(MapAccess),
        quote!(__map),
        map_body,
    );
    let visit_seq = visit(
        quote!(visit_seq),
        quote!(SeqAccess),
        quote!(__seq),
        seq_body,
    );

    quote! {
        #(#wrappers)*
        struct #visitor #impl_generics #where_clause {
            sink: __S,
            marker: #private::PhantomData<fn() -> #ident #container_ty>,
            lifetime: #private::PhantomData<&'de ()>,
        }

        impl #impl_generics #private::serde::de::Visitor<'de> for #visitor #visitor_ty #where_clause {
            type Value = __S::Out;

            fn expecting(&self, __f: &mut #private::Formatter<'_>) -> ::core::fmt::Result {
                __f.write_str(#expecting)
            }

            #visit_map
            #visit_seq
        }

        impl #impl_generics #private::serde::de::DeserializeSeed<'de> for #visitor #visitor_ty #where_clause {
            type Value = __S::Out;

            fn deserialize<__D2>(self, __d: __D2) -> #private::Result<Self::Value, __D2::Error>
            where
                __D2: #private::serde::Deserializer<'de>,
            {
                __d.deserialize_any(self)
            }
        }
    }
}
