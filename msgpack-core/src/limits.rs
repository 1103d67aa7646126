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

/// The values that open containers still owe, across all of them: the
/// rule every decoder here follows so that no declared length is trusted
/// for allocation. Each value takes at least one byte, so elements the
/// rest of the input cannot hold, together with those the enclosing
/// containers still owe, fail at the header that declares them (checking
/// each container alone would let nested headers each claim the whole
/// rest of the input, depth times over).
///
/// ```
/// use msgpack_core::Owed;
///
/// // [[nil, nil]]: the outer array's one element, then the inner one's two.
/// let owed = Owed::new(0).claimed(1, 5).unwrap();
/// let mut owed = owed;
/// owed.pay(1); // the inner array is read
/// let owed = owed.claimed(2, 3).unwrap();
/// assert_eq!(owed.get(), 2);
/// assert!(owed.claimed(4, 3).is_none()); // 6 values cannot fit in 3 bytes
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Owed(u64);

impl Owed {
    /// `values` owed: 1 for a walk over one whole value, 0 for a decoder
    /// that claims each container's elements at its header.
    #[inline]
    pub const fn new(values: u64) -> Owed {
        Owed(values)
    }

    /// How many values are owed.
    #[inline]
    pub const fn get(self) -> u64 {
        self.0
    }

    /// Whether every owed value can still fit in `remaining` bytes.
    #[inline]
    pub const fn fits(self, remaining: usize) -> bool {
        self.0 <= remaining as u64
    }

    /// Owed, plus the `count` values a container header declares, when
    /// they all fit in the `remaining` bytes after it; `None` otherwise.
    #[inline]
    pub const fn claimed(self, count: u64, remaining: usize) -> Option<Owed> {
        // Owed values fit in the input before, and a header declares at
        // most 2 * u32::MAX: the sum cannot overflow.
        let owed = Owed(self.0 + count);
        if owed.fits(remaining) {
            Some(owed)
        } else {
            None
        }
    }

    /// Adds `count` values without a check, for a walk that checks
    /// [`fits`](Owed::fits) before each value, or a stream framer that
    /// cannot know what is left (saturating: a stream can declare any
    /// number of elements).
    #[inline]
    pub fn add(&mut self, count: u64) {
        self.0 = self.0.saturating_add(count);
    }

    /// `count` owed values are about to be read.
    #[inline]
    pub fn pay(&mut self, count: u64) {
        self.0 -= count;
    }
}
