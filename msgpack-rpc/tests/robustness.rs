//! What a connection does when things go wrong around it: handlers that
//! panic, handlers that call the peer back while the peer floods us, two
//! of our peers flooding each other, calls waiting for room, and
//! responses that are malformed or too deep to decode. Each would hang a
//! call or a connection if it were handled wrongly.

use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use msgpack_rpc::{Builder, Connection, Report, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt, DuplexStream, ReadHalf, WriteHalf};

type PeerRead = ReadHalf<DuplexStream>;
type PeerWrite = WriteHalf<DuplexStream>;

/// A connection over an in-memory pipe, and the peer's ends of it.
fn with_raw_peer(builder: &Builder) -> (Connection, PeerRead, PeerWrite) {
    let (ours, theirs) = tokio::io::duplex(1 << 16);
    let (read, write) = tokio::io::split(ours);
    let connection = builder.connect(read, write);
    let (peer_read, peer_write) = tokio::io::split(theirs);
    (connection, peer_read, peer_write)
}

/// Two connections made by `left` and `right`, talking over a pipe of
/// `pipe` bytes.
fn pair(left: &Builder, right: &Builder, pipe: usize) -> (Connection, Connection) {
    let (a, b) = tokio::io::duplex(pipe);
    let (a_read, a_write) = tokio::io::split(a);
    let (b_read, b_write) = tokio::io::split(b);
    (
        left.connect(a_read, a_write),
        right.connect(b_read, b_write),
    )
}

/// The next `len` bytes the peer receives, or `None` after two seconds.
async fn receive(peer: &mut PeerRead, len: usize) -> Option<Vec<u8>> {
    let mut bytes = vec![0; len];
    let read = tokio::time::timeout(Duration::from_secs(2), peer.read_exact(&mut bytes)).await;
    matches!(read, Ok(Ok(_))).then_some(bytes)
}

/// A call of `m()` answered with a small integer, in a task.
fn call_m(connection: &Connection) -> tokio::task::JoinHandle<Result<u8, msgpack_rpc::Error>> {
    let connection = connection.clone();
    tokio::spawn(async move { connection.call::<_, u8>("m", ()).await })
}

/// Reports collected, as text.
fn collecting() -> (Builder, Arc<Mutex<Vec<String>>>) {
    let reports = Arc::new(Mutex::new(Vec::new()));
    let collected = Arc::clone(&reports);
    let builder = Builder::new().on_report(move |report: Report| {
        collected.lock().unwrap().push(report.to_string());
    });
    (builder, reports)
}

#[tokio::test(flavor = "current_thread")]
async fn calls_waiting_for_room_all_start_when_several_calls_end_at_once() {
    let (client, mut peer_read, mut peer_write) =
        with_raw_peer(&Builder::new().max_pending_calls(2));
    let (first, second) = (call_m(&client), call_m(&client));
    // [0, 0, "m", []] and [0, 1, "m", []].
    receive(&mut peer_read, 12).await.expect("two requests");
    let (third, fourth) = (call_m(&client), call_m(&client));
    tokio::time::sleep(Duration::from_millis(50)).await;
    // Both answers in one write: both calls end before either waiting
    // call runs.
    peer_write
        .write_all(&[0x94, 1, 0, 0xc0, 7, 0x94, 1, 1, 0xc0, 8])
        .await
        .unwrap();
    assert_eq!(
        (
            first.await.unwrap().unwrap(),
            second.await.unwrap().unwrap()
        ),
        (7, 8)
    );
    let requests = receive(&mut peer_read, 12)
        .await
        .expect("both waiting calls start");
    assert_eq!(requests[..3], [0x94, 0, 2]);
    assert_eq!(requests[6..9], [0x94, 0, 3]);
    peer_write
        .write_all(&[0x94, 1, 2, 0xc0, 9, 0x94, 1, 3, 0xc0, 10])
        .await
        .unwrap();
    assert_eq!(
        (
            third.await.unwrap().unwrap(),
            fourth.await.unwrap().unwrap()
        ),
        (9, 10)
    );
}

