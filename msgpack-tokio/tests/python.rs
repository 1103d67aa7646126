//! A peer nobody here wrote: PyPI's `msgpack` (pinned by `.ci/run`)
//! streams 100,000 values into our `FramedRead` over a real socket, in
//! odd-sized chunks (`tests/peers/producer.py`).
//!
//! Without `python3` or its `msgpack` package the test skips, saying so,
//! unless `CI` is set: then it fails (`.ci/run` installs both).

use std::process::{Command, Stdio};
use std::time::Duration;

use futures::StreamExt;
use msgpack_serde::Value;
use msgpack_tokio::MsgPackCodec;
use tokio::net::TcpListener;
use tokio_util::codec::FramedRead;

const COUNT: u64 = 100_000;
const PYTHON_INSTALL: &str = "python3 -m pip install msgpack==1.2.4";

/// Value `i` as the producer writes it.
fn expected(i: u64) -> Value {
    let tags = vec![Value::from("a"); (i % 4) as usize];
    Value::Array(vec![
        Value::from(i),
        Value::from(-(i as i64)),
        Value::from(format!("value {i} ünïcödé")),
        Value::from(i as f64 * 1.5),
        Value::Bin(vec![(i % 256) as u8; (i % 50) as usize]),
        Value::Map(vec![
            (Value::from("even"), Value::from(i.is_multiple_of(2))),
            (Value::from("tags"), Value::Array(tags)),
        ]),
        Value::Nil,
        Value::Ext(5, (i as u32).to_be_bytes().to_vec()),
    ])
}

#[tokio::test]
async fn python_streams_100_000_values_into_framed_read() {
    if !python_msgpack_available() {
        return;
    }
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let mut producer = Command::new("python3")
        .arg("tests/peers/producer.py")
        .arg(port.to_string())
        .arg(COUNT.to_string())
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::null())
        .spawn()
        .expect("python3 runs");
    let (socket, _) = tokio::time::timeout(Duration::from_secs(60), listener.accept())
        .await
        .expect("the producer connects")
        .unwrap();
    let mut values = FramedRead::new(socket, MsgPackCodec::<(), Value>::new());
    let mut count = 0;
    let read_all = async {
        while let Some(value) = values.next().await {
            let value = value.unwrap();
            assert_eq!(value, expected(count), "value {count}");
            count += 1;
        }
    };
    tokio::time::timeout(Duration::from_secs(120), read_all)
        .await
        .expect("the stream ends within two minutes");
    assert_eq!(count, COUNT);
    assert!(producer.wait().unwrap().success(), "the producer failed");
}

/// Whether `python3` can import `msgpack`; if not, says so and skips, or
/// under CI fails.
fn python_msgpack_available() -> bool {
    let ok = Command::new("python3")
        .args(["-c", "import msgpack"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|status| status.success());
    if !ok {
        msgpack_test_support::skip(&format!(
            "python3 or its msgpack package is missing: {PYTHON_INSTALL}"
        ));
    }
    ok
}
