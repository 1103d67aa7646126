//! MessagePack for serde (in progress).
