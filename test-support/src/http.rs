//! A real server on 127.0.0.1 for HTTP tests: no mocks.

use std::net::SocketAddr;

use axum::Router;
use tokio::task::JoinHandle;

/// An app being served; dropping it leaves the server running until the
/// runtime stops.
#[derive(Debug)]
pub struct Server {
    /// `http://127.0.0.1:PORT`.
    pub url: String,
    /// The address it listens on.
    pub address: SocketAddr,
    /// The serving task: finished only when the server stopped, with why.
    pub task: JoinHandle<std::io::Result<()>>,
}

/// Serves `app` on 127.0.0.1 at an ephemeral port, on the current tokio
/// runtime (which must have IO enabled).
///
/// ```
/// # tokio::runtime::Builder::new_current_thread().enable_io().build().unwrap().block_on(async {
/// let server = msgpack_test_support::http::serve(axum::Router::new()).await;
/// assert!(server.url.starts_with("http://127.0.0.1:"));
/// # });
/// ```
pub async fn serve(app: Router) -> Server {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("listen on 127.0.0.1");
    let address = listener.local_addr().expect("the listener's address");
    let task = tokio::spawn(async move { axum::serve(listener, app).await });
    Server {
        url: format!("http://{address}"),
        address,
        task,
    }
}
