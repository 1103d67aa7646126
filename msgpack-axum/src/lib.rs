//! Serve an existing JSON API as MessagePack to the clients that ask for
//! it, on axum: `Accept` negotiation with `Vary`, request bodies decoded
//! under size, depth and value limits before the handler, and a layer that
//! re-encodes the responses of plain `Json` handlers.
//!
//! ```
//! use axum::{routing::get, Json, Router};
//! use msgpack_axum::{MsgPack, NegotiateLayer, Negotiated};
//! use serde::{Deserialize, Serialize};
//!
//! #[derive(Serialize, Deserialize)]
//! struct Profile { id: u64, name: String }
//!
//! async fn profile() -> Negotiated<Profile> {         // JSON or MessagePack, by Accept
//!     Negotiated(Profile { id: 1042, name: "Ada".into() })
//! }
//! async fn legacy() -> Json<Profile> {                 // re-encoded by the layer
//!     Json(Profile { id: 1042, name: "Ada".into() })
//! }
//! async fn echo(MsgPack(p): MsgPack<Profile>) -> MsgPack<Profile> { // always MessagePack
//!     MsgPack(p)
//! }
//!
//! let app: Router = Router::new()
//!     .route("/profile", get(profile))
//!     .route("/legacy", get(legacy))
//!     .route("/echo", axum::routing::post(echo))
//!     .layer(NegotiateLayer::new());
//! ```
//!
//! # Which type to use
//!
//! | you have | use |
//! |---|---|
//! | handlers returning `axum::Json` you do not want to touch | [`NegotiateLayer`] on the router: JSON bodies are re-encoded for clients that prefer MessagePack |
//! | a handler written for both kinds of clients | [`Negotiated<T>`] as the response (encoded once, in the chosen format; needs the layer) and as the extractor (JSON or MessagePack by `Content-Type`) |
//! | an endpoint only MessagePack clients call | [`MsgPack<T>`] as extractor and response ([`MsgPackCompact<T>`] for structs as arrays) |
//! | a Rust client | the `reqwest` feature: [`client::RequestBuilderExt`] and [`client::ResponseExt`] |
//!
//! # The negotiation rules
//!
//! | `Accept` | response |
//! |---|---|
//! | absent, empty or malformed | JSON |
//! | names no MessagePack type (`application/json`, `*/*`, `application/*`) | JSON: wildcards never select MessagePack |
//! | names a MessagePack type: one of [`MSGPACK_TYPES`] (`application/msgpack` and its aliases), any `+msgpack` | MessagePack, labelled with the type named (parameters such as `charset` are ignored) |
//! | names several MessagePack types | the one with the highest q; `application/msgpack` when several share it |
//! | accepts both JSON and MessagePack | the higher q wins; equal q goes to MessagePack |
//! | `q=0` on a type | that type is excluded, also when a wildcard would admit it |
//! | accepts neither | `406 Not Acceptable` listing the types offered, or JSON with [`NegotiateLayer::fallback_to_json`] |
//!
//! `Accept` is parsed by `headers-accept` (RFC 9110 specificity, then
//! q-value); its 64 most specific ranges are read, so a header of
//! thousands costs no more. Every negotiated response carries `Vary: Accept`.
//!
//! # Request bodies
//!
//! [`MsgPack<T>`] and [`Negotiated<T>`] read the body under
//! [`RequestLimits`] (10 MiB or axum's `DefaultBodyLimit`, depth 64,
//! 100,000 values), settable per router and per route, and refuse bad
//! input with a [`MsgPackRejection`]: a negotiated
//! `{"error": ..., "code": ..., "offset": ...}` body with the status its
//! table gives (413, 415, 400, 422). Behind tower-http's
//! `RequestDecompressionLayer` the size limit counts decompressed bytes.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

#[cfg(feature = "fuzzing")]
#[doc(hidden)]
pub mod __fuzz;
mod body;
#[cfg(feature = "reqwest")]
pub mod client;
mod collect;
mod frames;
mod json_limits;
mod layer;
mod limits;
mod media;
mod msgpack;
mod negotiate;
mod negotiated;
pub mod rejection;
mod transcode;
mod vary;

pub use layer::{NegotiateFuture, NegotiateLayer, NegotiateService};
pub use limits::{AddRequestLimits, RequestLimits};
pub use media::{
    APPLICATION_JSON, APPLICATION_MSGPACK, APPLICATION_VND_MSGPACK, APPLICATION_X_MSGPACK,
    MSGPACK_TYPES,
};
pub use msgpack::{MsgPack, MsgPackCompact};
pub use negotiate::Format;
pub use negotiated::Negotiated;
pub use rejection::MsgPackRejection;
pub use transcode::{json_to_msgpack, TranscodeError};
