//! One reload of the live session: the repository read, validated and compiled, its
//! templates put in the code store, and the result applied to the bundled service with the
//! same plan and apply code as `siteops apply`. A repository that does not validate leaves
//! the last good state in place and shows its diagnostics. The repository is read off the
//! runtime's threads (`spawn_blocking`), through the config crate's one safe file reader.

use std::collections::{BTreeMap, BTreeSet};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::Instant;

use serde_json::Value;

use super::pages::KnownPage;
use super::{Live, LiveEvent};
use siteops_config::compile::{Compiled, Owner, ResourceKind, SecretUse, Secrets, compile};
use siteops_config::diagnostic::render;
use siteops_config::model::SiteId;
use siteops_config::repo::{RepoFiles, limit_for, read_file};
use siteops_config::validate::{CodeCheckout, Options};
use siteops_mocks::MockSet;
use siteops_plan::apply::{self, ApplyOptions};
use siteops_plan::plan::{PlanSettings, diff};
use siteops_plan::remote::live;
use siteops_plan::remote::{Client, ClientOptions, Endpoints, Token};
use siteops_plan::scope::{self, PruneScope};
use siteops_server::app::AppState;
use siteops_server::auth::{Claims, SigningKey};
use siteops_server::code::{Checkout, Checkouts, CodeRepo, SiteCode};
use siteops_server::codesync::code_key;
use siteops_server::server::RunningServer;
use siteops_server::store::Store;

/// What a reload needs of the running server.
pub struct Target<'a> {
    /// `http://127.0.0.1:<port>`, or the loopback address the server listens on.
    pub base: String,
    pub key: &'a SigningKey,
    pub store: &'a dyn Store,
    /// Where the server reads code: the reload sets its checkouts.
    pub code: &'a SiteCode,
}

