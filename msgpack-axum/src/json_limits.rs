//! The depth and value limits on a JSON body, checked in one pass before
//! it is decoded, as msgpack-serde checks them on MessagePack.

use std::cell::Cell;
use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

use crate::limits::RequestLimits;

/// Which limit a JSON body passed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Exceeded {
    Depth(usize),
    Values(usize),
}

impl fmt::Display for Exceeded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Exceeded::Depth(limit) => write!(f, "JSON nesting exceeds the depth limit of {limit}"),
            Exceeded::Values(limit) => {
                write!(f, "JSON holds more values than the limit of {limit}")
            }
        }
    }
}

/// Checks that the JSON document `json` nests at most `depth` deep and
/// holds at most `values` values (each container, element, key and value
/// counting one). `Ok(Err(..))` names the limit passed; `Err` is invalid
/// JSON, which the typed decode reports.
pub(crate) fn check(
    json: &[u8],
    limits: &RequestLimits,
) -> Result<Result<(), Exceeded>, serde_json::Error> {
    let budget = Budget {
        values_left: Cell::new(limits.values()),
        exceeded: Cell::new(None),
        limits: *limits,
    };
    let mut deserializer = serde_json::Deserializer::from_slice(json);
    let result = Level {
        budget: &budget,
        depth: 0,
    }
    .deserialize(&mut deserializer);
    match (result, budget.exceeded.get()) {
        (_, Some(exceeded)) => Ok(Err(exceeded)),
        (Ok(()), None) => Ok(Ok(())),
        (Err(error), None) => Err(error),
    }
}

struct Budget {
    values_left: Cell<usize>,
    exceeded: Cell<Option<Exceeded>>,
    limits: RequestLimits,
}

impl Budget {
    /// Counts `n` values; an error once past the limit.
    fn take<E: de::Error>(&self, n: usize) -> Result<(), E> {
        match self.values_left.get().checked_sub(n) {
            Some(left) => {
                self.values_left.set(left);
                Ok(())
            }
            None => self.stop(Exceeded::Values(self.limits.values())),
        }
    }

    fn stop<E: de::Error>(&self, exceeded: Exceeded) -> Result<(), E> {
        self.exceeded.set(Some(exceeded));
        Err(E::custom("limit exceeded"))
    }
}

/// A value `depth` containers deep.
struct Level<'a> {
    budget: &'a Budget,
    depth: usize,
}

impl<'de> DeserializeSeed<'de> for Level<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        self.budget.take(1)?;
        deserializer.deserialize_any(self)
    }
}

impl Level<'_> {
    fn open<E: de::Error>(&self) -> Result<Level<'_>, E> {
        if self.depth >= self.budget.limits.depth() {
            self.budget
                .stop(Exceeded::Depth(self.budget.limits.depth()))?;
        }
        Ok(Level {
            budget: self.budget,
            depth: self.depth + 1,
        })
    }
}

impl<'de> Visitor<'de> for Level<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }

    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }

    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }

    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }

    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }

    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let inner = self.open()?;
        while seq.next_element_seed(Level { ..inner })?.is_some() {}
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let inner = self.open()?;
        while map.next_key::<IgnoredAny>()?.is_some() {
            inner.budget.take(1)?;
            map.next_value_seed(Level { ..inner })?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(depth: usize, values: usize) -> RequestLimits {
        RequestLimits::new().max_depth(depth).max_values(values)
    }

    #[test]
    fn depth_counts_containers() {
        assert_eq!(check(b"[[1]]", &limits(2, 100)).unwrap(), Ok(()));
        assert_eq!(
            check(b"[[1]]", &limits(1, 100)).unwrap(),
            Err(Exceeded::Depth(1))
        );
        assert_eq!(
            check(br#"{"a":{"b":1}}"#, &limits(1, 100)).unwrap(),
            Err(Exceeded::Depth(1))
        );
        assert_eq!(check(b"1", &limits(0, 100)).unwrap(), Ok(()));
    }

    #[test]
    fn values_count_containers_elements_keys_and_values() {
        // [1, 2] is 3 values; {"a": 1} is 3 values.
        assert_eq!(check(b"[1,2]", &limits(8, 3)).unwrap(), Ok(()));
        assert_eq!(
            check(b"[1,2]", &limits(8, 2)).unwrap(),
            Err(Exceeded::Values(2))
        );
        assert_eq!(check(br#"{"a":1}"#, &limits(8, 3)).unwrap(), Ok(()));
        assert_eq!(
            check(br#"{"a":1}"#, &limits(8, 2)).unwrap(),
            Err(Exceeded::Values(2))
        );
    }

    #[test]
    fn invalid_json_is_left_to_the_decode() {
        assert!(check(b"[1,", &limits(8, 100)).is_err());
    }
}
