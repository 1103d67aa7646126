//! Clients in other languages, as users have them, against the example
//! server's app: `tests/clients/client.py` (urllib plus PyPI's `msgpack`)
//! and `tests/clients/client.mjs` (Node's fetch plus npm's
//! `@msgpack/msgpack`). Each test serves the app on an ephemeral loopback
//! port and runs one client against it as a child process.
//!
//! Without `python3` or `node`, or without their MessagePack package
//! (`python3 -m pip install msgpack==1.2.4`; `npm ci` in `tests/clients`),
//! a test prints why it skipped and passes, except when `CI` is set: there
//! `.ci/run` installs both, and a missing piece fails the test.

#[path = "../examples/server/app.rs"]
mod app;

use std::io::Read;
use std::path::Path;
use std::process::{Command, ExitStatus, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use msgpack_test_support::http::serve;
use msgpack_test_support::skip;

/// How long one client may run before it is killed and the test fails.
const CLIENT_TIMEOUT: Duration = Duration::from_secs(60);

/// The package versions .ci/run installs, for the skip messages.
const PYTHON_INSTALL: &str = "python3 -m pip install msgpack==1.2.4";
const NODE_INSTALL: &str = "npm ci (in msgpack-axum/tests/clients)";

#[test]
fn python_client() {
    if !available("python3", &["--version"], "python3 is not installed") {
        return;
    }
    if !available(
        "python3",
        &["-c", "import msgpack"],
        &format!("the python package msgpack is not installed: {PYTHON_INSTALL}"),
    ) {
        return;
    }
    run_client("python3", "tests/clients/client.py");
}

#[test]
fn node_client() {
    if !available("node", &["--version"], "node is not installed") {
        return;
    }
    let package = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/clients/node_modules/@msgpack/msgpack/package.json");
    if !package.is_file() {
        skip(&format!(
            "the npm package @msgpack/msgpack is not installed: {NODE_INSTALL}"
        ));
        return;
    }
    run_client("node", "tests/clients/client.mjs");
}

/// The clients hold the profile as a literal: this is the same data, so a
/// change to the example's profile points here and to them.
#[test]
fn clients_expect_the_example_profile() {
    let expected = serde_json::json!({
        "id": 1042,
        "name": "Laravel MessagePack",
        "roles": ["maintainer", "developer"],
        "features": {"negotiation": true, "fallback": "json"},
    });
    assert_eq!(
        serde_json::to_value(app::profile()).unwrap(),
        expected,
        "the example's profile changed: update EXPECTED in tests/clients/client.py and client.mjs"
    );
}

/// Whether `program args` runs and succeeds; if not, skips with `why`
/// (or, under CI, fails).
fn available(program: &str, args: &[&str], why: &str) -> bool {
    let ok = Command::new(program)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|status| status.success());
    if !ok {
        skip(why);
    }
    ok
}

/// Serves the example app on 127.0.0.1 and runs `program script URL` in
/// the crate's folder, failing with the client's output unless it exits 0
/// within [`CLIENT_TIMEOUT`].
fn run_client(program: &str, script: &str) {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    let server = runtime.block_on(serve(app::app()));
    let url = server.url;
    let server = server.task;

    let started = Instant::now();
    let mut child = Command::new(program)
        .arg(script)
        .arg(&url)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_PROXY", "127.0.0.1")
        .env("no_proxy", "127.0.0.1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|error| panic!("{program} {script}: could not start: {error}"));
    // Read both pipes while the child runs, so that neither fills up.
    let stdout = drain(child.stdout.take().unwrap());
    let stderr = drain(child.stderr.take().unwrap());
    let status = wait_with_timeout(&mut child, CLIENT_TIMEOUT);
    let elapsed = started.elapsed();
    let stdout = stdout.join().unwrap();
    let stderr = stderr.join().unwrap();

    assert!(
        !server.is_finished(),
        "the server stopped: {:?}",
        runtime.block_on(server)
    );
    let report = format!("{program} {script} {url}\n--- stdout\n{stdout}--- stderr\n{stderr}---");
    match status {
        Some(status) if status.success() => print!("{report}\nfinished in {elapsed:?}\n"),
        Some(status) => panic!("the client failed ({status}):\n{report}"),
        None => panic!("the client did not finish within {CLIENT_TIMEOUT:?}, killed:\n{report}"),
    }
}

/// The child's exit status, or `None` when it ran past `timeout` and was
/// killed.
fn wait_with_timeout(child: &mut std::process::Child, timeout: Duration) -> Option<ExitStatus> {
    let deadline = Instant::now() + timeout;
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return Some(status);
        }
        if Instant::now() >= deadline {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        thread::sleep(Duration::from_millis(20));
    }
}

fn drain(mut pipe: impl Read + Send + 'static) -> thread::JoinHandle<String> {
    thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = pipe.read_to_end(&mut bytes);
        String::from_utf8_lossy(&bytes).into_owned()
    })
}