impl<'a> Target<'a> {
    /// The bundled server `server`, on its loopback address.
    pub fn of(server: &'a RunningServer) -> Target<'a> {
        Target::new(server.addr, &server.state)
    }

    /// The server listening on `addr` with `state`.
    pub fn new(addr: SocketAddr, state: &'a AppState) -> Target<'a> {
        Target {
            base: format!("http://{addr}"),
            key: &state.key,
            store: state.store.as_ref(),
            code: &state.code,
        }
    }
}

/// The subject of the tokens serve mints for itself.
pub const SERVE_SUBJECT: &str = "serve@localhost";

/// The subject of the stand-in `templateApiKey`s: a name no access configuration gives a
/// role, so the token only proves to the worker that it may read one site's templates.
pub const TEMPLATE_READER_SUBJECT: &str = "template-reader@serve.localhost";

/// How long the session's own token lasts (a year: it lives as long as the process).
const TOKEN_LIFETIME: u64 = 365 * 24 * 3600;

/// The session's credentials, made once: a new token on every reload would change the
/// worker keys (and so the compiled bodies) on every reload.
#[derive(Clone)]
pub(super) struct SessionKeys {
    /// Org admin of every org, for applying the repository to this server. Stays here.
    token: String,
    issued_at: u64,
    /// Random, per process: makes stand-in secrets unguessable.
    nonce: String,
}

impl SessionKeys {
    fn new(key: &SigningKey) -> SessionKeys {
        let now = siteops_server::time::now_seconds();
        let mut bytes = [0u8; 16];
        // Without randomness the stand-ins still differ per process start time; a sync
        // secret is then weaker, but nothing it protects leaves this machine.
        let nonce = match getrandom::fill(&mut bytes) {
            Ok(()) => hex::encode(bytes),
            Err(_) => format!("{now:x}"),
        };
        SessionKeys {
            token: key.sign(&Claims {
                sub: SERVE_SUBJECT.into(),
                iat: now,
                exp: now + TOKEN_LIFETIME,
                aud: "*".into(),
                jti: None,
                roles: None,
                profile: None,
            }),
            issued_at: now,
            nonce,
        }
    }

    /// The value of a secret whose variable is not set. A `templateApiKey` becomes a token
    /// for its own site only, held by a subject with no role anywhere: the worker accepts
    /// it for that site's templates, the administration API and the preview host grant it
    /// nothing. Any other secret (a code sync secret) becomes a random string that is no
    /// credential at all.
    fn stand_in(&self, key: &SigningKey, usage: &SecretUse<'_>) -> String {
        match usage {
            SecretUse::TemplateApiKey { site } => key.sign(&Claims {
                sub: TEMPLATE_READER_SUBJECT.into(),
                iat: self.issued_at,
                exp: self.issued_at + TOKEN_LIFETIME,
                aud: format!("{}/{}", site.org, site.site),
                jti: None,
                roles: None,
                profile: None,
            }),
            SecretUse::Secret { owner, id } => {
                format!("unset-{}-{id}-{}", slug(owner), self.nonce)
            }
            // No CDN is purged by `serve`: a random string purges nothing anywhere.
            SecretUse::CdnCredential { owner, name } => {
                format!("unset-{}-{name}-{}", slug(owner), self.nonce)
            }
        }
    }
}

/// An owner as one word of a stand-in: `acme-website`, `acme`, `acme-profiles-repoless`.
fn slug(owner: &Owner) -> String {
    owner.to_string().replace('/', "-")
}

fn describe_stand_in(usage: &SecretUse<'_>) -> String {
    match usage {
        SecretUse::TemplateApiKey { site } => format!(
            "a templateApiKey of {site} has no value in the environment; it is a token that \
             only reads {site}'s templates"
        ),
        SecretUse::Secret { owner: site, id } => format!(
            "secret `{id}` of {site} has no value in the environment; it is a random stand-in"
        ),
        SecretUse::CdnCredential { owner: site, name } => format!(
            "cdn.prod.{name} of {site} has no value in the environment; it is a random stand-in"
        ),
    }
}

/// Reads, validates, compiles and applies the repository at `live.root`; publishes the
/// outcome in `live` (snapshot and event). Never fails: problems become the snapshot.
pub async fn reload(live: &Live, target: &Target<'_>) {
    let started = Instant::now();
    let outcome = attempt(live, target).await;
    let elapsed_ms = started.elapsed().as_millis() as u64;
    let mut snapshot = live.snapshot.write().unwrap_or_else(|p| p.into_inner());
    snapshot.generation += 1;
    snapshot.reload_ms = elapsed_ms;
    snapshot.reloaded_at = siteops_server::time::now_seconds();
    let event = match outcome {
        Ok(applied) => {
            snapshot.diagnostics = applied.diagnostics;
            snapshot.diagnostic_count = applied.count;
            snapshot.compiled = Some(applied.compiled);
            snapshot.pages = applied.pages;
            snapshot.changes = applied.changes;
            snapshot.error = None;
            LiveEvent::Reloaded {
                generation: snapshot.generation,
            }
        }
        Err(failure) => {
            snapshot.diagnostics = failure.diagnostics;
            snapshot.diagnostic_count = failure.count;
            snapshot.error = Some(failure.message.clone());
            LiveEvent::Failed {
                generation: snapshot.generation,
                message: failure.message,
            }
        }
    };
    drop(snapshot);
    tracing::info!(elapsed_ms, ?event, "repository reloaded");
    // No subscriber is fine: nobody has a page open.
    let _ = live.events.send(event);
}

struct Applied {
    compiled: Compiled,
    pages: BTreeMap<SiteId, Vec<KnownPage>>,
    diagnostics: String,
    count: usize,
    changes: Vec<String>,
}

struct Failure {
    message: String,
    diagnostics: String,
    /// How many problems `diagnostics` holds.
    count: usize,
}

impl Failure {
    fn new(message: impl Into<String>) -> Failure {
        Failure {
            message: message.into(),
            diagnostics: String::new(),
            count: 0,
        }
    }
}

async fn attempt(live: &Live, target: &Target<'_>) -> Result<Applied, Failure> {
    let worker = format!("{}/transform", target.base);
    let keys = live
        .keys
        .get_or_init(|| SessionKeys::new(target.key))
        .clone();
    let token = keys.token.clone();
    // Reading the repository is blocking file I/O (and validating it, CPU work): off the
    // runtime's threads, so that a slow or hostile file stalls this reload only, never
    // the server's requests.
    let (root, overrides) = (live.root.clone(), live.code_overrides.clone());
    let (for_read, signing) = (worker.clone(), target.key.clone());
    let read = tokio::task::spawn_blocking(move || {
        read_repository(&root, &overrides, &for_read, &keys, &signing)
    })
    .await
    .map_err(|e| Failure::new(format!("reading the repository failed: {e}")))??;
    live.set_mocks(read.mocks);
    put_templates(&read.templates, target.store).await?;
    target.code.set_checkouts(read.checkouts);
    // The orgs applied before too: an org whose last site left the repository is none of
    // its orgs any more, and pruning those only would leave that site on the service.
    let mut orgs = live
        .applied_orgs
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .clone();
    orgs.extend(scope::orgs(&read.compiled));
    let changes =
        apply_to_self(&read.compiled, orgs.clone(), &target.base, &worker, &token).await?;
    *live.applied_orgs.lock().unwrap_or_else(|p| p.into_inner()) = orgs;
    Ok(Applied {
        compiled: read.compiled,
        pages: read.pages,
        diagnostics: read.diagnostics,
        count: read.count,
        changes,
    })
}

/// What a reload reads from disk and works out before it touches the server.
struct Read {
    compiled: Compiled,
    pages: BTreeMap<SiteId, Vec<KnownPage>>,
    mocks: MockSet,
    templates: Vec<Template>,
    checkouts: Checkouts,
    diagnostics: String,
    count: usize,
}

/// A template file of the repository, and its key in the code store.
struct Template {
    path: String,
    key: String,
    bytes: Vec<u8>,
}

/// Reads, validates and compiles the repository at `root`, with its mocks, templates and
/// code checkouts. Blocking: run it off the async threads.
fn read_repository(
    root: &Path,
    overrides: &BTreeMap<CodeRepo, PathBuf>,
    worker: &str,
    keys: &SessionKeys,
    key: &SigningKey,
) -> Result<Read, Failure> {
    let repo = RepoFiles::load(root)
        .map_err(|e| Failure::new(format!("cannot read {}: {e}", root.display())))?;
    // The configuration and the mocks, as `siteops validate` checks them.
    let (mut validation, mocks) = super::mocks::validate(
        &repo,
        &Options {
            transform_url: Some(worker.to_string()),
        },
        |path| read_listed(root, &repo, path),
    )?;
    // The worker entry examples, rendered through their mocks and templates.
    super::examples::check(&mut validation, &repo, &mocks, |path| {
        read_listed(root, &repo, path).ok()
    });
    super::checkouts::check(
        &mut validation,
        root,
        overrides,
        super::checkouts::context_from_env(),
    );
    let mut diagnostics = if validation.diagnostics.is_empty() {
        String::new()
    } else {
        format!(
            "{}{}\n",
            render::human(&validation.diagnostics, &validation, false),
            render::human_summary(validation.summary())
        )
    };
    if validation.has_errors() {
        // Only the reason: what it means for what is applied is for the caller to say
        // (serve keeps the last good state; `siteops test` just stops).
        return Err(Failure {
            message: "the repository does not validate".into(),
            diagnostics,
            count: validation.diagnostics.len(),
        });
    }
    let unset = std::sync::Mutex::new(BTreeSet::new());
    // Secrets come from the environment as for `apply`. A variable that is not set gets a
    // stand-in that grants nothing beyond what the secret stands for: the session's own
    // token (org admin of every org) never goes into a stored document.
    let lookup = |name: &str| std::env::var(name).ok();
    let stand_in = |usage: &SecretUse<'_>| {
        unset
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(describe_stand_in(usage));
        keys.stand_in(key, usage)
    };
    let compiled = compile(
        &validation.fleet,
        &Secrets::StandIn {
            lookup: &lookup,
            stand_in: &stand_in,
        },
    )
    .map_err(|problems| Failure {
        message: format!("{} secret values cannot be read", problems.len()),
        diagnostics: render::human(&problems, &validation, false),
        count: problems.len(),
    })?;
    for line in unset.into_inner().unwrap_or_else(|p| p.into_inner()) {
        diagnostics.push_str(&format!("note: {line}\n"));
    }
    let pages = super::pages::known_pages(&validation.fleet, &mocks, worker);
    let templates = read_templates(root, &repo, &compiled)?;
    let (checkouts, problems) = open_checkouts(root, overrides, &validation.checkouts);
    for problem in &problems {
        diagnostics.push_str(&format!("warning: {problem}\n"));
    }
    Ok(Read {
        compiled,
        pages,
        mocks,
        templates,
        checkouts,
        diagnostics,
        count: validation.diagnostics.len(),
    })
}

/// The code checkouts: siteops.toml's (relative to the repository), then `--code`'s over
/// them. One that cannot be opened is left out, so that repository's code comes from the
/// code store, and the problem is reported.
fn open_checkouts(
    root: &Path,
    overrides: &BTreeMap<CodeRepo, PathBuf>,
    configured: &BTreeMap<CodeRepo, CodeCheckout>,
) -> (Checkouts, Vec<String>) {
    let mut wanted: BTreeMap<CodeRepo, PathBuf> = configured
        .iter()
        .map(|(repo, checkout)| (repo.clone(), root.join(&checkout.dir)))
        .collect();
    wanted.extend(overrides.clone());
    let mut checkouts = Checkouts::new();
    let mut problems = Vec::new();
    for (repo, dir) in wanted {
        match Checkout::open(&dir) {
            Ok(checkout) => {
                checkouts.insert(repo, checkout);
            }
            Err(error) => problems.push(format!(
                "{error}; the code of {repo} comes from the code store"
            )),
        }
    }
    (checkouts, problems)
}

/// A file of the repository that was listed but not loaded, read the one safe way: a
/// mock body (`bodyFileName`) is a regular file inside the site's `mocks/`, within its
/// size limit, never a link out or a FIFO.
fn read_listed(root: &Path, repo: &RepoFiles, path: &str) -> Result<Vec<u8>, Failure> {
    match repo.content(path) {
        Some(content) => Ok(content.to_vec()),
        None => read_file(root, path, limit_for(path)).map_err(|e| Failure::new(e.to_string())),
    }
}

/// The repository is the code of its sites: each site's `templates/` goes into the code
/// store of the site's code repository (branch `main`), where the worker reads templates.
fn read_templates(
    root: &Path,
    repo: &RepoFiles,
    compiled: &Compiled,
) -> Result<Vec<Template>, Failure> {
    let mut templates = Vec::new();
    for resource in compiled
        .resources
        .iter()
        .filter(|r| r.kind == ResourceKind::Site)
    {
        let code = &resource.body["code"];
        let (Some(owner), Some(code_repo)) = (
            code.get("owner").and_then(Value::as_str),
            code.get("repo").and_then(Value::as_str),
        ) else {
            continue;
        };
        let Some(site) = resource.site() else {
            continue;
        };
        let prefix = format!("sites/{}/{}/templates/", site.org, site.site);
        for path in repo.paths().filter(|p| p.starts_with(&prefix)) {
            let file = &path[prefix.len() - "templates/".len()..];
            templates.push(Template {
                path: path.to_string(),
                key: code_key(&site.org, owner, code_repo, "main", file),
                bytes: read_listed(root, repo, path)?,
            });
        }
    }
    Ok(templates)
}

/// Puts the templates in the code store.
async fn put_templates(templates: &[Template], store: &dyn Store) -> Result<(), Failure> {
    for Template { path, key, bytes } in templates {
        // Unchanged templates are not written again: every put is a durable write.
        if store.get(key).await.ok().flatten().as_deref() == Some(bytes.as_slice()) {
            continue;
        }
        store
            .put(key, bytes)
            .await
            .map_err(|e| Failure::new(format!("cannot store {path}: {e}")))?;
    }
    Ok(())
}

/// Plans against the bundled service and applies the changes, pruning what `orgs` (the
/// repository's, and those applied before) no longer have. Returns one line per change
/// made.
async fn apply_to_self(
    compiled: &Compiled,
    orgs: BTreeSet<String>,
    base: &str,
    worker: &str,
    token: &str,
) -> Result<Vec<String>, Failure> {
    let client = Client::new(
        Endpoints {
            admin: format!("{base}/admin"),
            worker: Some(worker.to_string()),
        },
        &Token::new(token),
        &ClientOptions::default(),
    )
    .map_err(|e| Failure::new(e.to_string()))?;
    let scope = PruneScope::every_site_of(orgs);
    let state = live::read(&client, compiled, Some(&scope), 8)
        .await
        .map_err(|e| Failure::new(format!("cannot read the bundled service: {e}")))?;
    let settings = PlanSettings {
        prune: true,
        ..PlanSettings::default()
    };
    let plan = diff(compiled, &state, &settings).map_err(|e| Failure::new(e.to_string()))?;
    if !plan.has_changes() {
        return Ok(Vec::new());
    }
    // The bundled service makes the repository's made secrets and API keys for itself;
    // their values are its own (a local key is minted by hand when one is wanted). Its
    // writes are an apply's: a plan against this service does not read them as
    // someone else's change.
    let options = ApplyOptions {
        made: Some(&apply::Discard),
        version_name: Some(siteops_plan::versions::applied_name("serve")),
        ..ApplyOptions::default()
    };
    let report = apply::run(&client, &plan, &options)
        .await
        .map_err(|e| Failure::new(e.to_string()))?;
    if !report.succeeded() {
        return Err(Failure {
            message: "applying to the bundled service failed part-way".into(),
            diagnostics: apply::report::table(&report),
            count: 0,
        });
    }
    Ok(report.steps.iter().map(apply::report::line).collect())
}
