//! A peer nobody here wrote: a client written with PyPI's `msgpack`
//! (`Unpacker.feed` over a raw socket, `tests/peers/client.py`) against
//! the example server's methods.
//!
//! Without `python3` or its `msgpack` package the test skips, saying so,
//! unless `CI` is set: then it fails (`.ci/run` installs both).

#[path = "../examples/rpc-server/methods.rs"]
mod methods;

use std::process::Command;
use std::time::Duration;

use tokio::net::TcpListener;
use tokio::sync::mpsc;

const PYTHON_INSTALL: &str = "python3 -m pip install msgpack==1.2.4";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_python_client_calls_the_example_server() {
    if !python_msgpack_available() {
        return;
    }
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let (logged, mut logs) = mpsc::unbounded_channel();
    let server = methods::builder(move |text| logged.send(text).unwrap());
    tokio::spawn(async move { server.serve_tcp(listener).await });
    let client = tokio::task::spawn_blocking(move || {
        Command::new("python3")
            .arg("tests/peers/client.py")
            .arg(port.to_string())
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .expect("python3 runs")
    });
    let output = tokio::time::timeout(Duration::from_secs(120), client)
        .await
        .expect("the client finishes")
        .unwrap();
    assert!(
        output.status.success(),
        "the Python client failed: {}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&output.stdout), "ok\n");
    assert_eq!(logs.recv().await.unwrap(), "hello from python");
}

/// Whether `python3` with `msgpack` is here; without, skips locally and
/// fails under CI.
fn python_msgpack_available() -> bool {
    let ok = Command::new("python3")
        .args(["-c", "import msgpack"])
        .output()
        .is_ok_and(|output| output.status.success());
    if !ok {
        assert!(
            !in_ci(),
            "python3 with msgpack is required under CI: {PYTHON_INSTALL}"
        );
        eprintln!("skipping: python3 with msgpack is not installed ({PYTHON_INSTALL})");
    }
    ok
}

fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|value| !value.is_empty() && value != "false" && value != "0")
}
