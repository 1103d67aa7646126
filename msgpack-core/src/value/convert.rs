//! `From` conversions into `Value`.

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;

use super::Value;
use crate::{Integer, Timestamp, TIMESTAMP_EXT_TYPE};

macro_rules! from_integer {
    ($($ty:ty)*) => {$(
        impl From<$ty> for Value {
            fn from(n: $ty) -> Value {
                Value::Int(Integer::from(n))
            }
        }
    )*};
}

from_integer!(u8 u16 u32 u64 usize i8 i16 i32 i64 isize);

impl From<Integer> for Value {
    fn from(n: Integer) -> Value {
        Value::Int(n)
    }
}

impl From<bool> for Value {
    fn from(b: bool) -> Value {
        Value::Bool(b)
    }
}

impl From<f32> for Value {
    fn from(x: f32) -> Value {
        Value::F32(x)
    }
}

impl From<f64> for Value {
    fn from(x: f64) -> Value {
        Value::F64(x)
    }
}

impl From<String> for Value {
    fn from(s: String) -> Value {
        Value::Str(s)
    }
}

impl From<&str> for Value {
    fn from(s: &str) -> Value {
        Value::Str(s.into())
    }
}

impl From<Cow<'_, str>> for Value {
    fn from(s: Cow<'_, str>) -> Value {
        Value::Str(s.into_owned())
    }
}

/// Bytes become bin. A `Vec<u8>` is bin too: build an array of integers
/// with `Value::Array`.
impl From<&[u8]> for Value {
    fn from(bytes: &[u8]) -> Value {
        Value::Bin(bytes.into())
    }
}

impl From<Vec<u8>> for Value {
    fn from(bytes: Vec<u8>) -> Value {
        Value::Bin(bytes)
    }
}

impl From<Vec<Value>> for Value {
    fn from(items: Vec<Value>) -> Value {
        Value::Array(items)
    }
}

impl From<Vec<(Value, Value)>> for Value {
    fn from(pairs: Vec<(Value, Value)>) -> Value {
        Value::Map(pairs)
    }
}

/// A timestamp becomes the extension of type -1 in its smallest form.
impl From<Timestamp> for Value {
    fn from(t: Timestamp) -> Value {
        Value::Ext(TIMESTAMP_EXT_TYPE, t.to_ext_data())
    }
}

impl From<()> for Value {
    fn from((): ()) -> Value {
        Value::Nil
    }
}

impl<T: Into<Value>> From<Option<T>> for Value {
    fn from(option: Option<T>) -> Value {
        option.map_or(Value::Nil, Into::into)
    }
}

/// Collects an array.
impl<T: Into<Value>> FromIterator<T> for Value {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Value {
        Value::Array(iter.into_iter().map(Into::into).collect())
    }
}
