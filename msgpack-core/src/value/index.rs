//! Looking inside arrays and maps: `value[0]`, `value["name"]`.

use core::ops::Index;

use super::{Value, ValueRef};

static NIL: Value = Value::Nil;

impl Value {
    /// The element at `index`, if this is an array that long.
    ///
    /// ```
    /// use msgpack_core::Value;
    ///
    /// let value = Value::from_slice(&[0x92, 0x0a, 0x0b]).unwrap(); // [10, 11]
    /// assert_eq!(value.get_index(1), Some(&Value::from(11)));
    /// assert_eq!(value.get_index(2), None);
    /// assert_eq!(value[2], Value::Nil); // indexing gives nil instead
    /// ```
    pub fn get_index(&self, index: usize) -> Option<&Value> {
        self.as_array()?.get(index)
    }

    /// The value of the first pair whose key is the string `key`, if this
    /// is a map that has one.
    ///
    /// ```
    /// use msgpack_core::Value;
    ///
    /// let value = Value::Map(vec![(Value::from("id"), Value::from(7)), (Value::from(1), Value::Nil)]);
    /// assert_eq!(value.get("id"), Some(&Value::from(7)));
    /// assert_eq!(value.get("1"), None); // only string keys match; see get_key
    /// ```
    pub fn get(&self, key: &str) -> Option<&Value> {
        let pairs = self.as_map()?;
        pairs
            .iter()
            .find(|(k, _)| k.as_str() == Some(key))
            .map(|(_, v)| v)
    }

    /// The value of the first pair whose key equals `key`, of any type.
    ///
    /// ```
    /// use msgpack_core::Value;
    ///
    /// let map = Value::Map(vec![(Value::from(1), Value::from("one"))]);
    /// assert_eq!(map.get_key(&Value::from(1)), Some(&Value::from("one")));
    /// ```
    pub fn get_key(&self, key: &Value) -> Option<&Value> {
        let pairs = self.as_map()?;
        pairs.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }
}

/// `value[i]`: the array element, or nil when this is not an array or is
/// too short (as `serde_json::Value` does).
impl Index<usize> for Value {
    type Output = Value;

    fn index(&self, index: usize) -> &Value {
        self.get_index(index).unwrap_or(&NIL)
    }
}

/// `value["key"]`: the value for a string key, or nil when this is not a
/// map or has no such key.
impl Index<&str> for Value {
    type Output = Value;

    fn index(&self, key: &str) -> &Value {
        self.get(key).unwrap_or(&NIL)
    }
}

static NIL_REF: ValueRef<'static> = ValueRef::Nil;

impl<'a> Index<usize> for ValueRef<'a> {
    type Output = ValueRef<'a>;

    fn index(&self, index: usize) -> &ValueRef<'a> {
        match self {
            ValueRef::Array(items) => items.get(index).unwrap_or(&NIL_REF),
            _ => &NIL_REF,
        }
    }
}

impl<'a> Index<&str> for ValueRef<'a> {
    type Output = ValueRef<'a>;

    fn index(&self, key: &str) -> &ValueRef<'a> {
        match self {
            ValueRef::Map(pairs) => pairs
                .iter()
                .find(|(k, _)| matches!(k, ValueRef::Str(s) if *s == key))
                .map_or(&NIL_REF, |(_, v)| v),
            _ => &NIL_REF,
        }
    }
}
