//! A MessagePack integer, unsigned or negative.

use core::fmt;

/// A MessagePack integer: any value from `i64::MIN` to `u64::MAX`.
///
/// Non-negative values are always held (and written) as unsigned, so
/// `Integer::from(5i8) == Integer::from(5u64)`.
///
/// ```
/// use msgpack_core::Integer;
///
/// let n = Integer::from(-3);
/// assert_eq!(n.as_i64(), Some(-3));
/// assert_eq!(n.as_u64(), None);
/// assert_eq!(u8::try_from(Integer::from(300)).is_err(), true);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Integer(Repr);

/// Negative values sort before non-negative ones, as the derive on this
/// order of variants gives.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Repr {
    Negative(i64),
    Unsigned(u64),
}

impl Integer {
    /// The value as `u64`, if it is not negative.
    ///
    /// ```
    /// use msgpack_core::Integer;
    ///
    /// assert_eq!(Integer::from(7u8).as_u64(), Some(7));
    /// assert_eq!(Integer::from(-7).as_u64(), None);
    /// ```
    pub const fn as_u64(self) -> Option<u64> {
        match self.0 {
            Repr::Unsigned(n) => Some(n),
            Repr::Negative(_) => None,
        }
    }

    /// The value as `i64`, if it fits.
    ///
    /// ```
    /// use msgpack_core::Integer;
    ///
    /// assert_eq!(Integer::from(-7).as_i64(), Some(-7));
    /// assert_eq!(Integer::from(u64::MAX).as_i64(), None);
    /// ```
    pub const fn as_i64(self) -> Option<i64> {
        match self.0 {
            Repr::Unsigned(n) if n <= i64::MAX as u64 => Some(n as i64),
            Repr::Unsigned(_) => None,
            Repr::Negative(n) => Some(n),
        }
    }

    /// The value as `i128`, which holds every MessagePack integer.
    ///
    /// ```
    /// use msgpack_core::Integer;
    ///
    /// assert_eq!(Integer::from(u64::MAX).as_i128(), 18_446_744_073_709_551_615);
    /// assert_eq!(Integer::from(i64::MIN).as_i128(), -9_223_372_036_854_775_808);
    /// ```
    pub const fn as_i128(self) -> i128 {
        match self.0 {
            Repr::Unsigned(n) => n as i128,
            Repr::Negative(n) => n as i128,
        }
    }

    /// The value as `f64`, rounded to the nearest representable value.
    ///
    /// ```
    /// use msgpack_core::Integer;
    ///
    /// assert_eq!(Integer::from(-3).as_f64(), -3.0);
    /// assert_eq!(Integer::from(u64::MAX).as_f64(), 18_446_744_073_709_551_616.0); // 2^64
    /// ```
    pub fn as_f64(self) -> f64 {
        match self.0 {
            Repr::Unsigned(n) => n as f64,
            Repr::Negative(n) => n as f64,
        }
    }

    /// Whether the value is below zero.
    ///
    /// ```
    /// use msgpack_core::Integer;
    ///
    /// assert!(Integer::from(-1).is_negative());
    /// assert!(!Integer::from(0).is_negative());
    /// ```
    pub const fn is_negative(self) -> bool {
        matches!(self.0, Repr::Negative(_))
    }

    pub(crate) const fn from_u64(n: u64) -> Integer {
        Integer(Repr::Unsigned(n))
    }

    pub(crate) const fn from_i64(n: i64) -> Integer {
        if n >= 0 {
            Integer(Repr::Unsigned(n as u64))
        } else {
            Integer(Repr::Negative(n))
        }
    }
}

impl fmt::Debug for Integer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl fmt::Display for Integer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Repr::Unsigned(n) => fmt::Display::fmt(&n, f),
            Repr::Negative(n) => fmt::Display::fmt(&n, f),
        }
    }
}

