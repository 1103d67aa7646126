//! What the HTTP fuzz targets check, of what msgpack-axum reads off the
//! network: the `Accept` and `Content-Type` headers (`media_types`) and
//! request bodies arriving in frames of any size (`body_frames`).
//!
//! Shared with `tests/tests/regression.rs` as `checks.rs` is.

use std::collections::VecDeque;
use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll, Waker};

use axum::body::Body;
use axum::extract::{DefaultBodyLimit, Request};
use bytes::Bytes;
use http::header::{HeaderMap, HeaderValue, ACCEPT, CONTENT_LENGTH, CONTENT_TYPE};
use msgpack_axum::__fuzz::{self, Format, Frames, MAX_RANGE_READS};
use msgpack_axum::{MsgPackRejection, RequestLimits};

use super::budget;

/// The types whose quality each reading of `Accept` must agree on.
const PROBES: [&str; 8] = [
    "application/json",
    "application/msgpack",
    "application/x-msgpack",
    "application/vnd.msgpack",
    "application/vnd.acme+msgpack",
    "application/problem+json",
    "text/html",
    "image/png",
];

/// Memory that reading one header may take: a base, and per byte of the
/// header what headers-accept's copy of it and its ranges take.
const HEADER_BUDGET: usize = 64 * 1024;
const HEADER_BUDGET_PER_BYTE: usize = 64;

/// Target `media_types`: the input's lines as `Accept` lines, and each as
/// a `Content-Type`. Never panics; the fast path for common values agrees
/// with headers-accept's answer (format and the quality of every probe
/// type); the work is bounded whatever the length (at most
/// `MAX_RANGE_READS` ranges read, memory linear in the header); and a
/// `Content-Type` of any kind is what an `Accept` naming exactly that type
/// selects: MessagePack for a MessagePack type, JSON for a JSON one,
/// neither for another.
pub fn media_types(data: &[u8]) {
    let lines: Vec<HeaderValue> = data
        .split(|&b| b == b'\n')
        .filter_map(|line| HeaderValue::from_bytes(line).ok())
        .collect();
    let mut headers = HeaderMap::new();
    for line in &lines {
        headers.append(ACCEPT, line.clone());
    }
    let (fast, usage) = budget::measure(|| __fuzz::accept(&headers, &PROBES));
    let limit = HEADER_BUDGET + HEADER_BUDGET_PER_BYTE * data.len();
    assert!(
        usage.total <= limit,
        "{} bytes of Accept took {} bytes (budget {limit})",
        data.len(),
        usage.total
    );
    let parsed = __fuzz::accept_parsed(&headers, &PROBES);
    assert_eq!(fast.format, parsed.format, "{lines:?}");
    assert_eq!(fast.qualities, parsed.qualities, "{lines:?}");
    for answer in [&fast, &parsed] {
        assert!(
            answer.ranges_read <= MAX_RANGE_READS,
            "{} ranges read",
            answer.ranges_read
        );
    }

    for line in lines {
        let mut headers = HeaderMap::new();
        headers.insert(CONTENT_TYPE, line);
        let Some((kind, essence)) = __fuzz::content_type(&headers) else {
            continue;
        };
        let wildcard = essence.split(['/', '+']).any(|name| name == "*");
        let Ok(named) = HeaderValue::from_str(&essence) else {
            continue;
        };
        if wildcard {
            continue;
        }
        let mut accept = HeaderMap::new();
        accept.insert(ACCEPT, named);
        let format = __fuzz::accept(&accept, &[]).format;
        match (kind, &format) {
            ("msgpack", Some(Format::MsgPack(_))) | ("json", Some(Format::Json)) => {}
            ("other", None) => {}
            _ => {
                panic!("Content-Type {essence} is {kind}, but Accept: {essence} selects {format:?}")
            }
        }
    }
}

/// A body of ready frames, as a client sends them.
struct Chunks(VecDeque<Bytes>);

impl http_body::Body for Chunks {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        _: &mut Context<'_>,
    ) -> Poll<Option<Result<http_body::Frame<Bytes>, Infallible>>> {
        Poll::Ready(
            self.0
                .pop_front()
                .map(|data| Ok(http_body::Frame::data(data))),
        )
    }
}

