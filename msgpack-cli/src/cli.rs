//! The command line, as clap reads it.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

/// Convert, inspect and validate MessagePack, and compare schemas.
///
/// Reads standard input when no FILE is given and writes standard output
/// unless -o is. Exits 0 on success, 1 on invalid data, 2 on a usage or
/// I/O error.
#[derive(Debug, Parser)]
#[command(name = "msgpack", version, propagate_version = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// JSON to MessagePack: integers exact, tagged forms ({"$bin": ...},
    /// {"$timestamp": ...}, ...) to bin, ext and timestamps.
    Encode(EncodeArgs),
    /// MessagePack to JSON, with tagged forms for what JSON cannot hold
    /// (--plain for ordinary, lossy JSON).
    Decode(DecodeArgs),
    /// An annotated dump: offset, bytes, format and value of every item.
    Inspect(InspectArgs),
    /// Check MessagePack against the format's rules and limits, without
    /// building the value. Exits 1 at the first problem.
    Validate(ValidateArgs),
    /// Schema documents (written from `T::schema()`).
    #[command(subcommand)]
    Schema(SchemaCommand),
    /// Shell completions for msgpack.
    Completions(CompletionsArgs),
}

/// Where input comes from and output goes.
#[derive(Debug, Args)]
pub struct Io {
    /// The input file (standard input when absent or "-").
    pub file: Option<PathBuf>,
    /// The output file (standard output when absent).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct EncodeArgs {
    #[command(flatten)]
    pub io: Io,
    /// Read JSON Lines: one value per line, written back to back.
    #[arg(long)]
    pub lines: bool,
    /// Write floats that are exact in 32 bits as float 32.
    #[arg(long)]
    pub f32: bool,
    /// A schema document (`T::schema()` as JSON): read field and variant names
    /// as their tags, unknown tags kept as "#N".
    #[arg(long, value_name = "SCHEMA")]
    pub schema: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct DecodeArgs {
    #[command(flatten)]
    pub io: Io,
    /// Read a stream of values and write one JSON line each.
    #[arg(long)]
    pub lines: bool,
    /// Indent the JSON.
    #[arg(long, conflicts_with = "lines")]
    pub pretty: bool,
    /// Ordinary JSON for jq and friends: bin as base64 strings, timestamps
    /// as RFC 3339 strings, keys as strings (not reversible).
    #[arg(long)]
    pub plain: bool,
    /// A schema document (`T::schema()` as JSON): field and variant names
    /// instead of tags, unknown tags kept as "#N".
    #[arg(long, value_name = "SCHEMA")]
    pub schema: Option<PathBuf>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Color {
    /// Colour when writing to a terminal and NO_COLOR is unset.
    Auto,
    Always,
    Never,
}

#[derive(Debug, Args)]
pub struct InspectArgs {
    #[command(flatten)]
    pub io: Io,
    /// Show items nested at most this deep; deeper ones are collapsed.
    #[arg(long, value_name = "N")]
    pub max_depth: Option<usize>,
    /// Show at most this many elements of each array or map.
    #[arg(long, value_name = "N")]
    pub max_items: Option<usize>,
    /// Print where the bytes go instead: per key path and per type.
    #[arg(long)]
    pub summary: bool,
    /// When to colour the output.
    #[arg(long, value_enum, default_value_t = Color::Auto)]
    pub color: Color,
    /// A schema document (`T::schema()` as JSON): each tag annotated with
    /// its field or variant name.
    #[arg(long, value_name = "SCHEMA", conflicts_with = "summary")]
    pub schema: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct ValidateArgs {
    /// The input file (standard input when absent or "-").
    pub file: Option<PathBuf>,
    /// Check a stream of values back to back, not one value.
    #[arg(long)]
    pub lines: bool,
    /// The deepest nesting allowed (`[[1]]` has depth 2).
    #[arg(long, value_name = "N", default_value_t = 128)]
    pub max_depth: usize,
    /// The most values allowed in one value (each container, element, key
    /// and value counts one).
    #[arg(long, value_name = "N")]
    pub max_values: Option<usize>,
    /// The most bytes allowed in one value.
    #[arg(long, value_name = "N")]
    pub max_bytes: Option<usize>,
}

#[derive(Debug, Subcommand)]
pub enum SchemaCommand {
    /// List the breaking changes from OLD to NEW; exits 1 when there are any.
    Check(SchemaCheckArgs),
    /// Generate TypeScript or Python readers and writers of the types in a
    /// schema document.
    Codegen(SchemaCodegenArgs),
    /// Write the JSON Schema (draft 2020-12) of the types' JSON form.
    JsonSchema(SchemaJsonSchemaArgs),
}

/// The languages `schema codegen` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CodegenLanguage {
    /// TypeScript for npm's @msgpack/msgpack.
    Typescript,
    /// Python (3.10 or later) for PyPI's msgpack.
    Python,
}

#[derive(Debug, Args)]
pub struct SchemaCodegenArgs {
    /// The language to generate.
    #[arg(long, value_enum)]
    pub lang: CodegenLanguage,
    /// The schema document (written from `T::schema()`).
    pub schema: PathBuf,
    /// The folder to write the file into, named after the root type
    /// (standard output when absent).
    #[arg(short, long, value_name = "DIR")]
    pub output: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct SchemaJsonSchemaArgs {
    /// The schema document (written from `T::schema()`).
    pub schema: PathBuf,
    /// The output file (standard output when absent).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct SchemaCheckArgs {
    /// The schema document of the version deployed.
    pub old: PathBuf,
    /// The schema document of the version to deploy.
    pub new: PathBuf,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to complete for.
    pub shell: clap_complete::Shell,
}
