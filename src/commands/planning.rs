//! What `plan` and `apply` share: the desired state from the repository, a client for the
//! services, and the plan made from both.

use anyhow::{Context, Result, anyhow, bail};
use siteops_config::compile::{Compiled, Secrets, compile};
use siteops_config::diagnostic::render;
use siteops_plan::plan::{Plan, PlanSettings, diff, effective, scrub};
use siteops_plan::remote::live;
use siteops_plan::remote::{Client, ClientOptions, Endpoints, PathFamily, Token};
use siteops_plan::scope::{PruneScope, Scope, ScopeError};

use super::{Outcome, load_and_validate, mask_on_github_actions, use_color};
use crate::cli::{ApiFamily, RemoteArgs, RepoArgs, SelectArgs};

/// The repository's desired state, a client, and what to compare.
pub(super) struct Prepared {
    pub compiled: Compiled,
    pub client: Client,
    pub settings: PlanSettings,
    /// `--api-family`, until [`Prepared::plan`] settles `auto`.
    family: Option<PathFamily>,
    /// The live sites the plan reaches: read with `--prune`, else surveyed by name.
    reach: PruneScope,
    sites_at_once: usize,
    /// Every secret value of the desired state, scrubbed from messages.
    secrets: Vec<String>,
}

impl Prepared {
    /// Reads the live state and compares (the first time, after asking the service which
    /// path family it answers, for `--api-family auto`); then reads what the plan's
    /// changing profiles reach, and puts it on the plan.
    pub(super) async fn plan(&mut self) -> Result<Plan> {
        if self.family.is_none() {
            self.family = Some(self.probe().await?);
        }
        let prune = self.settings.prune.then_some(&self.reach);
        let mut live = live::read(&self.client, &self.compiled, prune, self.sites_at_once)
            .await
            .map_err(|e| anyhow!(self.scrub(&e.to_string())))
            .context("cannot read the live state")?;
        if prune.is_none() {
            live::survey(
                &self.client,
                &self.compiled,
                &self.reach,
                &mut live,
                self.sites_at_once,
            )
            .await
            .map_err(|e| anyhow!(self.scrub(&e.to_string())))
            .context("cannot list what the service has beyond the repository")?;
        }
        let mut plan = diff(&self.compiled, &live, &self.settings)?;
        let reach = live::read_reach(
            &self.client,
            &plan,
            &self.compiled,
            &live,
            self.sites_at_once,
        )
        .await
        .map_err(|e| anyhow!(self.scrub(&e.to_string())))
        .context("cannot read the sites that the plan's profiles reach")?;
        effective::attach(&mut plan, &self.compiled, &live, &reach);
        Ok(plan)
    }

    /// The path family the service answers, asked with one of the orgs planned (the
    /// older when there is none).
    async fn probe(&mut self) -> Result<PathFamily> {
        let org = (self.compiled.resources.iter())
            .map(|r| r.owner.org().to_string())
            .chain(match &self.reach {
                PruneScope::Orgs { orgs, .. } => orgs.iter().cloned().collect::<Vec<_>>(),
                PruneScope::Sites(sites) => sites.iter().map(|s| s.org.clone()).collect(),
            })
            .next();
        let Some(org) = org else {
            return Ok(PathFamily::Older);
        };
        let family = (self.client.probe_family(&org).await)
            .map_err(|e| anyhow!(self.scrub(&e.to_string())))
            .context("cannot ask the administration API which path family it answers")?;
        self.client.set_family(family);
        Ok(family)
    }

    pub(super) fn scrub(&self, text: &str) -> String {
        scrub(text, &self.secrets)
    }
}

/// The worker's address: `--transform-url`, or `--transform`, its old name on plan and
/// apply, which still works for a release with a warning.
fn transform_url(repo: &RepoArgs, remote: &RemoteArgs) -> Result<Option<String>> {
    let Some(old) = &remote.transform else {
        return Ok(repo.transform_url.clone());
    };
    if let Some(current) = &repo.transform_url
        && current != old
    {
        bail!(
            "--transform {old} and --transform-url {current} (or SITEOPS_TRANSFORM_URL) name the same address; pass only --transform-url"
        );
    }
    eprintln!(
        "warning: --transform is deprecated and will be removed: use --transform-url, which sets `{{transform_url}}` in site files and where worker configurations go"
    );
    Ok(Some(old.clone()))
}

