//! `Schema::schema()` of derived types as an exact JSON document, and
//! `check_compatible` on each kind of change between two versions.

use msgpack_serde::schema::{check_compatible, CompatibilityReport, Schema, SchemaDocument};

/// A message using every kind of field the schema describes.
mod shop {
    use std::collections::BTreeMap;

    use msgpack_serde::{MsgPack, Timestamp, Value};

    pub fn normal_priority() -> u8 {
        5
    }

    #[derive(MsgPack, Debug)]
    #[msgpack(reserved(9, 20..=29))]
    pub struct Order {
        #[msgpack(tag = 1)]
        pub id: u64,
        #[msgpack(tag = 2)]
        pub customer: Customer,
        #[msgpack(tag = 3)]
        pub lines: Vec<Line>,
        #[msgpack(tag = 4)]
        pub note: Option<String>,
        #[msgpack(tag = 5, default = "normal_priority")]
        pub priority: u8,
        #[msgpack(tag = 6)]
        pub status: Status,
        #[msgpack(tag = 7)]
        pub placed_at: Timestamp,
        #[msgpack(tag = 8, default)]
        pub attributes: BTreeMap<String, Value>,
        /// Recursive: the definition is in the document once.
        #[msgpack(tag = 10)]
        pub gift_for: Option<Box<Order>>,
        /// Not on the wire: not in the schema.
        #[msgpack(skip)]
        pub _cached_total: u64,
    }

    #[derive(MsgPack, Debug)]
    #[msgpack(array, omit_default)]
    pub struct Line {
        #[msgpack(tag = 0)]
        pub sku: String,
        #[msgpack(tag = 1)]
        pub quantity: u32,
        #[msgpack(tag = 2)]
        pub price: (i64, bool),
    }

    /// A type without a derive: described by its Rust name.
    #[derive(serde::Serialize, serde::Deserialize, Debug)]
    pub struct Address {
        pub city: String,
    }

    #[derive(MsgPack, Debug)]
    #[msgpack(rename_all = "camelCase")]
    pub struct Customer {
        #[msgpack(tag = 1)]
        pub full_name: String,
        #[msgpack(tag = 2)]
        pub email: Option<String>,
        #[msgpack(tag = 3)]
        pub address: Address,
    }

    #[derive(MsgPack, Debug)]
    #[msgpack(reserved(5))]
    pub enum Status {
        #[msgpack(tag = 1)]
        Pending,
        #[msgpack(tag = 2)]
        Shipped {
            #[msgpack(tag = 1)]
            carrier: String,
            #[msgpack(tag = 2)]
            tracking: Option<String>,
        },
        #[msgpack(tag = 3)]
        Cancelled(String),
        #[msgpack(tag = 4)]
        Split(u8, Vec<f32>),
        #[msgpack(tag = 0, other)]
        Unknown,
    }
}

