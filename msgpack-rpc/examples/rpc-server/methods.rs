//! The methods the example server serves (shared with tests/python.rs).

use std::time::Duration;

use msgpack_rpc::{Builder, Value};

/// A builder serving `echo(value)`, `add(a, b)`, `sleep(ms)` and the
/// notification `log(text)`, which goes to `log`.
pub fn builder(log: impl Fn(String) + Send + Sync + 'static) -> Builder {
    let log = std::sync::Arc::new(log);
    Builder::new()
        // Any value back as it came, ext types included.
        .handle(
            "echo",
            |(value,): (Value,)| async move { Ok::<_, Value>(value) },
        )
        // Integers only: other params get an error response.
        .handle("add", |(a, b): (i64, i64)| async move {
            a.checked_add(b).ok_or("overflow")
        })
        // Answers after `ms` milliseconds, so calls finish out of order.
        .handle("sleep", |(ms,): (u64,)| async move {
            tokio::time::sleep(Duration::from_millis(ms)).await;
            Ok::<_, Value>(())
        })
        .handle_notification("log", move |(text,): (String,)| {
            let log = std::sync::Arc::clone(&log);
            async move { log(text) }
        })
}
