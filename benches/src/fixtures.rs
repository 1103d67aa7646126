//! The built-in fixtures, generated from fixed seeds: the same data in
//! every run and on every machine.

use crate::model::plain::{
    Address, Features, Ints, LineItem, Link, LogRecord, Logs, Mesh, Order, Profile, Stats, Status,
    Triangle, Vec3,
};
use crate::rng::Rng;

/// The names of the fixtures, in the order they are run.
pub const NAMES: [&str; 5] = ["document", "api_profile", "logs", "mesh", "ints"];

/// One shop order with exactly 8 line items.
pub fn document() -> Order {
    let mut rng = Rng::new(0xd0c0_0001);
    let products = [
        ("Wool socks", 1299),
        ("Espresso beans 1 kg", 2450),
        ("Notebook, dotted A5", 899),
        ("USB-C cable 2 m", 1599),
        ("Ceramic mug", 1450),
        ("Trail running shoes", 12999),
        ("Rain jacket", 8900),
        ("Bike light set", 3499),
        ("Water bottle 750 ml", 1999),
        ("Headphones", 19900),
    ];
    let items: Vec<LineItem> = (0..8)
        .map(|i| {
            let (name, price) = *rng.pick(&products);
            LineItem {
                sku: format!("SKU-{:05}-{i}", rng.range(1..100_000)),
                name: name.to_string(),
                quantity: rng.range(1..5) as u32,
                unit_price: price,
                discount: rng.chance(0.3).then(|| rng.range(50..500)),
            }
        })
        .collect();
    let cents: u64 = items
        .iter()
        .map(|i| i.quantity as u64 * i.unit_price - i.discount.unwrap_or(0))
        .sum();
    Order {
        id: rng.range(10_000..60_000),
        customer: "Zoë Ångström".to_string(),
        email: "zoe.angstrom@example.com".to_string(),
        created: 1_700_000_000 + rng.range(0..50_000_000) as i64,
        status: Status::Shipped,
        shipping: Address {
            street: "Käsemarkt 12".to_string(),
            city: "Zürich".to_string(),
            zip: "8001".to_string(),
            country: "CH".to_string(),
        },
        currency: "CHF".to_string(),
        total: cents as f64 / 100.0,
        notes: "Bitte beim Nachbarn abgeben — merci beaucoup! 🚲".to_string(),
        items,
    }
}

/// An API response of about 600 bytes of JSON.
pub fn api_profile() -> Profile {
    Profile {
        id: 1042,
        name: "Laravel MessagePack".to_string(),
        roles: vec!["maintainer".to_string(), "developer".to_string()],
        features: Features { negotiation: true, fallback: "json".to_string(), compression: Some("gzip".to_string()) },
        email: "maintainers@example.org".to_string(),
        bio: "Fast binary APIs for PHP & Rust — schnell, compact, 高速. Maintained since 2019 by a small team of volunteers."
            .to_string(),
        links: vec![
            Link { rel: "self".to_string(), href: "https://api.example.org/v2/projects/1042".to_string() },
            Link { rel: "docs".to_string(), href: "https://docs.example.org/msgpack/getting-started".to_string() },
            Link { rel: "issues".to_string(), href: "https://tracker.example.org/msgpack/issues?state=open".to_string() },
        ],
        stats: Stats { followers: 18_342, following: 12, repositories: 57, score: 4.87 },
        verified: true,
    }
}

/// 10,000 access-log records.
pub fn logs() -> Logs {
    let mut rng = Rng::new(0x1095_0003);
    let users = ["-", "frank", "alice", "bob", "carol", "dave"];
    let methods = ["GET", "GET", "GET", "GET", "POST", "PUT", "DELETE"];
    let paths = [
        "/",
        "/index.html",
        "/api/v1/orders",
        "/api/v1/users/me",
        "/static/app.js",
        "/static/styles/main.css",
        "/images/logo.png",
        "/api/v1/search?q=socks",
    ];
    let statuses = [200, 200, 200, 200, 201, 204, 301, 304, 400, 404, 500];
    let records = (0..10_000)
        .map(|i| LogRecord {
            ip: format!(
                "{}.{}.{}.{}",
                rng.range(1..224),
                rng.range(0..256),
                rng.range(0..256),
                rng.range(1..255)
            ),
            identity: "-".to_string(),
            user_id: rng.pick(&users).to_string(),
            timestamp: 1_700_000_000 + i * 3 + rng.range(0..3),
            method: rng.pick(&methods).to_string(),
            path: rng.pick(&paths).to_string(),
            status: *rng.pick(&statuses),
            size: rng.range(0..60_000),
        })
        .collect();
    Logs { records }
}

/// 100,000 triangles: three vertices and a normal each.
pub fn mesh() -> Mesh {
    let mut rng = Rng::new(0x3e5f_0004);
    let mut point = || Vec3 {
        x: (rng.unit() * 200.0 - 100.0) as f32,
        y: (rng.unit() * 200.0 - 100.0) as f32,
        z: (rng.unit() * 200.0 - 100.0) as f32,
    };
    let triangles = (0..100_000)
        .map(|_| {
            let (v0, v1, v2) = (point(), point(), point());
            let normal = normal(&v0, &v1, &v2);
            Triangle { v0, v1, v2, normal }
        })
        .collect();
    Mesh { triangles }
}

fn normal(a: &Vec3, b: &Vec3, c: &Vec3) -> Vec3 {
    let (ux, uy, uz) = (b.x - a.x, b.y - a.y, b.z - a.z);
    let (vx, vy, vz) = (c.x - a.x, c.y - a.y, c.z - a.z);
    let (x, y, z) = (uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx);
    let length = (x * x + y * y + z * z).sqrt().max(f32::MIN_POSITIVE);
    Vec3 {
        x: x / length,
        y: y / length,
        z: z / length,
    }
}

/// 100,000 integers spread over every MessagePack integer width, positive
/// and negative.
pub fn ints() -> Ints {
    let mut rng = Rng::new(0x1275_0005);
    let values = (0..100_000)
        .map(|_| match rng.range(0..10) {
            0 => rng.range(0..128) as i64,
            1 => -(rng.range(1..33) as i64),
            2 => rng.range(128..256) as i64,
            3 => -(rng.range(33..129) as i64),
            4 => rng.range(256..65_536) as i64,
            5 => -(rng.range(129..32_769) as i64),
            6 => rng.range(65_536..1 << 32) as i64,
            7 => -(rng.range(32_769..1 << 31) as i64),
            8 => rng.range(1 << 32..i64::MAX as u64) as i64,
            _ => -(rng.range(1 << 31..i64::MAX as u64) as i64),
        })
        .collect();
    Ints { values }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixtures_have_the_promised_shape() {
        assert_eq!(document().items.len(), 8);
        assert_eq!(logs().records.len(), 10_000);
        assert_eq!(mesh().triangles.len(), 100_000);
        assert_eq!(ints().values.len(), 100_000);
        let json = serde_json::to_vec(&api_profile()).unwrap();
        assert!(
            (550..=700).contains(&json.len()),
            "api_profile is {} bytes of JSON",
            json.len()
        );
    }

    #[test]
    fn fixtures_are_deterministic() {
        assert_eq!(document(), document());
        assert_eq!(ints(), ints());
    }
}
