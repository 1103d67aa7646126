//! What `#[derive(MsgPack)]` types look like on the wire, as data: a
//! schema document to commit next to the code (like a `.proto` file), and
//! a check that a new version still reads and writes what the old one did.
//!
//! ```
//! use msgpack_serde::schema::{check_compatible, Schema};
//! use msgpack_serde::MsgPack;
//!
//! mod v1 {
//!     #[derive(msgpack_serde::MsgPack)]
//!     pub struct Order {
//!         #[msgpack(tag = 1)] pub id: u64,
//!         #[msgpack(tag = 2)] pub note: Option<String>,
//!     }
//! }
//! mod v2 {
//!     #[derive(msgpack_serde::MsgPack)]
//!     #[msgpack(reserved(2))]
//!     pub struct Order {
//!         #[msgpack(tag = 1)] pub id: u64,
//!         #[msgpack(tag = 3)] pub customer: String, // new and required: breaks old writers
//!     }
//! }
//!
//! let report = check_compatible(&v1::Order::schema(), &v2::Order::schema());
//! assert_eq!(
//!     report.to_string(),
//!     "Order: new field `customer` (tag 3) is required, but older writers do not send it\n"
//! );
//! ```

//!
//! - here: the model ([`Schema`], [`SchemaDocument`], [`TypeDef`],
//!   [`Shape`], ...) and the [`Registry`] derived code fills;
//! - `describe.rs`: [`Describe`], the shapes of the std types;
//! - `check.rs`: [`check_compatible`] and its [`CompatibilityReport`].

mod check;
mod describe;

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

pub use check::{check_compatible, CompatibilityReport};
pub use describe::Describe;

/// A type described by `#[derive(MsgPack)]`.
///
/// ```
/// use msgpack_serde::schema::Schema;
/// use msgpack_serde::MsgPack;
///
/// #[derive(MsgPack)]
/// struct Point { #[msgpack(tag = 1)] x: i32, #[msgpack(tag = 2)] y: Option<i32> }
///
/// let doc = Point::schema();
/// assert_eq!(doc.root, "Point");
/// assert_eq!(
///     serde_json::to_string(&doc.types["Point"]).unwrap(),
///     r#"{"kind":"struct","layout":"map","fields":[{"name":"x","tag":1,"shape":"i32","presence":"required"},{"name":"y","tag":2,"shape":{"optional":"i32"},"presence":"optional"}]}"#
/// );
/// ```
pub trait Schema {
    /// The type's name in schema documents.
    ///
    /// ```
    /// use msgpack_serde::schema::Schema;
    /// use msgpack_serde::MsgPack;
    ///
    /// #[derive(MsgPack)]
    /// struct Order { #[msgpack(tag = 1)] id: u64 }
    ///
    /// assert_eq!(Order::NAME, "Order");
    /// ```
    const NAME: &'static str;

    /// The type's definition; nested derived types go into `registry`.
    ///
    /// ```
    /// use msgpack_serde::schema::{Layout, Registry, Schema, TypeDef};
    /// use msgpack_serde::MsgPack;
    ///
    /// #[derive(MsgPack)]
    /// #[msgpack(array)]
    /// struct Pair { #[msgpack(tag = 0)] a: u8, #[msgpack(tag = 1)] b: u8 }
    ///
    /// let TypeDef::Struct { layout, fields, .. } = Pair::definition(&mut Registry::default()) else {
    ///     panic!("not a struct")
    /// };
    /// assert_eq!(layout, Layout::Array);
    /// assert_eq!(fields.iter().map(|f| f.tag).collect::<Vec<_>>(), [0, 1]);
    /// ```
    fn definition(registry: &mut Registry) -> TypeDef;

