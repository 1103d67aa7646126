//! A peer nobody here wrote: Neovim, embedded as
//! `nvim --embed --headless --clean` over its stdin and stdout.
//!
//! Without `nvim` the tests skip, saying so, unless `CI` is set: then
//! they fail (`.ci/run` installs Debian's `neovim`).

use std::collections::HashMap;
use std::time::Duration;

use msgpack_rpc::{Builder, Connection, Value};
use serde::Deserialize;
use tokio::process::{Child, Command};
use tokio::sync::mpsc;

/// `nvim_get_api_info`'s metadata, the parts these tests read.
#[derive(Deserialize, Debug)]
struct ApiInfo {
    version: Version,
    functions: Vec<Function>,
    types: HashMap<String, ExtTypeInfo>,
    error_types: HashMap<String, ErrorType>,
}

#[derive(Deserialize, Debug)]
struct Version {
    major: u64,
    api_level: u64,
}

#[derive(Deserialize, Debug)]
struct Function {
    name: String,
    parameters: Vec<(String, String)>,
    return_type: String,
}

/// Buffer, Window and Tabpage: ext types, with their type ids.
#[derive(Deserialize, Debug)]
struct ExtTypeInfo {
    id: i8,
    prefix: String,
}

#[derive(Deserialize, Debug)]
struct ErrorType {
    id: u64,
}

/// Neovim with `builder`'s handlers, or `None` (skipping) without `nvim`.
fn nvim(builder: Builder) -> Option<(Connection, Child)> {
    let found = std::process::Command::new("nvim")
        .arg("--version")
        .output()
        .is_ok_and(|output| output.status.success());
    if !found {
        assert!(
            !in_ci(),
            "nvim is required under CI: apt-get install -y neovim"
        );
        eprintln!("skipping: nvim is not installed (apt-get install -y neovim)");
        return None;
    }
    let mut command = Command::new("nvim");
    command.args(["--embed", "--headless", "--clean"]);
    Some(
        builder
            .timeout(Duration::from_secs(30))
            .spawn(&mut command)
            .unwrap(),
    )
}

fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|value| !value.is_empty() && value != "false" && value != "0")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn api_info_decodes_into_value_and_into_typed_structs() {
    let Some((nvim, _child)) = nvim(Builder::new()) else {
        return;
    };
    let (channel, info): (u64, Value) = nvim.call("nvim_get_api_info", ()).await.unwrap();
    assert!(channel > 0);
    let map = info.as_map().expect("the metadata is a map");
    let keys: Vec<&str> = map.iter().filter_map(|(key, _)| key.as_str()).collect();
    for key in ["version", "functions", "ui_events", "types", "error_types"] {
        assert!(keys.contains(&key), "{key} missing from {keys:?}");
    }
    // The same reply, typed.
    let (_, info): (u64, ApiInfo) = nvim.call("nvim_get_api_info", ()).await.unwrap();
    assert!(
        info.version.major == 0 && info.version.api_level >= 1,
        "{:?}",
        info.version
    );
    assert!(
        info.functions.len() > 100,
        "{} functions",
        info.functions.len()
    );
    let eval = info
        .functions
        .iter()
        .find(|function| function.name == "nvim_eval")
        .expect("nvim_eval is listed");
    assert_eq!(
        eval.parameters,
        [("String".to_string(), "expr".to_string())]
    );
    assert_eq!(eval.return_type, "Object");
    assert_eq!(info.types["Buffer"].prefix, "nvim_buf_");
    let ids: Vec<i8> = ["Buffer", "Window", "Tabpage"]
        .iter()
        .map(|name| info.types[*name].id)
        .collect();
    assert_eq!(ids, [0, 1, 2]);
    assert_eq!(info.error_types["Exception"].id, 0);
    assert_eq!(info.error_types["Validation"].id, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn eval_lines_and_the_buffer_handle() {
    let Some((nvim, _child)) = nvim(Builder::new()) else {
        return;
    };
    assert_eq!(
        nvim.call::<_, i64>("nvim_eval", ("1 + 1",)).await.unwrap(),
        2
    );

    let lines = ["héllo wörld", "日本語のテキスト", "emoji 🦀 and ✓"];
    nvim.call::<_, ()>("nvim_buf_set_lines", (0, 0, -1, false, lines))
        .await
        .unwrap();
    let read: Vec<String> = nvim
        .call("nvim_buf_get_lines", (0, 0, -1, false))
        .await
        .unwrap();
    assert_eq!(read, lines);

    // The current buffer is an ext value: type 0 (Buffer, as the API
    // info lists it), its data the handle as a MessagePack integer.
    let buffer: Value = nvim.call("nvim_get_current_buf", ()).await.unwrap();
    let (kind, data) = buffer.as_ext().expect("a Buffer is an ext value");
    assert_eq!(kind, 0);
    assert_eq!(Value::from_slice(data).unwrap().as_u64(), Some(1));
    // Sent back as it came, the handle names the same buffer.
    let read: Vec<String> = nvim
        .call("nvim_buf_get_lines", (&buffer, 0, 1, false))
        .await
        .unwrap();
    assert_eq!(read, ["héllo wörld"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_error_reply_is_the_error_object() {
    let Some((nvim, _child)) = nvim(Builder::new()) else {
        return;
    };
    let error = nvim
        .call::<_, Value>("nvim_eval", ("g:no_such_variable",))
        .await
        .unwrap_err();
    // Neovim's error object: [error type id, message].
    let object = error.into_remote_error().expect("an error response");
    let parts = object.as_array().expect("an array");
    assert_eq!(parts.len(), 2, "{object}");
    assert_eq!(parts[0].as_u64(), Some(0), "Exception: {object}");
    let message = parts[1].as_str().unwrap();
    assert!(message.contains("E121"), "{message}");
    assert!(message.contains("g:no_such_variable"), "{message}");
    // And the connection goes on.
    assert_eq!(
        nvim.call::<_, i64>("nvim_eval", ("2 * 3",)).await.unwrap(),
        6
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_notification_from_neovim_reaches_our_handler() {
    let (sender, mut received) = mpsc::unbounded_channel();
    let builder =
        Builder::new().handle_notification("greeting", move |(text, number): (String, i64)| {
            let sender = sender.clone();
            async move { sender.send((text, number)).unwrap() }
        });
    let Some((nvim, _child)) = nvim(builder) else {
        return;
    };
    // Channel 0 broadcasts to the channels subscribed to the event.
    nvim.call::<_, ()>("nvim_subscribe", ("greeting",))
        .await
        .unwrap();
    nvim.call::<_, Value>(
        "nvim_command",
        ("call rpcnotify(0, 'greeting', 'from nvim ✓', 42)",),
    )
    .await
    .unwrap();
    let got = tokio::time::timeout(Duration::from_secs(30), received.recv())
        .await
        .expect("the notification comes")
        .unwrap();
    assert_eq!(got, ("from nvim ✓".to_string(), 42));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_from_neovim_is_answered_while_our_call_is_in_flight() {
    let builder = Builder::new()
        .handle(
            "double",
            |(n,): (i64,)| async move { Ok::<_, Value>(n * 2) },
        )
        .handle("fail", |_: Vec<Value>| async move {
            Err::<(), _>("refused by the client")
        });
    let Some((nvim, _child)) = nvim(builder) else {
        return;
    };
    let (channel, _): (u64, Value) = nvim.call("nvim_get_api_info", ()).await.unwrap();
    // Our nvim_eval waits while Neovim calls us back, twice, on the
    // same connection.
    let expression =
        format!("rpcrequest({channel}, 'double', 21) + rpcrequest({channel}, 'double', 100)");
    assert_eq!(
        nvim.call::<_, i64>("nvim_eval", (expression,))
            .await
            .unwrap(),
        242
    );
    // Our handler's error reaches Vim script as an error.
    let expression = format!("rpcrequest({channel}, 'fail')");
    let error = nvim
        .call::<_, Value>("nvim_eval", (expression,))
        .await
        .unwrap_err();
    let object = error.into_remote_error().unwrap();
    assert!(
        object.to_string().contains("refused by the client"),
        "{object}"
    );
}
