//! Renders kept per page version: a view of a page nobody changed since its last view is
//! a lookup, not a render (issue 43: one org's views held every render thread).
//!
//! What a render's answer depends on, and how the cache knows it has not changed:
//! - the request as the delivery sees it (URL, `Origin`, `X-Forwarded-Host`) and the
//!   site's pipeline configuration of now, computed at each view: both are the key;
//! - what the render read from its buses: the records of the pages and sheets (their
//!   revision and date: a revision's files are immutable) and the code files (a digest
//!   of their bytes). Each is logged by the buses ([`Reads`]) and asked again at the next
//!   view, before the kept answer is given; any difference renders anew.
//!
//! So the cache is never stale, on one instance or several over one store: a preview,
//! a change of the site's configuration or of its code shows on the next view, as it did
//! without the cache. Asking a page's reads again costs what the view cost before the
//! render (the records come with the site's document, in one round trip).
//!
//! The CSP nonce differs at every view: a render is made with this process's own
//! placeholder nonce (random, so no page can name it), and each answer given from the
//! cache has the placeholder replaced by the view's nonce, in its headers and its body.
//!
//! Bounded in bytes ([`DEFAULT_BYTES`], `quick_cache` as the store's cache); an answer
//! from a failed read or a 5xx is not kept.

use std::collections::BTreeMap;
use std::sync::Arc;

use sha2::{Digest, Sha256};
use siteops_delivery::{DeliveryRequest, PipelineConfig, Response};

use super::Pipe;

/// The default bound of the kept renders, in bytes.
pub(crate) const DEFAULT_BYTES: u64 = 64 * 1024 * 1024;

/// A digest of bytes a render read, or of its configuration.
pub(crate) type Fingerprint = [u8; 32];

fn fingerprint(bytes: &[u8]) -> Fingerprint {
    Sha256::digest(bytes).into()
}

/// What one render read from its buses: by web path, the record's identity (`None`: not
/// previewed); by code path, the file's digest (`None`: no such file).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Reads {
    pub records: BTreeMap<String, Option<RecordVersion>>,
    pub code: BTreeMap<String, Option<Fingerprint>>,
    /// A read failed: the answer says so, and is not kept.
    pub failed: bool,
}

/// What names one version of a stored page or sheet: its revision (whose files never
/// change) and when it was previewed (its `Last-Modified`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RecordVersion {
    pub revision: String,
    pub last_modified: String,
}

impl Reads {
    pub(crate) fn code_read(&mut self, path: &str, bytes: Option<&[u8]>) {
        self.code.insert(path.to_owned(), bytes.map(fingerprint));
    }
}

/// The key of a kept render: the site's branch, the pipe, the request as the delivery
/// reads it, and the configuration's digest.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct RenderKey {
    site: (String, String, String),
    pipe: Pipe,
    url: String,
    origin: Option<String>,
    forwarded_host: Option<String>,
    config: Fingerprint,
}

impl RenderKey {
    pub(crate) fn new(
        (org, site, branch): (&str, &str, &str),
        pipe: Pipe,
        request: &DeliveryRequest,
        config: &PipelineConfig,
    ) -> RenderKey {
        // The configuration has no serialized form of its own; its `Debug` text is
        // complete (every field, maps in their order) and the same for the same value.
        let config = fingerprint(format!("{config:?}").as_bytes());
        RenderKey {
            site: (org.to_owned(), site.to_owned(), branch.to_owned()),
            pipe,
            url: request.url.as_str().to_owned(),
            origin: request.origin.clone(),
            forwarded_host: request.forwarded_host.clone(),
            config,
        }
    }
}

/// A kept render: what it read, and its answer with the placeholder nonce.
#[derive(Debug)]
pub(crate) struct Kept {
    pub reads: Reads,
    response: Response,
}

#[derive(Debug, Clone, Copy, Default)]
struct ByBytes;

impl quick_cache::Weighter<RenderKey, Arc<Kept>> for ByBytes {
    fn weight(&self, key: &RenderKey, kept: &Arc<Kept>) -> u64 {
        let headers: usize = (kept.response.headers.iter())
            .map(|(name, value)| name.len() + value.len())
            .sum();
        (key.url.len() + kept.response.body.len() + headers + 256) as u64
    }
}

/// Renders kept per page version, at most a number of bytes.
pub struct RenderCache {
    entries: quick_cache::sync::Cache<RenderKey, Arc<Kept>, ByBytes>,
    /// The nonce renders are made with, replaced at each view: random, per process.
    placeholder: String,
}

impl std::fmt::Debug for RenderCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RenderCache")
            .field("bytes", &self.entries.weight())
            .finish_non_exhaustive()
    }
}

impl Default for RenderCache {
    fn default() -> RenderCache {
        RenderCache::new(DEFAULT_BYTES)
    }
}