/// The whole document, as it would be committed next to the code.
const SHOP_SCHEMA: &str = r#"{
  "root": "Order",
  "types": {
    "Customer": {
      "kind": "struct",
      "layout": "map",
      "fields": [
        {
          "name": "fullName",
          "tag": 1,
          "shape": "str",
          "presence": "required"
        },
        {
          "name": "email",
          "tag": 2,
          "shape": {
            "optional": "str"
          },
          "presence": "optional"
        },
        {
          "name": "address",
          "tag": 3,
          "shape": {
            "other": "derive_schema::shop::Address"
          },
          "presence": "required"
        }
      ]
    },
    "Line": {
      "kind": "struct",
      "layout": "array",
      "fields": [
        {
          "name": "sku",
          "tag": 0,
          "shape": "str",
          "presence": "default",
          "omit_default": true,
          "default": "a0"
        },
        {
          "name": "quantity",
          "tag": 1,
          "shape": "u32",
          "presence": "default",
          "omit_default": true,
          "default": "00"
        },
        {
          "name": "price",
          "tag": 2,
          "shape": {
            "tuple": [
              "i64",
              "bool"
            ]
          },
          "presence": "default",
          "omit_default": true,
          "default": "9200c2"
        }
      ]
    },
    "Order": {
      "kind": "struct",
      "layout": "map",
      "fields": [
        {
          "name": "id",
          "tag": 1,
          "shape": "u64",
          "presence": "required"
        },
        {
          "name": "customer",
          "tag": 2,
          "shape": {
            "named": "Customer"
          },
          "presence": "required"
        },
        {
          "name": "lines",
          "tag": 3,
          "shape": {
            "array": {
              "named": "Line"
            }
          },
          "presence": "required"
        },
        {
          "name": "note",
          "tag": 4,
          "shape": {
            "optional": "str"
          },
          "presence": "optional"
        },
        {
          "name": "priority",
          "tag": 5,
          "shape": "u8",
          "presence": "default",
          "default": "05"
        },
        {
          "name": "status",
          "tag": 6,
          "shape": {
            "named": "Status"
          },
          "presence": "required"
        },
        {
          "name": "placed_at",
          "tag": 7,
          "shape": "timestamp",
          "presence": "required"
        },
        {
          "name": "attributes",
          "tag": 8,
          "shape": {
            "map": [
              "str",
              "value"
            ]
          },
          "presence": "default",
          "default": "80"
        },
        {
          "name": "gift_for",
          "tag": 10,
          "shape": {
            "optional": {
              "named": "Order"
            }
          },
          "presence": "optional"
        }
      ],
      "reserved": [
        [
          9,
          9
        ],
        [
          20,
          29
        ]
      ]
    },
    "Status": {
      "kind": "enum",
      "variants": [
        {
          "name": "Pending",
          "tag": 1,
          "payload": "unit"
        },
        {
          "name": "Shipped",
          "tag": 2,
          "payload": {
            "struct": [
              {
                "name": "carrier",
                "tag": 1,
                "shape": "str",
                "presence": "required"
              },
              {
                "name": "tracking",
                "tag": 2,
                "shape": {
                  "optional": "str"
                },
                "presence": "optional"
              }
            ]
          }
        },
        {
          "name": "Cancelled",
          "tag": 3,
          "payload": {
            "newtype": "str"
          }
        },
        {
          "name": "Split",
          "tag": 4,
          "payload": {
            "tuple": [
              "u8",
              {
                "array": "f32"
              }
            ]
          }
        },
        {
          "name": "Unknown",
          "tag": 0,
          "payload": "unit",
          "other": true
        }
      ],
      "reserved": [
        [
          5,
          5
        ]
      ]
    }
  }
}"#;

#[test]
fn schema_document_is_exact_json() {
    let doc = shop::Order::schema();
    assert_eq!(serde_json::to_string_pretty(&doc).unwrap(), SHOP_SCHEMA);
    assert_eq!(
        serde_json::from_str::<SchemaDocument>(SHOP_SCHEMA).unwrap(),
        doc
    );
    // And through MessagePack.
    let bytes = msgpack_serde::to_vec(&doc).unwrap();
    assert_eq!(
        msgpack_serde::from_slice::<SchemaDocument>(&bytes).unwrap(),
        doc
    );
}

#[test]
fn a_nested_type_has_a_document_of_its_own() {
    let doc = shop::Status::schema();
    assert_eq!(doc.root, "Status");
    assert_eq!(doc.types.keys().collect::<Vec<_>>(), ["Status"]);
    assert_eq!(doc.types["Status"], shop::Order::schema().types["Status"]);
    assert_eq!(
        shop::Customer::schema().types.keys().collect::<Vec<_>>(),
        ["Customer"]
    );
}

/// The version every case below starts from.
mod base {
    use msgpack_serde::MsgPack;

    #[derive(MsgPack)]
    pub struct Item {
        #[msgpack(tag = 1)]
        pub id: u64,
        #[msgpack(tag = 2)]
        pub name: String,
        #[msgpack(tag = 3)]
        pub kind: Kind,
        #[msgpack(tag = 4)]
        pub note: Option<String>,
    }