    /// The schema document of this type and every derived type it uses.
    ///
    /// ```
    /// use msgpack_serde::schema::Schema;
    /// use msgpack_serde::MsgPack;
    ///
    /// #[derive(MsgPack)]
    /// struct Point { #[msgpack(tag = 1)] x: i32 }
    ///
    /// #[derive(MsgPack)]
    /// struct Line { #[msgpack(tag = 1)] from: Point, #[msgpack(tag = 2)] to: Point }
    ///
    /// let doc = Line::schema();
    /// assert_eq!(doc.root, "Line");
    /// assert_eq!(doc.types.keys().collect::<Vec<_>>(), ["Line", "Point"]);
    /// ```
    fn schema() -> SchemaDocument
    where
        Self: Sized,
    {
        let mut registry = Registry::default();
        registry.named::<Self>();
        SchemaDocument {
            root: Self::NAME.to_string(),
            types: registry.types,
        }
    }
}

/// A whole schema: a root type and the definitions of every derived type
/// reachable from it. Serializes to JSON (or MessagePack) to be committed
/// and compared later.
///
/// ```
/// use msgpack_serde::schema::{check_compatible, Schema, SchemaDocument};
/// use msgpack_serde::MsgPack;
///
/// #[derive(MsgPack)]
/// struct Point { #[msgpack(tag = 1)] x: i32 }
///
/// let json = serde_json::to_string(&Point::schema()).unwrap();
/// assert_eq!(
///     json,
///     r#"{"root":"Point","types":{"Point":{"kind":"struct","layout":"map","fields":[{"name":"x","tag":1,"shape":"i32","presence":"required"}]}}}"#
/// );
/// let committed: SchemaDocument = serde_json::from_str(&json).unwrap();
/// assert!(check_compatible(&committed, &Point::schema()).is_compatible());
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SchemaDocument {
    /// The name of the type the document describes.
    pub root: String,
    /// Every derived type by name.
    pub types: BTreeMap<String, TypeDef>,
}

/// The definition of one derived type.
///
/// ```
/// use msgpack_serde::schema::Schema;
/// use msgpack_serde::MsgPack;
///
/// #[derive(MsgPack)]
/// #[msgpack(reserved(3))]
/// enum Status { #[msgpack(tag = 1)] Pending, #[msgpack(tag = 2)] Shipped(String) }
///
/// assert_eq!(
///     serde_json::to_string(&Status::schema().types["Status"]).unwrap(),
///     r#"{"kind":"enum","variants":[{"name":"Pending","tag":1,"payload":"unit"},{"name":"Shipped","tag":2,"payload":{"newtype":"str"}}],"reserved":[[3,3]]}"#
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TypeDef {
    /// A struct: its fields by tag.
    Struct {
        /// `map` (keyed by tag) or `array` (indexed by tag).
        layout: Layout,
        /// The fields written on the wire.
        fields: Vec<FieldDef>,
        /// Tags that must never be used again, as inclusive ranges.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        reserved: Vec<(u64, u64)>,
        /// Whether the struct keeps the fields it does not know (a field
        /// of type [`UnknownFields`](crate::UnknownFields)) and writes
        /// them back.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        unknown: bool,
        /// Whether it is a unit struct (`struct Ping;`): nil on the wire,
        /// `null` in JSON, and no fields.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        unit: bool,
    },
    /// An enum: its variants by tag.
    Enum {
        /// The variants.
        variants: Vec<VariantDef>,
        /// Tags that must never be used again, as inclusive ranges.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        reserved: Vec<(u64, u64)>,
    },
}

/// How a struct is laid out in binary formats.
///
/// ```
/// use msgpack_serde::schema::{Layout, Schema, TypeDef};
/// use msgpack_serde::MsgPack;
///
/// #[derive(MsgPack)]
/// #[msgpack(array)]
/// struct Pair { #[msgpack(tag = 0)] a: u8, #[msgpack(tag = 1)] b: u8 }
///
/// let TypeDef::Struct { layout, .. } = &Pair::schema().types["Pair"] else { panic!("not a struct") };
/// assert_eq!(*layout, Layout::Array);
/// assert_eq!(msgpack_serde::to_vec(&Pair { a: 1, b: 2 }).unwrap(), [0x92, 0x01, 0x02]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Layout {
    /// A map keyed by tag.
    Map,
    /// An array indexed by tag.
    Array,
}

