//! The other half: a `reqwest` client that sends MessagePack and reads
//! MessagePack or JSON replies under [`RequestLimits`] (feature `reqwest`).
//!
//! ```no_run
//! use msgpack_axum::client::{RequestBuilderExt, ResponseExt};
//! use serde::{Deserialize, Serialize};
//!
//! #[derive(Serialize, Deserialize)]
//! struct Profile { id: u64, name: String }
//!
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! let client = reqwest::Client::new();
//! let profile = Profile { id: 1042, name: "Ada".into() };
//! let reply = client.post("http://127.0.0.1:3000/api/profile").msgpack(&profile)?.send().await?;
//! let echoed: Profile = reply.decode().await?; // by its Content-Type: MessagePack or JSON
//!
//! let reply = client.get("http://127.0.0.1:3000/api/profile").accept_msgpack().send().await?;
//! let fetched: Profile = reply.decode().await?;
//! # Ok(()) }
//! ```

use std::fmt;
use std::future::Future;

use http::header::{ACCEPT, CONTENT_TYPE};
use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::frames::Frames;
use crate::limits::RequestLimits;
use crate::media::{self, Kind};

/// What [`RequestBuilderExt::accept_msgpack`] sends: MessagePack first,
/// JSON from servers that only speak it.
pub const ACCEPT_MSGPACK: &str = "application/msgpack, application/json;q=0.5";

/// MessagePack request bodies and `Accept` for [`reqwest::RequestBuilder`].
pub trait RequestBuilderExt: Sized {
    /// Sends `value` as the body, MessagePack with structs as named maps
    /// (`Content-Type: application/msgpack`), and asks for MessagePack back
    /// ([`ACCEPT_MSGPACK`]).
    fn msgpack<T: Serialize + ?Sized>(self, value: &T) -> Result<Self, msgpack_serde::Error>;

    /// Asks for a MessagePack reply ([`ACCEPT_MSGPACK`]).
    fn accept_msgpack(self) -> Self;
}

impl RequestBuilderExt for reqwest::RequestBuilder {
    fn msgpack<T: Serialize + ?Sized>(self, value: &T) -> Result<Self, msgpack_serde::Error> {
        let body = msgpack_serde::to_vec(value)?;
        Ok(self
            .header(CONTENT_TYPE, media::APPLICATION_MSGPACK)
            .body(body)
            .accept_msgpack())
    }

    fn accept_msgpack(self) -> Self {
        self.header(ACCEPT, ACCEPT_MSGPACK)
    }
}

/// Reading a reply as MessagePack or JSON, by its `Content-Type`.
pub trait ResponseExt {
    /// Decodes the body, MessagePack or JSON by its `Content-Type`, under
    /// the default [`RequestLimits`] (10 MiB, depth 64, 100,000 values).
    fn decode<T: DeserializeOwned>(self) -> impl Future<Output = Result<T, Error>> + Send;

    /// [`decode`](ResponseExt::decode) under `limits`.
    fn decode_with_limits<T: DeserializeOwned>(
        self,
        limits: RequestLimits,
    ) -> impl Future<Output = Result<T, Error>> + Send;
}

impl ResponseExt for reqwest::Response {
    fn decode<T: DeserializeOwned>(self) -> impl Future<Output = Result<T, Error>> + Send {
        self.decode_with_limits(RequestLimits::new())
    }

    async fn decode_with_limits<T: DeserializeOwned>(
        mut self,
        limits: RequestLimits,
    ) -> Result<T, Error> {
        let kind = media::content_kind(self.headers());
        if !matches!(kind, Some(Kind::MsgPack | Kind::Json)) {
            let content_type = self
                .headers()
                .get(CONTENT_TYPE)
                .and_then(|value| value.to_str().ok());
            return Err(Error::ContentType(content_type.map(str::to_string)));
        }
        let limit = limits.body().unwrap_or(RequestLimits::DEFAULT_MAX_BODY);
        let declared = self.content_length();
        if declared.is_some_and(|length| length > limit as u64) {
            return Err(Error::TooLarge { limit });
        }
        let expected = declared.and_then(|length| usize::try_from(length).ok());
        let mut frames = Frames::new(expected, limit);
        while let Some(chunk) = self.chunk().await.map_err(Error::Http)? {
            if frames.len().saturating_add(chunk.len()) > limit {
                return Err(Error::TooLarge { limit });
            }
            frames.push(chunk);
        }
        let body = frames.into_bytes();
        if kind == Some(Kind::Json) {
            if let Ok(Err(exceeded)) = crate::json_limits::check(&body, &limits) {
                return Err(Error::LimitExceeded(exceeded.to_string()));
            }
            return serde_json::from_slice(&body).map_err(Error::Json);
        }
        let mut deserializer =
            msgpack_serde::Deserializer::from_slice(&body).with_limits(limits.decode_limits());
        let value = msgpack_serde::__private::deserialize_placed(&mut deserializer)
            .map_err(Error::MsgPack)?;
        deserializer.end().map_err(Error::MsgPack)?;
        Ok(value)
    }
}

/// Why a reply could not be read.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// The request or the body transfer failed.
    Http(reqwest::Error),
    /// The body is longer than the limit.
    TooLarge {
        /// The limit, in bytes.
        limit: usize,
    },
    /// The reply is neither MessagePack nor JSON (its `Content-Type`).
    ContentType(Option<String>),
    /// The MessagePack body is invalid or not of the type asked for.
    MsgPack(msgpack_serde::Error),
    /// The JSON body is invalid or not of the type asked for.
    Json(serde_json::Error),
    /// The JSON body nests deeper or holds more values than the limits
    /// allow (MessagePack's are [`Error::MsgPack`]); the text says which.
    LimitExceeded(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Http(error) => write!(f, "request failed: {error}"),
            Error::TooLarge { limit } => {
                write!(f, "reply body exceeds the size limit of {limit} bytes")
            }
            Error::ContentType(Some(content_type)) => {
                write!(
                    f,
                    "reply is neither MessagePack nor JSON: Content-Type {content_type}"
                )
            }
            Error::ContentType(None) => {
                f.write_str("reply is neither MessagePack nor JSON: no Content-Type")
            }
            Error::MsgPack(error) => write!(f, "invalid MessagePack reply: {error}"),
            Error::Json(error) => write!(f, "invalid JSON reply: {error}"),
            Error::LimitExceeded(text) => write!(f, "reply refused: {text}"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Http(error) => Some(error),
            Error::MsgPack(error) => Some(error),
            Error::Json(error) => Some(error),
            Error::TooLarge { .. } | Error::ContentType(_) | Error::LimitExceeded(_) => None,
        }
    }
}

impl From<reqwest::Error> for Error {
    fn from(error: reqwest::Error) -> Error {
        Error::Http(error)
    }
}
