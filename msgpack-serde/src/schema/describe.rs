//! [`Describe`]: the shape of a field type, and its impls for the std
//! types.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};

use super::{Registry, Shape};

/// Types with a known wire shape.
///
/// ```
/// use msgpack_serde::schema::{Describe, Registry, Schema, Shape, TypeDef};
/// use msgpack_serde::MsgPack;
///
/// /// Written as its string.
/// #[derive(serde::Serialize, serde::Deserialize)]
/// #[serde(transparent)]
/// struct Email(String);
///
/// impl Describe for Email {
///     fn shape(_: &mut Registry) -> Shape {
///         Shape::Str
///     }
/// }
///
/// #[derive(MsgPack)]
/// struct User { #[msgpack(tag = 1)] email: Email }
///
/// let TypeDef::Struct { fields, .. } = &User::schema().types["User"] else { panic!("not a struct") };
/// assert_eq!(fields[0].shape, Shape::Str); // without the impl: Shape::Other, the Rust type name
/// ```
pub trait Describe {
    /// The shape; derived types register their definition.
    ///
    /// ```
    /// use msgpack_serde::schema::{Describe, Registry};
    ///
    /// let mut registry = Registry::default();
    /// assert_eq!(<Vec<String>>::shape(&mut registry).to_string(), "[str]");
    /// assert_eq!(<Option<u64>>::shape(&mut registry).to_string(), "u64?");
    /// ```
    fn shape(registry: &mut Registry) -> Shape;
}

macro_rules! describe {
    ($shape:expr => $($ty:ty),*) => {$(
        impl Describe for $ty {
            fn shape(_: &mut Registry) -> Shape {
                $shape
            }
        }
    )*};
}

describe!(Shape::Bool => bool);
describe!(Shape::U8 => u8);
describe!(Shape::U16 => u16);
describe!(Shape::U32 => u32);
describe!(Shape::U64 => u64);
describe!(Shape::I8 => i8);
describe!(Shape::I16 => i16);
describe!(Shape::I32 => i32);
describe!(Shape::I64 => i64);
describe!(Shape::Int => u128, i128);
describe!(if usize::BITS == 32 { Shape::U32 } else { Shape::U64 } => usize);
describe!(if isize::BITS == 32 { Shape::I32 } else { Shape::I64 } => isize);
describe!(Shape::F32 => f32);
describe!(Shape::Float => f64);
describe!(Shape::Str => String, str, char);
describe!(Shape::Value => crate::Value);
describe!(Shape::Timestamp => crate::Timestamp);
#[cfg(feature = "serde_bytes")]
describe!(Shape::Bytes => serde_bytes::ByteBuf, serde_bytes::Bytes);

impl Describe for std::borrow::Cow<'_, str> {
    fn shape(_: &mut Registry) -> Shape {
        Shape::Str
    }
}

impl<T: Describe> Describe for Option<T> {
    fn shape(registry: &mut Registry) -> Shape {
        Shape::Optional(Box::new(T::shape(registry)))
    }
}

macro_rules! describe_wrapper {
    ($($wrapper:ident)::*) => {
        impl<T: Describe + ?Sized> Describe for $($wrapper)::*<T> {
            fn shape(registry: &mut Registry) -> Shape {
                T::shape(registry)
            }
        }
    };
}

describe_wrapper!(Box);
describe_wrapper!(std::rc::Rc);
describe_wrapper!(std::sync::Arc);

impl<T: Describe + ?Sized> Describe for &T {
    fn shape(registry: &mut Registry) -> Shape {
        T::shape(registry)
    }
}

macro_rules! describe_seq {
    ($($seq:ident),*) => {$(
        impl<T: Describe> Describe for $seq<T> {
            fn shape(registry: &mut Registry) -> Shape {
                Shape::Array(Box::new(T::shape(registry)))
            }
        }
    )*};
}

describe_seq!(Vec, VecDeque, BTreeSet);

impl<T: Describe, S> Describe for HashSet<T, S> {
    fn shape(registry: &mut Registry) -> Shape {
        Shape::Array(Box::new(T::shape(registry)))
    }
}

impl<T: Describe> Describe for [T] {
    fn shape(registry: &mut Registry) -> Shape {
        Shape::Array(Box::new(T::shape(registry)))
    }
}

impl<T: Describe, const N: usize> Describe for [T; N] {
    fn shape(registry: &mut Registry) -> Shape {
        Shape::Array(Box::new(T::shape(registry)))
    }
}

impl<K: Describe, V: Describe> Describe for BTreeMap<K, V> {
    fn shape(registry: &mut Registry) -> Shape {
        Shape::Map(Box::new(K::shape(registry)), Box::new(V::shape(registry)))
    }
}

impl<K: Describe, V: Describe, S> Describe for HashMap<K, V, S> {
    fn shape(registry: &mut Registry) -> Shape {
        Shape::Map(Box::new(K::shape(registry)), Box::new(V::shape(registry)))
    }
}

macro_rules! describe_tuple {
    ($($name:ident)+) => {
        impl<$($name: Describe),+> Describe for ($($name,)+) {
            fn shape(registry: &mut Registry) -> Shape {
                Shape::Tuple(vec![$($name::shape(registry)),+])
            }
        }
    };
}

describe_tuple!(A B);
describe_tuple!(A B C);
describe_tuple!(A B C D);
