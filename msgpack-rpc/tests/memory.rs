//! What the peer's messages that wait to be handled hold in memory,
//! under a counting allocator (this test binary only).

#[path = "../../fuzz/src/budget.rs"]
mod budget;

use std::future::pending;

use msgpack_rpc::Builder;
use tokio::io::AsyncWriteExt;

#[global_allocator]
static ALLOCATOR: budget::Counting = budget::Counting;

#[test]
fn a_small_waiting_message_does_not_hold_the_large_read_buffer_it_arrived_in() {
    // Each tiny notification arrives right after a 1 MiB response nobody
    // waits for (dropped at once), in the same read buffer, and waits
    // behind a handler that never returns. Kept as a slice of that buffer,
    // each would hold about 1 MiB: 30 MiB for the 30 of them.
    const FRAME: usize = 1 << 20;
    let ((), usage) = budget::measure(|| {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async {
            let builder = Builder::new()
                .max_frame_len(2 * FRAME)
                .handle_notification("wait", |(): ()| pending::<()>());
            let (ours, theirs) = tokio::io::duplex(64 << 10);
            let (read, write) = tokio::io::split(ours);
            let connection = builder.connect(read, write);
            let (_peer_read, mut peer_write) = tokio::io::split(theirs);
            let response = msgpack_rpc::message::success(7, &bin(FRAME)).unwrap();
            let note = msgpack_rpc::message::notification("wait", &()).unwrap();
            for _ in 0..30 {
                peer_write.write_all(&response).await.unwrap();
                peer_write.write_all(&note).await.unwrap();
            }
            // Everything written has been read once the pipe is empty
            // and the reading task has had its turn.
            peer_write.flush().await.unwrap();
            for _ in 0..100 {
                tokio::task::yield_now().await;
            }
            drop(connection);
        });
    });
    assert!(
        usage.peak < 12 * FRAME,
        "the waiting notifications held {} MiB",
        usage.peak >> 20
    );
}

/// A bin of `len` bytes, as a `Value`.
fn bin(len: usize) -> msgpack_rpc::Value {
    msgpack_rpc::Value::Bin(vec![0; len])
}

#[test]
fn a_decoded_value_takes_the_32_bytes_the_docs_give_for_it() {
    // `Builder`'s docs and the README bound decoded params with it.
    assert_eq!(std::mem::size_of::<msgpack_rpc::Value>(), 32);
}
