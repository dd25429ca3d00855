//! Slow-body protection (`[server] min_body_bytes_per_sec`): a request body that arrives more
//! slowly than that, on average after a grace of [`GRACE`], ends with an error. Without it a
//! client could hold a connection (and a handler) for the whole request timeout by sending one
//! byte now and then. The handler's extractor then answers 400 with a Hebrew message
//! (`error.rs`).

use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use hyper::body::{Body, Bytes, Frame, SizeHint};
use tokio::time::{Instant, Sleep};

/// How long a body may take before its rate counts.
pub const GRACE: Duration = Duration::from_secs(10);

type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// The error a too slow body ends with.
#[derive(Debug, thiserror::Error)]
#[error("the request body arrived too slowly")]
pub struct TooSlow;

/// A body that must keep up `rate` bytes per second on average after `grace`.
pub struct MinRate<B> {
    inner: B,
    started: Instant,
    received: u64,
    rate: u64,
    grace: Duration,
    /// When the body falls behind; made on the first wait.
    timer: Option<Pin<Box<Sleep>>>,
}

impl<B> MinRate<B> {
    pub fn new(inner: B, rate: u64, grace: Duration) -> Self {
        Self {
            inner,
            started: Instant::now(),
            received: 0,
            rate: rate.max(1),
            grace,
            timer: None,
        }
    }

    /// The moment the bytes received so far stop being enough.
    fn deadline(&self) -> Instant {
        self.started + self.grace + Duration::from_secs_f64(self.received as f64 / self.rate as f64)
    }
}

impl<B> Body for MinRate<B>
where
    B: Body<Data = Bytes> + Unpin,
    B::Error: Into<BoxError>,
{
    type Data = Bytes;
    type Error = BoxError;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        let this = self.get_mut();
        match Pin::new(&mut this.inner).poll_frame(cx) {
            Poll::Ready(Some(Ok(frame))) => {
                if let Some(data) = frame.data_ref() {
                    this.received += data.len() as u64;
                    let deadline = this.deadline();
                    if let Some(timer) = this.timer.as_mut() {
                        timer.as_mut().reset(deadline);
                    }
                }
                Poll::Ready(Some(Ok(frame)))
            }
            Poll::Ready(Some(Err(e))) => Poll::Ready(Some(Err(e.into()))),
            Poll::Ready(None) => Poll::Ready(None),
            Poll::Pending => {
                let deadline = this.deadline();
                let timer = this
                    .timer
                    .get_or_insert_with(|| Box::pin(tokio::time::sleep_until(deadline)));
                match timer.as_mut().poll(cx) {
                    Poll::Ready(()) => {
                        tracing::info!(received = this.received, "request body too slow: cut off");
                        Poll::Ready(Some(Err(Box::new(TooSlow))))
                    }
                    Poll::Pending => Poll::Pending,
                }
            }
        }
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

#[cfg(test)]
mod tests {
    use futures_util::StreamExt;
    use http_body_util::{BodyExt, StreamBody};

    use super::*;

    /// A body of `chunks` bytes, one every `every`.
    fn trickle(
        chunks: usize,
        size: usize,
        every: Duration,
    ) -> impl Body<Data = Bytes, Error = std::io::Error> + Unpin {
        let stream = futures_util::stream::iter(0..chunks).then(move |_| async move {
            tokio::time::sleep(every).await;
            Ok::<_, std::io::Error>(Frame::data(Bytes::from(vec![b'x'; size])))
        });
        StreamBody::new(Box::pin(stream))
    }

    #[tokio::test]
    async fn a_body_that_keeps_up_is_read_whole() {
        // 10,000 bytes a second against a floor of 500.
        let body = MinRate::new(
            trickle(20, 100, Duration::from_millis(10)),
            500,
            Duration::from_millis(100),
        );
        let bytes = body.collect().await.unwrap().to_bytes();
        assert_eq!(bytes.len(), 2000);
    }

    #[tokio::test]
    async fn a_trickle_is_cut_off_after_the_grace() {
        // 20 bytes a second against a floor of 500: past the grace, it falls behind.
        let started = Instant::now();
        let body = MinRate::new(
            trickle(1000, 1, Duration::from_millis(50)),
            500,
            Duration::from_millis(200),
        );
        let err = body.collect().await.unwrap_err();
        assert!(err.is::<TooSlow>(), "{err}");
        let took = started.elapsed();
        assert!(
            took >= Duration::from_millis(200) && took < Duration::from_secs(2),
            "{took:?}"
        );
    }
}