/// One field of a struct or struct variant.
///
/// ```
/// use msgpack_serde::schema::{FieldDef, Presence, Schema, Shape, TypeDef};
/// use msgpack_serde::MsgPack;
///
/// #[derive(MsgPack)]
/// struct User { #[msgpack(tag = 1, rename = "userName")] name: String }
///
/// let TypeDef::Struct { fields, .. } = &User::schema().types["User"] else { panic!("not a struct") };
/// let expected = FieldDef {
///     name: "userName".into(),
///     tag: 1,
///     shape: Shape::Str,
///     presence: Presence::Required,
///     omit_default: false,
///     default: None,
/// };
/// assert_eq!(fields[0], expected);
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FieldDef {
    /// The field's name in human-readable formats.
    pub name: String,
    /// The field number.
    pub tag: u64,
    /// The shape of the field's type.
    pub shape: Shape,
    /// What happens when the field is absent.
    pub presence: Presence,
    /// Whether a value equal to the default is left out
    /// (`#[msgpack(omit_default)]`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub omit_default: bool,
    /// The default's MessagePack bytes (hex in JSON), which a reader takes
    /// for an absent `default` field, written through the field's `with`
    /// module when it has one: known unless the field's type names one of
    /// the struct's type parameters (or, through `with`, a lifetime).
    ///
    /// ```
    /// use msgpack_serde::schema::{Schema, TypeDef};
    /// use msgpack_serde::MsgPack;
    ///
    /// fn three() -> u8 { 3 }
    ///
    /// #[derive(MsgPack)]
    /// struct Job { #[msgpack(tag = 1, default = "three", omit_default)] retries: u8 }
    ///
    /// let TypeDef::Struct { fields, .. } = &Job::schema().types["Job"] else { panic!("not a struct") };
    /// assert_eq!(fields[0].default.as_deref(), Some(&[0x03][..]));
    /// assert!(serde_json::to_string(&fields[0]).unwrap().ends_with(r#""omit_default":true,"default":"03"}"#));
    /// ```
    #[serde(default, skip_serializing_if = "Option::is_none", with = "hex")]
    pub default: Option<Vec<u8>>,
}

impl FieldDef {
    /// Whether a nil at this field's position in an [`Layout::Array`]
    /// struct is the field's value rather than a gap: the writer never
    /// leaves the field out (it is not `omit_default`, and not
    /// [`Presence::Optional`], which is left out when `None`), and its
    /// shape reads nil ([`Shape::Value`], [`Shape::Optional`], a unit
    /// struct, or a type without a schema, such as `()`: a reader cannot
    /// know whether such a type reads nil, and takes it to, as it takes
    /// the type's value to be any value). `types` are the document's,
    /// where a [`Shape::Named`] is looked up.
    ///
    /// ```
    /// use msgpack_serde::schema::{Schema, TypeDef};
    /// use msgpack_serde::{MsgPack, Value};
    ///
    /// #[derive(MsgPack)]
    /// #[msgpack(array)]
    /// struct Row {
    ///     #[msgpack(tag = 0)] id: u32,
    ///     #[msgpack(tag = 1)] note: Option<String>,
    ///     #[msgpack(tag = 2)] extra: Value,
    /// }
    ///
    /// let doc = Row::schema();
    /// let TypeDef::Struct { fields, .. } = &doc.types["Row"] else { panic!("not a struct") };
    /// let nil_is_value: Vec<bool> = fields.iter().map(|f| f.nil_is_value(&doc.types)).collect();
    /// assert_eq!(nil_is_value, [false, false, true]);
    ///
    /// // `[7, nil, nil]`: `note` is absent (a gap), `extra` is `Value::Nil`.
    /// let row: Row = msgpack_serde::from_slice(&[0x93, 0x07, 0xc0, 0xc0]).unwrap();
    /// assert_eq!((row.note, row.extra), (None, Value::Nil));
    /// ```
    pub fn nil_is_value(&self, types: &BTreeMap<String, TypeDef>) -> bool {
        let reads_nil = match &self.shape {
            Shape::Value | Shape::Optional(_) | Shape::Other(_) => true,
            Shape::Named(name) => {
                matches!(types.get(name), Some(TypeDef::Struct { unit: true, .. }))
            }
            _ => false,
        };
        reads_nil && !self.omit_default && self.presence != Presence::Optional
    }
}

