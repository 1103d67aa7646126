//! Bounds on what a decoder accepts from untrusted input.

/// Depth, value-count and size limits for decoding untrusted input.
///
/// | limit | default | exceeding it returns |
/// |---|---|---|
/// | [`max_depth`](Limits::max_depth): arrays and maps nested in each other | 128 | [`ErrorKind::DepthLimitExceeded`](crate::ErrorKind::DepthLimitExceeded) |
/// | [`max_values`](Limits::max_values): values decoded, containers and their elements alike | unlimited | [`ErrorKind::ValueLimitExceeded`](crate::ErrorKind::ValueLimitExceeded) |
/// | [`max_bytes`](Limits::max_bytes): bytes of input | unlimited | [`ErrorKind::SizeLimitExceeded`](crate::ErrorKind::SizeLimitExceeded) |
///
/// Whatever the limits, no decoder allocates room for more elements or
/// bytes than the rest of the input could hold (every value takes at least
/// one byte), so a header claiming 4 billion elements costs nothing.
///
/// ```
/// use msgpack_core::Limits;
///
/// let limits = Limits::default().max_depth(16).max_values(10_000).max_bytes(1 << 20);
/// assert_eq!(limits.depth(), 16);
/// assert_eq!(Limits::default().depth(), 128);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    depth: usize,
    values: usize,
    bytes: usize,
}

impl Limits {
    /// The default depth limit, the same as serde_json's recursion limit.
    pub const DEFAULT_DEPTH: usize = 128;

    /// Depth 128, no value-count or size limit.
    pub const fn new() -> Limits {
        Limits {
            depth: Limits::DEFAULT_DEPTH,
            values: usize::MAX,
            bytes: usize::MAX,
        }
    }

    /// No limit at all, for trusted input. Decoders that recurse still
    /// need stack for the depth the input has.
    pub const fn unlimited() -> Limits {
        Limits {
            depth: usize::MAX,
            values: usize::MAX,
            bytes: usize::MAX,
        }
    }

    /// Sets how deep arrays and maps may nest: a scalar has depth 0 and
    /// `[[1]]` has depth 2.
    #[must_use]
    pub const fn max_depth(mut self, depth: usize) -> Limits {
        self.depth = depth;
        self
    }

    /// Sets how many values may be decoded, counting each container and
    /// each element, key and value inside it.
    #[must_use]
    pub const fn max_values(mut self, values: usize) -> Limits {
        self.values = values;
        self
    }

    /// Sets how many bytes of input may be read.
    #[must_use]
    pub const fn max_bytes(mut self, bytes: usize) -> Limits {
        self.bytes = bytes;
        self
    }

    /// The depth limit.
    pub const fn depth(&self) -> usize {
        self.depth
    }

    /// The value-count limit (`usize::MAX` when unlimited).
    pub const fn values(&self) -> usize {
        self.values
    }

    /// The size limit in bytes (`usize::MAX` when unlimited).
    pub const fn bytes(&self) -> usize {
        self.bytes
    }
}

impl Default for Limits {
    fn default() -> Limits {
        Limits::new()
    }
}
