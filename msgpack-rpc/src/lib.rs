//! msgpack-rpc on msgpack-tokio.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod message;

pub use message::{Message, MessageError};
