//! How a command fails: one line on stderr and an exit code.

use std::fmt;
use std::io;
use std::process::ExitCode;

use crate::frames::FrameError;

/// A failed command.
#[derive(Debug)]
pub enum Failure {
    /// The data is invalid: exit 1.
    Invalid(String),
    /// A usage or I/O error: exit 2.
    Usage(String),
    /// The reader of our output went away (`| head`): stop quietly.
    BrokenPipe,
}

impl Failure {
    pub fn invalid(message: impl fmt::Display) -> Failure {
        Failure::Invalid(message.to_string())
    }

    /// An I/O error on `what` (a path, or "standard input").
    pub fn io(what: &str, error: io::Error) -> Failure {
        if error.kind() == io::ErrorKind::BrokenPipe {
            return Failure::BrokenPipe;
        }
        Failure::Usage(format!("{what}: {error}"))
    }

    /// A failure framing value `number` of a stream (`decode --lines`,
    /// `validate --lines`).
    pub fn frame(error: FrameError, number: usize, name: &str) -> Failure {
        match error {
            FrameError::Invalid(error) => Failure::invalid(format!("line {number}: {error}")),
            FrameError::TooLarge { offset, limit } => Failure::invalid(format!(
                "line {number}: value exceeds the size limit of {limit} bytes at offset {}",
                offset + limit
            )),
            FrameError::Io(error) => Failure::io(name, error),
        }
    }

    /// Prints the message and gives the exit code.
    pub fn report(self) -> ExitCode {
        match self {
            Failure::Invalid(message) => {
                eprintln!("msgpack: {message}");
                ExitCode::from(1)
            }
            Failure::Usage(message) => {
                eprintln!("msgpack: {message}");
                ExitCode::from(2)
            }
            Failure::BrokenPipe => ExitCode::SUCCESS,
        }
    }
}

/// Writing the output failed.
impl From<io::Error> for Failure {
    fn from(error: io::Error) -> Failure {
        Failure::io("writing the output", error)
    }
}

pub type Result<T> = std::result::Result<T, Failure>;
