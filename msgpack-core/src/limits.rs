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
    ///
    /// ```
    /// use msgpack_core::Limits;
    ///
    /// assert_eq!(Limits::DEFAULT_DEPTH, 128);
    /// assert_eq!(Limits::new().depth(), Limits::DEFAULT_DEPTH);
    /// ```
    pub const DEFAULT_DEPTH: usize = 128;

    /// Depth 128, no value-count or size limit.
    ///
    /// ```
    /// use msgpack_core::Limits;
    ///
    /// let limits = Limits::new();
    /// assert_eq!((limits.depth(), limits.values(), limits.bytes()), (128, usize::MAX, usize::MAX));
    /// assert_eq!(limits, Limits::default());
    /// ```
    pub const fn new() -> Limits {
        Limits {
            depth: Limits::DEFAULT_DEPTH,
            values: usize::MAX,
            bytes: usize::MAX,
        }
    }

    /// No limit at all, for trusted input. Decoders that recurse still
    /// need stack for the depth the input has.
    ///
    /// ```
    /// use msgpack_core::{Limits, Reader, Value};
    ///
    /// let deep = [[0x91; 200].as_slice(), &[0xc0]].concat(); // [[[...[nil]...]]], 200 deep
    /// let error = Value::from_slice(&deep).unwrap_err();
    /// assert_eq!(error.to_string(), "nesting exceeds the depth limit of 128 at offset 128");
    /// let mut reader = Reader::with_limits(&deep, Limits::unlimited()).unwrap();
    /// assert!(Value::decode(&mut reader).is_ok());
    /// ```
    pub const fn unlimited() -> Limits {
        Limits {
            depth: usize::MAX,
            values: usize::MAX,
            bytes: usize::MAX,
        }
    }

    /// Sets how deep arrays and maps may nest: a scalar has depth 0 and
    /// `[[1]]` has depth 2.
    ///
    /// ```
    /// use msgpack_core::{Limits, Reader, Value};
    ///
    /// let input = [0x91, 0x91, 0x01]; // [[1]]
    /// let mut reader = Reader::with_limits(&input, Limits::new().max_depth(2)).unwrap();
    /// assert!(Value::decode(&mut reader).is_ok());
    /// let mut reader = Reader::with_limits(&input, Limits::new().max_depth(1)).unwrap();
    /// let error = Value::decode(&mut reader).unwrap_err();
    /// assert_eq!(error.to_string(), "nesting exceeds the depth limit of 1 at offset 1");
    /// ```
    #[must_use]
    pub const fn max_depth(mut self, depth: usize) -> Limits {
        self.depth = depth;
        self
    }

    /// Sets how many values may be decoded, counting each container and
    /// each element, key and value inside it. A container's elements are
    /// counted when its header is read: the error names the header's
    /// offset, and nothing inside is decoded first.
    ///
    /// ```
    /// use msgpack_core::{Limits, Reader, Value};
    ///
    /// let input = [0x92, 0x01, 0x02]; // [1, 2]: three values
    /// let mut reader = Reader::with_limits(&input, Limits::new().max_values(2)).unwrap();
    /// let error = Value::decode(&mut reader).unwrap_err();
    /// assert_eq!(error.to_string(), "more values than the limit of 2 at offset 0");
    /// ```
    #[must_use]
    pub const fn max_values(mut self, values: usize) -> Limits {
        self.values = values;
        self
    }

    /// Sets how many bytes of input may be read.
    ///
    /// ```
    /// use msgpack_core::{Limits, Reader};
    ///
    /// let error = Reader::with_limits(&[0x92, 0x01, 0x02], Limits::new().max_bytes(2)).unwrap_err();
    /// assert_eq!(error.to_string(), "input exceeds the size limit of 2 bytes at offset 2");
    /// ```
    #[must_use]
    pub const fn max_bytes(mut self, bytes: usize) -> Limits {
        self.bytes = bytes;
        self
    }

    /// The depth limit.
    ///
    /// ```
    /// use msgpack_core::Limits;
    ///
    /// assert_eq!(Limits::new().max_depth(16).depth(), 16);
    /// ```
    pub const fn depth(&self) -> usize {
        self.depth
    }

    /// The value-count limit (`usize::MAX` when unlimited).
    ///
    /// ```
    /// use msgpack_core::Limits;
    ///
    /// assert_eq!(Limits::new().values(), usize::MAX);
    /// assert_eq!(Limits::new().max_values(10_000).values(), 10_000);
    /// ```
    pub const fn values(&self) -> usize {
        self.values
    }

    /// The size limit in bytes (`usize::MAX` when unlimited).
    ///
    /// ```
    /// use msgpack_core::Limits;
    ///
    /// assert_eq!(Limits::new().bytes(), usize::MAX);
    /// assert_eq!(Limits::new().max_bytes(1 << 20).bytes(), 1_048_576);
    /// ```
    pub const fn bytes(&self) -> usize {
        self.bytes
    }
}

impl Default for Limits {
    fn default() -> Limits {
        Limits::new()
    }
}
