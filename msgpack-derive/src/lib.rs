//! `#[derive(MsgPack)]` (in progress).