/// The integer types a MessagePack integer can be read into, with the name
/// an out-of-range error gives. Sealed.
///
/// ```
/// use msgpack_core::{FromInteger, Integer, Reader};
///
/// assert_eq!(u8::from_integer(Integer::from(255)), Some(255));
/// assert_eq!(u8::from_integer(Integer::from(256)), None);
/// assert_eq!(Reader::new(&[0xff]).read_int::<i8>(), Ok(-1)); // any FromInteger type
/// ```
pub trait FromInteger: Sized + private::Sealed {
    /// The type's name, such as `"u8"`.
    ///
    /// ```
    /// use msgpack_core::{FromInteger, Reader};
    ///
    /// assert_eq!(<u16 as FromInteger>::NAME, "u16");
    /// let error = Reader::new(&[0xff]).read_int::<u16>().unwrap_err(); // -1
    /// assert_eq!(error.to_string(), "integer out of range for u16 at offset 0");
    /// ```
    const NAME: &'static str;

    /// The value, if it fits this type.
    ///
    /// ```
    /// use msgpack_core::{FromInteger, Integer};
    ///
    /// assert_eq!(i8::from_integer(Integer::from(-128)), Some(-128));
    /// assert_eq!(u128::from_integer(Integer::from(u64::MAX)), Some(u64::MAX as u128));
    /// assert_eq!(u128::from_integer(Integer::from(-1)), None);
    /// ```
    fn from_integer(n: Integer) -> Option<Self>;
}

mod private {
    pub trait Sealed {}
}

macro_rules! integer_conversions {
    ($($ty:ident)*) => {$(
        impl From<$ty> for Integer {
            #[inline]
            #[allow(unused_comparisons, clippy::cast_lossless)]
            fn from(n: $ty) -> Integer {
                if n >= 0 {
                    Integer::from_u64(n as u64)
                } else {
                    Integer::from_i64(n as i64)
                }
            }
        }

        impl private::Sealed for $ty {}

        impl FromInteger for $ty {
            const NAME: &'static str = stringify!($ty);

            #[inline]
            fn from_integer(n: Integer) -> Option<$ty> {
                match n.0 {
                    Repr::Unsigned(n) => $ty::try_from(n).ok(),
                    Repr::Negative(n) => $ty::try_from(n).ok(),
                }
            }
        }

        impl TryFrom<Integer> for $ty {
            type Error = OutOfRange;

            #[inline]
            fn try_from(n: Integer) -> Result<$ty, OutOfRange> {
                <$ty as FromInteger>::from_integer(n).ok_or(OutOfRange)
            }
        }
    )*};
}

integer_conversions!(u8 u16 u32 u64 usize i8 i16 i32 i64 isize);

impl private::Sealed for u128 {}
impl private::Sealed for i128 {}

impl FromInteger for u128 {
    const NAME: &'static str = "u128";

    fn from_integer(n: Integer) -> Option<u128> {
        n.as_u64().map(u128::from)
    }
}

impl FromInteger for i128 {
    const NAME: &'static str = "i128";

    fn from_integer(n: Integer) -> Option<i128> {
        Some(n.as_i128())
    }
}

impl TryFrom<u128> for Integer {
    type Error = OutOfRange;

    fn try_from(n: u128) -> Result<Integer, OutOfRange> {
        u64::try_from(n)
            .map(Integer::from_u64)
            .map_err(|_| OutOfRange)
    }
}

impl TryFrom<i128> for Integer {
    type Error = OutOfRange;

    fn try_from(n: i128) -> Result<Integer, OutOfRange> {
        if n >= 0 {
            u64::try_from(n)
                .map(Integer::from_u64)
                .map_err(|_| OutOfRange)
        } else {
            i64::try_from(n)
                .map(Integer::from_i64)
                .map_err(|_| OutOfRange)
        }
    }
}

/// An integer that does not fit the type it was converted to.
///
/// ```
/// use msgpack_core::{Integer, OutOfRange};
///
/// assert_eq!(u8::try_from(Integer::from(256)), Err(OutOfRange));
/// assert_eq!(Integer::try_from(u128::MAX), Err(OutOfRange)); // beyond u64::MAX
/// assert_eq!(OutOfRange.to_string(), "integer out of range");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OutOfRange;

crate::error::unit_error!(OutOfRange, "integer out of range");

#[cfg(feature = "serde")]
impl serde::Serialize for Integer {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.as_u64() {
            Some(n) => serializer.serialize_u64(n),
            None => serializer.serialize_i64(self.as_i128() as i64),
        }
    }
}