pub(super) fn settings(select: &SelectArgs) -> PlanSettings {
    PlanSettings {
        prune: select.prune,
        sites: select.sites.clone(),
        replace_secrets: select.replace_secrets.clone(),
        shard: select.shard.map(|shard| shard.to_string()),
    }
}

/// Validates and compiles the repository (reporting problems as `validate` does: then
/// `Err(Outcome::Failure)`), and sets up the client.
pub(super) fn prepare(
    repo: &RepoArgs,
    remote: &RemoteArgs,
    settings: PlanSettings,
) -> Result<Result<Prepared, Outcome>> {
    let repo = RepoArgs {
        root: repo.root.clone(),
        transform_url: transform_url(repo, remote)?,
    };
    let validation = load_and_validate(&repo)?;
    let styled = use_color(&std::io::stderr());
    if validation.has_errors() {
        eprint!(
            "{}",
            render::human(&validation.diagnostics, &validation, styled)
        );
        eprintln!("{}", render::human_summary(validation.summary()));
        return Ok(Err(Outcome::Failure));
    }
    let scope = Scope::new(&settings).map_err(scope_error)?;
    let fleet = scope.fleet(&validation.fleet);
    let lookup = |name: &str| std::env::var(name).ok();
    let mut compiled = match compile(&fleet, &Secrets::Lookup(&lookup)) {
        Ok(compiled) => compiled,
        Err(problems) => {
            eprint!("{}", render::human(&problems, &validation, styled));
            return Ok(Err(Outcome::Failure));
        }
    };
    mask_on_github_actions(&compiled);
    let secrets: Vec<String> = compiled
        .resources
        .iter()
        .flat_map(|r| r.secret_values())
        .map(str::to_string)
        .collect();

    let reach = scope.narrow(&mut compiled).map_err(scope_error)?;

    let endpoints = Endpoints {
        admin: check_url("--admin", &remote.admin)?,
        worker: validation
            .transform_url
            .as_deref()
            .map(|url| check_url("--transform-url", url))
            .transpose()?,
    };
    if let Some(worker) = &endpoints.worker {
        let from_flag = repo.transform_url.is_some();
        if let Some(warning) = same_machine(&endpoints.admin, worker, from_flag)? {
            eprintln!("warning: {warning}");
        }
    }
    let (client, family) = remote_client(remote, endpoints)?;
    Ok(Ok(Prepared {
        compiled,
        client,
        settings,
        family,
        reach,
        sites_at_once: usize::from(remote.concurrency),
        secrets,
    }))
}

/// A scope's problem, in the words of the flags that set it (a saved plan's settings came
/// from the same flags).
fn scope_error(error: ScopeError) -> anyhow::Error {
    match error {
        ScopeError::NotASite(_) => anyhow!("--site {error}"),
        ScopeError::NoSuchSite(_) => {
            anyhow!("--site {error} (add --prune to delete it from the service)")
        }
        ScopeError::NotAShard(_) => anyhow!(error),
    }
}

/// Whether `url` (an http(s) URL already checked) names this machine.
/// The client of the services at `endpoints`, as `remote` says: the token from its
/// variable, requests in flight and their rate, and the path family when one is named
/// (`None`: `auto`, for the caller to probe with an org it knows).
pub(super) fn remote_client(
    remote: &RemoteArgs,
    endpoints: Endpoints,
) -> Result<(Client, Option<PathFamily>)> {
    let token = std::env::var(&remote.token_env)
        .ok()
        .filter(|t| !t.trim().is_empty())
        .ok_or_else(|| {
            anyhow!(
                "no token: set {} to a token of the administration service (or name another variable with --token-env)",
                remote.token_env
            )
        })?;
    let options = ClientOptions {
        concurrency: usize::from(remote.concurrency),
        rate: request_rate(&endpoints.admin, remote.rate),
        ..ClientOptions::default()
    };
    let family = match remote.api_family {
        ApiFamily::Older => Some(PathFamily::Older),
        ApiFamily::Newer => Some(PathFamily::Newer),
        ApiFamily::Auto => None,
    };
    let client = Client::new(endpoints, &Token::new(token), &options)
        .map_err(|e| anyhow!("{e} (from {})", remote.token_env))?
        .with_family(family.unwrap_or_default());
    Ok((client, family))
}