#[tokio::test(flavor = "current_thread")]
async fn calls_waiting_for_room_all_start_when_several_calls_are_given_up() {
    let (client, mut peer_read, _peer_write) = with_raw_peer(&Builder::new().max_pending_calls(2));
    let (first, second) = (call_m(&client), call_m(&client));
    receive(&mut peer_read, 12).await.expect("two requests");
    let (_third, _fourth) = (call_m(&client), call_m(&client));
    tokio::time::sleep(Duration::from_millis(50)).await;
    first.abort();
    second.abort();
    let _ = (first.await, second.await);
    receive(&mut peer_read, 12)
        .await
        .expect("both waiting calls start");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_handler_that_panics_is_answered_with_an_error_and_serving_goes_on() {
    let (server, reports) = collecting();
    let server = server
        .handle(
            "div",
            |(a, b): (i64, i64)| async move { Ok::<_, String>(a / b) },
        )
        .handle("div_later", |(a, b): (i64, i64)| async move {
            tokio::time::sleep(Duration::from_millis(10)).await;
            Ok::<_, String>(a / b)
        })
        .handle("div_now", |(a, b): (i64, i64)| {
            let quotient = a / b; // before any future: in the handler's call
            async move { Ok::<_, String>(quotient) }
        });
    // A timeout, so that a call left unanswered fails the test.
    let client = Builder::new().timeout(Duration::from_secs(10));
    let (client, server) = pair(&client, &server, 1 << 16);
    for method in ["div", "div_later", "div_now"] {
        let error = client.call::<_, i64>(method, (1, 0)).await.unwrap_err();
        assert_eq!(
            error.to_string(),
            format!("the peer answered with an error: \"the handler of `{method}` panicked\"")
        );
        assert_eq!(client.call::<_, i64>(method, (6, 3)).await.unwrap(), 2);
    }
    assert!(!server.is_closed() && !client.is_closed());
    assert_eq!(
        *reports.lock().unwrap(),
        [
            "the handler of `div` panicked",
            "the handler of `div_later` panicked",
            "the handler of `div_now` panicked",
        ]
    );
}

#[tokio::test(flavor = "current_thread")]
async fn a_notification_handler_that_panics_is_reported_and_the_next_one_runs() {
    let (builder, reports) = collecting();
    let handled = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&handled);
    let builder = builder
        .handle_notification("note", move |(n,): (u8,)| {
            let seen = Arc::clone(&seen);
            async move {
                assert!(n != 0, "a bug");
                seen.lock().unwrap().push(n);
            }
        })
        .handle("m", |(): ()| async move { Ok::<_, String>(1u8) });
    let (server, mut peer_read, mut peer_write) = with_raw_peer(&builder);
    for n in [1u8, 0, 2] {
        let note = msgpack_rpc::message::notification("note", &(n,)).unwrap();
        peer_write.write_all(&note).await.unwrap();
    }
    let request = msgpack_rpc::message::request(3, "m", &()).unwrap();
    peer_write.write_all(&request).await.unwrap();
    assert_eq!(
        receive(&mut peer_read, 5).await.unwrap(),
        [0x94, 1, 3, 0xc0, 1]
    );
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert_eq!(*handled.lock().unwrap(), [1, 2]);
    assert_eq!(*reports.lock().unwrap(), ["the handler of `note` panicked"]);
    assert!(!server.is_closed());
}

