//! A delivery's request and answer, as plain data: HTTP is the caller's.

use url::Url;

/// Which partition a request reads: the preview host's (`.page`) or the live host's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Partition {
    #[default]
    Preview,
    Live,
}

impl Partition {
    /// The name the configuration's `metadata.<partition>` uses.
    pub fn name(self) -> &'static str {
        match self {
            Partition::Preview => "preview",
            Partition::Live => "live",
        }
    }
}

/// One request to the delivery.
#[derive(Debug, Clone)]
pub struct DeliveryRequest {
    /// The URL as requested (its host is the page's host when no `cdn.prod.host` is set).
    pub url: Url,
    pub partition: Partition,
    /// The request's `Origin` header (`access-control-allow-origin` by list or pattern).
    pub origin: Option<String>,
    /// The request's `X-Forwarded-Host` header: the hosts a CDN in front says were asked
    /// for (the production host, and whether robots may index).
    pub forwarded_host: Option<String>,
    /// This answer's CSP nonce, should it need one: the caller's randomness (the platform
    /// takes 18 random bytes, base64-encoded, 24 characters).
    pub nonce: String,
}

/// The delivery's answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Response {
    pub status: u16,
    /// Header names in lower case, in the order they were set; one entry a name.
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Response {
    pub fn new(status: u16) -> Response {
        Response {
            status,
            headers: Vec::new(),
            body: Vec::new(),
        }
    }

    /// The value of header `name` (lower case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Sets header `name` (lower case), replacing a value it had.
    pub fn set_header(&mut self, name: &str, value: impl Into<String>) {
        let value = value.into();
        match self.headers.iter_mut().find(|(n, _)| n == name) {
            Some(entry) => entry.1 = value,
            None => self.headers.push((name.to_owned(), value)),
        }
    }

    pub fn remove_header(&mut self, name: &str) {
        self.headers.retain(|(n, _)| n != name);
    }
}