    #[derive(MsgPack)]
    pub enum Kind {
        #[msgpack(tag = 1)]
        Loose,
        #[msgpack(tag = 2)]
        Boxed {
            #[msgpack(tag = 1)]
            size: u8,
        },
    }
}

/// Compatible: new optional and defaulted fields, a rename that keeps
/// the tag, a new variant.
mod grown {
    use msgpack_serde::MsgPack;

    #[derive(MsgPack)]
    pub struct Item {
        #[msgpack(tag = 1)]
        pub id: u64,
        #[msgpack(tag = 2)]
        pub title: String,
        #[msgpack(tag = 3)]
        pub kind: Kind,
        #[msgpack(tag = 4)]
        pub note: Option<String>,
        #[msgpack(tag = 5)]
        pub color: Option<String>,
        #[msgpack(tag = 6, default)]
        pub stock: u32,
    }

    #[derive(MsgPack)]
    pub enum Kind {
        #[msgpack(tag = 1)]
        Loose,
        #[msgpack(tag = 2)]
        Boxed {
            #[msgpack(tag = 1)]
            size: u8,
            #[msgpack(tag = 2)]
            fragile: Option<bool>,
        },
        #[msgpack(tag = 3)]
        Gift(String),
    }
}

/// Compatible: `note` removed, its tag reserved.
mod retired {
    use msgpack_serde::MsgPack;

    #[derive(MsgPack)]
    #[msgpack(reserved(4))]
    pub struct Item {
        #[msgpack(tag = 1)]
        pub id: u64,
        #[msgpack(tag = 2)]
        pub name: String,
        #[msgpack(tag = 3)]
        pub kind: super::base::Kind,
    }
}

/// Compatible: `note` removed, its tag in a reserved range; a variant
/// removed with its tag reserved. (An enum's reserved numbers are variant
/// numbers: they leave field 1 of `Boxed` alone.)
mod retired_range {
    use msgpack_serde::MsgPack;

    #[derive(MsgPack)]
    #[msgpack(reserved(4..=9))]
    pub struct Item {
        #[msgpack(tag = 1)]
        pub id: u64,
        #[msgpack(tag = 2)]
        pub name: String,
        #[msgpack(tag = 3)]
        pub kind: Kind,
    }

    #[derive(MsgPack)]
    #[msgpack(reserved(1))]
    pub enum Kind {
        #[msgpack(tag = 2)]
        Boxed {
            #[msgpack(tag = 1)]
            size: u8,
        },
    }
}

/// Breaking: tag 4 reused with another type.
mod reused {
    use msgpack_serde::MsgPack;

    #[derive(MsgPack)]
    pub struct Item {
        #[msgpack(tag = 1)]
        pub id: u64,
        #[msgpack(tag = 2)]
        pub name: String,
        #[msgpack(tag = 3)]
        pub kind: super::base::Kind,
        #[msgpack(tag = 4)]
        pub note_count: Option<u32>,
    }
}

/// Breaking: `note` removed, tag 4 not reserved.
mod dropped {
    use msgpack_serde::MsgPack;

    #[derive(MsgPack)]
    pub struct Item {
        #[msgpack(tag = 1)]
        pub id: u64,
        #[msgpack(tag = 2)]
        pub name: String,
        #[msgpack(tag = 3)]
        pub kind: super::base::Kind,
    }
}

/// Breaking: a new required field.
mod demanding {
    use msgpack_serde::MsgPack;

    #[derive(MsgPack)]
    pub struct Item {
        #[msgpack(tag = 1)]
        pub id: u64,
        #[msgpack(tag = 2)]
        pub name: String,
        #[msgpack(tag = 3)]
        pub kind: super::base::Kind,
        #[msgpack(tag = 4)]
        pub note: Option<String>,
        #[msgpack(tag = 5)]
        pub price: u32,
    }
}

/// Breaking: a variant renumbered.
mod renumbered {
    use msgpack_serde::MsgPack;