/// The hosted administration service's rate: about 10 requests a second.
pub(super) const HOSTED_RATE: f64 = 10.0;

/// The request rate for the administration service at `admin`: `--rate` when given, else
/// the hosted service's ([`HOSTED_RATE`]) for any service not on this machine, and no
/// limit for one on it (a local `serve`, which has its own quotas).
fn request_rate(admin: &str, flag: Option<f64>) -> Option<f64> {
    flag.or_else(|| (!is_loopback(admin)).then_some(HOSTED_RATE))
}

pub(super) fn is_loopback(url: &str) -> bool {
    url::Url::parse(url).is_ok_and(|url| siteops_live::offline::is_local(&url))
}

/// The token goes to both services: an administration service on this machine (a local
/// `serve`) with a worker elsewhere (siteops.toml's production worker) is a mistake that
/// would hand the token and the worker configurations to production. Refused when the
/// worker address came from siteops.toml; a warning when it was passed on purpose.
fn same_machine(admin: &str, worker: &str, worker_from_flag: bool) -> Result<Option<String>> {
    if is_loopback(admin) == is_loopback(worker) {
        return Ok(None);
    }
    let (here, there) = if is_loopback(admin) {
        (format!("--admin {admin}"), format!("the worker {worker}"))
    } else {
        (format!("the worker {worker}"), format!("--admin {admin}"))
    };
    let message = format!(
        "{here} is on this machine but {there} is not: the token and the changes would go to both"
    );
    if worker_from_flag {
        return Ok(Some(message));
    }
    let local = admin
        .strip_suffix("/admin")
        .filter(|_| is_loopback(admin))
        .map(|base| {
            format!("; for a local `siteops serve`, its worker is --transform-url {base}/transform")
        })
        .unwrap_or_default();
    bail!(
        "{message} (the worker address is siteops.toml's transform_url). Pass --transform-url to say which worker{local}"
    )
}

pub(super) fn check_url(flag: &str, text: &str) -> Result<String> {
    match url::Url::parse(text) {
        Ok(url) if matches!(url.scheme(), "http" | "https") => {
            Ok(text.trim_end_matches('/').to_string())
        }
        _ => bail!("{flag} {text}: not an http(s) URL"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hosted_service_is_asked_at_its_rate_unless_told_otherwise() {
        let hosted = "https://admin.hlx.page";
        assert_eq!(request_rate(hosted, None), Some(HOSTED_RATE));
        assert_eq!(request_rate(hosted, Some(2.5)), Some(2.5));
        assert_eq!(request_rate("http://127.0.0.1:3000/admin", None), None);
        assert_eq!(
            request_rate("http://localhost:3000/api", Some(4.0)),
            Some(4.0)
        );
    }

    #[test]
    fn a_local_service_with_a_remote_worker_is_refused_unless_asked_for() {
        let local = "http://127.0.0.1:3000/admin";
        let remote = "https://transform.acme.example";
        assert_eq!(
            same_machine(local, "http://localhost:3000/transform", false).unwrap(),
            None
        );
        assert_eq!(
            same_machine("https://admin.hlx.page", remote, false).unwrap(),
            None
        );
        let refused = same_machine(local, remote, false).unwrap_err().to_string();
        assert_eq!(
            refused,
            "--admin http://127.0.0.1:3000/admin is on this machine but the worker https://transform.acme.example is not: the token and the changes would go to both (the worker address is siteops.toml's transform_url). Pass --transform-url to say which worker; for a local `siteops serve`, its worker is --transform-url http://127.0.0.1:3000/transform"
        );
        let warned = same_machine(local, remote, true).unwrap();
        assert!(warned.is_some_and(|w| {
            w.starts_with("--admin http://127.0.0.1:3000/admin is on this machine")
        }));
        assert!(
            same_machine(
                "https://admin.hlx.page",
                "http://[::1]:3000/transform",
                false
            )
            .is_err()
        );
    }
}
