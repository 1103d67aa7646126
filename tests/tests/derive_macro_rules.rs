//! `#[derive(MsgPack)]` inside `macro_rules!`, whichever side the field
//! types and the derive come from: types passed as `ty`, as loose tokens
//! (`tt`) or as an `ident`, and the derive passed in as an attribute,
//! each round trips. The generated reads see their own locals whatever
//! the spans of the types they are reported at.

#![deny(warnings)]

use msgpack_serde::MsgPack;

#[derive(MsgPack, Debug, PartialEq, Clone)]
pub struct Inner {
    #[msgpack(tag = 1)]
    pub a: u32,
    #[msgpack(tag = 2)]
    pub s: String,
}

macro_rules! by_ty {
    ($name:ident, $t:ty) => {
        #[derive(MsgPack, Debug, PartialEq)]
        pub struct $name {
            #[msgpack(tag = 1)]
            pub items: Vec<$t>,
            #[msgpack(tag = 2)]
            pub one: $t,
        }
    };
}
by_ty!(ByTy, Inner);

macro_rules! by_tt {
    ($name:ident, $($t:tt)*) => {
        #[derive(MsgPack, Debug, PartialEq)]
        pub struct $name {
            #[msgpack(tag = 1)]
            pub items: $($t)*,
        }
    };
}
by_tt!(ByTt, Vec<Inner>);

macro_rules! by_ident {
    ($name:ident, $t:ident) => {
        #[derive(MsgPack, Debug, PartialEq)]
        #[msgpack(array)]
        pub struct $name {
            #[msgpack(tag = 0)]
            pub items: Vec<$t>,
            #[msgpack(tag = 1)]
            pub one: $t,
        }
    };
}
by_ident!(ByIdent, Inner);

macro_rules! with_meta {
    ($(#[$m:meta])* $name:ident) => {
        $(#[$m])*
        pub struct $name {
            #[msgpack(tag = 1)]
            pub items: Vec<Inner>,
            #[msgpack(tag = 2)]
            pub one: Option<u32>,
        }
    };
}
with_meta!(
    #[derive(MsgPack, Debug, PartialEq)]
    WithMeta
);

fn round_trips<T>(value: T)
where
    T: serde::Serialize + serde::de::DeserializeOwned + PartialEq + std::fmt::Debug,
{
    for config in [
        msgpack_serde::Config::default(),
        msgpack_serde::Config::compact(),
    ] {
        let bytes = msgpack_serde::to_vec_with_config(&value, config).unwrap();
        assert_eq!(msgpack_serde::from_slice::<T>(&bytes).unwrap(), value);
    }
}

#[test]
fn derives_in_macro_rules_round_trip() {
    let inner = Inner {
        a: 7,
        s: "x".into(),
    };
    round_trips(ByTy {
        items: vec![inner.clone(); 2],
        one: inner.clone(),
    });
    round_trips(ByTt {
        items: vec![inner.clone()],
    });
    round_trips(ByIdent {
        items: vec![inner.clone()],
        one: inner.clone(),
    });
    round_trips(WithMeta {
        items: vec![inner],
        one: Some(3),
    });
}
