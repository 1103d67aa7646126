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

/// `From` impls that are one expression each: `Type => |value| expression`.
macro_rules! from_one_expr {
    ($($(#[$doc:meta])* $ty:ty => |$value:pat_param| $into:expr;)*) => {$(
        $(#[$doc])*
        impl From<$ty> for Value {
            fn from($value: $ty) -> Value {
                $into
            }
        }
    )*};
}

from_one_expr! {
    Integer => |n| Value::Int(n);
    bool => |b| Value::Bool(b);
    f32 => |x| Value::F32(x);
    f64 => |x| Value::F64(x);
    String => |s| Value::Str(s);
    &str => |s| Value::Str(s.into());
    Cow<'_, str> => |s| Value::Str(s.into_owned());
    /// Bytes become bin. A `Vec<u8>` is bin too: build an array of integers
    /// with `Value::Array`.
    &[u8] => |bytes| Value::Bin(bytes.into());
    Vec<u8> => |bytes| Value::Bin(bytes);
    Vec<Value> => |items| Value::Array(items);
    Vec<(Value, Value)> => |pairs| Value::Map(pairs);
    /// A timestamp becomes the extension of type -1 in its smallest form.
    Timestamp => |t| Value::Ext(TIMESTAMP_EXT_TYPE, t.to_ext_data());
    () => |()| Value::Nil;
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
