//! The example server's routes, shared with the tests that talk to it.

use axum::http::StatusCode;
use axum::routing::get;
use axum::{Json, Router};
use msgpack_axum::{NegotiateLayer, Negotiated};
use serde::{Deserialize, Serialize};

/// The payload of the laravel-msgpack article.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Profile {
    pub id: u64,
    pub name: String,
    pub roles: Vec<String>,
    pub features: Features,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Features {
    pub negotiation: bool,
    pub fallback: String,
}

pub fn profile() -> Profile {
    Profile {
        id: 1042,
        name: "Laravel MessagePack".into(),
        roles: vec!["maintainer".into(), "developer".into()],
        features: Features {
            negotiation: true,
            fallback: "json".into(),
        },
    }
}

/// `GET /api/profile`: JSON or MessagePack, by `Accept`.
async fn show() -> Negotiated<Profile> {
    Negotiated(profile())
}

/// `POST /api/profile`: a JSON or MessagePack body, echoed in the format
/// the client accepts.
async fn echo(Negotiated(profile): Negotiated<Profile>) -> Negotiated<Profile> {
    Negotiated(profile)
}

/// `GET /api/legacy/profile`: a plain `Json` handler, negotiable through
/// the layer alone.
async fn legacy() -> Json<Profile> {
    Json(profile())
}

/// Every other path: a JSON 404, which the layer re-encodes too.
async fn not_found() -> (StatusCode, Json<serde_json::Value>) {
    (
        StatusCode::NOT_FOUND,
        Json(serde_json::json!({"error": "not found"})),
    )
}

/// The whole application.
pub fn app() -> Router {
    Router::new()
        .route("/api/profile", get(show).post(echo))
        .route("/api/legacy/profile", get(legacy))
        .fallback(not_found)
        .layer(NegotiateLayer::new())
}
