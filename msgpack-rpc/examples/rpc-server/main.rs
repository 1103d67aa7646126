//! A msgpack-rpc server on `127.0.0.1:$PORT` (default 3001) serving
//! `echo(value)`, `add(a, b)`, `sleep(ms)` and the notification
//! `log(text)`; an unknown method gets an error response.
//!
//! ```text
//! cargo run -p msgpack-rpc --example rpc-server
//! ```
//!
//! The README's RPC section has a Python client for it.

mod methods;

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let port: u16 = match std::env::var("PORT") {
        Ok(port) => port.parse().expect("PORT is a port number"),
        Err(_) => 3001,
    };
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await?;
    println!("msgpack-rpc server on {}", listener.local_addr()?);
    methods::builder(|text| println!("log: {text}"))
        .on_report(|report| eprintln!("rpc: {report}"))
        .serve_tcp(listener)
        .await
}
