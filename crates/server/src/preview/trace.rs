//! What a preview did, step by step: every fetch attempt and every image, with the
//! decisions taken. Plain data, returned in the preview response, stored with the preview
//! and logged by `serve`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Trace {
    pub fetch: Vec<FetchAttempt>,
    pub images: Vec<ImageTrace>,
    /// Tokens of `x-html2md-img-src` that were not understood (they allow nothing).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ignored_img_src: Vec<String>,
}

/// One request of a chain: where it went, whether it carried `Authorization`, what came
/// back (no status: a network failure or a refusal).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Hop {
    pub url: String,
    pub authorization: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<u16>,
    /// Who answered it (none: no answer came).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answered_by: Option<AnsweredBy>,
}

/// Who answered a request: the network, one of `serve`'s mocks, or nobody because the
/// mocks stand in for its host (or everything, offline) and none matched.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", tag = "by")]
pub enum AnsweredBy {
    Network,
    Mock { name: String, file: String },
    Unmocked,
}

impl std::fmt::Display for AnsweredBy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AnsweredBy::Network => f.write_str("the network"),
            AnsweredBy::Mock { name, file } => write!(f, "the mock `{name}` ({file})"),
            AnsweredBy::Unmocked => f.write_str("refused: no mock matches"),
        }
    }
}

/// One source asked for the page.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct FetchAttempt {
    /// `overlay` or `primary`.
    pub source: String,
    pub url: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<u16>,
    pub elapsed_ms: u64,
    /// `used`, `fallback to the primary source`, or why the preview stopped.
    pub decision: String,
    /// The requests made, when a redirect made it more than one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub redirects: Vec<Hop>,
    /// Who answered the last request.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answered_by: Option<AnsweredBy>,
}

/// One distinct image of the page.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ImageTrace {
    /// The URL as the page wrote it.
    pub src: String,
    /// The absolute URL it resolved to, when it did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// Whether the allow list lets this URL receive the `Authorization` header.
    pub allowed: bool,
    /// Every request made, over all attempts.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hops: Vec<Hop>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<u16>,
    pub attempts: u32,
    pub elapsed_ms: u64,
    /// `stored`, `kept` (data: and about: URLs), or why it became `about:error`.
    pub decision: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stored_as: Option<String>,
}

impl ImageTrace {
    /// Whether the image became `about:error`: neither stored nor kept as written.
    pub fn failed(&self) -> bool {
        self.stored_as.is_none() && self.decision != "kept"
    }

    /// Who answered its last request.
    pub fn answered_by(&self) -> Option<&AnsweredBy> {
        self.hops.last().and_then(|hop| hop.answered_by.as_ref())
    }
}
