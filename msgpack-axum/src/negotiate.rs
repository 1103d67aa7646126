//! The negotiation rules: what a request's `Accept` admits and which
//! format it selects. Plain functions of the headers, tested as a table.
//!
//! `Accept` is parsed by `headers-accept`, which orders the ranges by
//! RFC 9110 specificity and then q-value, so the first range that matches
//! a type is the one that decides its quality. The values most clients
//! send (`*/*`, `application/json`, one MessagePack type) are recognised
//! whole, without allocating; a test checks they mean what the parser says.

use headers_core::Header;
use http::header::{HeaderMap, HeaderValue, ACCEPT};
use mediatype::{MediaType, ReadParams};

use crate::media::{self, Kind};

/// The format of a negotiated response.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Format {
    /// JSON, labelled `application/json`.
    Json,
    /// MessagePack, labelled with this `Content-Type`: the MessagePack type
    /// the client named with the highest q (`application/msgpack` when it
    /// named several at that q).
    MsgPack(HeaderValue),
}

impl Format {
    /// The `Content-Type` of a response in this format.
    ///
    /// ```
    /// use msgpack_axum::Format;
    ///
    /// assert_eq!(Format::Json.content_type(), "application/json");
    /// assert_eq!(Format::msgpack().content_type(), "application/msgpack");
    /// ```
    pub fn content_type(&self) -> HeaderValue {
        match self {
            Format::Json => HeaderValue::from_static(media::APPLICATION_JSON),
            Format::MsgPack(content_type) => content_type.clone(),
        }
    }

    /// MessagePack labelled `application/msgpack`.
    pub fn msgpack() -> Format {
        Format::MsgPack(HeaderValue::from_static(media::APPLICATION_MSGPACK))
    }

    /// Whether this is a MessagePack format.
    pub fn is_msgpack(&self) -> bool {
        matches!(self, Format::MsgPack(_))
    }
}

/// The types a negotiated response can take, as a `406` body lists them:
/// JSON and [`media::MSGPACK_TYPES`].
pub(crate) const OFFERED: [&str; 1 + media::MSGPACK_TYPES.len()] = {
    let mut offered = [media::APPLICATION_JSON; 1 + media::MSGPACK_TYPES.len()];
    let mut i = 0;
    while i < media::MSGPACK_TYPES.len() {
        offered[1 + i] = media::MSGPACK_TYPES[i];
        i += 1;
    }
    offered
};

/// A quality value in thousandths: `q=0.5` is 500.
type Quality = u16;

const FULL: Quality = 1000;

/// One media range of an `Accept`, borrowed from the parsed header.
#[derive(Clone, Copy, Debug)]
struct Range<'a> {
    ty: &'a str,
    subty: &'a str,
    suffix: Option<&'a str>,
    q: Quality,
}

impl Range<'_> {
    const fn common(ty: &'static str, subty: &'static str) -> Range<'static> {
        Range {
            ty,
            subty,
            suffix: None,
            q: FULL,
        }
    }

    fn is_wildcard(&self) -> bool {
        self.ty == "*" || self.subty == "*"
    }

    fn media_type(&self) -> MediaType<'_> {
        let mut media = MediaType::new(
            mediatype::Name::new_unchecked(self.ty),
            mediatype::Name::new_unchecked(self.subty),
        );
        media.suffix = self.suffix.map(mediatype::Name::new_unchecked);
        media
    }

    /// Whether this range admits `ty/subty[+suffix]`.
    fn admits(&self, ty: &str, subty: &str, suffix: Option<&str>) -> bool {
        if self.ty == "*" {
            return true;
        }
        if !self.ty.eq_ignore_ascii_case(ty) {
            return false;
        }
        self.subty == "*" || (self.subty.eq_ignore_ascii_case(subty) && eq_opt(self.suffix, suffix))
    }

    fn same_type(&self, other: &Range<'_>) -> bool {
        self.ty.eq_ignore_ascii_case(other.ty)
            && self.subty.eq_ignore_ascii_case(other.subty)
            && eq_opt(self.suffix, other.suffix)
    }
}

