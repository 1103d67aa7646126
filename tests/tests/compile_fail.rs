//! `#[derive(MsgPack)]` mistakes are compile errors with clear messages,
//! each pointing at the attribute, field or type at fault. The expected
//! output is in the `.stderr` next to each case; regenerate it with
//! `TRYBUILD=overwrite cargo test -p msgpack-tests --test compile_fail`.

#[test]
fn ui() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("ui/**/*.rs");
}