#[tokio::test(flavor = "current_thread")]
async fn a_notification_handler_can_call_the_peer_back_during_a_burst() {
    // Neovim's plugins do this on buffer events: the handler calls back
    // while more notifications arrive than the queue's length. Reading
    // must go on past them to find the answers.
    static CONNECTION: OnceLock<Connection> = OnceLock::new();
    let handled = Arc::new(Mutex::new(0));
    let counted = Arc::clone(&handled);
    let builder = Builder::new()
        .queue_len(2)
        .handle_notification("event", move |(): ()| {
            let counted = Arc::clone(&counted);
            async move {
                let connection = CONNECTION.get().unwrap();
                connection.call::<_, u8>("m", ()).await.unwrap();
                *counted.lock().unwrap() += 1;
            }
        });
    let (client, mut peer_read, mut peer_write) = with_raw_peer(&builder);
    CONNECTION.set(client).ok().unwrap();
    let event = msgpack_rpc::message::notification("event", &()).unwrap();
    peer_write.write_all(&event.repeat(20)).await.unwrap();
    for _ in 0..20 {
        // [0, msgid, "m", []], answered with [1, msgid, nil, 1].
        let request = receive(&mut peer_read, 6)
            .await
            .expect("the handler's call");
        peer_write
            .write_all(&[0x94, 1, request[2], 0xc0, 1])
            .await
            .unwrap();
    }
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert_eq!(*handled.lock().unwrap(), 20);
}

/// Two of our peers calling each other through a small pipe and short
/// queues, so that each side's answers wait for room while the other's
/// requests keep coming: each must keep reading for both to finish.
async fn flood_each_other(builder: Builder, pipe: usize, calls: usize, payload: usize) {
    let builder = builder.handle(
        "echo",
        |(value,): (Value,)| async move { Ok::<_, Value>(value) },
    );
    let (left, right) = pair(&builder, &builder, pipe);
    let payload = Value::Bin(vec![7; payload]);
    let mut tasks = Vec::new();
    for connection in [&left, &right] {
        for _ in 0..calls {
            let (connection, payload) = (connection.clone(), payload.clone());
            tasks.push(tokio::spawn(async move {
                connection.call::<_, Value>("echo", (payload,)).await
            }));
        }
    }
    let all = async {
        for task in tasks {
            assert_eq!(task.await.unwrap().unwrap(), payload);
        }
    };
    tokio::time::timeout(Duration::from_secs(60), all)
        .await
        .expect("every call between the two finishes");
}