impl RenderCache {
    /// A cache of at most `bytes` (an answer larger than a shard's share is not kept).
    pub fn new(bytes: u64) -> RenderCache {
        let items = (bytes / (32 * 1024)).clamp(16, 1 << 16) as usize;
        RenderCache {
            entries: quick_cache::sync::Cache::with_weighter(items, bytes, ByBytes),
            placeholder: super::new_nonce(),
        }
    }

    /// The nonce a render to be kept is made with.
    pub(crate) fn placeholder(&self) -> &str {
        &self.placeholder
    }

    pub(crate) fn get(&self, key: &RenderKey) -> Option<Arc<Kept>> {
        self.entries.get(key)
    }

    /// Keeps `response` (made with the placeholder nonce) under `key`, unless a read
    /// failed or the delivery failed.
    pub(crate) fn keep(&self, key: RenderKey, reads: Reads, response: &Response) {
        if reads.failed || response.status >= 500 {
            return;
        }
        let kept = Kept {
            reads,
            response: response.clone(),
        };
        self.entries.insert(key, Arc::new(kept));
    }

    /// `kept`'s answer with `nonce` in place of the placeholder.
    pub(crate) fn answer(&self, kept: &Kept, nonce: &str) -> Response {
        with_nonce(&kept.response, &self.placeholder, nonce)
    }

    /// `response` (made with the placeholder) with `nonce` in its place.
    pub(crate) fn with_nonce(&self, response: Response, nonce: &str) -> Response {
        if nonce == self.placeholder {
            return response;
        }
        with_nonce(&response, &self.placeholder, nonce)
    }

    /// The bytes the cache holds now.
    pub fn weight(&self) -> u64 {
        self.entries.weight()
    }
}

/// `response` with every `placeholder` in its header values and body replaced by `nonce`.
fn with_nonce(response: &Response, placeholder: &str, nonce: &str) -> Response {
    let headers = (response.headers.iter())
        .map(|(name, value)| (name.clone(), value.replace(placeholder, nonce)))
        .collect();
    let mut body = Vec::with_capacity(response.body.len());
    let mut rest = response.body.as_slice();
    let finder = memchr::memmem::Finder::new(placeholder.as_bytes());
    while let Some(at) = finder.find(rest) {
        body.extend_from_slice(&rest[..at]);
        body.extend_from_slice(nonce.as_bytes());
        rest = &rest[at + placeholder.len()..];
    }
    body.extend_from_slice(rest);
    Response {
        status: response.status,
        headers,
        body,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn response(body: &str, csp: &str) -> Response {
        Response {
            status: 200,
            headers: vec![("content-security-policy".into(), csp.into())],
            body: body.as_bytes().to_vec(),
        }
    }

    #[test]
    fn each_answer_has_the_views_nonce_everywhere_the_render_put_one() {
        let cache = RenderCache::new(1 << 20);
        let p = cache.placeholder().to_owned();
        let made = response(
            &format!(r#"<script nonce="{p}"></script><p>{p}{p}</p>"#),
            &format!("script-src 'nonce-{p}'"),
        );
        let answered = cache.with_nonce(made, "N0NCE");
        assert_eq!(
            String::from_utf8(answered.body).unwrap(),
            r#"<script nonce="N0NCE"></script><p>N0NCEN0NCE</p>"#
        );
        assert_eq!(answered.headers[0].1, "script-src 'nonce-N0NCE'");
    }

    #[test]
    fn failed_reads_and_errors_are_not_kept_and_keys_differ_by_request_and_config() {
        let cache = RenderCache::new(1 << 20);
        let request = |url: &str| DeliveryRequest {
            url: url.parse().unwrap(),
            partition: siteops_delivery::Partition::Preview,
            origin: None,
            forwarded_host: None,
            nonce: String::new(),
        };
        let config = PipelineConfig::default();
        let site = ("acme", "web", "main");
        let key = RenderKey::new(site, Pipe::Html, &request("http://h/a"), &config);
        let ok = response("a", "");
        let failed = Reads {
            failed: true,
            ..Reads::default()
        };
        cache.keep(key.clone(), failed, &ok);
        assert!(cache.get(&key).is_none());
        cache.keep(key.clone(), Reads::default(), &Response::new(503));
        assert!(cache.get(&key).is_none());
        cache.keep(key.clone(), Reads::default(), &ok);
        assert!(cache.get(&key).is_some());

        let other_page = RenderKey::new(site, Pipe::Html, &request("http://h/b"), &config);
        let other_site = RenderKey::new(
            ("acme", "blog", "main"),
            Pipe::Html,
            &request("http://h/a"),
            &config,
        );
        let changed = PipelineConfig {
            created: Some("2026-01-01".into()),
            ..PipelineConfig::default()
        };
        let other_config = RenderKey::new(site, Pipe::Html, &request("http://h/a"), &changed);
        for other in [other_page, other_site, other_config] {
            assert_ne!(other, key);
            assert!(cache.get(&other).is_none());
        }
    }
}
