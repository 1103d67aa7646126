//! Allocations of msgpack-serde's encode and decode, counted by a global
//! allocator: encoding allocates nothing beyond the output buffer, and
//! decoding allocates exactly the owned data it creates.

// The per-thread counting allocator the fuzz targets and the allocation
// bounds test use: the test harness's own threads allocate while a test
// runs, and must not be counted.
#[path = "../../fuzz/src/budget.rs"]
mod budget;

use msgpack_benches::fixtures::{document, logs, mesh};
use msgpack_benches::model::plain::{Logs, Order};
use msgpack_serde::{Config, Serializer};
use serde::Serialize;

#[global_allocator]
static ALLOCATOR: budget::Counting = budget::Counting;

/// Allocations and bytes allocated by this thread while `f` runs.
fn counted<T>(f: impl FnOnce() -> T) -> (T, usize, usize) {
    let (value, usage) = budget::measure(f);
    (value, usage.count, usage.total)
}

fn encode_into(out: &mut Vec<u8>, value: &impl Serialize, config: Config) {
    value
        .serialize(&mut Serializer::with_config(out, config))
        .unwrap();
}

#[test]
fn encode_allocates_nothing_beyond_the_output() {
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

/// `to_writer` appends into a vector in place: no second buffer, however
/// large the value (mesh is 4.8 MB, past the 64 KiB buffer `to_writer`
/// keeps for other writers).
#[test]
fn to_writer_into_a_vec_allocates_nothing() {
    let (document, mesh) = (document(), mesh());
    let mut out = Vec::with_capacity(16 << 20);
    for config in [Config::compact(), Config::named()] {
        out.clear();
        let ((), allocations, _) = counted(|| {
            msgpack_serde::to_writer_with_config(&mut out, &document, config).unwrap();
            msgpack_serde::to_writer_with_config(&mut out, &mesh, config).unwrap();
        });
        assert_eq!(allocations, 0, "{config:?}");
        let mut expected = msgpack_serde::to_vec_with_config(&document, config).unwrap();
        expected.extend(msgpack_serde::to_vec_with_config(&mesh, config).unwrap());
        assert!(out == expected, "{config:?}");
    }
}

/// Extensions are written from the stack: no side buffer per `Timestamp`
/// (of every width) or `Ext`.
#[test]
fn extensions_are_written_without_allocating() {
    let values = (
        [
            msgpack_serde::Timestamp::new(1, 0).unwrap(),
            msgpack_serde::Timestamp::new(1, 5).unwrap(),
            msgpack_serde::Timestamp::new(-1, 5).unwrap(),
        ],
        msgpack_serde::Ext::new(7, vec![1, 2, 3]),
    );
    let mut out = Vec::with_capacity(1024);
    let ((), allocations, _) = counted(|| {
        msgpack_serde::to_writer(&mut out, &values).unwrap();
    });
    assert_eq!(allocations, 0);
    assert_eq!(out, msgpack_serde::to_vec(&values).unwrap());
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