#[tokio::test(flavor = "current_thread")]
async fn two_peers_calling_each_other_through_short_queues_both_finish() {
    let small = Builder::new().queue_len(1).max_concurrent_handlers(1);
    flood_each_other(small, 256, 20, 1000).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_peers_calling_each_other_with_the_defaults_both_finish() {
    flood_each_other(Builder::new(), 1 << 16, 400, 64 << 10).await;
}

#[tokio::test(flavor = "current_thread")]
async fn a_malformed_response_to_a_call_fails_that_call() {
    let (builder, reports) = collecting();
    let (client, mut peer_read, mut peer_write) = with_raw_peer(&builder);
    let call = call_m(&client);
    receive(&mut peer_read, 6).await.expect("the request");
    // A response of three elements: [1, 0, nil].
    peer_write.write_all(&[0x93, 1, 0, 0xc0]).await.unwrap();
    let error = tokio::time::timeout(Duration::from_secs(2), call)
        .await
        .expect("the call ends")
        .unwrap()
        .unwrap_err();
    assert!(error.is_malformed());
    assert_eq!(
        error.to_string(),
        "the response: malformed msgpack-rpc message: a response of 3 elements, not 4"
    );
    assert_eq!(
        *reports.lock().unwrap(),
        ["malformed msgpack-rpc message: a response of 3 elements, not 4"]
    );
    assert!(!client.is_closed());
}

#[tokio::test(flavor = "current_thread")]
async fn an_error_object_too_deep_to_decode_is_a_malformed_response_not_bin() {
    let (client, mut peer_read, mut peer_write) = with_raw_peer(&Builder::new());
    let call = call_m(&client);
    receive(&mut peer_read, 6).await.expect("the request");
    // [1, 0, [[[...]]] 200 deep, nil]
    let mut response = vec![0x94, 1, 0];
    response.extend(std::iter::repeat_n(0x91, 199));
    response.extend([0x90, 0xc0]);
    peer_write.write_all(&response).await.unwrap();
    let error = tokio::time::timeout(Duration::from_secs(2), call)
        .await
        .expect("the call ends")
        .unwrap()
        .unwrap_err();
    assert!(error.is_malformed() && error.remote_error().is_none());
    assert!(
        error
            .to_string()
            .starts_with("decoding the peer's error object: "),
        "{error}"
    );
}

#[tokio::test(flavor = "current_thread")]
async fn a_peer_that_stops_sending_still_gets_the_answers_it_is_owed() {
    // A client that shuts down its half of the socket after its requests
    // (`printf ... | nc` does): the answers still being worked on are
    // written, then the connection closes.
    let builder =
        Builder::new()
            .max_concurrent_handlers(1)
            .handle("sleep", |(ms,): (u64,)| async move {
                tokio::time::sleep(Duration::from_millis(ms)).await;
                Ok::<_, String>(1u8)
            });
    let (server, mut peer_read, mut peer_write) = with_raw_peer(&builder);
    let pending_call = call_m(&server);
    // [0, 0, "m", []]
    let request = receive(&mut peer_read, 6).await.expect("our request");
    assert_eq!(request, [0x94, 0, 0, 0xa1, b'm', 0x90]);
    for msgid in [1u32, 2] {
        // The second waits for the one handler slot.
        let request = msgpack_rpc::message::request(msgid, "sleep", &(50u64,)).unwrap();
        peer_write.write_all(&request).await.unwrap();
    }
    peer_write.shutdown().await.unwrap();
    // Our own call cannot be answered any more.
    let error = pending_call.await.unwrap().unwrap_err();
    assert!(error.is_closed(), "{error}");
    let mut rest = Vec::new();
    tokio::time::timeout(Duration::from_secs(5), peer_read.read_to_end(&mut rest))
        .await
        .expect("the connection closes")
        .unwrap();
    // Both answers, [1, msgid, nil, 1].
    assert_eq!(rest, [0x94, 1, 1, 0xc0, 1, 0x94, 1, 2, 0xc0, 1]);
    assert!(server.is_closed());
}

/// Panics in a `Deserialize` or a `Serialize` of the user's.
struct Fragile;

impl<'de> serde::Deserialize<'de> for Fragile {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let n = u8::deserialize(deserializer)?;
        assert!(n != 0, "a bug in Deserialize");
        Ok(Fragile)
    }
}

impl serde::Serialize for Fragile {
    fn serialize<S: serde::Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
        panic!("a bug in Serialize")
    }
}

#[tokio::test(flavor = "current_thread")]
async fn panics_in_the_users_deserialize_serialize_and_on_report_are_caught() {
    let builder = Builder::new()
        .on_report(|_| panic!("a bug in on_report"))
        .handle(
            "take",
            |(_,): (Fragile,)| async move { Ok::<_, String>(1u8) },
        )
        .handle("give", |(): ()| async move { Ok::<_, String>(Fragile) });
    let (client, server) = pair(
        &Builder::new().timeout(Duration::from_secs(10)),
        &builder,
        1 << 16,
    );
    let error = client.call::<_, u8>("take", (0,)).await.unwrap_err();
    assert_eq!(
        error.to_string(),
        "the peer answered with an error: \"the handler of `take` panicked\""
    );
    let error = client.call::<_, u8>("give", ()).await.unwrap_err();
    assert_eq!(
        error.to_string(),
        "the peer answered with an error: \"the handler of `give` panicked\""
    );
    assert_eq!(client.call::<_, u8>("take", (1,)).await.unwrap(), 1);
    assert!(!server.is_closed());
}