    #[derive(MsgPack)]
    pub struct Item {
        #[msgpack(tag = 1)]
        pub id: u64,
        #[msgpack(tag = 2)]
        pub name: String,
        #[msgpack(tag = 3)]
        pub kind: Kind,
        #[msgpack(tag = 4)]
        pub note: Option<String>,
    }

    #[derive(MsgPack)]
    pub enum Kind {
        #[msgpack(tag = 1)]
        Loose,
        #[msgpack(tag = 5)]
        Boxed {
            #[msgpack(tag = 1)]
            size: u8,
        },
    }
}

/// Breaking: `note` no longer optional.
mod strict {
    use msgpack_serde::MsgPack;

    #[derive(MsgPack)]
    pub struct Item {
        #[msgpack(tag = 1)]
        pub id: u64,
        #[msgpack(tag = 2)]
        pub name: String,
        #[msgpack(tag = 3)]
        pub kind: super::base::Kind,
        #[msgpack(tag = 4)]
        pub note: String,
    }
}

/// Breaking: `Kind` turned from an enum into a struct.
mod restructured {
    use msgpack_serde::MsgPack;

    #[derive(MsgPack)]
    pub struct Item {
        #[msgpack(tag = 1)]
        pub id: u64,
        #[msgpack(tag = 2)]
        pub name: String,
        #[msgpack(tag = 3)]
        pub kind: Kind,
        #[msgpack(tag = 4)]
        pub note: Option<String>,
    }

    #[derive(MsgPack)]
    pub struct Kind {
        #[msgpack(tag = 1)]
        pub boxed: bool,
    }
}

/// Breaking, several ways at once, in nested types and a struct variant.
mod rewritten {
    use msgpack_serde::MsgPack;

    #[derive(MsgPack)]
    pub struct Item {
        #[msgpack(tag = 1)]
        pub id: String,
        #[msgpack(tag = 3)]
        pub kind: Kind,
        #[msgpack(tag = 4)]
        pub note: String,
    }

    #[derive(MsgPack)]
    pub enum Kind {
        #[msgpack(tag = 2)]
        Boxed {
            #[msgpack(tag = 1)]
            size: f32,
            #[msgpack(tag = 2)]
            weight: u32,
        },
        #[msgpack(tag = 3)]
        Loose,
    }
}

fn compare<Old: Schema, New: Schema>() -> CompatibilityReport {
    check_compatible(&Old::schema(), &New::schema())
}

#[test]
fn unchanged_is_compatible() {
    let report = compare::<base::Item, base::Item>();
    assert!(report.is_compatible());
    assert_eq!(report.to_string(), "");
}

#[test]
fn new_optional_fields_renames_and_new_variants_are_compatible() {
    let report = compare::<base::Item, grown::Item>();
    assert!(report.is_compatible(), "{report}");
}

#[test]
fn a_removed_field_whose_tag_is_reserved_is_compatible() {
    let report = compare::<base::Item, retired::Item>();
    assert!(report.is_compatible(), "{report}");
    let report = compare::<base::Item, retired_range::Item>();
    assert!(report.is_compatible(), "{report}");
}

#[test]
fn a_tag_reused_with_another_type_is_breaking() {
    let report = compare::<base::Item, reused::Item>();
    assert!(!report.is_compatible());
    assert_eq!(
        report.breaking,
        [(
            "Item".to_string(),
            "tag 4 reused with another type: field `note` was str, field `note_count` is u32"
                .to_string()
        )]
    );
    assert_eq!(
        report.to_string(),
        "Item: tag 4 reused with another type: field `note` was str, field `note_count` is u32\n"
    );
}

#[test]
fn a_removed_field_whose_tag_is_not_reserved_is_breaking() {
    assert_eq!(
        compare::<base::Item, dropped::Item>().to_string(),
        "Item: field `note` (tag 4) was removed without reserving its tag: \
         reserve it with #[msgpack(reserved(4))]\n"
    );
}

