//! The JSON answers of the administration API and the worker's configuration routes, as
//! types: the handlers serialize these, and [`super::openapi`] describes them with the
//! schemas derived from the same types, so the document cannot drift from the answers.

use schemars::JsonSchema;
use serde::Serialize;

use crate::bulk::PreviewJob;
use crate::codesync::job::{Job, JobState};
use crate::effective::Effective;
use crate::preview::Trace;
use siteops_config::model::api::ContentConfig;

/// `GET /config/<org>/sites.json`, `GET /<org>/sites`: the sites of the org the caller
/// may configure.
#[derive(Debug, Serialize, JsonSchema)]
pub struct SiteList {
    pub sites: Vec<SiteName>,
}

/// `GET /config/<org>/profiles.json`, `GET /<org>/profiles`: the org's profiles.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ProfileList {
    pub profiles: Vec<SiteName>,
}

/// `GET …/versions.json`: a configuration document's versions, the newest first, and the
/// number of the newest ([`crate::sites::versions`]).
#[derive(Debug, Serialize, JsonSchema)]
pub struct VersionList {
    pub current: u64,
    pub versions: Vec<crate::sites::versions::VersionInfo>,
}

/// A site or profile in a listing: its name, and in the older family where its document
/// is and, with `?details=true`, what its document says of it (the platform does not
/// publish its details; these are ours). The newer family answers the name alone, as the
/// platform's list schemas (`sites-list`, `profiles-list`) allow nothing else.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SiteName {
    pub name: String,
    /// The document's path on the newer family: `/<org>/sites/<site>/config.json`,
    /// `/<org>/profiles/<profile>/config.json`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub created: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_modified: Option<String>,
}

impl SiteName {
    /// `org/site` in a listing; `document` (the stored JSON) with `?details=true`.
    pub fn of(org: &str, site: &str, document: Option<&serde_json::Value>) -> SiteName {
        SiteName::at(site, format!("/{org}/sites/{site}/config.json"), document)
    }

    /// `name`, whose document is at `path`; `document` (the stored JSON) with
    /// `?details=true`.
    pub fn at(name: &str, path: String, document: Option<&serde_json::Value>) -> SiteName {
        let field = |name: &str| {
            document
                .and_then(|document| document.get(name))
                .and_then(serde_json::Value::as_str)
                .map(str::to_string)
        };
        SiteName {
            name: name.to_string(),
            path: Some(path),
            title: field("title"),
            description: field("description"),
            created: field("created"),
            last_modified: field("lastModified"),
        }
    }

    /// `name` alone (the newer family's listings).
    pub fn named(name: &str) -> SiteName {
        SiteName {
            name: name.to_string(),
            path: None,
            title: None,
            description: None,
            created: None,
            last_modified: None,
        }
    }
}

/// A secret as the service shows it: its id and dates, never its value.
#[derive(Debug, Serialize, JsonSchema)]
pub struct SecretView {
    pub id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub created: Option<String>,
    #[serde(rename = "lastModified", skip_serializing_if = "Option::is_none")]
    pub last_modified: Option<String>,
}

/// `201` of `POST …/secrets.json`: a secret the service made, with its value, answered
/// this once and never again.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct MadeSecret {
    pub id: String,
    pub value: String,
    pub created: String,
    pub last_modified: String,
}

/// `201` of `POST …/apiKeys.json`: the minted key's record, with its token (`value`),
/// answered this once and never again.
#[derive(Serialize, JsonSchema)]
pub struct MadeApiKey {
    #[serde(flatten)]
    pub record: siteops_config::model::api::ApiKey,
    /// The token: send it as `x-auth-token`, or `authorization: token <value>`.
    pub value: String,
}

impl std::fmt::Debug for MadeApiKey {
    // The token never reaches a log, even through a debug print.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MadeApiKey")
            .field("id", &self.record.id)
            .finish_non_exhaustive()
    }
}

impl std::fmt::Debug for MadeSecret {
    // The value never reaches a log, even through a debug print.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MadeSecret")
            .field("id", &self.id)
            .finish_non_exhaustive()
    }
}

/// `GET /config/<org>/sites/<site>/secrets.json`: the secrets keyed by id, sorted (the
/// platform's form).
#[derive(Debug, Serialize, JsonSchema)]
#[serde(transparent)]
pub struct SecretList {
    pub secrets: std::collections::BTreeMap<String, SecretView>,
}

/// `GET /transform/config/<org>/<site>`: the branches with worker entries, sorted.
#[derive(Debug, Serialize, JsonSchema)]
pub struct BranchList {
    pub branches: Vec<String>,
}

