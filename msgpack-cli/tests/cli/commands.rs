//! `--help` on every command, `--version`, `completions` for each shell,
//! and `schema check`.

use std::process::Command;

use crate::common::{ok_text, run};

const COMMANDS: [&str; 6] = [
    "encode",
    "decode",
    "inspect",
    "validate",
    "schema",
    "completions",
];

#[test]
fn help_on_every_command() {
    let top = ok_text(&["--help"], b"");
    assert!(
        top.starts_with("Convert, inspect and validate MessagePack"),
        "{top}"
    );
    assert!(top.contains("Usage: msgpack <COMMAND>"), "{top}");
    for command in COMMANDS {
        assert!(
            top.contains(&format!("\n  {command} ")),
            "{command} in {top}"
        );
    }
    assert_eq!(ok_text(&["help"], b""), top);
    // -h is the short form: first lines only.
    let short = ok_text(&["-h"], b"");
    assert!(
        short.contains("Usage: msgpack <COMMAND>") && short.len() < top.len(),
        "{short}"
    );

    for (args, usage, mentions) in [
        (
            &["encode"][..],
            "Usage: msgpack encode [OPTIONS] [FILE]",
            &["--lines", "--f32", "--output"][..],
        ),
        (
            &["decode"],
            "Usage: msgpack decode [OPTIONS] [FILE]",
            &["--lines", "--pretty", "--plain"],
        ),
        (
            &["inspect"],
            "Usage: msgpack inspect [OPTIONS] [FILE]",
            &[
                "--max-depth",
                "--max-items",
                "--summary",
                "--color",
                "always",
                "never",
                "auto",
            ],
        ),
        (
            &["validate"],
            "Usage: msgpack validate [OPTIONS] [FILE]",
            &[
                "--lines",
                "--max-depth",
                "--max-values",
                "--max-bytes",
                "[default: 128]",
            ],
        ),
        (&["schema"], "Usage: msgpack schema <COMMAND>", &["check"]),
        (
            &["schema", "check"],
            "Usage: msgpack schema check [OPTIONS] <OLD> <NEW>",
            &["--json"],
        ),
        (
            &["completions"],
            "Usage: msgpack completions <SHELL>",
            &["bash", "zsh", "fish"],
        ),
    ] {
        let mut with_help = args.to_vec();
        with_help.push("--help");
        let text = ok_text(&with_help, b"");
        assert!(text.contains(usage), "{args:?}: {text}");
        for flag in mentions {
            assert!(
                text.contains(flag),
                "{args:?} --help mentions {flag}: {text}"
            );
        }
        // `help <command>` says the same.
        let mut help = vec!["help"];
        help.extend(args);
        assert_eq!(ok_text(&help, b""), text, "help {args:?}");
    }
}

#[test]
fn version() {
    let expected = format!("msgpack {}\n", env!("CARGO_PKG_VERSION"));
    assert_eq!(ok_text(&["--version"], b""), expected);
    assert_eq!(ok_text(&["-V"], b""), expected);
    // Every command takes it too.
    for command in COMMANDS {
        assert_eq!(
            ok_text(&[command, "--version"], b""),
            format!("msgpack-{command} {}\n", env!("CARGO_PKG_VERSION")),
            "{command}"
        );
    }
}

#[test]
fn completions_for_every_shell() {
    let bash = ok_text(&["completions", "bash"], b"");
    assert!(bash.contains("_msgpack()"), "{bash}");
    assert!(bash.contains("complete -F _msgpack"), "{bash}");
    for command in COMMANDS {
        assert!(bash.contains(command), "bash completes {command}");
    }
    for flag in [
        "--lines",
        "--pretty",
        "--plain",
        "--summary",
        "--max-values",
        "--f32",
    ] {
        assert!(bash.contains(flag), "bash completes {flag}");
    }
    // The script is valid bash, where bash is installed.
    if let Ok(output) = Command::new("bash").args(["-n", "-c", &bash]).output() {
        assert!(
            output.status.success(),
            "bash -n: {}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
    for (shell, marker) in [
        ("zsh", "#compdef msgpack"),
        ("fish", "complete -c msgpack"),
        ("powershell", "Register-ArgumentCompleter"),
        ("elvish", "edit:completion:arg-completer[msgpack]"),
    ] {
        let script = ok_text(&["completions", shell], b"");
        assert!(script.contains(marker), "{shell}: {script}");
        assert!(script.contains("validate"), "{shell}");
    }
}

const V1: &str = r#"{"root":"Account","types":{"Account":{"kind":"struct","layout":"map","fields":[
  {"name":"id","tag":1,"shape":"int","presence":"required"},
  {"name":"owner","tag":2,"shape":"str","presence":"required"}]}}}"#;

const V2: &str = r#"{"root":"Account","types":{"Account":{"kind":"struct","layout":"map","fields":[
  {"name":"id","tag":1,"shape":"int","presence":"required"},
  {"name":"email","tag":3,"shape":"str","presence":"required"}]}}}"#;

#[test]
fn schema_check_lists_breaking_changes() {
    let dir = tempfile::tempdir().unwrap();
    let v1 = dir.path().join("v1.json");
    let v2 = dir.path().join("v2.json");
    std::fs::write(&v1, V1).unwrap();
    std::fs::write(&v2, V2).unwrap();
    let (v1, v2) = (v1.to_str().unwrap(), v2.to_str().unwrap());

    assert_eq!(ok_text(&["schema", "check", v1, v1], b""), "");
    assert_eq!(
        ok_text(&["schema", "check", "--json", v1, v1], b""),
        "{\"breaking\":[],\"compatible\":true}\n"
    );

    let output = run(&["schema", "check", v1, v2], b"");
    assert_eq!(output.status.code(), Some(1));
    assert!(output.stderr.is_empty());
    assert_eq!(
        String::from_utf8(output.stdout).unwrap(),
        "Account: field `owner` (tag 2) was removed without reserving its tag: reserve it with #[msgpack(reserved(2))]\n\
         Account: new field `email` (tag 3) is required, but older writers do not send it\n"
    );
    let output = run(&["schema", "check", "--json", v1, v2], b"");
    assert_eq!(output.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(
        report,
        serde_json::json!({
            "compatible": false,
            "breaking": [
                {"type": "Account", "reason": "field `owner` (tag 2) was removed without reserving its tag: reserve it with #[msgpack(reserved(2))]"},
                {"type": "Account", "reason": "new field `email` (tag 3) is required, but older writers do not send it"},
            ]
        })
    );
}
