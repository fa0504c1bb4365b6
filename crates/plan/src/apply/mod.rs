//! The apply engine: carries out a [`Plan`]'s changes against the services, in dependency
//! order ([`order`]), several at a time, and reports each one ([`ApplyReport`]).
//!
//! A library function, not a command: `siteops apply` calls it, and so can anything that
//! applies the repository's sites to a service in-process. It never prints; progress goes
//! to the caller's [`Progress`]. A change that fails leaves the changes that depend on it
//! unattempted and the others going; since every write is a create-or-replace or a
//! delete, running the same plan again converges.
//!
//! It can be stopped part-way ([`run_until`]): the caller (`siteops apply`, on Ctrl-C)
//! sets a flag that apply reads before starting each change. From then on no change
//! starts, and the ones in flight finish: each is a write (or a read and a write) that is
//! never abandoned half-way, so what the report says was made is what the service holds.
//! The changes never started are reported [`Outcome::Interrupted`]; a run again finishes
//! them.
//!
//! A document (the org's, a profile's, a site's) is read, modified and written: apply reads
//! it again just before writing, refuses the change when it is not what the plan read
//! ([`ownership::digest`]: someone changed it meanwhile), and writes it with the parts the
//! repository manages replaced and every other part kept ([`ownership::merged`]). The
//! service offers no conditional write, so a change between that read and the write is
//! not seen; the window is one request long.
//!
//! A made secret or an API key is made by the service, which answers its value once:
//! apply hands it to the caller's [`MadeValues`] as it arrives, and to nothing else (a
//! plan that makes one is refused without a place for it, before anything is written).

pub mod order;
pub mod report;
pub mod repreview;

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};

use futures_util::StreamExt;
use futures_util::stream::FuturesUnordered;
use serde::Serialize;

use crate::plan::{Action, Body, Kind, Plan, Planned, ownership, scrub};
use crate::remote::{Client, ClientError, Location};

/// Told about each change as it ends. Implementations draw a progress bar or print lines.
pub trait Progress: Send + Sync {
    /// Before the first change: how many there are.
    fn begin(&self, _changes: usize) {}
    fn finished(&self, _step: &Step) {}
    /// After the last.
    fn end(&self) {}
}

/// Reports nothing.
pub struct NoProgress;

impl Progress for NoProgress {}

pub struct ApplyOptions<'a> {
    /// Changes in flight at once (the client bounds requests as well).
    pub concurrency: usize,
    pub progress: &'a dyn Progress,
    /// Where the values the service makes go; without it, a plan that makes one is refused.
    pub made: Option<&'a dyn MadeValues>,
    /// The name of the versions the writes of configuration documents make
    /// (`?versionName=`): the caller's choice, `siteops@<commit>` from `siteops apply`
    /// ([`crate::versions::applied_name`]), so that a plan can tell its writes from others'.
    pub version_name: Option<String>,
}

impl Default for ApplyOptions<'_> {
    fn default() -> Self {
        ApplyOptions {
            concurrency: 8,
            progress: &NoProgress,
            made: None,
            version_name: None,
        }
    }
}

/// Keeps the values the service makes, each as it is answered (a file of the user's
/// choosing, say). A value it fails to keep is lost: the change is reported failed.
pub trait MadeValues: Send + Sync {
    fn keep(&self, made: &MadeValue) -> Result<(), String>;
}

/// Keeps nothing: for a service that makes values for itself (`serve`'s live session),
/// where nobody needs them.
pub struct Discard;

impl MadeValues for Discard {
    fn keep(&self, _made: &MadeValue) -> Result<(), String> {
        Ok(())
    }
}

/// A value the service made, answered once. Its `Debug` never shows it.
pub struct MadeValue {
    pub org: String,
    /// Empty for the org's.
    pub site: String,
    pub kind: Kind,
    /// The secret's id, the key's name.
    pub name: String,
    /// The service's id of what it made (a key's `jti`), where it differs from `name`.
    pub id: Option<String>,
    value: String,
}