/// `202` of a code sync trigger or webhook delivery: the job that will run.
#[derive(Debug, Serialize, JsonSchema)]
pub struct JobStarted {
    pub job: JobSummary,
    pub links: JobLinks,
    /// The branch's queued job had not started: it fetches what this trigger asks for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub coalesced: Option<bool>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct JobSummary {
    pub topic: String,
    pub name: String,
    pub state: JobState,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct JobLinks {
    /// The job's own path.
    #[serde(rename = "self")]
    pub own: String,
    /// The branch's jobs.
    pub list: String,
}

/// `202` of a webhook delivery that starts nothing: a push that is not to a branch, or a
/// delivery already received.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Ignored {
    pub ignored: String,
}

/// `GET /job/<org>/<site>/<branch>/code`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct JobList {
    pub jobs: Vec<Job>,
}

/// `GET /status/<org>/<site>/<branch>`: what the site uses on the branch, with origins.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Status {
    pub content: Option<Effective<ContentConfig>>,
    pub mappings: Option<Effective<Vec<String>>>,
}

/// `/preview/<org>/<site>/<branch>/<path>` (`GET`, `POST`): a page's paths, its preview's
/// state, links, and for a page previewed, the pipeline's trace and warnings.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PreviewAnswer {
    pub web_path: String,
    pub resource_path: String,
    pub preview: PreviewState,
    pub links: PreviewLinks,
    // Absent when the page is not previewed, never `null`: `with` keeps `null` out of the
    // document, `default` keeps them optional there.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Trace")]
    pub trace: Option<Trace>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Vec<String>")]
    pub warnings: Option<Vec<String>>,
}

/// The preview's state: 200 with what was previewed, or 404 alone (not previewed).
#[derive(Debug, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum PreviewState {
    Previewed {
        status: Fixed<200>,
        #[serde(flatten)]
        page: PreviewedPage,
    },
    /// Not previewed: the status and nothing else.
    #[schemars(extend("additionalProperties" = false))]
    NotPreviewed { status: Fixed<404> },
}

impl PreviewState {
    pub fn previewed(page: PreviewedPage) -> PreviewState {
        PreviewState::Previewed {
            status: Fixed,
            page,
        }
    }

    pub const NOT_PREVIEWED: PreviewState = PreviewState::NotPreviewed { status: Fixed };
}

/// A number that is always `N` (a status that says which answer this is), as JSON and in
/// the document (`const`).
#[derive(Debug, Clone, Copy)]
pub struct Fixed<const N: u16>;

impl<const N: u16> Serialize for Fixed<N> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_u16(N)
    }
}

impl<const N: u16> JsonSchema for Fixed<N> {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> std::borrow::Cow<'static, str> {
        format!("Fixed{N}").into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({"type": "integer", "const": N})
    }
}

/// What a stored preview is.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PreviewedPage {
    /// The page on its preview host.
    pub url: String,
    /// When the preview was made (RFC 3339).
    pub last_modified: String,
    /// 40 hex digits naming the content source: sites that share a source share it.
    pub content_bus_id: String,
    /// `markup:<the URL fetched>`.
    pub source_location: String,
    /// Which source answered: `overlay` or `primary`.
    pub source: String,
    /// The source's `Last-Modified`, when it sent one.
    pub source_last_modified: Option<String>,
    /// `text/html`, or `application/json` for a sheet.
    pub content_type: String,
    /// The branch's images the page shows.
    pub media: Vec<String>,
}

/// Where to ask about the site's branch and the page's preview.
#[derive(Debug, Serialize, JsonSchema)]
pub struct PreviewLinks {
    pub status: String,
    pub preview: String,
}

/// `202` of a bulk preview (`POST /preview/<org>/<site>/<branch>/*`), in the platform's
/// form: the job as created, and where to follow it.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct BulkStarted {
    pub status: Fixed<202>,
    /// Names this request in the service's log.
    pub message_id: String,
    pub job: PreviewJob,
    pub links: BulkLinks,
}

/// Where a bulk preview job is followed.
#[derive(Debug, Serialize, JsonSchema)]
pub struct BulkLinks {
    /// The job's state and progress.
    #[serde(rename = "self")]
    pub own: String,
    /// Each page's result.
    pub details: String,
    /// The branch's bulk preview jobs.
    pub list: String,
}

/// `GET /job/<org>/<site>/<branch>/preview`: the branch's bulk preview jobs, newest first.
#[derive(Debug, Serialize, JsonSchema)]
pub struct PreviewJobList {
    pub jobs: Vec<PreviewJob>,
}
