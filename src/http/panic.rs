//! A handler that panics answers 500 with the API's Hebrew error instead of a dropped
//! connection. (A panic never takes the process down: hyper serves each connection in its own
//! tokio task, which catches it, and the release profile unwinds. A stack overflow cannot be
//! caught at all: it aborts, so recursion on what a client sends is bounded where it happens —
//! docs/SECURITY.md, "Bounded recursion".)

use std::any::Any;

use axum::response::{IntoResponse, Response};

use crate::error::AppError;

/// The answer of a request whose handler panicked; the panic's text goes to the log only.
pub fn answer(panic: Box<dyn Any + Send + 'static>) -> Response {
    let what = panic
        .downcast_ref::<&str>()
        .map(|s| (*s).to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_default();
    AppError::internal(anyhow::anyhow!("a request handler panicked: {what}")).into_response()
}

/// The layer `app()` puts around every route.
pub fn layer() -> tower_http::catch_panic::CatchPanicLayer<fn(Box<dyn Any + Send>) -> Response> {
    tower_http::catch_panic::CatchPanicLayer::custom(answer as fn(Box<dyn Any + Send>) -> Response)
}

#[cfg(test)]
mod tests {
    use axum::Router;
    use axum::body::Body;
    use axum::http::Request;
    use axum::routing::get;
    use tower::ServiceExt;

    #[tokio::test]
    async fn a_panicking_handler_is_answered_500_in_hebrew() {
        let app = Router::new()
            .route(
                "/boom",
                get(|| async {
                    if true {
                        panic!("boom");
                    }
                    "never"
                }),
            )
            .layer(super::layer());
        let r = app
            .oneshot(Request::get("/boom").body(Body::empty()).unwrap())
            .await
            .unwrap();
        assert_eq!(r.status(), 500);
        let body = axum::body::to_bytes(r.into_body(), 1 << 16).await.unwrap();
        let v: serde_json::Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(v["error"], "internal");
        assert_eq!(v["message"], crate::messages::SERVER_ERROR);
        assert!(!v.to_string().contains("boom"));
    }
}
