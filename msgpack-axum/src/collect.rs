//! Reading a response body the layer may re-encode, up to a cap: what was
//! read is either the whole body or, past the cap, handed back in front of
//! the rest, so a body too long to re-encode still passes intact.

use std::pin::Pin;
use std::task::{ready, Context, Poll};

use axum::body::Body;
use bytes::Bytes;
use http_body::{Body as _, Frame, SizeHint};

use crate::frames::Frames;

/// A response body being read, at most `cap` bytes of it.
pub(crate) struct Collect {
    body: Body,
    frames: Frames,
    cap: usize,
}

/// How reading a body ended.
pub(crate) enum Collected {
    /// The body ended within the cap: all of its data (trailers dropped,
    /// the bytes being re-encoded).
    Whole(Bytes),
    /// The next frame would have passed the cap: a body that gives what
    /// was read and then the rest, trailers included.
    Past(Body),
    /// The body failed before it ended or passed the cap.
    Failed(axum::Error),
}

impl Collect {
    pub(crate) fn new(body: Body, cap: usize) -> Collect {
        Collect {
            body,
            frames: Frames::new(None, cap),
            cap,
        }
    }

    /// Reads until the body ends, fails or would pass the cap. Not to be
    /// polled again once ready.
    pub(crate) fn poll_collect(&mut self, cx: &mut Context<'_>) -> Poll<Collected> {
        loop {
            let frame = match ready!(Pin::new(&mut self.body).poll_frame(cx)) {
                None => return Poll::Ready(Collected::Whole(self.take_frames().into_bytes())),
                Some(Err(error)) => return Poll::Ready(Collected::Failed(error)),
                Some(Ok(frame)) => frame,
            };
            let Ok(data) = frame.into_data() else {
                continue; // trailers
            };
            if self.frames.len().saturating_add(data.len()) > self.cap {
                let replay = Replay {
                    read: [Some(self.take_frames().into_bytes()), Some(data)],
                    rest: std::mem::take(&mut self.body),
                };
                return Poll::Ready(Collected::Past(Body::new(replay)));
            }
            self.frames.push(data);
        }
    }

    fn take_frames(&mut self) -> Frames {
        std::mem::replace(&mut self.frames, Frames::new(None, 0))
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

    use http::HeaderMap;

    use super::*;

    /// A body of frames ready at once; an `Err` item fails it there.
    struct Ready(VecDeque<Result<Frame<Bytes>, &'static str>>);

    impl http_body::Body for Ready {
        type Data = Bytes;
        type Error = &'static str;

        fn poll_frame(
            mut self: Pin<&mut Self>,
            _: &mut Context<'_>,
        ) -> Poll<Option<Result<Frame<Bytes>, &'static str>>> {
            Poll::Ready(self.0.pop_front())
        }
    }

    fn data(chunks: &[&'static [u8]]) -> Vec<Result<Frame<Bytes>, &'static str>> {
        chunks
            .iter()
            .map(|chunk| Ok(Frame::data(Bytes::from_static(chunk))))
            .collect()
    }

    fn trailers() -> HeaderMap {
        let mut trailers = HeaderMap::new();
        trailers.insert("checksum", http::HeaderValue::from_static("1"));
        trailers
    }

    fn collect(frames: Vec<Result<Frame<Bytes>, &'static str>>, cap: usize) -> Collected {
        let mut collect = Collect::new(Body::new(Ready(frames.into())), cap);
        match collect.poll_collect(&mut Context::from_waker(std::task::Waker::noop())) {
            Poll::Ready(collected) => collected,
            Poll::Pending => panic!("a body of ready frames is read at once"),
        }
    }

    /// Every frame of a body whose frames are ready: data, then trailers.
    fn frames(mut body: Body) -> (Vec<Bytes>, Option<HeaderMap>) {
        let mut cx = Context::from_waker(std::task::Waker::noop());
        let (mut data, mut trailers) = (Vec::new(), None);
        while let Poll::Ready(Some(frame)) = Pin::new(&mut body).poll_frame(&mut cx) {
            match frame.unwrap().into_data() {
                Ok(chunk) => data.push(chunk),
                Err(frame) => trailers = frame.into_trailers().ok(),
            }
        }
        (data, trailers)
    }

    #[test]
    fn a_body_of_exactly_the_cap_is_read_whole_without_its_trailers() {
        let mut body = data(&[b"ab", b"cd"]);
        body.push(Ok(Frame::trailers(trailers())));
        let Collected::Whole(bytes) = collect(body, 4) else {
            panic!("not read whole");
        };
        assert_eq!(bytes, &b"abcd"[..]);
    }

    #[test]
    fn past_the_cap_every_byte_comes_back_in_order_with_the_trailers() {
        let mut body = data(&[b"ab", b"cd", b"ef", b"gh"]);
        body.push(Ok(Frame::trailers(trailers())));
        let Collected::Past(replay) = collect(body, 5) else {
            panic!("not past the cap");
        };
        assert_eq!(replay.size_hint().lower(), 6);
        let (data, trailers_read) = frames(replay);
        assert_eq!(data, [&b"abcd"[..], b"ef", b"gh"]);
        assert_eq!(trailers_read, Some(trailers()));
    }

    #[test]
    fn a_first_frame_past_the_cap_comes_back_alone() {
        let Collected::Past(replay) = collect(data(&[b"abcdef"]), 5) else {
            panic!("not past the cap");
        };
        assert!(!replay.is_end_stream());
        assert_eq!(frames(replay).0, [&b"abcdef"[..]]);
    }

    #[test]
    fn a_body_that_fails_is_reported() {
        let mut body = data(&[b"ab"]);
        body.push(Err("timed out"));
        let Collected::Failed(error) = collect(body, 5) else {
            panic!("the failure was not reported");
        };
        assert_eq!(error.to_string(), "timed out");
    }
}