impl MadeValue {
    pub fn value(&self) -> &str {
        &self.value
    }

    /// The variable the value is kept under: the owner and the name, upper case, joined
    /// by `_` (`ACME_WEBSITE_PARTNER_TOKEN`; a key's with `APIKEY`:
    /// `ACME_WEBSITE_APIKEY_CI`), as `siteops import` names secrets' variables.
    pub fn variable(&self) -> String {
        let mut parts = vec![self.org.as_str()];
        if !self.site.is_empty() {
            parts.push(&self.site);
        }
        if self.kind == Kind::ApiKey {
            parts.push("apikey");
        }
        parts.push(&self.name);
        siteops_config::import::env_name(&parts)
    }
}

impl std::fmt::Debug for MadeValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MadeValue")
            .field("org", &self.org)
            .field("site", &self.site)
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase", tag = "result", content = "detail")]
pub enum Outcome {
    Done,
    /// The service's answer or the network error, with secret values scrubbed.
    Failed(String),
    /// Not attempted: a change it depends on did not succeed.
    Skipped(String),
    /// Not attempted: the apply was stopped ([`run_until`]) before it began.
    Interrupted,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Step {
    pub address: String,
    pub action: Action,
    #[serde(flatten)]
    pub outcome: Outcome,
}

/// Every change of the plan, in plan order, with what became of it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct ApplyReport {
    pub steps: Vec<Step>,
    /// Whether the apply was stopped ([`run_until`]): true even when, by then, every
    /// change had started.
    pub interrupted: bool,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    pub created: usize,
    pub updated: usize,
    pub deleted: usize,
    pub failed: usize,
    pub skipped: usize,
    /// Not started: the apply was stopped first.
    pub interrupted: usize,
}

impl ApplyReport {
    /// Whether every change was made.
    pub fn succeeded(&self) -> bool {
        self.steps.iter().all(|s| s.outcome == Outcome::Done)
    }

    pub fn counts(&self) -> Counts {
        let mut counts = Counts::default();
        for step in &self.steps {
            match (&step.outcome, step.action) {
                (Outcome::Done, Action::Create) => counts.created += 1,
                (Outcome::Done, Action::Update) => counts.updated += 1,
                (Outcome::Done, Action::Delete) => counts.deleted += 1,
                (Outcome::Done, Action::NoOp) => {}
                (Outcome::Failed(_), _) => counts.failed += 1,
                (Outcome::Skipped(_), _) => counts.skipped += 1,
                (Outcome::Interrupted, _) => counts.interrupted += 1,
            }
        }
        counts
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ApplyError {
    #[error(
        "{0}: the plan has no body to send (a plan read from a file has none: make it again against the repository)"
    )]
    NoBody(String),
    #[error(
        "{0}: the service makes its value, answered once, and there is no place to keep it (`siteops apply --secrets-out FILE`); nothing was applied"
    )]
    NowhereToKeep(String),
}

/// Makes the plan's changes. Errors only when the plan cannot be carried out at all;
/// failures of single changes are in the report.
pub async fn run(
    client: &Client,
    plan: &Plan,
    options: &ApplyOptions<'_>,
) -> Result<ApplyReport, ApplyError> {
    run_until(client, plan, options, &AtomicBool::new(false)).await
}

