//! The README's "Migrating from rmp-serde" code, run, and checked to be
//! the code the README shows.

// Not formatted: the README shows this code as it is.
#[rustfmt::skip]
#[test]
fn migrating_from_rmp_serde() -> Result<(), msgpack_serde::Error> {
    // README begin
    use msgpack_serde::{Config, Deserializer, Limits, Serializer};
    use serde::{Deserialize, Serialize};

    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    enum Status { Active, Closed { code: i16 } }

    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    struct Account { id: u64, status: Status }

    let account = Account { id: 7, status: Status::Closed { code: -2 } };

    // was: rmp_serde::to_vec(&account)? and rmp_serde::to_vec_named(&account)?
    let compact = msgpack_serde::to_vec_compact(&account)?; // [7, {"Closed": [-2]}]
    assert_eq!(compact, b"\x92\x07\x81\xa6Closed\x91\xfe");
    let named = msgpack_serde::to_vec(&account)?; // {"id": 7, "status": {"Closed": {"code": -2}}}

    // was: account.serialize(&mut rmp_serde::Serializer::new(&mut file).with_struct_map())?
    let mut file = Vec::new(); // any std::io::Write
    account.serialize(&mut Serializer::from_writer_with_config(&mut file, Config::named()))?;
    assert_eq!(file, named);

    // was: let mut de = rmp_serde::Deserializer::new(reader); de.set_max_depth(33);
    let mut de = Deserializer::from_reader(&compact[..]).with_limits(Limits::default().max_depth(32));
    assert_eq!(Account::deserialize(&mut de)?, account);
    // README end

    // What the comments say rmp-serde does, it does.
    assert_eq!(rmp_serde::to_vec(&account).unwrap(), compact);
    assert_eq!(rmp_serde::to_vec_named(&account).unwrap(), named);
    let mut rmp_file = Vec::new();
    account
        .serialize(&mut rmp_serde::Serializer::new(&mut rmp_file).with_struct_map())
        .unwrap();
    assert_eq!(rmp_file, named);
    let mut rmp_de = rmp_serde::Deserializer::new(&compact[..]);
    rmp_de.set_max_depth(33);
    assert_eq!(Account::deserialize(&mut rmp_de).unwrap(), account);
    // And the depths agree: 32 levels pass both, 33 fail both.
    for (levels, passes) in [(32, true), (33, false)] {
        let bytes = [vec![0x91u8; levels], vec![0xc0]].concat();
        let mut de = Deserializer::from_slice(&bytes).with_limits(Limits::default().max_depth(32));
        assert_eq!(msgpack_serde::Value::deserialize(&mut de).is_ok(), passes);
        let mut rmp_de = rmp_serde::Deserializer::new(&bytes[..]);
        rmp_de.set_max_depth(33);
        assert_eq!(msgpack_serde::Value::deserialize(&mut rmp_de).is_ok(), passes);
    }
    Ok(())
}

/// The code of the README section's first `rust` block, without the
/// lines a doctest hides (`# Ok::<(), Error>(())`): the README's blocks
/// also run as doctests of msgpack-tests (`tests/src/lib.rs`).
fn readme_block(section: &str) -> String {
    let readme = include_str!("../../README.md");
    let start = readme.find(section).expect("the section");
    let rest = &readme[start..];
    let code = &rest[rest.find("```rust\n").expect("a rust block") + 8..];
    code[..code.find("```").expect("the block's end")]
        .lines()
        .filter(|line| !line.starts_with("# "))
        .map(|line| format!("{line}\n"))
        .collect()
}

/// The code between this file's `README begin` and `README end` lines,
/// unindented.
fn this_test_block() -> String {
    let source = include_str!("readme.rs");
    let begin = source.find("    // README begin\n").unwrap() + 20;
    let end = source.find("    // README end\n").unwrap();
    source[begin..end]
        .lines()
        .map(|line| line.strip_prefix("    ").unwrap_or(line))
        .map(|line| format!("{line}\n"))
        .collect()
}

#[test]
fn the_readme_shows_the_code_that_runs() {
    assert_eq!(
        readme_block("## Migrating from rmp-serde"),
        this_test_block()
    );
}
