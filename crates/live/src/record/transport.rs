//! The recording transport: every request sent through another transport, and a copy of
//! each exchange that leaves the machine kept for the mock files.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use http::HeaderMap;

use crate::offline::is_local;
use siteops_mocks::record::Exchange;
use siteops_server::preview::transport::BoxFuture;
use siteops_server::preview::{IncomingResponse, OutgoingRequest, Transport, TransportError};

/// A transport that sends every request through `inner` and keeps a copy of each
/// non-loopback exchange.
pub struct RecordingTransport {
    inner: Arc<dyn Transport>,
    exchanges: Mutex<Vec<Exchange>>,
    local: AtomicUsize,
}

impl std::fmt::Debug for RecordingTransport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RecordingTransport")
            .field("inner", &self.inner)
            .finish_non_exhaustive()
    }
}

impl RecordingTransport {
    pub fn new(inner: Arc<dyn Transport>) -> RecordingTransport {
        RecordingTransport {
            inner,
            exchanges: Mutex::default(),
            local: AtomicUsize::new(0),
        }
    }

    /// The exchanges recorded so far, in the order their answers arrived.
    pub fn exchanges(&self) -> Vec<Exchange> {
        self.exchanges
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    /// How many loopback requests went through unrecorded.
    pub fn local_requests(&self) -> usize {
        self.local.load(Ordering::Relaxed)
    }
}

fn text_pairs(headers: &HeaderMap) -> Vec<(String, String)> {
    headers
        .iter()
        .map(|(name, value)| {
            (
                name.to_string(),
                String::from_utf8_lossy(value.as_bytes()).into_owned(),
            )
        })
        .collect()
}

impl Transport for RecordingTransport {
    fn get(
        &self,
        request: OutgoingRequest,
    ) -> BoxFuture<'_, Result<IncomingResponse, TransportError>> {
        Box::pin(async move {
            if is_local(&request.url) {
                self.local.fetch_add(1, Ordering::Relaxed);
                return self.inner.get(request).await;
            }
            let url = request.url.clone();
            let request_headers = text_pairs(&request.headers);
            let response = self.inner.get(request).await?;
            let exchange = Exchange {
                url,
                request_headers,
                status: response.status,
                response_headers: text_pairs(&response.headers),
                body: response.body.clone(),
            };
            self.exchanges
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .push(exchange);
            Ok(response)
        })
    }
}
