//! Reading a response body the layer may re-encode: a body of known
//! length whole; one of unknown length as far as it is ready at once and
//! within a cap, so that a stream is not held back. What was read is
//! either the whole body or handed back in front of the rest, so a body
//! the layer does not re-encode still passes intact.

use std::pin::Pin;
use std::task::{Context, Poll};

use axum::body::Body;
use bytes::Bytes;
use http::HeaderMap;
use http_body::{Body as _, Frame, SizeHint};

use crate::frames::Frames;

/// A response body being read.
pub(crate) struct Collect {
    body: Body,
    frames: Frames,
    /// The body's length is unknown: stop at the cap, or where it is not
    /// ready at once.
    streamed: Option<usize>,
}

/// How reading a body ended.
pub(crate) enum Collected {
    /// The body ended (or sent its trailers): all of its data, and its
    /// trailers.
    Whole {
        data: Bytes,
        trailers: Option<HeaderMap>,
    },
    /// A body of unknown length that passed the cap or was not ready at
    /// once: a body that gives what was read and then the rest, trailers
    /// included.
    Streamed(Body),
    /// The body failed: a body that gives what was read and then the
    /// error, and the error.
    Failed(Body, String),
}

impl Collect {
    /// Reads `body` whole when its length is known (`streamed` is
    /// `None`), else at most `Some(cap)` bytes of what it has ready.
    pub(crate) fn new(body: Body, streamed: Option<usize>) -> Collect {
        Collect {
            body,
            frames: Frames::new(None, streamed.unwrap_or(usize::MAX)),
            streamed,
        }
    }

    /// Reads until the body ends or fails, or, for a body of unknown
    /// length, until it would pass the cap or has nothing ready. Not to
    /// be polled again once ready.
    pub(crate) fn poll_collect(&mut self, cx: &mut Context<'_>) -> Poll<Collected> {
        loop {
            let frame = match Pin::new(&mut self.body).poll_frame(cx) {
                Poll::Ready(None) => {
                    return Poll::Ready(Collected::Whole {
                        data: self.take_frames(),
                        trailers: None,
                    })
                }
                Poll::Ready(Some(Err(error))) => {
                    let message = error.to_string();
                    let replay = self.replay(None, Body::new(Tail::Failed(Some(error))));
                    return Poll::Ready(Collected::Failed(replay, message));
                }
                Poll::Ready(Some(Ok(frame))) => frame,
                // A stream: handed on as it is, not waited for.
                Poll::Pending if self.streamed.is_some() => {
                    let rest = std::mem::take(&mut self.body);
                    return Poll::Ready(Collected::Streamed(self.replay(None, rest)));
                }
                Poll::Pending => return Poll::Pending,
            };
            let data = match frame.into_data() {
                Ok(data) => data,
                // Trailers end a body: it is whole, whatever a next poll
                // would say.
                Err(frame) => {
                    return Poll::Ready(Collected::Whole {
                        data: self.take_frames(),
                        trailers: frame.into_trailers().ok(),
                    })
                }
            };
            let cap = self.streamed.unwrap_or(usize::MAX);
            if self.frames.len().saturating_add(data.len()) > cap {
                let rest = std::mem::take(&mut self.body);
                return Poll::Ready(Collected::Streamed(self.replay(Some(data), rest)));
            }
            self.frames.push(data);
        }
    }

    /// What was read, then `next`, then `rest`.
    fn replay(&mut self, next: Option<Bytes>, rest: Body) -> Body {
        Body::new(Replay {
            read: [Some(self.take_frames()), next],
            rest,
        })
    }

    fn take_frames(&mut self) -> Bytes {
        std::mem::replace(&mut self.frames, Frames::new(None, 0)).into_bytes()
    }
}

/// The bytes of a body read whole, then its trailers: the body as it was.
pub(crate) fn unchanged(data: Bytes, trailers: Option<HeaderMap>) -> Body {
    match trailers {
        None => Body::from(data),
        Some(trailers) => Body::new(Replay {
            read: [Some(data), None],
            rest: Body::new(Tail::Trailers(Some(trailers))),
        }),
    }
}

