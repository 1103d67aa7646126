//! The example server: `cargo run -p msgpack-axum --example server`, then
//!
//! ```sh
//! curl -H 'Accept: application/msgpack' http://127.0.0.1:3000/api/profile | msgpack decode
//! ```
//!
//! Listens on `127.0.0.1:$PORT` (3000 by default).

mod app;

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let port = match std::env::var("PORT") {
        Ok(text) => text.parse::<u16>().map_err(|error| {
            std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                format!("PORT={text}: {error}"),
            )
        })?,
        Err(_) => 3000,
    };
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await?;
    let address = listener.local_addr()?;
    println!("listening on http://{address}");
    println!(
        "  GET  http://{address}/api/profile          JSON or MessagePack, by Accept (Negotiated)"
    );
    println!("  POST http://{address}/api/profile          a JSON or MessagePack body, echoed");
    println!("  GET  http://{address}/api/legacy/profile   a plain Json handler, re-encoded by NegotiateLayer");
    println!("try: curl -s -H 'Accept: application/msgpack' http://{address}/api/profile | xxd");
    axum::serve(listener, app::app()).await
}