fn eq_opt(a: Option<&str>, b: Option<&str>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => a.eq_ignore_ascii_case(b),
        (None, None) => true,
        _ => false,
    }
}

/// The ranges of an `Accept` that count, after ordering: a client names a
/// handful, and the choice of a MessagePack type compares each with those
/// before it, so a header of thousands must not cost their square.
pub(crate) const MAX_RANGES: usize = 64;

/// The `Accept` values most clients send, recognised without parsing:
/// `*/*`, `application/json` and each of [`media::MSGPACK_TYPES`].
const COMMON: [(&str, Range<'static>); 2 + media::MSGPACK_TYPES.len()] = {
    let any = ("*/*", Range::common("*", "*"));
    let mut common = [any; 2 + media::MSGPACK_TYPES.len()];
    common[1] = (
        media::APPLICATION_JSON,
        Range::common("application", "json"),
    );
    let mut i = 0;
    while i < media::MSGPACK_TYPES.len() {
        let name = media::MSGPACK_TYPES[i];
        common[2 + i] = (
            name,
            Range::common("application", media::msgpack_subtype(name)),
        );
        i += 1;
    }
    common
};

/// A request's `Accept`, read once.
#[derive(Debug)]
pub(crate) struct Accept(Ranges);

#[derive(Debug)]
enum Ranges {
    /// No `Accept`, an empty one, or one that is malformed: every type is
    /// acceptable, and JSON is chosen.
    Any,
    /// One of [`COMMON`].
    One(Range<'static>),
    /// Anything else, parsed and ordered by `headers-accept`.
    Parsed(headers_accept::Accept),
}

impl Accept {
    /// Reads the `Accept` of a request (every `Accept` line, joined).
    pub(crate) fn from_headers(headers: &HeaderMap) -> Accept {
        let mut values = headers.get_all(ACCEPT).iter();
        let Some(first) = values.next() else {
            return Accept(Ranges::Any);
        };
        let only = values.next().is_none();
        if only {
            if let Some((_, range)) = COMMON
                .iter()
                .find(|(text, _)| first.as_bytes() == text.as_bytes())
            {
                return Accept(Ranges::One(*range));
            }
        }
        Accept::parse(headers)
    }

    /// Reads `Accept` with `headers-accept` alone, without the shortcut for
    /// common values. Empty list elements (`, application/msgpack`, an
    /// empty `Accept` line beside others), which the parser refuses, are
    /// ignored, as RFC 9110 (section 5.6.1) says.
    pub(crate) fn parse(headers: &HeaderMap) -> Accept {
        let decoded =
            headers_accept::Accept::decode(&mut headers.get_all(ACCEPT).iter()).or_else(|_| {
                let cleaned = without_empty_elements(headers)?;
                headers_accept::Accept::decode(&mut std::iter::once(&cleaned))
            });
        let Ok(parsed) = decoded else {
            return Accept(Ranges::Any);
        };
        let valid = parsed
            .media_types()
            .all(|media| match media.get_param(mediatype::names::Q) {
                Some(q) => parse_quality(q.as_str()).is_some(),
                None => true,
            });
        if !valid || parsed.media_types().next().is_none() {
            return Accept(Ranges::Any);
        }
        Accept(Ranges::Parsed(parsed))
    }

    /// Each range, most specific first, the first [`MAX_RANGES`] only.
    fn ranges(&self) -> impl Iterator<Item = Range<'_>> {
        let (one, parsed) = match &self.0 {
            Ranges::Any => (None, None),
            Ranges::One(range) => (Some(*range), None),
            Ranges::Parsed(accept) => (None, Some(accept.media_types())),
        };
        let ranges = one
            .into_iter()
            .chain(parsed.into_iter().flatten().map(|media| {
                Range {
                    ty: media.ty().as_str(),
                    subty: media.subty().as_str(),
                    suffix: media.suffix().map(|suffix| suffix.as_str()),
                    q: media
                        .get_param(mediatype::names::Q)
                        .and_then(|q| parse_quality(q.as_str()))
                        .unwrap_or(FULL),
                }
            }))
            .take(MAX_RANGES);
        #[cfg(feature = "fuzzing")]
        let ranges = ranges.inspect(|_| crate::__fuzz::range_read());
        ranges
    }

    /// Whether the value was one of [`COMMON`], read without parsing.
    #[cfg(feature = "fuzzing")]
    pub(crate) fn is_common(&self) -> bool {
        matches!(self.0, Ranges::One(_))
    }

    fn is_any(&self) -> bool {
        matches!(self.0, Ranges::Any)
    }

    /// The quality the client gives `media` (ignoring its parameters): that
    /// of the most specific range admitting it, `None` when none does.
    /// Every type has full quality when there is no `Accept`.
    pub(crate) fn quality(&self, media: &MediaType<'_>) -> Option<Quality> {
        if self.is_any() {
            return Some(FULL);
        }
        let suffix = media.suffix.map(|suffix| suffix.as_str());
        self.ranges()
            .find(|range| range.admits(media.ty.as_str(), media.subty.as_str(), suffix))
            .map(|range| range.q)
    }

    /// Whether `media` is acceptable: admitted with a q above zero.
    pub(crate) fn accepts(&self, media: &MediaType<'_>) -> bool {
        self.quality(media).is_some_and(|q| q > 0)
    }

    /// The quality of JSON: that of `application/json`, or of a `+json`
    /// type the client names (a client asking for
    /// `application/problem+json` takes JSON).
    fn json_quality(&self) -> Option<Quality> {
        if self.is_any() {
            return Some(FULL);
        }
        // `application/json` named outright decides, `q=0` included.
        if let Some(json) = self.ranges().find(|range| {
            range.ty.eq_ignore_ascii_case("application")
                && range.subty.eq_ignore_ascii_case("json")
                && range.suffix.is_none()
        }) {
            return Some(json.q);
        }
        self.ranges()
            .find(|range| {
                range.admits("application", "json", None)
                    || range.suffix.is_some_and(|s| s.eq_ignore_ascii_case("json"))
            })
            .map(|range| range.q)
    }

    /// The `Content-Type` for MessagePack and its quality: the MessagePack
    /// type the client names with the highest q above zero, or
    /// `application/msgpack` when it names several at that q (unless it
    /// refuses that one with `q=0`: then the first of them). Wildcards
    /// never name one.
    fn msgpack_choice(&self) -> Option<(Quality, HeaderValue)> {
        let mut best: Option<(Quality, Range<'_>)> = None;
        let mut tied = false;
        for (index, range) in self.ranges().enumerate() {
            if range.is_wildcard() || media::kind(&range.media_type()) != Kind::MsgPack {
                continue;
            }
            // The first mention of a type (the most specific, then the
            // highest q) is the one that counts.
            if range.q == 0
                || self
                    .ranges()
                    .take(index)
                    .any(|earlier| earlier.same_type(&range))
            {
                continue;
            }
            match best {
                Some((q, _)) if range.q < q => {}
                Some((q, _)) if range.q == q => tied = true,
                _ => {
                    best = Some((range.q, range));
                    tied = false;
                }
            }
        }
        let (q, range) = best?;
        let canonical = MediaType::new(
            mediatype::names::APPLICATION,
            mediatype::Name::new_unchecked("msgpack"),
        );
        let content_type = if tied && self.quality(&canonical) != Some(0) {
            HeaderValue::from_static(media::APPLICATION_MSGPACK)
        } else {
            msgpack_content_type(&range)
        };
        Some((q, content_type))
    }

    /// The format this request selects, `None` when it accepts neither JSON
    /// nor MessagePack. The higher q wins; equal q goes to MessagePack.
    pub(crate) fn negotiate(&self) -> Option<Format> {
        let json = self.json_quality().filter(|&q| q > 0);
        let msgpack = self.msgpack_choice();
        match (json, msgpack) {
            (Some(json), Some((q, content_type))) if q >= json => {
                Some(Format::MsgPack(content_type))
            }
            (Some(_), _) => Some(Format::Json),
            (None, Some((_, content_type))) => Some(Format::MsgPack(content_type)),
            (None, None) => None,
        }
    }
}

/// The `Content-Type` for a named MessagePack range: a static value for
/// the registered names, the client's own (lowercased) for a `+msgpack`
/// type.
/// Every `Accept` line joined into one value, without the empty list
/// elements (outside quoted strings); `Err` when a line is not text.
#[cold]
fn without_empty_elements(headers: &HeaderMap) -> Result<HeaderValue, headers_core::Error> {
    let lines = headers.get_all(ACCEPT);
    let mut joined = String::with_capacity(lines.iter().map(|line| line.len() + 2).sum());
    let mut push = |element: &str| {
        let element = element.trim();
        if !element.is_empty() {
            if !joined.is_empty() {
                joined.push_str(", ");
            }
            joined.push_str(element);
        }
    };
    for line in lines {
        let line = line.to_str().map_err(|_| headers_core::Error::invalid())?;
        let (mut start, mut quoted, mut escaped) = (0, false, false);
        for (index, byte) in line.bytes().enumerate() {
            match byte {
                _ if escaped => escaped = false,
                b'\\' if quoted => escaped = true,
                b'"' => quoted = !quoted,
                b',' if !quoted => {
                    push(&line[start..index]);
                    start = index + 1;
                }
                _ => {}
            }
        }
        push(&line[start..]);
    }
    HeaderValue::from_str(&joined).map_err(|_| headers_core::Error::invalid())
}

fn msgpack_content_type(range: &Range<'_>) -> HeaderValue {
    if let Some(name) = media::MSGPACK_TYPES.iter().find(|name| {
        range.suffix.is_none()
            && name
                .split_once('/')
                .is_some_and(|(_, subty)| subty.eq_ignore_ascii_case(range.subty))
    }) {
        return HeaderValue::from_static(name);
    }
    let mut text = format!("{}/{}", range.ty, range.subty);
    if let Some(suffix) = range.suffix {
        text.push('+');
        text.push_str(suffix);
    }
    text.make_ascii_lowercase();
    HeaderValue::from_str(&text)
        .unwrap_or_else(|_| HeaderValue::from_static(media::APPLICATION_MSGPACK))
}

/// Parses an RFC 9110 `qvalue` (`0`, `0.5`, `1.000`) into thousandths.
fn parse_quality(text: &str) -> Option<Quality> {
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    if fraction.len() > 3 || !fraction.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let thousandths = fraction
        .bytes()
        .chain(std::iter::repeat(b'0'))
        .take(3)
        .fold(0, |n, b| n * 10 + Quality::from(b - b'0'));
    match whole {
        "0" => Some(thousandths),
        "1" if thousandths == 0 => Some(FULL),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(accept: &[&str]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        for value in accept {
            headers.append(ACCEPT, HeaderValue::from_str(value).unwrap());
        }
        headers
    }

    fn choose(accept: &[&str]) -> Option<String> {
        Accept::from_headers(&headers(accept))
            .negotiate()
            .map(|format| match format {
                Format::Json => "json".to_string(),
                Format::MsgPack(content_type) => content_type.to_str().unwrap().to_string(),
            })
    }

    #[track_caller]
    fn check(accept: &[&str], expected: Option<&str>) {
        assert_eq!(choose(accept).as_deref(), expected, "Accept: {accept:?}");
    }

    #[test]
    fn every_messagepack_name_is_understood() {
        check(&["application/msgpack"], Some("application/msgpack"));
        check(&["application/x-msgpack"], Some("application/x-msgpack"));
        check(
            &["application/vnd.msgpack"],
            Some("application/vnd.msgpack"),
        );
        check(
            &["application/vnd.acme.profile+msgpack"],
            Some("application/vnd.acme.profile+msgpack"),
        );
        check(&["Application/MsgPack"], Some("application/msgpack"));
    }

    #[test]
    fn parameters_such_as_charset_are_ignored() {
        check(
            &["application/msgpack; charset=utf-8"],
            Some("application/msgpack"),
        );
        check(
            &["application/json; charset=utf-8, application/msgpack; charset=utf-8; q=0.5"],
            Some("json"),
        );
    }

    #[test]
    fn no_accept_or_a_malformed_one_is_json() {
        check(&[], Some("json"));
        check(&[""], Some("json"));
        check(&["application/msgpack; q=2"], Some("json"));
        check(&["application/msgpack; q=abc"], Some("json"));
        check(&["not a media type"], Some("json"));
        check(&["application/msgpack,,;;"], Some("json"));
    }

    #[test]
    fn an_accept_naming_no_messagepack_type_is_json() {
        check(&["application/json"], Some("json"));
        check(
            &["text/html, application/xhtml+xml, application/xml;q=0.9, */*;q=0.8"],
            Some("json"),
        );
    }

    #[test]
    fn wildcards_alone_never_select_messagepack() {
        check(&["*/*"], Some("json"));
        check(&["application/*"], Some("json"));
        check(&["*/*+msgpack"], Some("json"));
    }

    #[test]
    fn the_higher_q_wins() {
        check(
            &["application/json, application/msgpack;q=0.9"],
            Some("json"),
        );
        check(
            &["application/json;q=0.5, application/msgpack;q=0.9"],
            Some("application/msgpack"),
        );
        check(&["application/msgpack;q=0.1, */*;q=0.2"], Some("json"));
    }

    #[test]
    fn equal_q_goes_to_messagepack() {
        check(
            &["application/json, application/msgpack"],
            Some("application/msgpack"),
        );
        check(
            &["application/msgpack;q=0.5, application/json;q=0.5"],
            Some("application/msgpack"),
        );
        check(
            &["*/*, application/x-msgpack"],
            Some("application/x-msgpack"),
        );
    }

    #[test]
    fn q_zero_excludes_a_type_also_under_a_wildcard() {
        check(&["application/msgpack;q=0, application/json"], Some("json"));
        check(&["application/msgpack;q=0"], None);
        check(&["*/*, application/json;q=0"], None);
        check(
            &["*/*, application/json;q=0, application/msgpack"],
            Some("application/msgpack"),
        );
        check(&["application/*, application/json;q=0"], None);
    }

    #[test]
    fn the_content_type_is_the_named_type_with_the_highest_q() {
        check(
            &["application/x-msgpack;q=0.5, application/vnd.msgpack;q=0.8"],
            Some("application/vnd.msgpack"),
        );
        check(
            &["application/x-msgpack, application/vnd.msgpack"],
            Some("application/msgpack"),
        );
        check(
            &["application/x-msgpack;q=0.9, application/vnd.msgpack;q=0.9, application/json"],
            Some("json"),
        );
        check(
            &["application/x-msgpack, application/vnd.msgpack, application/msgpack"],
            Some("application/msgpack"),
        );
        check(
            &["application/vnd.msgpack;q=0, application/x-msgpack;q=0.3"],
            Some("application/x-msgpack"),
        );
    }

    #[test]
    fn accepting_neither_is_none() {
        check(&["text/html"], None);
        check(&["image/*, text/*"], None);
    }

    #[test]
    fn several_accept_lines_are_one_list() {
        check(
            &["application/json;q=0.5", "application/msgpack"],
            Some("application/msgpack"),
        );
        check(&["text/html", "application/json"], Some("json"));
    }

    #[test]
    fn a_json_suffix_type_takes_json() {
        check(&["application/problem+json"], Some("json"));
    }

    #[test]
    fn the_common_values_mean_what_the_parser_says() {
        for (text, _) in COMMON {
            let headers = headers(&[text]);
            let fast = Accept::from_headers(&headers);
            let parsed = Accept::parse(&headers);
            assert!(matches!(fast.0, Ranges::One(_)), "{text}");
            assert!(matches!(parsed.0, Ranges::Parsed(_)), "{text}");
            assert_eq!(fast.negotiate(), parsed.negotiate(), "{text}");
            for probe in [
                "application/json",
                "application/msgpack",
                "text/html",
                "application/x-msgpack",
            ] {
                let media = MediaType::parse(probe).unwrap();
                assert_eq!(
                    fast.quality(&media),
                    parsed.quality(&media),
                    "{text} admitting {probe}"
                );
            }
        }
    }

    /// Every reader of the media table sees each of its names: the
    /// `Content-Type` parser, the `Accept` fast path and the label it
    /// answers with, the types a `406` offers, both `415` hints, and the
    /// docs (lib.rs links the table; the README lists it).
    #[test]
    fn every_reader_sees_every_messagepack_type() {
        let readme = include_str!("../../README.md");
        for name in media::MSGPACK_TYPES {
            assert!(
                name.starts_with("application/") && !name.bytes().any(|b| b.is_ascii_uppercase()),
                "{name}: the table holds lowercase application/ types"
            );
            let mut content = HeaderMap::new();
            content.insert(http::header::CONTENT_TYPE, HeaderValue::from_static(name));
            assert_eq!(media::content_kind(&content), Some(Kind::MsgPack), "{name}");
            let accept = Accept::from_headers(&headers(&[name]));
            assert!(
                matches!(accept.0, Ranges::One(_)),
                "{name} is on the fast path"
            );
            assert_eq!(
                accept.negotiate(),
                Some(Format::MsgPack(HeaderValue::from_static(name))),
                "{name}"
            );
            assert!(OFFERED.contains(&name), "{name} is offered");
            for hint in [
                media::msgpack_accept_hint(),
                media::negotiated_accept_hint(),
            ] {
                assert!(hint.split(", ").any(|n| n == name), "{name} in {hint}");
            }
            assert!(
                readme.contains(&format!("`{name}`")),
                "README.md names {name}"
            );
        }
        assert!(include_str!("lib.rs").contains("[`MSGPACK_TYPES`]"));
    }

    #[test]
    fn only_the_first_64_ranges_count() {
        let mut many = vec!["text/html"; MAX_RANGES];
        many.push("application/msgpack");
        check(&[&many.join(", ")], None);
        many.remove(0);
        check(&[&many.join(", ")], Some("application/msgpack"));
        // Thousands of MessagePack ranges are read as their first 64.
        let flood = vec!["application/vnd.a+msgpack;q=0.5"; 50_000].join(", ");
        check(&[&flood], Some("application/vnd.a+msgpack"));
    }

    #[test]
    fn quality_values() {
        assert_eq!(parse_quality("0"), Some(0));
        assert_eq!(parse_quality("0.5"), Some(500));
        assert_eq!(parse_quality("0.05"), Some(50));
        assert_eq!(parse_quality("0.001"), Some(1));
        assert_eq!(parse_quality("1"), Some(1000));
        assert_eq!(parse_quality("1.000"), Some(1000));
        assert_eq!(parse_quality("1.5"), None);
        assert_eq!(parse_quality("0.0001"), None);
        assert_eq!(parse_quality("2"), None);
        assert_eq!(parse_quality(""), None);
        assert_eq!(parse_quality("."), None);
    }
}