/// [`run`], stopping once `stop` is set: no change starts after that, the changes in
/// flight finish (a write is never abandoned half-way), and the ones never started are
/// reported [`Outcome::Interrupted`]. `stop` is read before each change starts, so a
/// caller sets it from a signal handler or a task of its own and awaits the report.
pub async fn run_until(
    client: &Client,
    plan: &Plan,
    options: &ApplyOptions<'_>,
    stop: &AtomicBool,
) -> Result<ApplyReport, ApplyError> {
    let resources = &plan.resources;
    if let Some(missing) = plan
        .changes()
        .find(|r| r.action != Action::Delete && r.body.is_none())
    {
        return Err(ApplyError::NoBody(missing.address.clone()));
    }
    if options.made.is_none()
        && let Some(made) = plan.changes().find(|r| r.makes_value())
    {
        return Err(ApplyError::NowhereToKeep(made.address.clone()));
    }
    let deps = order::dependencies(resources);
    let secrets = plan.secret_values();
    let mut dependents = vec![Vec::new(); resources.len()];
    for (i, waits_for) in deps.iter().enumerate() {
        for &j in waits_for {
            dependents[j].push(i);
        }
    }
    let mut waiting: Vec<usize> = deps.iter().map(Vec::len).collect();
    let mut outcomes: Vec<Option<Outcome>> = vec![None; resources.len()];
    let is_change = |i: usize| resources[i].action != Action::NoOp;
    let mut ready: VecDeque<usize> = (0..resources.len())
        .filter(|&i| is_change(i) && waiting[i] == 0)
        .collect();
    let progress = options.progress;
    progress.begin(plan.summary.changes());
    let finish = |i: usize, outcome: Outcome, outcomes: &mut Vec<Option<Outcome>>| {
        progress.finished(&step(&resources[i], outcome.clone()));
        outcomes[i] = Some(outcome);
    };
    let mut running = FuturesUnordered::new();
    loop {
        while running.len() < options.concurrency.max(1) && !stop.load(Ordering::Acquire) {
            let Some(i) = ready.pop_front() else { break };
            let (made, version) = (options.made, options.version_name.as_deref());
            running.push(async move { (i, perform(client, &resources[i], made, version).await) });
        }
        let Some((i, result)) = running.next().await else {
            break;
        };
        match result {
            Ok(()) => {
                finish(i, Outcome::Done, &mut outcomes);
                for &d in &dependents[i] {
                    waiting[d] -= 1;
                    if waiting[d] == 0 && outcomes[d].is_none() {
                        ready.push_back(d);
                    }
                }
            }
            Err(error) => {
                // Scrubbed before shortened, so that no part of a secret survives.
                let message = shorten(&scrub(&error.to_string(), &secrets));
                finish(i, Outcome::Failed(message), &mut outcomes);
                let mut blocked = vec![i];
                while let Some(j) = blocked.pop() {
                    for &d in &dependents[j] {
                        if outcomes[d].is_none() {
                            let why = format!("needs {}", resources[j].address);
                            finish(d, Outcome::Skipped(why), &mut outcomes);
                            blocked.push(d);
                        }
                    }
                }
            }
        }
    }
    progress.end();
    let interrupted = stop.load(Ordering::Acquire);
    let steps = (0..resources.len())
        .filter(|&i| is_change(i))
        .map(|i| {
            let outcome = outcomes[i].clone().unwrap_or_else(|| {
                if interrupted {
                    Outcome::Interrupted
                } else {
                    Outcome::Skipped("its dependencies never completed".into())
                }
            });
            step(&resources[i], outcome)
        })
        .collect();
    Ok(ApplyReport { steps, interrupted })
}

/// The most of a failure's message a report keeps (a service may echo a whole body).
const MESSAGE_LIMIT: usize = 500;

fn shorten(text: &str) -> String {
    match text.char_indices().nth(MESSAGE_LIMIT) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_string(),
    }
}

fn step(resource: &Planned, outcome: Outcome) -> Step {
    Step {
        address: resource.address.clone(),
        action: resource.action,
        outcome,
    }
}

/// Why one change failed.
#[derive(Debug, thiserror::Error)]
enum StepError {
    #[error(transparent)]
    Client(#[from] ClientError),
    #[error(
        "{0}: the document changed on the service since the plan read it; nothing was written: run `siteops plan` again"
    )]
    Changed(String),
    /// The service made the value, and it could not be kept.
    #[error("the service made the value, which was not kept: {0}")]
    NotKept(String),
    #[error("the service's answer holds no value: {0}")]
    NoValue(String),
}

