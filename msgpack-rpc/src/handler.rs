//! Handlers with typed params, erased to one shape the connection calls.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use bytes::Bytes;
use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::hash::FnvMap;
use crate::message;
use crate::Report;

pub(crate) type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send>>;

/// What a request handler gives back: the encoded response, and what to
/// report when something went wrong on our side.
pub(crate) struct Answer {
    pub(crate) response: Vec<u8>,
    pub(crate) report: Option<Report>,
}

/// A request handler: the msgid and the raw params in, the response out.
pub(crate) type RequestHandler = Arc<dyn Fn(u32, Bytes) -> BoxFuture<Answer> + Send + Sync>;

/// A notification handler: `Err` when the params did not decode.
pub(crate) type NotificationHandler =
    Arc<dyn Fn(Bytes) -> Result<BoxFuture<()>, Report> + Send + Sync>;

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
    Arc::new(move |msgid, params| {
        let params = match msgpack_serde::from_slice::<P>(&params) {
            Ok(params) => params,
            Err(error) => {
                let text = format!("invalid params for `{method}`: {error}");
                let answer = Answer {
                    response: message::failure(msgid, &text).expect("a string encodes"),
                    report: Some(Report::BadParams {
                        method: method.to_string(),
                        error,
                    }),
                };
                return Box::pin(std::future::ready(answer));
            }
        };
        let reply = handler(params);
        let method = Arc::clone(&method);
        Box::pin(async move {
            let encoded = match reply.await {
                Ok(result) => message::success(msgid, &result),
                Err(error) => message::failure(msgid, &error),
            };
            match encoded {
                Ok(response) => Answer {
                    response,
                    report: None,
                },
                Err(error) => Answer {
                    response: message::failure(
                        msgid,
                        &format!("the answer of `{method}` does not encode: {error}"),
                    )
                    .expect("a string encodes"),
                    report: Some(Report::Encode {
                        method: method.to_string(),
                        error,
                    }),
                },
            }
        })
    })
}

/// Wraps a notification `handler` of typed params `P`.
pub(crate) fn notification<P, F, Fut>(method: &str, handler: F) -> NotificationHandler
where
    P: DeserializeOwned + Send + 'static,
    F: Fn(P) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = ()> + Send + 'static,
{
    let method: Arc<str> = method.into();
    Arc::new(
        move |params| match msgpack_serde::from_slice::<P>(&params) {
            Ok(params) => Ok(Box::pin(handler(params)) as BoxFuture<()>),
            Err(error) => Err(Report::BadParams {
                method: method.to_string(),
                error,
            }),
        },
    )
}
