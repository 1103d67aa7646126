//! Allocations of msgpack-serde's encode and decode, counted by a global
//! allocator: encoding allocates nothing beyond the output buffer, and
//! decoding allocates exactly the owned data it creates.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use msgpack_benches::fixtures::{document, logs, mesh};
use msgpack_benches::model::plain::{Logs, Order};
use msgpack_serde::{Config, Serializer};
use serde::Serialize;

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);
static BYTES: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is forwarded unchanged to the system allocator; the
// counters are only read by the tests.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::SeqCst);
        BYTES.fetch_add(layout.size(), Ordering::SeqCst);
        // SAFETY: the caller upholds `alloc`'s contract, which we pass on.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `System.alloc` with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::SeqCst);
        BYTES.fetch_add(new_size, Ordering::SeqCst);
        // SAFETY: the caller upholds `realloc`'s contract, which we pass on.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Runs the tests of this file one at a time, so that the counts are
/// theirs alone: each test holds this for its whole body.
fn serial() -> std::sync::MutexGuard<'static, ()> {
    static LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());
    LOCK.lock().unwrap_or_else(|e| e.into_inner())
}

/// Allocations and bytes allocated while `f` runs.
fn counted<T>(f: impl FnOnce() -> T) -> (T, usize, usize) {
    let (a, b) = (
        ALLOCATIONS.load(Ordering::SeqCst),
        BYTES.load(Ordering::SeqCst),
    );
    let value = f();
    (
        value,
        ALLOCATIONS.load(Ordering::SeqCst) - a,
        BYTES.load(Ordering::SeqCst) - b,
    )
}

fn encode_into(out: &mut Vec<u8>, value: &impl Serialize, config: Config) {
    value
        .serialize(&mut Serializer::with_config(out, config))
        .unwrap();
}

#[test]
fn encode_allocates_nothing_beyond_the_output() {
    let _serial = serial();
    let (document, logs, mesh) = (document(), logs(), mesh());
    for config in [Config::compact(), Config::named()] {
        let mut out = Vec::with_capacity(16 << 20);
        let ((), allocations, _) = counted(|| {
            out.clear();
            encode_into(&mut out, &document, config);
            out.clear();
            encode_into(&mut out, &logs, config);
            out.clear();
            encode_into(&mut out, &mesh, config);
        });
        assert_eq!(allocations, 0, "{config:?}");
    }
}

/// Heap blocks and bytes owned by an order: each non-empty string, and
/// the line items.
fn owned_by_order(order: &Order) -> (usize, usize) {
    let strings = [&order.customer, &order.email, &order.currency, &order.notes]
        .into_iter()
        .chain([
            &order.shipping.street,
            &order.shipping.city,
            &order.shipping.zip,
            &order.shipping.country,
        ])
        .chain(order.items.iter().flat_map(|i| [&i.sku, &i.name]));
    let (count, bytes) = strings
        .filter(|s| s.capacity() > 0)
        .fold((0, 0), |(n, b), s| (n + 1, b + s.capacity()));
    let items =
        order.items.capacity() * std::mem::size_of::<msgpack_benches::model::plain::LineItem>();
    (count + 1, bytes + items)
}

fn owned_by_logs(logs: &Logs) -> (usize, usize) {
    let strings = logs
        .records
        .iter()
        .flat_map(|r| [&r.ip, &r.identity, &r.user_id, &r.method, &r.path]);
    let (count, bytes) = strings
        .filter(|s| s.capacity() > 0)
        .fold((0, 0), |(n, b), s| (n + 1, b + s.capacity()));
    let records =
        logs.records.capacity() * std::mem::size_of::<msgpack_benches::model::plain::LogRecord>();
    (count + 1, bytes + records)
}

#[test]
fn decode_allocates_exactly_the_owned_data() {
    let _serial = serial();
    for config in [Config::compact(), Config::named()] {
        let mut bytes = Vec::new();
        encode_into(&mut bytes, &document(), config);
        let (order, allocations, allocated) =
            counted(|| msgpack_serde::from_slice::<Order>(&bytes).unwrap());
        assert_eq!(
            (allocations, allocated),
            owned_by_order(&order),
            "{config:?}"
        );

        bytes.clear();
        encode_into(&mut bytes, &logs(), config);
        let (logs, allocations, allocated) =
            counted(|| msgpack_serde::from_slice::<Logs>(&bytes).unwrap());
        // serde preallocates at most 1 MiB from a length hint (an untrusted
        // length), so the 10,000 records (1.4 MB) grow the Vec once.
        let (owned, owned_bytes) = owned_by_logs(&logs);
        let first_block = (1 << 20)
            / std::mem::size_of::<msgpack_benches::model::plain::LogRecord>()
            * std::mem::size_of::<msgpack_benches::model::plain::LogRecord>();
        assert_eq!(
            (allocations, allocated),
            (owned + 1, owned_bytes + first_block),
            "{config:?}"
        );
    }
}