/// The end of a body that was read: its trailers, or its error.
enum Tail {
    Trailers(Option<HeaderMap>),
    Failed(Option<axum::Error>),
}

impl http_body::Body for Tail {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        _: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        Poll::Ready(match &mut *self {
            Tail::Trailers(trailers) => trailers.take().map(|map| Ok(Frame::trailers(map))),
            Tail::Failed(error) => error.take().map(Err),
        })
    }

    fn is_end_stream(&self) -> bool {
        matches!(self, Tail::Trailers(None) | Tail::Failed(None))
    }

    /// No data, but no exact length while trailers or a failure are to
    /// come: with one, hyper frames the body by `Content-Length`, which
    /// carries no trailers, and a client would take what came before a
    /// failure for the whole body.
    fn size_hint(&self) -> SizeHint {
        match self {
            Tail::Trailers(None) | Tail::Failed(None) => SizeHint::with_exact(0),
            Tail::Trailers(Some(_)) | Tail::Failed(Some(_)) => SizeHint::new(),
        }
    }
}

/// The bytes read before the cap was passed, in order, then the rest of
/// the body as it comes.
struct Replay {
    read: [Option<Bytes>; 2],
    rest: Body,
}

impl http_body::Body for Replay {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        let this = &mut *self;
        for read in &mut this.read {
            if let Some(data) = read.take().filter(|data| !data.is_empty()) {
                return Poll::Ready(Some(Ok(Frame::data(data))));
            }
        }
        Pin::new(&mut this.rest).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.held() == 0 && self.rest.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        let held = self.held();
        let rest = self.rest.size_hint();
        let mut hint = SizeHint::new();
        if let Some(upper) = rest.upper() {
            hint.set_upper(upper.saturating_add(held));
        }
        hint.set_lower(rest.lower().saturating_add(held));
        hint
    }
}

