//! Handlers with typed params, erased to one shape the connection calls.
//! A handler is the user's code: one that panics answers its request
//! with an error and is reported, and the connection goes on serving.

use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::sync::Arc;

use bytes::Bytes;
use futures::FutureExt;
use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::hash::FnvMap;
use crate::message;
use crate::outgoing::{Outgoing, Pushed, Unsent};
use crate::Report;

pub(crate) type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send>>;

/// A request handler: given the msgid, the raw params and the outgoing
/// queue, it queues the response and gives what to report when something
/// went wrong on our side.
pub(crate) type RequestHandler =
    Arc<dyn Fn(u32, Bytes, Arc<Outgoing>) -> BoxFuture<Option<Report>> + Send + Sync>;

/// A notification handler: given the raw params, it handles them and
/// gives what to report (params that did not decode, a panic).
pub(crate) type NotificationHandler = Arc<dyn Fn(Bytes) -> BoxFuture<Option<Report>> + Send + Sync>;

/// The methods a connection serves, by name.
#[derive(Clone, Default)]
pub(crate) struct Handlers {
    pub(crate) requests: FnvMap<String, RequestHandler>,
    pub(crate) notifications: FnvMap<String, NotificationHandler>,
}

/// Wraps `handler` of typed params `P`, answering `Ok(R)` as the result
/// and `Err(E)` as the error object.
pub(crate) fn request<P, R, E, F, Fut>(method: &str, handler: F) -> RequestHandler
where
    P: DeserializeOwned + Send + 'static,
    R: Serialize + 'static,
    E: Serialize + 'static,
    F: Fn(P) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<R, E>> + Send + 'static,
{
    let method: Arc<str> = method.into();
    Arc::new(move |msgid, params, outgoing| {
        // The params' `Deserialize` and the handler's call are the user's
        // code: a panic in either is caught here.
        let started = std::panic::catch_unwind(AssertUnwindSafe(|| {
            msgpack_serde::from_slice::<P>(&params).map(&handler)
        }));
        let reply = match started {
            Err(_) => return answer_panic(msgid, &method, outgoing),
            Ok(Ok(reply)) => reply,
            Ok(Err(error)) => {
                let text = format!("invalid params for `{method}`: {error}");
                let pushed = outgoing
                    .push(|out| message::write_failure(out, msgid, &text))
                    .ok();
                let report = Report::BadParams {
                    method: method.to_string(),
                    error,
                };
                return Box::pin(async move {
                    wait_for_room(&outgoing, pushed).await;
                    Some(report)
                });
            }
        };
        let method = Arc::clone(&method);
        Box::pin(async move {
            // The reply is dropped before any wait for room, so that the
            // future needs no `R: Send`. Its `Serialize` is the user's
            // code too: a panic there takes back what it wrote
            // (`Outgoing`) and is answered as the handler's.
            let answered = AssertUnwindSafe(async {
                let reply = reply.await;
                push_reply(&outgoing, msgid, &method, &reply)
            })
            .catch_unwind()
            .await;
            let Ok((pushed, report)) = answered else {
                return answer_panic(msgid, &method, outgoing).await;
            };
            wait_for_room(&outgoing, pushed).await;
            report
        })
    })
}

/// Answers `msgid` with an error saying that the handler of `method`
/// panicked, and reports it.
fn answer_panic(msgid: u32, method: &str, outgoing: Arc<Outgoing>) -> BoxFuture<Option<Report>> {
    let text = format!("the handler of `{method}` panicked");
    let pushed = outgoing
        .push(|out| message::write_failure(out, msgid, &text))
        .ok();
    let report = Report::Panicked {
        method: method.to_owned(),
    };
    Box::pin(async move {
        wait_for_room(&outgoing, pushed).await;
        Some(report)
    })
}

/// Queues `reply` as the response to `msgid`. One that does not encode is
/// answered with an error saying so, and reported.
fn push_reply<R: Serialize, E: Serialize>(
    outgoing: &Outgoing,
    msgid: u32,
    method: &str,
    reply: &Result<R, E>,
) -> (Option<Pushed>, Option<Report>) {
    let pushed = outgoing.push(|out| match reply {
        Ok(result) => message::write_success(out, msgid, result),
        Err(error) => message::write_failure(out, msgid, error),
    });
    match pushed {
        Ok(pushed) => (Some(pushed), None),
        Err(Unsent::Closed) => (None, None),
        Err(Unsent::Encode(error)) => {
            let text = format!("the answer of `{method}` does not encode: {error}");
            let pushed = outgoing.push(|out| message::write_failure(out, msgid, &text));
            let report = Report::Encode {
                method: method.to_string(),
                error,
            };
            (pushed.ok(), Some(report))
        }
    }
}

/// Queues a response that a full queue gave back, once there is room; a
/// closing connection drops it.
async fn wait_for_room(outgoing: &Outgoing, pushed: Option<Pushed>) {
    if let Some(Pushed::Full(bytes)) = pushed {
        let _ = outgoing.push_encoded(bytes).await;
    }
}

/// Wraps a notification `handler` of typed params `P`.
pub(crate) fn notification<P, F, Fut>(method: &str, handler: F) -> NotificationHandler
where
    P: DeserializeOwned + Send + 'static,
    F: Fn(P) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = ()> + Send + 'static,
{
    let method: Arc<str> = method.into();
    Arc::new(move |params| {
        let panicked = |method: &str| {
            Some(Report::Panicked {
                method: method.to_owned(),
            })
        };
        let started = std::panic::catch_unwind(AssertUnwindSafe(|| {
            msgpack_serde::from_slice::<P>(&params).map(&handler)
        }));
        let handled = match started {
            Err(_) => return Box::pin(std::future::ready(panicked(&method))),
            Ok(Ok(handled)) => handled,
            Ok(Err(error)) => {
                let report = Report::BadParams {
                    method: method.to_string(),
                    error,
                };
                return Box::pin(std::future::ready(Some(report)));
            }
        };
        let method = Arc::clone(&method);
        Box::pin(async move {
            match AssertUnwindSafe(handled).catch_unwind().await {
                Ok(()) => None,
                Err(_) => panicked(&method),
            }
        })
    })
}
