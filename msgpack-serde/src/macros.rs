//! `msgpack!`: build a [`Value`](crate::Value) with JSON-like syntax.

/// Builds a [`Value`](crate::Value) like `serde_json::json!`: `null`,
/// booleans, arrays, maps, and any `Serialize` expression. Map keys may be
/// any expression, so integer keys stay integers.
///
/// ```
/// use msgpack_serde::{msgpack, Value};
///
/// let name = "Ada";
/// let value = msgpack!({
///     "name": name,
///     "langs": ["en", "fr"],
///     "manager": null,
///     1: 2 + 3,
/// });
/// assert_eq!(value["name"], Value::from("Ada"));
/// assert_eq!(value["langs"][1], Value::from("fr"));
/// assert_eq!(value.to_string(), r#"{"name": "Ada", "langs": ["en", "fr"], "manager": null, 1: 5}"#);
/// ```
///
/// An expression whose `Serialize` impl fails (a map with a key that is
/// not serializable, for example) panics, as in `serde_json::json!`.
#[macro_export]
macro_rules! msgpack {
    ($($tt:tt)+) => {
        $crate::__msgpack_internal!($($tt)+)
    };
}

#[macro_export]
#[doc(hidden)]
macro_rules! __msgpack_internal {
    // Arrays: munch one element at a time into `[$elems,]`.
    (@array [$($elems:expr,)*]) => { ::std::vec![$($elems,)*] };
    // Done after a last `null`, `true`, `false`, array or map, which the
    // rules below append without a comma.
    (@array [$($elems:expr),*]) => { ::std::vec![$($elems),*] };
    (@array [$($elems:expr,)*] null $($rest:tt)*) => {
        $crate::__msgpack_internal!(@array [$($elems,)* $crate::__msgpack_internal!(null)] $($rest)*)
    };
    (@array [$($elems:expr,)*] true $($rest:tt)*) => {
        $crate::__msgpack_internal!(@array [$($elems,)* $crate::__msgpack_internal!(true)] $($rest)*)
    };
    (@array [$($elems:expr,)*] false $($rest:tt)*) => {
        $crate::__msgpack_internal!(@array [$($elems,)* $crate::__msgpack_internal!(false)] $($rest)*)
    };
    (@array [$($elems:expr,)*] [$($array:tt)*] $($rest:tt)*) => {
        $crate::__msgpack_internal!(@array [$($elems,)* $crate::__msgpack_internal!([$($array)*])] $($rest)*)
    };
    (@array [$($elems:expr,)*] {$($map:tt)*} $($rest:tt)*) => {
        $crate::__msgpack_internal!(@array [$($elems,)* $crate::__msgpack_internal!({$($map)*})] $($rest)*)
    };
    (@array [$($elems:expr,)*] $next:expr, $($rest:tt)*) => {
        $crate::__msgpack_internal!(@array [$($elems,)* $crate::__msgpack_internal!($next),] $($rest)*)
    };
    (@array [$($elems:expr,)*] $last:expr) => {
        $crate::__msgpack_internal!(@array [$($elems,)* $crate::__msgpack_internal!($last),])
    };
    (@array [$($elems:expr),*] , $($rest:tt)*) => {
        $crate::__msgpack_internal!(@array [$($elems,)*] $($rest)*)
    };

    // Maps: munch the key up to `:`, then the value up to `,`.
    (@map $map:ident () ()) => {};
    (@map $map:ident [$($key:tt)+] ($value:expr) , $($rest:tt)*) => {
        $map.push(($crate::__msgpack_internal!($($key)+), $value));
        $crate::__msgpack_internal!(@map $map () ($($rest)*));
    };
    (@map $map:ident [$($key:tt)+] ($value:expr)) => {
        $map.push(($crate::__msgpack_internal!($($key)+), $value));
    };
    (@map $map:ident ($($key:tt)+) (: null $($rest:tt)*)) => {
        $crate::__msgpack_internal!(@map $map [$($key)+] ($crate::__msgpack_internal!(null)) $($rest)*);
    };
    (@map $map:ident ($($key:tt)+) (: true $($rest:tt)*)) => {
        $crate::__msgpack_internal!(@map $map [$($key)+] ($crate::__msgpack_internal!(true)) $($rest)*);
    };
    (@map $map:ident ($($key:tt)+) (: false $($rest:tt)*)) => {
        $crate::__msgpack_internal!(@map $map [$($key)+] ($crate::__msgpack_internal!(false)) $($rest)*);
    };
    (@map $map:ident ($($key:tt)+) (: [$($array:tt)*] $($rest:tt)*)) => {
        $crate::__msgpack_internal!(@map $map [$($key)+] ($crate::__msgpack_internal!([$($array)*])) $($rest)*);
    };
    (@map $map:ident ($($key:tt)+) (: {$($inner:tt)*} $($rest:tt)*)) => {
        $crate::__msgpack_internal!(@map $map [$($key)+] ($crate::__msgpack_internal!({$($inner)*})) $($rest)*);
    };
    (@map $map:ident ($($key:tt)+) (: $value:expr , $($rest:tt)*)) => {
        $crate::__msgpack_internal!(@map $map [$($key)+] ($crate::__msgpack_internal!($value)) , $($rest)*);
    };
    (@map $map:ident ($($key:tt)+) (: $value:expr)) => {
        $crate::__msgpack_internal!(@map $map [$($key)+] ($crate::__msgpack_internal!($value)));
    };
    (@map $map:ident ($($key:tt)*) ($tt:tt $($rest:tt)*)) => {
        $crate::__msgpack_internal!(@map $map ($($key)* $tt) ($($rest)*));
    };

    // Values.
    (null) => { $crate::Value::Nil };
    (true) => { $crate::Value::Bool(true) };
    (false) => { $crate::Value::Bool(false) };
    ([]) => { $crate::Value::Array(::std::vec![]) };
    ([ $($tt:tt)+ ]) => { $crate::Value::Array($crate::__msgpack_internal!(@array [] $($tt)+)) };
    ({}) => { $crate::Value::Map(::std::vec![]) };
    ({ $($tt:tt)+ }) => {
        $crate::Value::Map({
            let mut map = ::std::vec::Vec::new();
            $crate::__msgpack_internal!(@map map () ($($tt)+));
            map
        })
    };
    ($other:expr) => {
        $crate::to_value(&$other).expect("msgpack!: value failed to serialize")
    };
}
