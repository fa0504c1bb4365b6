//! Shared helpers of the image tests: an in-memory media sink, PNG bytes, wiremock image
//! answers, and one downloader run.

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::time::Duration;

use http::HeaderValue;
use siteops::preview::images::allow::AllowList;
use siteops::preview::images::download::Downloader;
use siteops::preview::images::{ImageMap, MediaSink, SinkError, download_images};
use siteops::preview::trace::ImageTrace;
use siteops::preview::{Limits, PreviewError, Transport};
use url::Url;
use wiremock::ResponseTemplate;

#[derive(Default)]
pub struct Memory(pub Mutex<BTreeMap<String, Vec<u8>>>);

#[siteops::store::async_trait]
impl MediaSink for Memory {
    async fn store(&self, name: &str, bytes: &[u8]) -> Result<(), SinkError> {
        self.0
            .lock()
            .expect("lock")
            .insert(name.to_string(), bytes.to_vec());
        Ok(())
    }
}

/// A PNG header of `width` x `height`, then `fill`.
pub fn png(width: u32, height: u32, fill: &[u8]) -> Vec<u8> {
    let mut bytes = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
    bytes.extend_from_slice(&width.to_be_bytes());
    bytes.extend_from_slice(&height.to_be_bytes());
    bytes.extend_from_slice(fill);
    bytes
}

pub fn image(bytes: Vec<u8>, content_type: &str) -> ResponseTemplate {
    ResponseTemplate::new(200).set_body_raw(bytes, content_type)
}

pub fn redirect(to: String) -> ResponseTemplate {
    ResponseTemplate::new(302).insert_header("location", to.as_str())
}

pub struct Run {
    pub result: Result<ImageMap, PreviewError>,
    pub trace: Vec<ImageTrace>,
}

pub async fn run(
    transport: &dyn Transport,
    sources: &[String],
    base: &str,
    img_src: Option<&str>,
    authorization: Option<&str>,
    limits: &Limits,
    sink: &dyn MediaSink,
) -> Run {
    let base = Url::parse(base).expect("base");
    let allow = AllowList::parse(img_src, &base);
    let authorization = authorization.map(|a| HeaderValue::from_str(a).expect("header"));
    let downloader = Downloader {
        transport,
        limits,
        allow: &allow,
        authorization: authorization.as_ref(),
        sink,
    };
    let mut trace = Vec::new();
    let result = download_images(&downloader, sources, &base, &mut trace).await;
    Run { result, trace }
}

pub fn quick() -> Limits {
    Limits {
        image_timeout: Duration::from_millis(500),
        retry_delay: Duration::from_millis(5),
        ..Limits::default()
    }
}
