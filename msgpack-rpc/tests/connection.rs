//! The connection over real loopback sockets: our client against our
//! server, and against a raw peer that writes the bytes it likes.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use msgpack_rpc::{Builder, Connection, Report, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;

/// Reports collected, as text.
#[derive(Clone, Default)]
struct Reports(Arc<Mutex<Vec<String>>>);

impl Reports {
    fn builder(&self) -> Builder {
        let reports = self.clone();
        Builder::new().on_report(move |report: Report| {
            reports.0.lock().unwrap().push(report.to_string());
        })
    }

    fn take(&self) -> Vec<String> {
        std::mem::take(&mut *self.0.lock().unwrap())
    }
}

fn server(builder: Builder) -> Builder {
    builder
        .handle(
            "echo",
            |(value,): (Value,)| async move { Ok::<_, Value>(value) },
        )
        .handle("add", |(a, b): (i64, i64)| async move {
            a.checked_add(b).ok_or("overflow")
        })
        .handle("sleep", |(ms,): (u64,)| async move {
            tokio::time::sleep(Duration::from_millis(ms)).await;
            Ok::<_, Value>(())
        })
}

/// Our server on a loopback port, and a client connected to it.
async fn pair(server_builder: Builder, client_builder: Builder) -> Connection {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { server_builder.serve_tcp(listener).await });
    client_builder.connect_tcp(addr).await.unwrap()
}

/// A client connected to a raw peer, which the test drives by hand.
async fn raw_peer(client_builder: Builder) -> (Connection, TcpStream) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let client = client_builder
        .connect_tcp(listener.local_addr().unwrap())
        .await
        .unwrap();
    let (peer, _) = listener.accept().await.unwrap();
    (client, peer)
}

