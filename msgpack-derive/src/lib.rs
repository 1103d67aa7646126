//! `#[derive(MsgPack)]`: serde impls with protobuf-style field numbers.
//! Use it through `msgpack_serde::MsgPack`; the attributes are documented
//! there.
//!
//! The derive parses the type, checks the cross-field rules (every field
//! has a tag, no tag twice, none reserved), then generates `Serialize`,
//! `Deserialize` and `Schema` impls that call small helpers in
//! `msgpack_serde::__private`.

#![forbid(unsafe_code)]

mod attr;
mod case;
mod check;
mod ctxt;
mod expand;
mod self_type;
mod symbol;

use proc_macro::TokenStream;
use syn::{parse_macro_input, DeriveInput};

/// Derives `Serialize`, `Deserialize` and `Schema` with field numbers.
#[proc_macro_derive(MsgPack, attributes(msgpack))]
pub fn derive_msgpack(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    derive(&input).into()
}

fn derive(input: &DeriveInput) -> proc_macro2::TokenStream {
    let input = &self_type::replace_self(input);
    let cx = ctxt::Ctxt::new();
    let container = attr::Container::from_ast(&cx, input);
    if let Some(container) = &container {
        check::check(&cx, container);
    }
    match (cx.check(), container) {
        (Ok(()), Some(container)) => expand::expand(&container),
        (Err(errors), Some(container)) => {
            expand::expand_stubs(input, &container.attrs.crate_path, errors)
        }
        (Err(errors), None) => errors.to_compile_error(),
        (Ok(()), None) => unreachable!("a container that failed to parse recorded an error"),
    }
}
