//! The serde_json swap, measured: one order encoded as JSON, as named
//! MessagePack and as compact MessagePack, decoded back and compared.
//!
//! `cargo run --release -p msgpack-serde --example swap`

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, PartialEq, Debug)]
#[serde(rename_all = "snake_case")]
enum Status {
    Pending,
    Shipped { carrier: String },
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Line {
    sku: String,
    quantity: u32,
    unit_price_cents: u64,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Order {
    id: u64,
    customer: String,
    status: Status,
    total: f64,
    lines: Vec<Line>,
    attributes: BTreeMap<String, String>,
    note: Option<String>,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let order = Order {
        id: 1042,
        customer: "Ada Lovelace".into(),
        status: Status::Shipped {
            carrier: "Postal Service".into(),
        },
        total: 129.95,
        lines: (0..8)
            .map(|i| Line {
                sku: format!("SKU-{i:04}"),
                quantity: i + 1,
                unit_price_cents: 1299 * (i as u64 + 1),
            })
            .collect(),
        attributes: [("gift".to_string(), "yes".to_string())].into(),
        note: Some("Leave at the door, merci ☺".into()),
    };

    let json = serde_json::to_vec(&order)?;
    let named = msgpack_serde::to_vec(&order)?;
    let compact = msgpack_serde::to_vec_compact(&order)?;

    assert_eq!(serde_json::from_slice::<Order>(&json)?, order);
    assert_eq!(msgpack_serde::from_slice::<Order>(&named)?, order);
    assert_eq!(msgpack_serde::from_slice::<Order>(&compact)?, order);

    println!("{:<30} {:>6} bytes", "serde_json::to_vec", json.len());
    for (name, bytes) in [
        ("msgpack_serde::to_vec", &named),
        ("msgpack_serde::to_vec_compact", &compact),
    ] {
        let ratio = bytes.len() as f64 / json.len() as f64;
        println!(
            "{name:<30} {:>6} bytes ({:.0}% of JSON)",
            bytes.len(),
            ratio * 100.0
        );
    }
    println!(
        "\nnamed, as readable text:\n{}",
        msgpack_serde::Value::from_slice(&named)?
    );
    Ok(())
}
