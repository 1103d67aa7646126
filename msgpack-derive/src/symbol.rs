//! The names `#[msgpack(...)]` takes, in one table: the parser matches on
//! these constants and lists them in its "expected one of" errors, as
//! serde_derive's `symbol.rs` does.

/// The attribute itself.
pub const MSGPACK: &str = "msgpack";

pub const ARRAY: &str = "array";
pub const CRATE: &str = "crate";
pub const DEFAULT: &str = "default";
pub const OMIT_DEFAULT: &str = "omit_default";
pub const OTHER: &str = "other";
pub const RENAME: &str = "rename";
pub const RENAME_ALL: &str = "rename_all";
pub const RESERVED: &str = "reserved";
pub const SKIP: &str = "skip";
pub const TAG: &str = "tag";
pub const UNKNOWN: &str = "unknown";
pub const WITH: &str = "with";

/// What a struct or enum takes, in the order errors list them.
pub const CONTAINER: &[&str] = &[ARRAY, OMIT_DEFAULT, RENAME_ALL, RESERVED, CRATE];
/// What a field takes.
pub const FIELD: &[&str] = &[TAG, RENAME, DEFAULT, OMIT_DEFAULT, SKIP, WITH, UNKNOWN];
/// What a variant takes.
pub const VARIANT: &[&str] = &[TAG, RENAME, OTHER];
