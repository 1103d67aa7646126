//! What the fuzz targets (`fuzz/`, feature `fuzzing`) call: the crate's
//! `Accept` and `Content-Type` readers and its body reading, with the
//! internals they check. Not part of the API.

use std::cell::Cell;

use axum::extract::Request;
use bytes::Bytes;
use http::header::{HeaderMap, CONTENT_TYPE};
use mediatype::MediaType;

use crate::media::{self, Kind};
pub use crate::negotiate::Format;
use crate::negotiate::{Accept, MAX_RANGES};
use crate::rejection::MsgPackRejection;

thread_local! {
    static RANGES_READ: Cell<usize> = const { Cell::new(0) };
}

/// Counts one `Accept` range read (`Accept::ranges` calls it).
pub(crate) fn range_read() {
    RANGES_READ.with(|read| read.set(read.get() + 1));
}

/// The most ranges one negotiation reads, whatever the header's length:
/// JSON's quality reads the first 64 once, and MessagePack's choice
/// compares each of them with those before it.
pub const MAX_RANGE_READS: usize = 2 * MAX_RANGES + MAX_RANGES * (MAX_RANGES - 1) / 2;

/// What one way of reading an `Accept` answers.
#[derive(Debug)]
pub struct Answer {
    /// The format it selects.
    pub format: Option<Format>,
    /// The quality it gives each probe type.
    pub qualities: Vec<Option<u16>>,
    /// Whether the value was recognised whole, without parsing.
    pub common: bool,
    /// How many ranges choosing the format read.
    pub ranges_read: usize,
}

fn answer(accept: Accept, probes: &[&str]) -> Answer {
    RANGES_READ.with(|read| read.set(0));
    let format = accept.negotiate();
    let ranges_read = RANGES_READ.with(Cell::get);
    let qualities = probes
        .iter()
        .map(|probe| {
            let media = MediaType::parse(probe).expect("a probe is a media type");
            accept.quality(&media)
        })
        .collect();
    Answer {
        format,
        qualities,
        common: accept.is_common(),
        ranges_read,
    }
}

/// The `Accept` of `headers` as requests are read: the common values
/// recognised whole, the rest by headers-accept.
pub fn accept(headers: &HeaderMap, probes: &[&str]) -> Answer {
    answer(Accept::from_headers(headers), probes)
}

/// The `Accept` of `headers` read by headers-accept alone.
pub fn accept_parsed(headers: &HeaderMap, probes: &[&str]) -> Answer {
    answer(Accept::parse(headers), probes)
}

/// The kind of the `Content-Type` as the extractors read it (`"json"`,
/// `"msgpack"` or `"other"`) and its essence (no parameters); `None` when
/// there is none or it is no media type.
pub fn content_type(headers: &HeaderMap) -> Option<(&'static str, String)> {
    let kind = media::content_kind(headers)?;
    let text = headers.get(CONTENT_TYPE)?.to_str().ok()?;
    let essence = MediaType::parse(text).ok()?.essence().to_string();
    let name = match kind {
        Kind::Json => "json",
        Kind::MsgPack => "msgpack",
        Kind::Other => "other",
    };
    Some((name, essence))
}

/// A body's frames joined, as the extractors and the layer read them.
#[derive(Debug)]
pub struct Frames(crate::frames::Frames);

impl Frames {
    /// For a body of at most `limit` bytes that declared `expected`.
    pub fn new(expected: Option<usize>, limit: usize) -> Frames {
        Frames(crate::frames::Frames::new(expected, limit))
    }

    /// The bytes that have arrived.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether nothing has arrived.
    pub fn is_empty(&self) -> bool {
        self.0.len() == 0
    }

    /// Adds a frame that keeps the body within the limit.
    pub fn push(&mut self, data: Bytes) {
        self.0.push(data);
    }

    /// The room the joined buffer holds.
    pub fn capacity(&self) -> usize {
        self.0.capacity()
    }

    /// The whole body.
    pub fn into_bytes(self) -> Bytes {
        self.0.into_bytes()
    }
}

/// Reads a request's body as [`MsgPack`](crate::MsgPack) and
/// [`Negotiated`](crate::Negotiated) do, under the limit in force.
pub async fn receive(request: Request) -> Result<Bytes, MsgPackRejection> {
    crate::body::receive(request)
        .await
        .map(|received| received.body)
}