#[test]
fn a_new_required_field_is_breaking() {
    assert_eq!(
        compare::<base::Item, demanding::Item>().to_string(),
        "Item: new field `price` (tag 5) is required, but older writers do not send it\n"
    );
}

#[test]
fn a_changed_variant_tag_is_breaking() {
    assert_eq!(
        compare::<base::Item, renumbered::Item>().to_string(),
        "Kind: variant `Boxed` changed tag from 2 to 5\n"
    );
}

#[test]
fn a_field_turned_required_is_breaking() {
    assert_eq!(
        compare::<base::Item, strict::Item>().to_string(),
        "Item: field `note` (tag 4) turned required, but older writers may leave it out\n"
    );
}

#[test]
fn a_struct_turned_enum_is_breaking() {
    assert_eq!(
        compare::<base::Item, restructured::Item>().to_string(),
        "Kind: changed between struct and enum\n"
    );
    assert_eq!(
        compare::<restructured::Item, base::Item>().to_string(),
        "Kind: changed between struct and enum\n"
    );
}

#[test]
fn every_breaking_change_is_reported_a_line_each() {
    assert_eq!(
        compare::<base::Item, rewritten::Item>().to_string(),
        "Item: tag 1 reused with another type: field `id` was u64, field `id` is str\n\
         Item: field `name` (tag 2) was removed without reserving its tag: \
         reserve it with #[msgpack(reserved(2))]\n\
         Item: field `note` (tag 4) turned required, but older writers may leave it out\n\
         Kind: variant `Loose` changed tag from 1 to 3\n\
         Kind::Boxed: tag 1 reused with another type: field `size` was u8, field `size` is f32\n\
         Kind::Boxed: new field `weight` (tag 2) is required, but older writers do not send it\n"
    );
}

#[test]
fn compatibility_is_checked_on_documents_read_back_from_json() {
    // The committed document of the old version against the new code.
    let committed = serde_json::to_string_pretty(&base::Item::schema()).unwrap();
    let old: SchemaDocument = serde_json::from_str(&committed).unwrap();
    assert!(check_compatible(&old, &grown::Item::schema()).is_compatible());
    assert_eq!(
        check_compatible(&old, &demanding::Item::schema()).to_string(),
        "Item: new field `price` (tag 5) is required, but older writers do not send it\n"
    );
}

mod required_v1 {
    #[derive(msgpack_serde::MsgPack)]
    pub struct Account {
        #[msgpack(tag = 1)]
        pub id: u64,
        #[msgpack(tag = 2)]
        pub owner: String,
    }
}

mod required_v2 {
    #[derive(msgpack_serde::MsgPack)]
    #[msgpack(reserved(2))]
    pub struct Account {
        #[msgpack(tag = 1)]
        pub id: Option<u64>,
    }
}

#[test]
fn removing_or_loosening_a_required_field_breaks_old_readers() {
    use msgpack_serde::schema::{check_compatible, Schema};
    let report = check_compatible(
        &required_v1::Account::schema(),
        &required_v2::Account::schema(),
    );
    assert_eq!(
        report.to_string(),
        "Account: field `id` (tag 1) turned optional, but older readers require it and newer writers leave out None\n\
         Account: required field `owner` (tag 2) was removed, but older readers require it\n"
    );
    // What the report predicts: an old reader fails on what the new version writes.
    let bytes = msgpack_serde::to_vec(&required_v2::Account { id: None }).unwrap();
    let error = msgpack_serde::from_slice::<required_v1::Account>(&bytes)
        .err()
        .unwrap();
    assert_eq!(error.to_string(), "missing field `id` (tag 1) at offset 0");
}

mod widths_v1 {
    #[derive(msgpack_serde::MsgPack)]
    pub struct Reading {
        #[msgpack(tag = 1)]
        pub count: u8,
        #[msgpack(tag = 2)]
        pub value: f32,
    }
}