/// [`FieldDef::default`] as a hex string.
mod hex {
    use serde::de::Error;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(
        bytes: &Option<Vec<u8>>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        match bytes {
            Some(bytes) => {
                let text: String = bytes.iter().map(|byte| format!("{byte:02x}")).collect();
                serializer.serialize_some(&text)
            }
            None => serializer.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Option<Vec<u8>>, D::Error> {
        let Some(text) = Option::<String>::deserialize(deserializer)? else {
            return Ok(None);
        };
        let digit = |c: u8| {
            (c as char)
                .to_digit(16)
                .ok_or_else(|| D::Error::custom("default: not a hex digit"))
        };
        if text.len() % 2 != 0 {
            return Err(D::Error::custom("default: odd number of hex digits"));
        }
        text.as_bytes()
            .chunks(2)
            .map(|pair| Ok((digit(pair[0])? * 16 + digit(pair[1])?) as u8))
            .collect::<Result<Vec<u8>, D::Error>>()
            .map(Some)
    }
}

/// What a reader does when a field is absent.
///
/// ```
/// use msgpack_serde::schema::{Presence, Schema, TypeDef};
/// use msgpack_serde::MsgPack;
///
/// #[derive(MsgPack)]
/// struct Job {
///     #[msgpack(tag = 1)] id: u64,
///     #[msgpack(tag = 2)] note: Option<String>,
///     #[msgpack(tag = 3, default)] retries: u8,
/// }
///
/// let TypeDef::Struct { fields, .. } = &Job::schema().types["Job"] else { panic!("not a struct") };
/// let presence: Vec<Presence> = fields.iter().map(|f| f.presence).collect();
/// assert_eq!(presence, [Presence::Required, Presence::Optional, Presence::Default]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Presence {
    /// Absent is an error.
    Required,
    /// An `Option`: absent is `None`.
    Optional,
    /// Absent takes a default value.
    Default,
}

/// One variant of an enum.
///
/// ```
/// use msgpack_serde::schema::{Payload, Schema, TypeDef, VariantDef};
/// use msgpack_serde::MsgPack;
///
/// #[derive(MsgPack)]
/// enum Status { #[msgpack(tag = 1)] Active, #[msgpack(tag = 0, other)] Unknown }
///
/// let TypeDef::Enum { variants, .. } = &Status::schema().types["Status"] else { panic!("not an enum") };
/// let expected = VariantDef { name: "Unknown".into(), tag: 0, payload: Payload::Unit, other: true };
/// assert_eq!(variants[1], expected);
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct VariantDef {
    /// The variant's name in human-readable formats.
    pub name: String,
    /// The variant number.
    pub tag: u64,
    /// What the variant carries.
    pub payload: Payload,
    /// Whether it catches unknown tags (`#[msgpack(other)]`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub other: bool,
}

/// What an enum variant carries.
///
/// ```
/// use msgpack_serde::schema::{Payload, Schema, Shape, TypeDef};
/// use msgpack_serde::MsgPack;
///
/// #[derive(MsgPack)]
/// enum Figure {
///     #[msgpack(tag = 1)] Circle(f64),
///     #[msgpack(tag = 2)] Rect(f64, f64),
///     #[msgpack(tag = 3)] Polygon { #[msgpack(tag = 1)] sides: u8 },
/// }
///
/// let TypeDef::Enum { variants, .. } = &Figure::schema().types["Figure"] else { panic!("not an enum") };
/// assert_eq!(variants[0].payload, Payload::Newtype(Shape::Float));
/// assert_eq!(variants[1].payload, Payload::Tuple(vec![Shape::Float, Shape::Float]));
/// assert!(matches!(&variants[2].payload, Payload::Struct(fields) if fields[0].name == "sides"));
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Payload {
    /// Nothing: the variant is its tag.
    Unit,
    /// One value.
    Newtype(Shape),
    /// Several values, as an array.
    Tuple(Vec<Shape>),
    /// Fields by tag, as a struct.
    Struct(Vec<FieldDef>),
}

/// The shape of a field's type, as far as the wire is concerned: an
/// integer with its range (`u8` ... `i64`), a float with its width, all
/// string types `str`.
///
/// ```
/// use msgpack_serde::schema::{Describe, Registry, Shape};
/// use std::collections::HashMap;
///
/// let shape = <Option<Vec<u8>>>::shape(&mut Registry::default());
/// assert_eq!(shape, Shape::Optional(Box::new(Shape::Array(Box::new(Shape::U8)))));
/// assert_eq!(shape.to_string(), "[u8]?");
/// let shape = <HashMap<String, (bool, f32, f64)>>::shape(&mut Registry::default());
/// assert_eq!(shape.to_string(), "{str: (bool, f32, float)}");
/// assert_eq!(serde_json::to_string(&Shape::I16).unwrap(), r#""i16""#);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Shape {
    /// `bool`
    Bool,
    /// `u8`
    U8,
    /// `u16`
    U16,
    /// `u32` (and `usize` where it has 32 bits)
    U32,
    /// `u64`, `usize`
    U64,
    /// `i8`
    I8,
    /// `i16`
    I16,
    /// `i32` (and `isize` where it has 32 bits)
    I32,
    /// `i64`, `isize`
    I64,
    /// An integer of any range MessagePack holds: `u128`, `i128`, and
    /// every integer in documents written before ranges were recorded.
    Int,
    /// `f32`: float 32 on the wire
    F32,
    /// `f64`: float 64 on the wire (and `f32` in documents written before
    /// widths were recorded)
    Float,
    /// `String`, `&str`, `char`, ...
    Str,
    /// `serde_bytes::ByteBuf`, `serde_bytes::Bytes`: bin on the wire
    Bytes,
    /// `Vec<T>`, `[T; N]`, sets, ...
    Array(Box<Shape>),
    /// `HashMap<K, V>`, `BTreeMap<K, V>`
    Map(Box<Shape>, Box<Shape>),
    /// `Option<T>`
    Optional(Box<Shape>),
    /// a tuple
    Tuple(Vec<Shape>),
    /// [`Value`](crate::Value): anything
    Value,
    /// [`Timestamp`](crate::Timestamp)
    Timestamp,
    /// a derived type, by name (its definition is in the document)
    Named(String),
    /// a type without a schema, by its Rust type name
    Other(String),
}

