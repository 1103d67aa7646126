//! `Vary: Accept`, and the headers that re-encoding a body invalidates.

use http::header::{self, HeaderMap, HeaderName, HeaderValue, VARY};

/// Adds `Accept` to the response's `Vary`, so caches keep the JSON and the
/// MessagePack forms apart: merged into an existing `Vary` as one value,
/// left alone when it names `Accept` already or is `*`.
pub(crate) fn add_accept(headers: &mut HeaderMap) {
    let mut existing = headers.get_all(VARY).iter().peekable();
    if existing.peek().is_none() {
        headers.insert(VARY, HeaderValue::from_static("Accept"));
        return;
    }
    let mut merged = String::new();
    for value in existing {
        let Ok(text) = value.to_str() else {
            // Not text: keep it, and add Accept beside it.
            headers.append(VARY, HeaderValue::from_static("Accept"));
            return;
        };
        for token in text
            .split(',')
            .map(str::trim)
            .filter(|token| !token.is_empty())
        {
            if token == "*" || token.eq_ignore_ascii_case("accept") {
                return;
            }
            if !merged.is_empty() {
                merged.push_str(", ");
            }
            merged.push_str(token);
        }
    }
    merged.push_str(if merged.is_empty() {
        "Accept"
    } else {
        ", Accept"
    });
    if let Ok(value) = HeaderValue::from_str(&merged) {
        headers.insert(VARY, value);
    }
}

/// Headers that describe the bytes of a body, which no longer hold once
/// it is re-encoded.
const INVALIDATED: [HeaderName; 7] = [
    header::CONTENT_LENGTH,
    header::ETAG,
    HeaderName::from_static("content-md5"),
    HeaderName::from_static("digest"),
    HeaderName::from_static("content-digest"),
    HeaderName::from_static("repr-digest"),
    header::CONTENT_RANGE,
];

/// Removes the headers a re-encoding invalidates.
pub(crate) fn remove_invalidated(headers: &mut HeaderMap) {
    for name in &INVALIDATED {
        headers.remove(name);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vary_after(existing: &[&str]) -> Vec<String> {
        let mut headers = HeaderMap::new();
        for value in existing {
            headers.append(VARY, HeaderValue::from_str(value).unwrap());
        }
        add_accept(&mut headers);
        headers
            .get_all(VARY)
            .iter()
            .map(|value| value.to_str().unwrap().to_string())
            .collect()
    }

    #[test]
    fn vary_accept_is_added() {
        assert_eq!(vary_after(&[]), ["Accept"]);
    }

    #[test]
    fn vary_is_merged_into_one_value() {
        assert_eq!(vary_after(&["Origin"]), ["Origin, Accept"]);
        assert_eq!(
            vary_after(&["Origin, Accept-Encoding", "Cookie"]),
            ["Origin, Accept-Encoding, Cookie, Accept"]
        );
    }

    #[test]
    fn vary_naming_accept_is_kept() {
        assert_eq!(vary_after(&["accept"]), ["accept"]);
        assert_eq!(vary_after(&["Origin, ACCEPT"]), ["Origin, ACCEPT"]);
    }

    #[test]
    fn vary_star_is_kept() {
        assert_eq!(vary_after(&["*"]), ["*"]);
        assert_eq!(vary_after(&["Origin", "*"]), ["Origin", "*"]);
    }

    #[test]
    fn the_invalidated_headers_go() {
        let mut headers = HeaderMap::new();
        for name in &INVALIDATED {
            headers.insert(name, HeaderValue::from_static("x"));
        }
        headers.insert(
            header::CACHE_CONTROL,
            HeaderValue::from_static("max-age=60"),
        );
        remove_invalidated(&mut headers);
        assert_eq!(headers.len(), 1);
        assert!(headers.contains_key(header::CACHE_CONTROL));
    }
}