/// One body: `limit` (0..=65535), a declared `Content-Length` (true or
/// not), whether the limit is set by `RequestLimits` or by axum's
/// `DefaultBodyLimit`, and the frames. The input is `limit` (2 bytes, big
/// endian), flags (bit 0: a `Content-Length`, bit 1: `DefaultBodyLimit`),
/// the declared length (2 bytes), then frames, each a length byte and
/// that many bytes (fewer at the end of the input).
struct Case {
    limit: usize,
    declared: Option<usize>,
    axum_limit: bool,
    frames: Vec<Bytes>,
}

impl Case {
    fn parse(data: &[u8]) -> Option<Case> {
        let (head, mut rest) = data.split_at_checked(5)?;
        let limit = usize::from(u16::from_be_bytes([head[0], head[1]]));
        let declared = usize::from(u16::from_be_bytes([head[3], head[4]]));
        let mut frames = Vec::new();
        while let Some((&len, tail)) = rest.split_first() {
            let (frame, tail) = tail.split_at(usize::from(len).min(tail.len()));
            frames.push(Bytes::copy_from_slice(frame));
            rest = tail;
        }
        Some(Case {
            limit,
            declared: (head[2] & 1 != 0).then_some(declared),
            axum_limit: head[2] & 2 != 0,
            frames,
        })
    }
}

/// Target `body_frames`: a body in frames of any size, read under a limit.
/// Joined directly, the frames give back the same bytes, and the buffer
/// never holds more than the limit, whatever length the body declared;
/// read as the extractors read a request, the body is the same bytes when
/// it keeps to the limit, and a `413` as soon as it (or its declared
/// length) does not, with the limit set by `RequestLimits` or by axum's
/// `DefaultBodyLimit` alike.
pub fn body_frames(data: &[u8]) {
    let Some(case) = Case::parse(data) else {
        return;
    };
    let sent: Vec<u8> = case.frames.concat();

    let mut frames = Frames::new(case.declared, case.limit);
    let mut kept = Vec::new();
    for frame in &case.frames {
        if frames.len() + frame.len() > case.limit {
            break;
        }
        frames.push(frame.clone());
        kept.extend_from_slice(frame);
        assert_eq!(frames.len(), kept.len());
        assert!(
            frames.capacity() <= case.limit,
            "{} bytes of room under a limit of {}",
            frames.capacity(),
            case.limit
        );
    }
    assert_eq!(frames.into_bytes(), kept);

    let mut request = Request::new(Body::new(Chunks(case.frames.iter().cloned().collect())));
    let headers = request.headers_mut();
    headers.insert(
        CONTENT_TYPE,
        HeaderValue::from_static("application/msgpack"),
    );
    if let Some(declared) = case.declared {
        headers.insert(CONTENT_LENGTH, HeaderValue::from(declared));
    }
    if case.axum_limit {
        DefaultBodyLimit::max(case.limit).apply(&mut request);
    } else {
        request
            .extensions_mut()
            .insert(RequestLimits::new().max_body(case.limit));
    }
    let received = ready(__fuzz::receive(request));
    let over =
        case.declared.is_some_and(|declared| declared > case.limit) || sent.len() > case.limit;
    match received {
        Ok(body) => {
            assert!(
                !over,
                "{} bytes read under a limit of {}",
                body.len(),
                case.limit
            );
            assert_eq!(body, sent);
        }
        Err(MsgPackRejection::PayloadTooLarge(_)) => assert!(over, "413 for {} bytes", sent.len()),
        Err(MsgPackRejection::EmptyBody(_)) => assert!(!over && sent.is_empty()),
        Err(other) => panic!("{other:?}"),
    }
}

/// The output of a future that never waits (its body's frames are all
/// ready).
fn ready<F: Future>(future: F) -> F::Output {
    let mut future = std::pin::pin!(future);
    match future
        .as_mut()
        .poll(&mut Context::from_waker(Waker::noop()))
    {
        Poll::Ready(output) => output,
        Poll::Pending => panic!("reading a body of ready frames waited"),
    }
}