mod widths_v2 {
    #[derive(msgpack_serde::MsgPack)]
    pub struct Reading {
        #[msgpack(tag = 1)]
        pub count: u64,
        #[msgpack(tag = 2)]
        pub value: f64,
    }
}

#[test]
fn integer_ranges_and_float_widths_are_recorded_and_read_each_other() {
    let doc = widths_v1::Reading::schema();
    let json = serde_json::to_string(&doc.types["Reading"]).unwrap();
    assert!(
        json.contains(r#""shape":"u8""#) && json.contains(r#""shape":"f32""#),
        "{json}"
    );
    // Each width reads the others' bytes: a change of width is not judged.
    assert!(check_compatible(&doc, &widths_v2::Reading::schema()).is_compatible());
    // A document committed before ranges were recorded says `int` and
    // `float`: still compatible with the new description.
    let old = json
        .replace(r#""u8""#, r#""int""#)
        .replace(r#""f32""#, r#""float""#);
    let old = SchemaDocument {
        root: "Reading".into(),
        types: [("Reading".to_string(), serde_json::from_str(&old).unwrap())].into(),
    };
    assert!(check_compatible(&old, &doc).is_compatible());
    assert!(check_compatible(&doc, &old).is_compatible());
}

/// Defaults the derive writes into the document for other languages.
mod defaults {
    use std::marker::PhantomData;

    use msgpack_serde::MsgPack;

    pub fn three() -> u16 {
        3
    }

    /// Writes a `u16` with its bytes swapped.
    pub mod swapped {
        use serde::{Deserialize, Deserializer, Serializer};

        pub fn serialize<S: Serializer>(value: &u16, serializer: S) -> Result<S::Ok, S::Error> {
            serializer.serialize_u16(value.swap_bytes())
        }

        pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<u16, D::Error> {
            u16::deserialize(deserializer).map(u16::swap_bytes)
        }
    }

    #[derive(MsgPack)]
    pub struct Page<T> {
        /// Of a type without the parameter: its default is known.
        #[msgpack(tag = 1, default = "three")]
        pub size: u16,
        /// Of a type with it: not known.
        #[msgpack(tag = 2, default)]
        pub items: Vec<T>,
        #[msgpack(skip)]
        pub marker: PhantomData<T>,
    }

    pub fn hello() -> std::borrow::Cow<'static, str> {
        "hello".into()
    }

    /// Of a type with a lifetime: its defaults are known.
    #[derive(MsgPack)]
    pub struct Greeting<'a> {
        #[msgpack(tag = 1, default = "hello", omit_default)]
        pub text: std::borrow::Cow<'a, str>,
        #[msgpack(tag = 2, default)]
        pub name: &'a str,
    }

    #[derive(MsgPack)]
    pub struct Swapped {
        /// Through the `with` module: 3 as 0x0300.
        #[msgpack(tag = 1, default = "three", with = "swapped")]
        pub size: u16,
        #[msgpack(tag = 2, default, with = "swapped")]
        pub zero: u16,
    }
}

#[test]
fn defaults_of_generic_types_and_with_fields_are_in_the_document() {
    use msgpack_serde::schema::TypeDef;

    let defaults = |doc: SchemaDocument, name: &str| -> Vec<Option<Vec<u8>>> {
        let TypeDef::Struct { fields, .. } = &doc.types[name] else {
            panic!("not a struct")
        };
        fields.iter().map(|field| field.default.clone()).collect()
    };
    assert_eq!(
        defaults(defaults::Page::<String>::schema(), "Page"),
        [Some(vec![0x03]), None]
    );
    assert_eq!(
        defaults(defaults::Swapped::schema(), "Swapped"),
        [Some(vec![0xcd, 0x03, 0x00]), Some(vec![0x00])]
    );
    // What the document says is what Rust reads for an absent field.
    assert_eq!(
        defaults(defaults::Greeting::schema(), "Greeting"),
        [Some(b"\xa5hello".to_vec()), Some(vec![0xa0])]
    );
    let empty: defaults::Swapped = msgpack_serde::from_slice(&[0x80]).unwrap();
    assert_eq!((empty.size, empty.zero), (3, 0));
    let written = msgpack_serde::to_vec(&defaults::Swapped { size: 3, zero: 0 }).unwrap();
    assert_eq!(written, [0x82, 0x01, 0xcd, 0x03, 0x00, 0x02, 0x00]);
}

/// Field types spelled with `Self`, in a struct and in an enum's
/// variants: their shapes name the type itself.
mod spelled_self {
    use msgpack_serde::MsgPack;

    #[derive(MsgPack, Debug)]
    pub struct Tree {
        #[msgpack(tag = 1)]
        pub children: Vec<Self>,
    }

    /// `Self` in a length: an expression's path.
    #[derive(MsgPack, Debug, PartialEq)]
    pub struct Id {
        #[msgpack(tag = 1)]
        pub bytes: [u8; Self::LEN],
    }

    impl Id {
        pub const LEN: usize = 2;
    }

    /// `Self` in a bound, which the generated helper types copy.
    #[derive(MsgPack, Debug, PartialEq)]
    pub struct Bounded<T: std::fmt::Debug>
    where
        Self: Send,
    {
        #[msgpack(tag = 1)]
        pub value: T,
    }

    #[derive(MsgPack, Debug)]
    pub enum Expr {
        #[msgpack(tag = 1)]
        Neg(Box<Self>),
        #[msgpack(tag = 2)]
        Sum {
            #[msgpack(tag = 1)]
            terms: Vec<Self>,
        },
        #[msgpack(tag = 3)]
        Zero,
    }
}

#[test]
fn fields_spelled_with_self_name_the_type() {
    use serde_json::json;
    use spelled_self::{Expr, Tree};

    let tree = serde_json::to_value(Tree::schema()).unwrap();
    let tree_shape = &tree["types"]["Tree"]["fields"][0]["shape"];
    assert_eq!(*tree_shape, json!({"array": {"named": "Tree"}}));
    let expr = serde_json::to_value(Expr::schema()).unwrap();
    let variants = &expr["types"]["Expr"]["variants"];
    assert_eq!(
        variants[0]["payload"],
        json!({"newtype": {"named": "Expr"}})
    );
    let terms = &variants[1]["payload"]["struct"][0]["shape"];
    assert_eq!(*terms, json!({"array": {"named": "Expr"}}));
    assert_eq!(variants[2]["payload"], "unit");

    // And the values go through the wire and back.
    let tree = Tree {
        children: vec![Tree { children: vec![] }],
    };
    let bytes = msgpack_serde::to_vec(&tree).unwrap();
    assert_eq!(bytes, [0x81, 0x01, 0x91, 0x81, 0x01, 0x90]);
    let read: Tree = msgpack_serde::from_slice(&bytes).unwrap();
    assert_eq!(format!("{read:?}"), format!("{tree:?}"));
    let expr = Expr::Neg(Box::new(Expr::Sum {
        terms: vec![Expr::Zero],
    }));
    let bytes = msgpack_serde::to_vec(&expr).unwrap();
    let read: Expr = msgpack_serde::from_slice(&bytes).unwrap();
    assert_eq!(format!("{read:?}"), format!("{expr:?}"));
    let id = spelled_self::Id { bytes: [7, 8] };
    let bytes = msgpack_serde::to_vec(&id).unwrap();
    assert_eq!(bytes, [0x81, 0x01, 0x92, 0x07, 0x08]);
    assert_eq!(
        msgpack_serde::from_slice::<spelled_self::Id>(&bytes).unwrap(),
        id
    );
    let bounded = spelled_self::Bounded { value: 5u8 };
    let bytes = msgpack_serde::to_vec(&bounded).unwrap();
    assert_eq!(bytes, [0x81, 0x01, 0x05]);
    let read: spelled_self::Bounded<u8> = msgpack_serde::from_slice(&bytes).unwrap();
    assert_eq!(read, bounded);
}
