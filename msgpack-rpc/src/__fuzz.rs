//! What the fuzz targets (`fuzz/`, feature `fuzzing`) call: the parse the
//! connection runs on each frame the codec cut out. Not part of the API.

use bytes::Bytes;

use crate::message::{self, Incoming};
use crate::{Message, MessageError};

/// Parses `frame` as the connection does, which takes it to be exactly
/// one whole value and so does not walk its last element.
pub fn parse_frame(frame: &Bytes) -> Result<Message, MessageError> {
    message::parse_frame(frame).map(Incoming::into_message)
}