/// One change: POST the body (create or replace; as YAML for the kinds the service keeps
/// as YAML; a document read, modified and written), or DELETE. A write of a configuration
/// document or of a part of one (`public`, a secret) names the version it makes `version`.
async fn perform(
    client: &Client,
    resource: &Planned,
    made: Option<&dyn MadeValues>,
    version: Option<&str>,
) -> Result<(), StepError> {
    if resource.makes_value() {
        return make(client, resource, made).await;
    }
    let location = Location::of(&resource.owner(), &resource.resource_kind());
    let document = matches!(resource.kind, Kind::Org | Kind::Profile | Kind::Site);
    let versioned = document || matches!(resource.kind, Kind::Public | Kind::Secret);
    let version = version.filter(|_| versioned);
    match (&resource.action, &resource.body) {
        (Action::Delete, _) => Ok(client.delete_named(&location, version).await?),
        (Action::Create | Action::Update, Some(Body(body))) if document => {
            let current = client.get(&location).await?;
            if let Some(read) = &resource.read
                && *read != ownership::digest(current.as_ref())
            {
                return Err(StepError::Changed(resource.address.clone()));
            }
            let body = match &current {
                Some(live) => ownership::merged(live, body),
                None => body.clone(),
            };
            Ok(client.post_named(&location, &body, version).await?)
        }
        (Action::Create | Action::Update, Some(Body(body)))
            if resource.resource_kind().is_yaml() =>
        {
            let text = siteops_config::document::to_yaml(body);
            Ok(client.post_yaml(&location, &text).await?)
        }
        (Action::Create | Action::Update, Some(Body(body))) => {
            Ok(client.post_named(&location, body, version).await?)
        }
        _ => Ok(()),
    }
}

/// Has the service make a secret (`POST secrets.json {"id"}`) or mint an API key
/// (`POST apiKeys.json {"description", "roles"}`), and hands the value it answers to
/// `made`. A key made again (`--replace-secret`) replaces the old ones of its name, which
/// are deleted once the new one is kept.
async fn make(
    client: &Client,
    resource: &Planned,
    made: Option<&dyn MadeValues>,
) -> Result<(), StepError> {
    let made = made.ok_or_else(|| StepError::NotKept("no place to keep it".into()))?;
    let Some(site) = resource.owner().site().cloned() else {
        return Err(StepError::NoValue(resource.address.clone()));
    };
    let name = resource.name.clone().unwrap_or_default();
    let (location, body) = match (resource.kind, &resource.body) {
        (Kind::ApiKey, Some(Body(body))) => (Location::api_keys_of(&site), body.clone()),
        _ => (
            Location::secrets_of(&site),
            serde_json::json!({ "id": name }),
        ),
    };
    let answer = client.post_making(&location, &body).await?;
    let value = answer.get("value").and_then(serde_json::Value::as_str);
    let id = answer.get("id").and_then(serde_json::Value::as_str);
    let Some(value) = value else {
        return Err(StepError::NoValue(resource.address.clone()));
    };
    if resource.kind == Kind::Secret && id != Some(name.as_str()) {
        return Err(StepError::NoValue(format!(
            "{}: the service made secret {id:?}, not `{name}`",
            resource.address
        )));
    }
    let kept = MadeValue {
        org: site.org.clone(),
        site: site.site.clone(),
        kind: resource.kind,
        name: name.clone(),
        id: id.map(str::to_string),
        value: value.to_string(),
    };
    made.keep(&kept).map_err(StepError::NotKept)?;
    if resource.kind == Kind::ApiKey && resource.action == Action::Update {
        let listing = client.get_listing(&location).await?.unwrap_or_default();
        let old = (listing.as_object().into_iter().flatten()).filter(|(_, record)| {
            record
                .get("description")
                .and_then(serde_json::Value::as_str)
                == Some(name.as_str())
                && record.get("id").and_then(serde_json::Value::as_str) != id
        });
        for (key, _) in old {
            let path = format!("{}/{key}.json", location.path.trim_end_matches(".json"));
            let old = Location {
                path,
                ..location.clone()
            };
            client.delete(&old).await?;
        }
    }
    Ok(())
}
