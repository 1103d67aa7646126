//! Why JSON could not be read as MessagePack.

use std::fmt;

/// Why a JSON document could not be written as MessagePack: it is not
/// JSON, a tagged form is not what its tag says, it nests too deep, or
/// something follows it. Displays as serde_json's errors do (`trailing
/// characters at line 1 column 3`); [`offset`](Error::offset) gives the
/// byte offset of that position.
///
/// ```
/// use msgpack_serde::json::{self, FromJson};
///
/// let error = json::to_msgpack(b"[1,\n2 3]", FromJson::plain()).unwrap_err();
/// assert_eq!(error.to_string(), "expected `,` or `]` at line 2 column 3");
/// assert_eq!((error.message(), error.offset()), ("expected `,` or `]`", 6));
/// ```
#[derive(Debug)]
pub struct Error(Box<Inner>);

#[derive(Debug)]
struct Inner {
    message: String,
    line: usize,
    column: usize,
    offset: usize,
}

impl Error {
    /// The error serde_json reported on `json`, located in bytes.
    #[cold]
    pub(crate) fn new(error: &serde_json::Error, json: &[u8]) -> Error {
        let (line, column) = (error.line(), error.column());
        let text = error.to_string();
        let message = match text.rsplit_once(" at line ") {
            Some((message, _)) if line > 0 => message.to_string(),
            _ => text,
        };
        let line_start = if line <= 1 {
            0
        } else {
            json.iter()
                .enumerate()
                .filter(|(_, &byte)| byte == b'\n')
                .nth(line - 2)
                .map_or(json.len(), |(index, _)| index + 1)
        };
        let offset = (line_start + column.saturating_sub(1)).min(json.len());
        Error(Box::new(Inner {
            message,
            line,
            column,
            offset,
        }))
    }

    /// What is wrong, without where.
    pub fn message(&self) -> &str {
        &self.0.message
    }

    /// The byte offset in the input where it was found.
    pub fn offset(&self) -> usize {
        self.0.offset
    }

    /// The line where it was found, from 1 (0 when serde_json gave none).
    pub fn line(&self) -> usize {
        self.0.line
    }

    /// The column where it was found, from 1.
    pub fn column(&self) -> usize {
        self.0.column
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.line == 0 {
            return f.write_str(&self.0.message);
        }
        write!(
            f,
            "{} at line {} column {}",
            self.0.message, self.0.line, self.0.column
        )
    }
}

impl std::error::Error for Error {}
