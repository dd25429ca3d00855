//! The request timeout (`[server] request_timeout_secs`): a request still unanswered then is
//! dropped and answered 503 in the API's JSON shape with a Hebrew message (tower-http's
//! TimeoutLayer answers an empty 408, which the web app could not show). `app()` puts it on
//! every route but the live channel (`/ws`), which stays open for hours by design.

use std::time::Duration;

use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::error::AppError;

pub async fn limit(State(after): State<Duration>, request: Request, next: Next) -> Response {
    match tokio::time::timeout(after, next.run(request)).await {
        Ok(response) => response,
        Err(_) => {
            tracing::warn!(secs = after.as_secs_f64(), "request timed out");
            AppError::Timeout.into_response()
        }
    }
}

#[cfg(test)]
mod tests {
    use axum::Router;
    use axum::body::Body;
    use axum::routing::get;
    use tower::ServiceExt;

    use super::*;

    #[tokio::test]
    async fn a_slow_request_is_answered_503_in_hebrew() {
        let app = Router::new()
            .route(
                "/slow",
                get(|| async {
                    tokio::time::sleep(Duration::from_secs(5)).await;
                    "late"
                }),
            )
            .route("/fast", get(|| async { "ok" }))
            .layer(axum::middleware::from_fn_with_state(
                Duration::from_millis(50),
                limit,
            ));
        let get = |p: &str| Request::get(p).body(Body::empty()).unwrap();
        let fast = app.clone().oneshot(get("/fast")).await.unwrap();
        assert_eq!(fast.status(), 200);
        let slow = app.oneshot(get("/slow")).await.unwrap();
        assert_eq!(slow.status(), 503);
        let body = axum::body::to_bytes(slow.into_body(), 1 << 16)
            .await
            .unwrap();
        let v: serde_json::Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(v["error"], "timeout");
        assert_eq!(v["message"], crate::messages::REQUEST_TIMEOUT);
    }
}