impl Shape {
    /// The least and greatest value of an integer shape; `None` for the
    /// other shapes.
    ///
    /// ```
    /// use msgpack_serde::schema::Shape;
    ///
    /// assert_eq!(Shape::U8.int_range(), Some((0, 255)));
    /// assert_eq!(Shape::Int.int_range(), Some((i64::MIN.into(), u64::MAX.into())));
    /// assert_eq!(Shape::Str.int_range(), None);
    /// ```
    pub fn int_range(&self) -> Option<(i128, i128)> {
        Some(match self {
            Shape::U8 => (0, u8::MAX.into()),
            Shape::U16 => (0, u16::MAX.into()),
            Shape::U32 => (0, u32::MAX.into()),
            Shape::U64 => (0, u64::MAX.into()),
            Shape::I8 => (i8::MIN.into(), i8::MAX.into()),
            Shape::I16 => (i16::MIN.into(), i16::MAX.into()),
            Shape::I32 => (i32::MIN.into(), i32::MAX.into()),
            Shape::I64 => (i64::MIN.into(), i64::MAX.into()),
            Shape::Int => (i64::MIN.into(), u64::MAX.into()),
            _ => return None,
        })
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Shape::Bool => f.write_str("bool"),
            Shape::U8 => f.write_str("u8"),
            Shape::U16 => f.write_str("u16"),
            Shape::U32 => f.write_str("u32"),
            Shape::U64 => f.write_str("u64"),
            Shape::I8 => f.write_str("i8"),
            Shape::I16 => f.write_str("i16"),
            Shape::I32 => f.write_str("i32"),
            Shape::I64 => f.write_str("i64"),
            Shape::Int => f.write_str("int"),
            Shape::F32 => f.write_str("f32"),
            Shape::Float => f.write_str("float"),
            Shape::Str => f.write_str("str"),
            Shape::Bytes => f.write_str("bytes"),
            Shape::Array(item) => write!(f, "[{item}]"),
            Shape::Map(key, value) => write!(f, "{{{key}: {value}}}"),
            Shape::Optional(inner) => write!(f, "{inner}?"),
            Shape::Tuple(items) => {
                f.write_str("(")?;
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{item}")?;
                }
                f.write_str(")")
            }
            Shape::Value => f.write_str("any"),
            Shape::Timestamp => f.write_str("timestamp"),
            Shape::Named(name) => f.write_str(name),
            Shape::Other(name) => write!(f, "`{name}`"),
        }
    }
}

