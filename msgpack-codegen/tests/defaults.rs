//! A `default` field whose default the document does not have (a field
//! of a type that names the type's parameters, or a hand-written
//! document): absent, it is an error naming field and tag; with
//! `omit_default`, it is always written, there being nothing to compare.

use msgpack_codegen::Language;
use msgpack_serde::schema::SchemaDocument;

fn doc() -> SchemaDocument {
    serde_json::from_str(
        r#"{"root":"A","types":{
            "A":{"kind":"struct","layout":"map","fields":[
                {"name":"b","tag":1,"shape":{"named":"B"},"presence":"default","omit_default":true},
                {"name":"n","tag":2,"shape":"u8","presence":"default","omit_default":true}]},
            "B":{"kind":"struct","layout":"map","fields":[]}}}"#,
    )
    .unwrap()
}

#[test]
fn typescript_reads_an_absent_field_without_its_default_as_an_error() {
    let code = msgpack_codegen::generate(&doc(), Language::TypeScript, "a.json").unwrap();
    assert!(
        code.contains(
            r#""b": defaulted(fields, "1", read$B, `${at}.b`, () => noDefault(at, "b", "1")),"#
        ),
        "{code}"
    );
    // `n` is a u8: its default, `Default`'s, is 0.
    assert!(
        code.contains(r#""n": defaulted(fields, "2", readU8, `${at}.n`, () => 0),"#),
        "{code}"
    );
    assert!(
        code.contains("  entries.push([1, (w) => write$B(w, f0, `${at}.b`)]);\n"),
        "{code}"
    );
    assert!(
        code.contains("  if (!sameBytes(writeU8, f1, 0, `${at}.n`)) entries.push("),
        "{code}"
    );
}

#[test]
fn python_reads_an_absent_field_without_its_default_as_an_error() {
    let code = msgpack_codegen::generate(&doc(), Language::Python, "a.json").unwrap();
    assert!(
        code.contains(r#"b=_defaulted(fields, 1, B.from_msgpack, f"{at}.b", lambda: _no_default(at, "b", 1)),"#),
        "{code}"
    );
    assert!(
        code.contains("        entries.append((1, _w_named(B)(self.b, f\"{at}.b\")))\n"),
        "{code}"
    );
    assert!(
        code.contains(
            "        if packb(_u8(self.n, f\"{at}.n\")) != packb(_u8(0, f\"{at}.n\")):\n"
        ),
        "{code}"
    );
}
