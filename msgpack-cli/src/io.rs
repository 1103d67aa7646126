//! Input from a file or standard input, output to a file or standard
//! output, and a progress bar for large inputs on a terminal.

use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};

use indicatif::{ProgressBar, ProgressStyle};

use crate::error::{Failure, Result};

/// Inputs at least this large get a progress bar (on a terminal).
const PROGRESS_FROM: u64 = 64 << 20;

/// The name errors give an input.
pub fn input_name(path: Option<&Path>) -> String {
    match path {
        Some(path) if path != Path::new("-") => path.display().to_string(),
        _ => "standard input".to_string(),
    }
}

/// A buffered reader of the input, with a progress bar on stderr when it
/// is a terminal and the input a large file.
pub fn open_input(path: Option<&PathBuf>) -> Result<Box<dyn BufRead>> {
    let name = input_name(path.map(PathBuf::as_path));
    match path {
        Some(path) if path != Path::new("-") => {
            let file = File::open(path).map_err(|error| Failure::io(&name, error))?;
            let len = file.metadata().map(|meta| meta.len()).unwrap_or(0);
            if len >= PROGRESS_FROM && io::stderr().is_terminal() {
                let bar = ProgressBar::new(len).with_style(
                    ProgressStyle::with_template(
                        "{bar:40} {binary_bytes}/{binary_total_bytes} {binary_bytes_per_sec} {eta}",
                    )
                    .unwrap_or_else(|_| ProgressStyle::default_bar()),
                );
                return Ok(Box::new(BufReader::with_capacity(
                    1 << 16,
                    bar.wrap_read(file),
                )));
            }
            Ok(Box::new(BufReader::with_capacity(1 << 16, file)))
        }
        _ => Ok(Box::new(BufReader::with_capacity(1 << 16, io::stdin()))),
    }
}

/// The whole input.
pub fn read_all(path: Option<&PathBuf>) -> Result<Vec<u8>> {
    let name = input_name(path.map(PathBuf::as_path));
    let mut bytes = Vec::new();
    open_input(path)?
        .read_to_end(&mut bytes)
        .map_err(|error| Failure::io(&name, error))?;
    Ok(bytes)
}

/// A buffered writer of the output.
pub fn open_output(path: Option<&PathBuf>) -> Result<Box<dyn Write>> {
    match path {
        Some(path) if path != Path::new("-") => {
            let file = File::create(path)
                .map_err(|error| Failure::io(&path.display().to_string(), error))?;
            Ok(Box::new(BufWriter::with_capacity(1 << 16, file)))
        }
        _ => Ok(Box::new(BufWriter::with_capacity(1 << 16, io::stdout()))),
    }
}