/// Collects the definitions of derived types while a schema is built.
///
/// ```
/// use msgpack_serde::schema::{Describe, Registry};
/// use msgpack_serde::MsgPack;
///
/// #[derive(MsgPack)]
/// struct Point { #[msgpack(tag = 1)] x: i32 }
///
/// let mut registry = Registry::default();
/// let shape = <Vec<Point>>::shape(&mut registry); // defines Point in the registry
/// assert_eq!(shape.to_string(), "[Point]");
/// ```
#[derive(Debug, Default)]
pub struct Registry {
    types: BTreeMap<String, TypeDef>,
}

impl Registry {
    /// Defines `T` (once; recursion is fine) and returns its shape.
    ///
    /// ```
    /// use msgpack_serde::schema::{Registry, Schema, Shape, TypeDef};
    /// use msgpack_serde::MsgPack;
    ///
    /// #[derive(MsgPack)]
    /// struct Node { #[msgpack(tag = 1)] children: Vec<Node> }
    ///
    /// let mut registry = Registry::default();
    /// assert_eq!(registry.named::<Node>(), Shape::Named("Node".to_string()));
    /// let TypeDef::Struct { fields, .. } = &Node::schema().types["Node"] else { panic!("not a struct") };
    /// assert_eq!(fields[0].shape.to_string(), "[Node]");
    /// ```
    #[inline]
    pub fn named<T: Schema + ?Sized>(&mut self) -> Shape {
        self.named_by(T::NAME, T::definition)
    }

    /// [`named`](Self::named) without its type parameter, so each derived
    /// type compiles a call, not a copy of this.
    fn named_by(&mut self, name: &str, definition: fn(&mut Registry) -> TypeDef) -> Shape {
        if !self.types.contains_key(name) {
            // A placeholder first, so a type that contains itself stops here.
            let placeholder = TypeDef::Struct {
                layout: Layout::Map,
                fields: Vec::new(),
                reserved: Vec::new(),
                unknown: false,
                unit: false,
            };
            self.types.insert(name.to_string(), placeholder);
            let definition = definition(self);
            self.types.insert(name.to_string(), definition);
        }
        Shape::Named(name.to_string())
    }
}
