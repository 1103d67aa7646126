//! The names a generated file already uses, which a type of the document
//! must not take: what its prelude declares and imports, the globals the
//! code names as types, and the classes generated for enum variants.

use msgpack_serde::schema::{Payload, SchemaDocument, TypeDef};

use crate::names::pascal;
use crate::{Error, Language};

/// Globals the TypeScript names as types or constructors, which a type of
/// the same name would shadow in the module.
const TYPESCRIPT_GLOBALS: &[&str] = &[
    "Array",
    "BigInt",
    "Boolean",
    "DataView",
    "Date",
    "Error",
    "Map",
    "Math",
    "Number",
    "Object",
    "RangeError",
    "Record",
    "String",
    "Symbol",
    "TextDecoder",
    "Uint8Array",
];

/// Builtins the Python names, which a class of the same name would shadow.
const PYTHON_GLOBALS: &[&str] = &[
    "AttributeError",
    "None",
    "NotImplemented",
    "NotImplementedError",
    "OverflowError",
    "False",
    "True",
    "TypeError",
    "UnicodeDecodeError",
    "ValueError",
];

/// Refuses a document that would make `language` define a name twice or
/// shadow one its code needs; the message says which type and why.
pub fn check(doc: &SchemaDocument, language: Language) -> Result<(), Error> {
    let (prelude, globals, lang) = match language {
        Language::TypeScript => (
            declared(crate::typescript::PRELUDE),
            TYPESCRIPT_GLOBALS,
            "TypeScript",
        ),
        Language::Python => (declared(crate::python::PRELUDE), PYTHON_GLOBALS, "Python"),
    };
    let mut defined: Vec<(String, String)> = Vec::new();
    for (name, def) in &doc.types {
        for (generated, what) in generated_names(name, def, language) {
            if prelude.contains(&generated) || globals.contains(&generated.as_str()) {
                return Err(Error(format!(
                    "{what}: the generated {lang} already has a `{generated}`; rename the Rust type"
                )));
            }
            if let Some((_, earlier)) = defined.iter().find(|(n, _)| *n == generated) {
                return Err(Error(format!(
                    "{what}: the generated {lang} would name `{generated}` twice (also for {earlier}); rename one"
                )));
            }
            defined.push((generated, what));
        }
    }
    Ok(())
}

/// The top-level names generated for the type `name`, each with what it
/// is for, in words.
fn generated_names(name: &str, def: &TypeDef, language: Language) -> Vec<(String, String)> {
    let ty = format!("the type `{name}`");
    let mut names = vec![(name.to_string(), ty.clone())];
    if language == Language::TypeScript {
        for function in ["decode", "encode", "read$", "write$"] {
            names.push((format!("{function}{name}"), format!("{ty} (its function)")));
        }
    }
    if let TypeDef::Enum { variants, .. } = def {
        // TypeScript makes an interface for a struct payload; Python a
        // class for every variant of an enum with data.
        let data = variants.iter().any(|v| v.payload != Payload::Unit);
        for variant in variants {
            let class = matches!(variant.payload, Payload::Struct(_))
                || (language == Language::Python && data);
            if !class {
                continue;
            }
            let what = format!("the variant `{}` of `{name}`", variant.name);
            let class = format!("{name}{}", pascal(&variant.name));
            if language == Language::TypeScript {
                for function in ["read$", "write$"] {
                    names.push((
                        format!("{function}{class}"),
                        format!("{what} (its function)"),
                    ));
                }
            }
            names.push((class, what));
        }
    }
    names
}

/// The names a prelude declares at the top level: what it imports, and
/// its `class`, `function`, `type`, `const`, `interface` and `def` names
/// and assignments.
fn declared(prelude: &str) -> Vec<String> {
    let ident = |text: &str| -> String {
        text.chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '$')
            .collect()
    };
    let mut names = Vec::new();
    let mut importing = false;
    for line in prelude.lines() {
        if importing {
            importing = !line.starts_with('}');
            if importing {
                names.push(ident(line.trim()));
            }
            continue;
        }
        if line == "import {" {
            importing = true;
            continue;
        }
        if let Some((_, imported)) = line
            .strip_prefix("from ")
            .and_then(|rest| rest.split_once(" import "))
        {
            names.extend(imported.split(',').map(|name| ident(name.trim())));
            continue;
        }
        if let Some(module) = line.strip_prefix("import ") {
            names.push(ident(module.rsplit(" as ").next().unwrap_or(module)));
            continue;
        }
        let line = line.strip_prefix("export ").unwrap_or(line);
        let keyword = [
            "class ",
            "function ",
            "type ",
            "const ",
            "interface ",
            "def ",
        ]
        .iter()
        .find_map(|keyword| line.strip_prefix(keyword));
        let name = match keyword {
            Some(rest) => ident(rest),
            None => {
                // An assignment: `NAME = ...` or `NAME: type = ...`.
                let name = ident(line);
                let rest = &line[name.len()..];
                if !(rest.starts_with(" =") || rest.starts_with(':')) {
                    continue;
                }
                name
            }
        };
        if !name.is_empty() {
            names.push(name);
        }
    }
    names
}

#[cfg(test)]
mod tests {
    use super::declared;

    #[test]
    fn declared_finds_every_top_level_name_of_both_preludes() {
        let typescript = declared(crate::typescript::PRELUDE);
        for name in [
            "ExtData",
            "Int",
            "NanoDate",
            "Float32",
            "MsgPackWriter",
            "$Entry",
            "decodeExact",
            "readInt",
            "MAX_DEPTH",
        ] {
            assert!(
                typescript.iter().any(|n| n == name),
                "{name}: {typescript:?}"
            );
        }
        let python = declared(crate::python::PRELUDE);
        for name in [
            "_dt",
            "enum",
            "msgpack",
            "dataclass",
            "Any",
            "_T",
            "_Reader",
            "F32",
            "ExtBytes",
            "NanoDatetime",
            "packb",
            "unpackb",
            "_FIXED",
        ] {
            assert!(python.iter().any(|n| n == name), "{name}: {python:?}");
        }
        assert!(
            !python.iter().any(|n| n == "Rust"),
            "a docstring's line is no name"
        );
    }
}