/// Reads exactly `len` bytes from the raw peer.
async fn read_exact(peer: &mut TcpStream, len: usize) -> Vec<u8> {
    let mut bytes = vec![0; len];
    tokio::time::timeout(Duration::from_secs(10), peer.read_exact(&mut bytes))
        .await
        .expect("the bytes come")
        .unwrap();
    bytes
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn typed_calls_and_any_value_echoed_intact() {
    let client = pair(server(Builder::new()), Builder::new()).await;
    assert_eq!(client.call::<_, i64>("add", (40, 2)).await.unwrap(), 42);
    let value = Value::Array(vec![
        Value::Ext(7, vec![1, 2, 3]),
        Value::Ext(-1, vec![0; 4]),
        Value::F32(1.5),
        Value::Bin(vec![0, 255]),
        Value::Map(vec![(Value::from(1), Value::from("één"))]),
        Value::Nil,
    ]);
    let echoed: Value = client.call("echo", (value.clone(),)).await.unwrap();
    assert_eq!(echoed, value);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn calls_in_flight_finish_out_of_order() {
    let client = pair(server(Builder::new()), Builder::new()).await;
    let (finished, mut order) = mpsc::unbounded_channel();
    let mut calls = Vec::new();
    for ms in [300u64, 10, 150] {
        let (client, finished) = (client.clone(), finished.clone());
        calls.push(tokio::spawn(async move {
            client.call::<_, ()>("sleep", (ms,)).await.unwrap();
            finished.send(ms).unwrap();
        }));
    }
    for call in calls {
        call.await.unwrap();
    }
    let order: Vec<u64> = std::iter::from_fn(|| order.try_recv().ok()).collect();
    assert_eq!(order, [10, 150, 300]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_thousand_concurrent_calls_each_get_their_own_answer() {
    let client = pair(server(Builder::new()), Builder::new()).await;
    a_thousand_calls(&client).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_thousand_concurrent_calls_through_queues_of_one_message() {
    // Every queue full most of the time: callers and answers wait for
    // room, and the server's answers take handler slots to wait in.
    let small = || Builder::new().queue_len(1).max_concurrent_handlers(2);
    let client = pair(server(small()), small()).await;
    a_thousand_calls(&client).await;
}

async fn a_thousand_calls(client: &Connection) {
    let calls = (0..1000i64).map(|i| {
        let client = client.clone();
        tokio::spawn(async move { (i, client.call::<_, i64>("add", (i, 1_000_000)).await) })
    });
    let answers = futures::future::join_all(calls).await;
    assert_eq!(answers.len(), 1000);
    for answer in answers {
        let (i, sum) = answer.unwrap();
        assert_eq!(sum.unwrap(), i + 1_000_000);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_more_handlers_wait_at_once_than_the_bound_then_reading_waits() {
    // `wait` handlers hold their slot until the gate opens; `add` answers
    // at once, in the reading task. With both slots taken, no handler
    // starts, not even one that would answer at once, until one is free.
    let started = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let gate = Arc::new(tokio::sync::Semaphore::new(0));
    let (counter, opened) = (Arc::clone(&started), Arc::clone(&gate));
    let builder =
        server(Builder::new())
            .max_concurrent_handlers(2)
            .handle("wait", move |(): ()| {
                counter.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                let opened = Arc::clone(&opened);
                async move {
                    opened.acquire().await.unwrap().forget();
                    Ok::<_, Value>(())
                }
            });
    let client = pair(builder, Builder::new()).await;
    let call = |method: &'static str| {
        let client = client.clone();
        tokio::spawn(async move {
            match method {
                "add" => client.call::<_, i64>("add", (1, 2)).await.map(|_| ()),
                _ => client.call::<_, ()>("wait", ()).await,
            }
        })
    };
    let waits: Vec<_> = (0..3).map(|_| call("wait")).collect();
    tokio::time::sleep(Duration::from_millis(300)).await;
    let add = call("add");
    tokio::time::sleep(Duration::from_millis(300)).await;
    let count = || started.load(std::sync::atomic::Ordering::SeqCst);
    assert_eq!(count(), 2, "the third waits for a slot");
    assert!(!add.is_finished(), "reading waits behind the third");
    gate.add_permits(1);
    tokio::time::timeout(Duration::from_secs(10), async {
        while count() < 3 {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    })
    .await
    .expect("a slot freed starts the third");
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert!(!add.is_finished(), "the third took the slot freed");
    gate.add_permits(2);
    add.await.unwrap().unwrap();
    for wait in waits {
        wait.await.unwrap().unwrap();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unknown_methods_and_bad_params_get_error_responses_and_serving_goes_on() {
    let reports = Reports::default();
    let client = pair(server(reports.builder()), Builder::new()).await;
    let error = client.call::<_, Value>("nope", ()).await.unwrap_err();
    assert_eq!(
        error.remote_error(),
        Some(&Value::from("unknown method `nope`"))
    );
    let error = client.call::<_, i64>("add", (1, "2")).await.unwrap_err();
    assert_eq!(
        error.to_string(),
        "the peer answered with an error: \"invalid params for `add`: invalid type: string \\\"2\\\", expected i64 at offset 2\""
    );
    assert_eq!(client.call::<_, i64>("add", (1, 2)).await.unwrap(), 3);
    assert_eq!(
        reports.take(),
        [
            "a request for unknown method `nope`",
            "bad params for `add`: invalid type: string \"2\", expected i64 at offset 2",
        ]
    );
}

/// Encodes its first element, then fails.
struct Refuses;

impl serde::Serialize for Refuses {
    fn serialize<S: serde::Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
        Err(serde::ser::Error::custom("refused"))
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_does_not_encode_is_an_error_and_nothing_of_it_is_sent() {
    let reports = Reports::default();
    let builder =
        server(reports.builder()).handle(
            "refuse",
            |(): ()| async move { Ok::<_, Value>((1, Refuses)) },
        );
    let client = pair(builder, Builder::new()).await;
    let error = client.call::<_, Value>("refuse", ()).await.unwrap_err();
    assert_eq!(
        error.remote_error(),
        Some(&Value::from(
            "the answer of `refuse` does not encode: refused"
        ))
    );
    // Params that do not encode: an error here, and the request's head,
    // already queued, is taken back.
    let error = client
        .call::<_, i64>("add", (1, Refuses))
        .await
        .unwrap_err();
    assert_eq!(error.to_string(), "encoding the params: refused");
    // Neither left anything behind on the wire.
    let add = client.call::<_, i64>("add", (1, 2));
    let added = tokio::time::timeout(Duration::from_secs(10), add).await;
    assert_eq!(added.expect("the stream is intact").unwrap(), 3);
    assert_eq!(reports.take(), ["encoding the answer of `refuse`: refused"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_peer_that_sends_requests_but_does_not_read_is_pushed_back_then_answered() {
    // A pipe of 64 bytes, one queued message, two handler slots and room
    // for one request waiting (frames of at most 1 KiB): the answers fill
    // the pipe and the queue, the next two wait holding the slots, one
    // more waits read, then reading stops and the peer's writes wait.
    let (ours, theirs) = tokio::io::duplex(64);
    let (read, write) = tokio::io::split(ours);
    server(Builder::new())
        .queue_len(1)
        .max_concurrent_handlers(2)
        .max_frame_len(1024)
        .connect(read, write);
    let (mut from_server, mut to_server) = tokio::io::split(theirs);
    let requests: Vec<u8> = (0..100u32)
        .flat_map(|msgid| msgpack_rpc::message::request(msgid, "add", &(1, 2)).unwrap())
        .collect();
    let writing = tokio::spawn(async move { to_server.write_all(&requests).await });
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(!writing.is_finished(), "the server stopped reading");
    // Each answer is [1, msgid, nil, 3], five bytes for msgids below 128.
    let mut answers = vec![0; 100 * 5];
    tokio::time::timeout(
        Duration::from_secs(10),
        from_server.read_exact(&mut answers),
    )
    .await
    .expect("every answer comes once the peer reads")
    .unwrap();
    writing.await.unwrap().unwrap();
    let mut msgids: Vec<u8> = answers
        .chunks(5)
        .map(|answer| {
            assert_eq!(
                [answer[0], answer[1], answer[3], answer[4]],
                [0x94, 0x01, 0xc0, 0x03]
            );
            answer[2]
        })
        .collect();
    msgids.sort_unstable();
    assert_eq!(msgids, (0..100).collect::<Vec<u8>>());
}

/// Encodes part of an array, then panics: a bug in a user's `Serialize`.
struct Panics;

impl serde::Serialize for Panics {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let mut seq = serializer.serialize_seq(Some(2))?;
        seq.serialize_element(&1)?;
        panic!("a bug in Serialize");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_serialize_that_panics_takes_down_its_call_only() {
    let client = pair(server(Builder::new()), Builder::new()).await;
    let calling = client.clone();
    let panicked = tokio::spawn(async move { calling.call::<_, i64>("add", (Panics,)).await });
    assert!(panicked.await.unwrap_err().is_panic());
    // The half-written request was taken back and the queue's lock, held
    // during the panic, still serves.
    let add = client.call::<_, i64>("add", (1, 2));
    let added = tokio::time::timeout(Duration::from_secs(10), add).await;
    assert_eq!(added.expect("the stream is intact").unwrap(), 3);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_result_of_the_wrong_type_is_a_decode_error() {
    let client = pair(server(Builder::new()), Builder::new()).await;
    let error = client.call::<_, String>("add", (1, 2)).await.unwrap_err();
    assert!(error.is_decode(), "{error}");
    assert_eq!(client.call::<_, i64>("add", (1, 2)).await.unwrap(), 3);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn malformed_messages_and_unknown_msgids_are_reported_and_skipped() {
    let reports = Reports::default();
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let serving = server(reports.builder());
    tokio::spawn(async move { serving.serve_tcp(listener).await });
    let mut peer = TcpStream::connect(addr).await.unwrap();
    // A string, a response nobody asked for, a request of 3 elements,
    // then a good request: add(1, 2) with msgid 9.
    peer.write_all(&[0xa1, b'x']).await.unwrap();
    peer.write_all(&[0x94, 0x01, 0x05, 0xc0, 0xc0])
        .await
        .unwrap();
    peer.write_all(&[0x93, 0x00, 0x01, 0xa1, b'm'])
        .await
        .unwrap();
    peer.write_all(&msgpack_rpc::message::request(9, "add", &(1, 2)).unwrap())
        .await
        .unwrap();
    assert_eq!(
        read_exact(&mut peer, 5).await,
        [0x94, 0x01, 0x09, 0xc0, 0x03]
    );
    assert_eq!(
        reports.take(),
        [
            "malformed msgpack-rpc message: not an array",
            "a response to msgid 5, which no call is waiting for",
            "malformed msgpack-rpc message: a request of 3 elements, not 4",
        ]
    );
    // Invalid MessagePack ends the stream: the connection closes.
    peer.write_all(&[0xc1]).await.unwrap();
    let mut rest = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), peer.read_to_end(&mut rest))
        .await
        .expect("the server closes")
        .unwrap();
    assert!(rest.is_empty());
    assert_eq!(
        reports.take(),
        ["the stream ended: reserved marker 0xc1 at offset 22"]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn when_the_peer_hangs_up_every_pending_call_resolves_as_closed() {
    let (client, mut peer) = raw_peer(Builder::new()).await;
    let calls: Vec<_> = (0..10)
        .map(|_| {
            let client = client.clone();
            tokio::spawn(async move { client.call::<_, Value>("sleep", (1000,)).await })
        })
        .collect();
    // Ten requests of 12 bytes each (msgids 0..=9 are one byte).
    read_exact(&mut peer, 10 * 12).await;
    drop(peer);
    for call in calls {
        let error = tokio::time::timeout(Duration::from_secs(10), call)
            .await
            .expect("no call hangs")
            .unwrap()
            .unwrap_err();
        assert!(error.is_closed(), "{error}");
        assert_eq!(error.to_string(), "connection closed");
    }
    client.closed().await;
    let error = client.call::<_, Value>("echo", (1,)).await.unwrap_err();
    assert!(error.is_closed());
    assert!(client.notify("log", ("x",)).await.unwrap_err().is_closed());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn past_max_pending_calls_a_call_waits_until_one_is_answered_or_given_up() {
    let (client, mut peer) = raw_peer(Builder::new().max_pending_calls(2)).await;
    let call = |client: &Connection| {
        let client = client.clone();
        tokio::spawn(async move { client.call::<_, u8>("m", ()).await })
    };
    let (first, second) = (call(&client), call(&client));
    read_exact(&mut peer, 12).await; // msgids 0 and 1
    let third = call(&client);
    // A waiting call that gives up makes no room and takes none.
    let given_up = client.call_with_timeout::<_, u8>("m", (), Duration::from_millis(50));
    assert!(given_up.await.unwrap_err().is_timeout());
    let mut more = [0; 1];
    let nothing = tokio::time::timeout(Duration::from_millis(300), peer.read(&mut more)).await;
    assert!(nothing.is_err(), "a third request was sent: {more:?}");
    // Answering msgid 0 lets the third go, as msgid 2.
    peer.write_all(&[0x94, 0x01, 0x00, 0xc0, 0x07])
        .await
        .unwrap();
    assert_eq!(
        read_exact(&mut peer, 6).await,
        [0x94, 0x00, 0x02, 0xa1, b'm', 0x90]
    );
    peer.write_all(&[0x94, 0x01, 0x01, 0xc0, 0x08, 0x94, 0x01, 0x02, 0xc0, 0x09])
        .await
        .unwrap();
    let mut pair = [
        first.await.unwrap().unwrap(),
        second.await.unwrap().unwrap(),
    ];
    pair.sort_unstable();
    assert_eq!(pair, [7, 8]);
    assert_eq!(third.await.unwrap().unwrap(), 9);
    // Closing wakes a waiting call too.
    let (fourth, fifth, sixth) = (call(&client), call(&client), call(&client));
    read_exact(&mut peer, 12).await;
    client.close();
    for call in [fourth, fifth, sixth] {
        assert!(call.await.unwrap().unwrap_err().is_closed());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_timed_out_or_dropped_call_frees_its_msgid_and_a_late_answer_is_reported() {
    let reports = Reports::default();
    let (client, mut peer) = raw_peer(reports.builder()).await;
    let error = client
        .call_with_timeout::<_, Value>("m", (), Duration::from_millis(50))
        .await
        .unwrap_err();
    assert!(error.is_timeout());
    assert_eq!(
        read_exact(&mut peer, 6).await,
        [0x94, 0x00, 0x00, 0xa1, b'm', 0x90]
    );
    // Dropped before its answer: cancelled.
    let dropped = client.call::<_, Value>("m", ());
    tokio::select! {
        _ = dropped => unreachable!("nobody answers"),
        () = tokio::time::sleep(Duration::from_millis(50)) => {}
    }
    assert_eq!(
        read_exact(&mut peer, 6).await,
        [0x94, 0x00, 0x01, 0xa1, b'm', 0x90]
    );
    // Late answers to both, then a call that is answered.
    peer.write_all(&[0x94, 0x01, 0x00, 0xc0, 0x07])
        .await
        .unwrap();
    peer.write_all(&[0x94, 0x01, 0x01, 0xc0, 0x07])
        .await
        .unwrap();
    let call = tokio::spawn({
        let client = client.clone();
        async move { client.call::<_, u8>("m", ()).await }
    });
    let request = read_exact(&mut peer, 6).await;
    assert_eq!(request, [0x94, 0x00, 0x02, 0xa1, b'm', 0x90]);
    peer.write_all(&[0x94, 0x01, 0x02, 0xc0, 0x08])
        .await
        .unwrap();
    assert_eq!(call.await.unwrap().unwrap(), 8);
    assert_eq!(
        reports.take(),
        [
            "a response to msgid 0, which no call is waiting for",
            "a response to msgid 1, which no call is waiting for",
        ]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_peer_error_object_comes_back_intact() {
    let (client, mut peer) = raw_peer(Builder::new()).await;
    let call = tokio::spawn({
        let client = client.clone();
        async move { client.call::<_, Value>("m", ()).await }
    });
    read_exact(&mut peer, 6).await;
    // error: {"code": ext(1, [9]), "why": [1.5f32]}
    let error = [
        0x82, 0xa4, b'c', b'o', b'd', b'e', 0xd4, 0x01, 0x09, 0xa3, b'w', b'h', b'y', 0x91, 0xca,
        0x3f, 0xc0, 0x00, 0x00,
    ];
    let mut response = vec![0x94, 0x01, 0x00];
    response.extend_from_slice(&error);
    response.push(0xc0);
    peer.write_all(&response).await.unwrap();
    let error_object = call
        .await
        .unwrap()
        .unwrap_err()
        .into_remote_error()
        .unwrap();
    assert_eq!(error_object.to_vec().unwrap(), error);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn notifications_reach_their_handler_in_order() {
    let (sender, mut received) = mpsc::unbounded_channel();
    let reports = Reports::default();
    let serving = reports
        .builder()
        .handle_notification("log", move |(text,): (String,)| {
            let sender = sender.clone();
            async move { sender.send(text).unwrap() }
        });
    let client = pair(serving, Builder::new()).await;
    for i in 0..100 {
        client.notify("log", (format!("line {i}"),)).await.unwrap();
    }
    client.notify("log", (1,)).await.unwrap();
    client.notify("nope", ()).await.unwrap();
    for i in 0..100 {
        assert_eq!(received.recv().await.unwrap(), format!("line {i}"));
    }
    // A call after the notifications: when it is answered, they were
    // read. The bad params are reported by the task that runs the
    // handlers, in its own time.
    client.call::<_, Value>("ping", ()).await.unwrap_err();
    let mut seen = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), async {
        while seen.len() < 3 {
            seen.extend(reports.take());
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    })
    .await
    .expect("three reports");
    seen.sort();
    assert_eq!(
        seen,
        [
            "a notification for unknown method `nope`",
            "a request for unknown method `ping`",
            "bad params for `log`: invalid type: integer `1`, expected a string at offset 1",
        ]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_peer_that_does_not_read_makes_callers_wait() {
    // A pipe of 64 bytes and a queue of 2 messages: the peer reads
    // nothing, so notifications stop being accepted once both are full.
    let (ours, mut theirs) = tokio::io::duplex(64);
    let (read, write) = tokio::io::split(ours);
    let client = Builder::new().queue_len(2).connect(read, write);
    let mut sent = 0;
    loop {
        let notify = client.notify("log", ("a line of some thirty bytes",));
        match tokio::time::timeout(Duration::from_millis(500), notify).await {
            Ok(result) => {
                result.unwrap();
                sent += 1;
                assert!(sent < 100, "the queue is not bounded");
            }
            Err(_) => break,
        }
    }
    assert!(sent >= 2, "{sent}");
    // Reading unblocks it.
    let mut buffer = vec![0; 4096];
    let reading = tokio::spawn(async move {
        loop {
            if theirs.read(&mut buffer).await.unwrap() == 0 {
                break;
            }
        }
    });
    client.notify("log", ("after",)).await.unwrap();
    client.close();
    reading.await.unwrap();
}

/// A peer that stops reading cannot keep a closed connection alive: once
/// `close_timeout` has passed, the stream is dropped with what it could
/// not write (before the fix, the writer waited on the pipe for ever).
#[tokio::test(start_paused = true)]
async fn a_closed_connection_drops_its_stream_when_the_peer_stops_reading() {
    let (ours, mut theirs) = tokio::io::duplex(64);
    let (read, write) = tokio::io::split(ours);
    let client = Builder::new()
        .close_timeout(Duration::from_secs(2))
        .connect(read, write);
    // More than the pipe holds: the writer waits for a read that never comes.
    client.notify("log", ("x".repeat(1000),)).await.unwrap();
    tokio::time::sleep(Duration::from_millis(10)).await;
    client.close();
    assert!(client
        .notify("log", ("late",))
        .await
        .unwrap_err()
        .is_closed());
    tokio::time::sleep(Duration::from_secs(1)).await;
    theirs
        .write_all(b"\xc0")
        .await
        .expect("held within the timeout");
    tokio::time::sleep(Duration::from_secs(2)).await;
    let error = theirs.write_all(b"\xc0").await.unwrap_err();
    assert_eq!(error.kind(), std::io::ErrorKind::BrokenPipe, "{error}");
    // What the peer did get is the start of the message, then the end.
    let mut got = Vec::new();
    theirs.read_to_end(&mut got).await.unwrap();
    assert_eq!(got.len(), 64);
    assert_eq!(got[..3], [0x93, 0x02, 0xa3]);
}

#[cfg(unix)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn calls_over_a_unix_socket() {
    let directory = std::env::temp_dir().join(format!("msgpack-rpc-{}", std::process::id()));
    std::fs::create_dir_all(&directory).unwrap();
    let path = directory.join("rpc.sock");
    let _ = std::fs::remove_file(&path);
    let listener = tokio::net::UnixListener::bind(&path).unwrap();
    let serving = server(Builder::new());
    tokio::spawn(async move {
        let (stream, _) = listener.accept().await.unwrap();
        serving.unix(stream).closed().await;
    });
    let client = Builder::new().connect_unix(&path).await.unwrap();
    assert_eq!(client.call::<_, i64>("add", (2, 3)).await.unwrap(), 5);
    let _ = std::fs::remove_dir_all(&directory);
}

#[cfg(unix)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn calls_over_a_child_process_stdio() {
    // `cat` sends our request back: we answer it (unknown method), `cat`
    // sends that answer back, and it answers our own call.
    let (client, _child) = Builder::new()
        .spawn(&mut tokio::process::Command::new("cat"))
        .unwrap();
    let error = client.call::<_, Value>("ping", ()).await.unwrap_err();
    assert_eq!(
        error.remote_error(),
        Some(&Value::from("unknown method `ping`"))
    );
}
