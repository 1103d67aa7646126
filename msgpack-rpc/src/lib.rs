//! msgpack-rpc on msgpack-tokio: one [`Connection`] type that both calls
//! the peer and serves the peer's calls, over TCP, Unix sockets or a
//! child process's stdin and stdout.
//!
//! ```
//! use msgpack_rpc::Builder;
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), msgpack_rpc::Error> {
//! let (ours, theirs) = tokio::io::duplex(4096);
//! let (read, write) = tokio::io::split(theirs);
//! Builder::new()
//!     .handle("add", |(a, b): (i64, i64)| async move { a.checked_add(b).ok_or("overflow") })
//!     .connect(read, write);
//! let (read, write) = tokio::io::split(ours);
//! let client = Builder::new().connect(read, write);
//! assert_eq!(client.call::<_, i64>("add", (1, 2)).await?, 3);
//! let error = client.call::<_, i64>("add", (1, "two")).await.unwrap_err();
//! assert!(error.remote_error().is_some()); // an error response, and the connection goes on
//! assert_eq!(client.call::<_, i64>("add", (i64::MAX, 1)).await.unwrap_err().to_string(),
//!     "the peer answered with an error: \"overflow\"");
//! # Ok(())
//! # }
//! ```
//!
//! The messages are the spec's ([`message`]): request
//! `[0, msgid, method, params]`, response `[1, msgid, error, result]`,
//! notification `[2, method, params]`. Calls run concurrently, matched
//! by msgid; the peer's error object comes back intact
//! ([`Error::remote_error`]). A malformed message, a response nobody waits
//! for or params of the wrong type are reported ([`Builder::on_report`])
//! and the connection goes on; when it closes, every call still waiting
//! resolves with a "connection closed" error. Queues are bounded: see
//! [`Builder`] for the memory bound.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

#[cfg(feature = "fuzzing")]
#[doc(hidden)]
pub mod __fuzz;
mod connection;
mod dispatch;
mod error;
mod handler;
mod hash;
pub mod message;
mod outgoing;
mod pending;
mod transport;
mod writer;

pub use connection::{Builder, Connection};
pub use error::{Error, Report};
pub use message::{Message, MessageError};
pub use msgpack_serde::Value;
