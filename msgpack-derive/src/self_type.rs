//! `Self` in field types and bounds, replaced by the type it names, as
//! serde_derive replaces it: the generated code reads and writes fields
//! inside visitors and helper types of its own (which copy the type's
//! bounds), where `Self` would name those.

use syn::visit_mut::{self, VisitMut};
use syn::{Data, DeriveInput, PathArguments};

/// `input` with each `Self` in its fields' types (`Vec<Self>`,
/// `[u8; Self::LEN]`, `<Self as Trait>::Item`) and its generics' bounds
/// (`where Self: Ord`) spelled as the type's name and generic arguments,
/// `Name::<T>`, which reads as a type and as an expression's path alike.
pub fn replace_self(input: &DeriveInput) -> DeriveInput {
    let mut input = input.clone();
    let ident = &input.ident;
    let (_, generics, _) = input.generics.split_for_impl();
    let mut name: syn::Path = syn::parse_quote!(#ident #generics);
    if let PathArguments::AngleBracketed(arguments) = &mut name.segments[0].arguments {
        arguments.colon2_token = Some(Default::default());
    }
    let mut replace = ReplaceSelf { name };
    replace.visit_generics_mut(&mut input.generics);
    match &mut input.data {
        Data::Struct(data) => data
            .fields
            .iter_mut()
            .for_each(|f| replace.visit_type_mut(&mut f.ty)),
        Data::Enum(data) => data
            .variants
            .iter_mut()
            .flat_map(|variant| variant.fields.iter_mut())
            .for_each(|f| replace.visit_type_mut(&mut f.ty)),
        Data::Union(_) => {}
    }
    input
}

struct ReplaceSelf {
    /// The type's path, `Name::<T>`.
    name: syn::Path,
}

impl VisitMut for ReplaceSelf {
    fn visit_path_mut(&mut self, path: &mut syn::Path) {
        let first = path.segments.first();
        let is_self = first.is_some_and(|s| s.ident == "Self" && s.arguments.is_none());
        if path.leading_colon.is_none() && is_self {
            let span = path.segments[0].ident.span();
            let mut name = self.name.clone();
            name.segments[0].ident.set_span(span);
            name.segments.extend(path.segments.iter().skip(1).cloned());
            *path = name;
        }
        visit_mut::visit_path_mut(self, path);
    }

    /// Macros' tokens are theirs: left as written. (A block in a const
    /// expression, which could hold an item with a `Self` of its own, is
    /// verbatim tokens to syn without its "full" feature, and left too.)
    fn visit_macro_mut(&mut self, _: &mut syn::Macro) {}
}