#[tokio::test(flavor = "current_thread")]
async fn requests_waiting_for_a_handler_start_in_the_order_they_came() {
    let order = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&order);
    let builder = Builder::new()
        .max_concurrent_handlers(1)
        .handle("slow", move |(n,): (u8,)| {
            seen.lock().unwrap().push(n);
            async move {
                tokio::time::sleep(Duration::from_millis(5)).await;
                Ok::<_, String>(n)
            }
        });
    let (_server, mut peer_read, mut peer_write) = with_raw_peer(&builder);
    for n in 0..10u8 {
        let request = msgpack_rpc::message::request(u32::from(n), "slow", &(n,)).unwrap();
        peer_write.write_all(&request).await.unwrap();
    }
    let answers = receive(&mut peer_read, 50).await.expect("ten answers");
    let msgids: Vec<u8> = answers.chunks(5).map(|answer| answer[2]).collect();
    assert_eq!(msgids, (0..10).collect::<Vec<u8>>());
    assert_eq!(*order.lock().unwrap(), (0..10).collect::<Vec<u8>>());
}

#[tokio::test(flavor = "current_thread")]
async fn after_close_no_waiting_request_starts_and_no_queued_notification_runs() {
    let calls = Arc::new(Mutex::new(0));
    let (requests, notes) = (Arc::clone(&calls), Arc::clone(&calls));
    let builder = Builder::new()
        .max_concurrent_handlers(1)
        .handle("slow", move |(): ()| {
            *requests.lock().unwrap() += 1;
            async move {
                tokio::time::sleep(Duration::from_millis(100)).await;
                Ok::<_, String>(())
            }
        })
        .handle_notification("note", move |(): ()| {
            let notes = Arc::clone(&notes);
            async move {
                *notes.lock().unwrap() += 1;
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        });
    let (server, _peer_read, mut peer_write) = with_raw_peer(&builder);
    let mut messages = Vec::new();
    for msgid in 0..5 {
        messages.extend(msgpack_rpc::message::request(msgid, "slow", &()).unwrap());
        messages.extend(msgpack_rpc::message::notification("note", &()).unwrap());
    }
    peer_write.write_all(&messages).await.unwrap();
    tokio::time::sleep(Duration::from_millis(50)).await;
    // One request and one notification are being handled; the rest wait.
    assert_eq!(*calls.lock().unwrap(), 2);
    server.close();
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(*calls.lock().unwrap(), 2);
}

#[tokio::test(flavor = "current_thread")]
async fn a_peer_that_stops_sending_gets_every_answer_and_its_notifications_run() {
    // Answers of unknown methods through a full queue, and notifications
    // still queued, when the peer ends its half of the stream.
    let handled = Arc::new(Mutex::new(0));
    let counted = Arc::clone(&handled);
    let builder = Builder::new()
        .queue_len(1)
        .handle_notification("note", move |(): ()| {
            let counted = Arc::clone(&counted);
            async move {
                tokio::time::sleep(Duration::from_millis(1)).await;
                *counted.lock().unwrap() += 1;
            }
        });
    let (ours, theirs) = tokio::io::duplex(64);
    let (read, write) = tokio::io::split(ours);
    let server = builder.connect(read, write);
    let (mut peer_read, mut peer_write) = tokio::io::split(theirs);
    let mut messages = Vec::new();
    for msgid in 0..50 {
        messages.extend(msgpack_rpc::message::request(msgid, "nope", &()).unwrap());
        messages.extend(msgpack_rpc::message::notification("note", &()).unwrap());
    }
    let writing = tokio::spawn(async move {
        peer_write.write_all(&messages).await.unwrap();
        peer_write.shutdown().await.unwrap();
    });
    let mut answers = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), peer_read.read_to_end(&mut answers))
        .await
        .expect("the connection closes")
        .unwrap();
    writing.await.unwrap();
    let answer = msgpack_rpc::message::failure(0, "unknown method `nope`").unwrap();
    assert_eq!(answers.len(), 50 * answer.len());
    assert_eq!(*handled.lock().unwrap(), 50);
    assert!(server.is_closed());
}