impl Replay {
    /// The bytes read and not yet given back.
    fn held(&self) -> u64 {
        self.read
            .iter()
            .flatten()
            .map(|data| data.len() as u64)
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use std::collections::VecDeque;

    use super::*;

    /// A body of frames; an `Err` item fails it there, a `None` item is
    /// not ready (once).
    struct Scripted(VecDeque<Option<Result<Frame<Bytes>, &'static str>>>);

    impl http_body::Body for Scripted {
        type Data = Bytes;
        type Error = &'static str;

        fn poll_frame(
            mut self: Pin<&mut Self>,
            _: &mut Context<'_>,
        ) -> Poll<Option<Result<Frame<Bytes>, &'static str>>> {
            match self.0.pop_front() {
                Some(None) => Poll::Pending,
                Some(Some(frame)) => Poll::Ready(Some(frame)),
                None => Poll::Ready(None),
            }
        }
    }

    type Script = Vec<Option<Result<Frame<Bytes>, &'static str>>>;

    fn data(chunks: &[&'static [u8]]) -> Script {
        chunks
            .iter()
            .map(|chunk| Some(Ok(Frame::data(Bytes::from_static(chunk)))))
            .collect()
    }

    fn trailers() -> HeaderMap {
        let mut trailers = HeaderMap::new();
        trailers.insert("checksum", http::HeaderValue::from_static("1"));
        trailers
    }

    fn cx() -> Context<'static> {
        Context::from_waker(std::task::Waker::noop())
    }

    fn collect(script: Script, streamed: Option<usize>) -> Collected {
        let mut collect = Collect::new(Body::new(Scripted(script.into())), streamed);
        loop {
            if let Poll::Ready(collected) = collect.poll_collect(&mut cx()) {
                return collected;
            }
        }
    }

    /// Every frame of a body, polled until it ends: data, trailers, and
    /// the error it ends with.
    fn frames(mut body: Body) -> (Vec<Bytes>, Option<HeaderMap>, Option<String>) {
        let (mut data, mut trailers, mut error) = (Vec::new(), None, None);
        loop {
            match Pin::new(&mut body).poll_frame(&mut cx()) {
                Poll::Pending => continue,
                Poll::Ready(None) => return (data, trailers, error),
                Poll::Ready(Some(Err(failure))) => error = Some(failure.to_string()),
                Poll::Ready(Some(Ok(frame))) => match frame.into_data() {
                    Ok(chunk) => data.push(chunk),
                    Err(frame) => trailers = frame.into_trailers().ok(),
                },
            }
        }
    }

    #[test]
    fn a_body_of_exactly_the_cap_is_read_whole_with_its_trailers() {
        let mut script = data(&[b"ab", b"cd"]);
        script.push(Some(Ok(Frame::trailers(trailers()))));
        let Collected::Whole {
            data,
            trailers: read,
        } = collect(script, Some(4))
        else {
            panic!("not read whole");
        };
        assert_eq!(data, &b"abcd"[..]);
        assert_eq!(read, Some(trailers()));
        let (data, read, _) = frames(unchanged(data, read));
        assert_eq!(data, [&b"abcd"[..]]);
        assert_eq!(read, Some(trailers()));
    }

    #[test]
    fn trailers_end_a_body_that_would_then_wait() {
        let mut script = data(&[b"[1]"]);
        script.push(Some(Ok(Frame::trailers(trailers()))));
        script.push(None);
        let Collected::Whole {
            data,
            trailers: read,
        } = collect(script, Some(16))
        else {
            panic!("not read whole");
        };
        assert_eq!((data, read), (Bytes::from_static(b"[1]"), Some(trailers())));
    }

    #[test]
    fn a_body_passed_unchanged_has_no_exact_length_while_trailers_are_to_come() {
        let body = unchanged(Bytes::from_static(b"[1,"), Some(trailers()));
        assert_eq!(body.size_hint().exact(), None);
        assert_eq!(body.size_hint().lower(), 3);
        let body = unchanged(Bytes::from_static(b"[1,"), None);
        assert_eq!(body.size_hint().exact(), Some(3));
    }

    #[test]
    fn past_the_cap_every_byte_comes_back_in_order_with_the_trailers() {
        let mut script = data(&[b"ab", b"cd", b"ef", b"gh"]);
        script.push(Some(Ok(Frame::trailers(trailers()))));
        let Collected::Streamed(replay) = collect(script, Some(5)) else {
            panic!("not past the cap");
        };
        assert_eq!(replay.size_hint().lower(), 6);
        let (data, read, error) = frames(replay);
        assert_eq!(data, [&b"abcd"[..], b"ef", b"gh"]);
        assert_eq!(read, Some(trailers()));
        assert_eq!(error, None);
    }

    #[test]
    fn a_first_frame_past_the_cap_comes_back_alone() {
        let Collected::Streamed(replay) = collect(data(&[b"abcdef"]), Some(5)) else {
            panic!("not past the cap");
        };
        assert!(!replay.is_end_stream());
        assert_eq!(frames(replay).0, [&b"abcdef"[..]]);
    }

    #[test]
    fn a_stream_not_ready_at_once_is_handed_on_from_where_it_waits() {
        let mut script = data(&[b"[1,"]);
        script.push(None);
        script.extend(data(&[b"2]"]));
        let Collected::Streamed(replay) = collect(script, Some(1 << 20)) else {
            panic!("waited for the stream");
        };
        assert_eq!(frames(replay).0, [&b"[1,"[..], b"2]"]);
    }

    #[test]
    fn a_body_of_known_length_is_waited_for() {
        let mut script = data(&[b"[1,"]);
        script.push(None);
        script.extend(data(&[b"2]"]));
        let Collected::Whole { data, .. } = collect(script, None) else {
            panic!("not read whole");
        };
        assert_eq!(data, &b"[1,2]"[..]);
    }

    #[test]
    fn a_body_that_fails_comes_back_with_its_error() {
        let mut script = data(&[b"ab"]);
        script.push(Some(Err("timed out")));
        let Collected::Failed(replay, message) = collect(script, Some(5)) else {
            panic!("the failure was not reported");
        };
        assert_eq!(message, "timed out");
        let (data, _, error) = frames(replay);
        assert_eq!(data, [&b"ab"[..]]);
        assert_eq!(error.as_deref(), Some("timed out"));
    }
}
