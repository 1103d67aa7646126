//! Conversions between [`Value`] and `serde_json::Value` (feature `json`).

use alloc::vec::Vec;

use super::Value;

/// JSON to MessagePack: numbers become integers when they are integers
/// and float 64 otherwise; object keys become str keys.
///
/// ```
/// use msgpack_core::Value;
///
/// let value = Value::from(serde_json::json!({"id": 7, "ratio": 0.5, "tags": ["a"]}));
/// assert_eq!(value.to_string(), r#"{"id": 7, "ratio": 0.5, "tags": ["a"]}"#);
/// ```
impl From<serde_json::Value> for Value {
    fn from(json: serde_json::Value) -> Value {
        match json {
            serde_json::Value::Null => Value::Nil,
            serde_json::Value::Bool(b) => Value::Bool(b),
            serde_json::Value::Number(n) => match (n.as_u64(), n.as_i64()) {
                (Some(n), _) => Value::from(n),
                (None, Some(n)) => Value::from(n),
                // Neither u64 nor i64: a float (or, with serde_json's
                // arbitrary_precision, a number beyond 64 bits).
                (None, None) => Value::F64(n.as_f64().unwrap_or(f64::NAN)),
            },
            serde_json::Value::String(s) => Value::Str(s),
            serde_json::Value::Array(items) => {
                Value::Array(items.into_iter().map(Value::from).collect())
            }
            serde_json::Value::Object(map) => Value::Map(
                map.into_iter()
                    .map(|(k, v)| (Value::Str(k), Value::from(v)))
                    .collect::<Vec<_>>(),
            ),
        }
    }
}

/// MessagePack to JSON, as `serde_json::to_value` sees a `Value`: bin
/// becomes an array of numbers, ext the array `[type, [data...]]`,
/// integer, boolean and finite float map keys become strings, and
/// non-finite float values become `null`. A map key of another type (nil,
/// bin, array, map, ext or a non-finite float) is an error.
///
/// ```
/// use msgpack_core::Value;
///
/// let value = Value::Map(vec![(Value::from(1), Value::Bin(vec![2]))]);
/// let json = serde_json::Value::try_from(value).unwrap();
/// assert_eq!(json, serde_json::json!({"1": [2]}));
///
/// let nil_key = Value::Map(vec![(Value::Nil, Value::from(1))]);
/// let error = serde_json::Value::try_from(nil_key).unwrap_err();
/// assert_eq!(error.to_string(), "key must be a string");
/// ```
impl TryFrom<Value> for serde_json::Value {
    type Error = serde_json::Error;

    fn try_from(value: Value) -> Result<serde_json::Value, serde_json::Error> {
        serde_json::to_value(&value)
    }
}
