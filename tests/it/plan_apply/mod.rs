//! `siteops plan` and `siteops apply`: end to end against the bundled service (`e2e`),
//! their outputs (`outputs`), and the client's retries and failure handling against
//! wiremock (`resilience`).

mod e2e;
mod families;
pub(crate) mod made;
mod outputs;
mod reach;
mod repreview;
mod resilience;
mod unmanaged;
mod versions;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use siteops_config::compile::{Compiled, Secrets, compile};
use siteops_config::repo::RepoFiles;
use siteops_config::validate::{Options, validate};

use crate::harness::{ORG_ADMIN, TestServer};
use crate::support::{copy_dir, repo_root};

/// Distinctive values for the example sites' secrets, so that a test can search every
/// output for them.
pub(crate) const SYNC_SECRET: &str = "sync-secret-4f1b9e27";
pub(crate) const TEMPLATE_KEY: &str = "template-key-8c2d7a51";
/// The value of the org's secret (`sites/acme/org.toml`).
pub(crate) const PARTNER_SECRET: &str = "partner-secret-93c0d6e4";

/// The bundled service, and a copy of the example repository to edit.
pub(crate) struct Fixture {
    pub server: TestServer,
    pub token: String,
    pub root: PathBuf,
    _dir: tempfile::TempDir,
}

impl Fixture {
    pub(crate) async fn start() -> Fixture {
        let server = TestServer::start().await;
        let token = server.token(ORG_ADMIN);
        let dir = tempfile::tempdir().expect("temp dir");
        let root = dir.path().join("repo");
        copy_dir(&repo_root().join("sites"), &root.join("sites"));
        std::fs::copy(repo_root().join("siteops.toml"), root.join("siteops.toml"))
            .expect("copy siteops.toml");
        Fixture {
            server,
            token,
            root,
            _dir: dir,
        }
    }

    pub(crate) fn admin_url(&self) -> String {
        self.server.url("/admin")
    }

    /// The service's document at `path` under `/admin/config/` (`acme.json`,
    /// `acme/profiles/<name>.json`) as it answers it, or `None` when it has none.
    pub(crate) async fn document(&self, path: &str) -> Option<serde_json::Value> {
        let answer = (self.server)
            .get(&format!("/admin/config/{path}"), &self.token)
            .await;
        match answer.status {
            reqwest::StatusCode::NOT_FOUND => None,
            reqwest::StatusCode::OK => Some(answer.body),
            status => panic!("GET {path}: {status} {:?}", answer.error),
        }
    }

    /// Whether `value`, sent as a site token, opens acme/campaigns' protected preview,
    /// whose `access.site.secretId` names the org's secret `partner-preview`: so whether
    /// the service holds `value` as that secret (values are never answered).
    pub(crate) async fn opens_campaigns(&self, value: &str) -> bool {
        let answer = (self.server)
            .preview("main--campaigns--acme.localhost", "/", Some(value))
            .await;
        !matches!(
            answer.status,
            reqwest::StatusCode::UNAUTHORIZED | reqwest::StatusCode::FORBIDDEN
        )
    }

    pub(crate) fn worker_url(&self) -> String {
        self.server.url("/transform")
    }

    /// Runs `siteops <command> <args>` on the copy, against the service, off the runtime's
    /// threads (the service runs on them).
    pub(crate) async fn siteops(&self, command: &str, args: &[&str]) -> Run {
        self.siteops_unsetting(command, args, &[]).await
    }

    /// `siteops import --org acme` from the service into `root`, with `extra` flags.
    pub(crate) async fn import_into(&self, root: &Path, extra: &[&str]) -> Run {
        let mut args: Vec<String> = ["import", "--root"].map(String::from).to_vec();
        args.push(root.display().to_string());
        args.extend(["--admin".to_string(), self.admin_url()]);
        args.extend(
            ["--org", "acme"]
                .into_iter()
                .chain(extra.iter().copied())
                .map(String::from),
        );
        run_siteops(args, &[("SITEOPS_ADMIN_TOKEN", &self.token)]).await
    }

    /// [`Fixture::siteops`] with `--admin admin` (such as the newer family's
    /// `…/api`).
    pub(crate) async fn siteops_at(&self, admin: &str, command: &str, args: &[&str]) -> Run {
        let mut full: Vec<String> = vec![
            command.into(),
            "--root".into(),
            self.root.display().to_string(),
            "--admin".into(),
            admin.into(),
            "--transform-url".into(),
            self.worker_url(),
        ];
        full.extend(args.iter().map(|a| a.to_string()));
        run_siteops_unsetting(full, &[("SITEOPS_ADMIN_TOKEN", &self.token)], &[]).await
    }

    /// [`Fixture::siteops`] with the variables of `unset` left out of the environment.
    pub(crate) async fn siteops_unsetting(
        &self,
        command: &str,
        args: &[&str],
        unset: &[&str],
    ) -> Run {
        let mut full: Vec<String> = vec![
            command.into(),
            "--root".into(),
            self.root.display().to_string(),
            "--admin".into(),
            self.admin_url(),
            "--transform-url".into(),
            self.worker_url(),
        ];
        full.extend(args.iter().map(|a| a.to_string()));
        run_siteops_unsetting(full, &[("SITEOPS_ADMIN_TOKEN", &self.token)], unset).await
    }

    /// Replaces `from` by `to` in a file of the copy (which must contain it).
    pub(crate) fn edit(&self, file: &str, from: &str, to: &str) {
        let path = self.root.join(file);
        let text = std::fs::read_to_string(&path).expect("read");
        assert!(text.contains(from), "{file} has no `{from}`");
        std::fs::write(&path, text.replace(from, to)).expect("write");
    }

    /// The copy's sites, compiled with the distinctive secret values, for the worker at
    /// `transform_url`.
    pub(crate) fn compiled(&self, transform_url: &str) -> Compiled {
        compiled(&self.root, transform_url)
    }
}

pub(crate) fn compiled(root: &Path, transform_url: &str) -> Compiled {
    let repo = RepoFiles::load(root).expect("repository");
    let options = Options {
        transform_url: Some(transform_url.to_string()),
    };
    let validation = validate(&repo, &options);
    assert!(!validation.has_errors(), "{:?}", validation.diagnostics);
    let lookup = |name: &str| secret_value(name).map(str::to_string);
    compile(&validation.fleet, &Secrets::Lookup(&lookup)).expect("compiles")
}

fn secret_value(name: &str) -> Option<&'static str> {
    match name {
        "ACME_GIT_SYNC_SECRET" => Some(SYNC_SECRET),
        "ACME_TEMPLATE_API_KEY" => Some(TEMPLATE_KEY),
        "ACME_PARTNER_PREVIEW_SECRET" => Some(PARTNER_SECRET),
        _ => None,
    }
}

/// What a run of the binary gave.
#[derive(Debug)]
pub(crate) struct Run {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    /// A finished process's exit code and output, as text.
    pub(crate) fn of(output: &std::process::Output) -> Run {
        Run {
            code: output.status.code(),
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        }
    }

    pub(crate) fn expect(self, code: i32) -> Run {
        assert_eq!(
            self.code,
            Some(code),
            "stdout:\n{}\nstderr:\n{}",
            self.stdout,
            self.stderr
        );
        self
    }
}

pub(crate) async fn run_siteops(args: Vec<String>, env: &[(&str, &str)]) -> Run {
    run_siteops_unsetting(args, env, &[]).await
}

/// `siteops <args>` as these tests run it: no colour, the example sites' secrets set, no
/// endpoints or CI variables from the test's own environment.
pub(crate) fn siteops_command(args: &[String]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_siteops"));
    command
        .args(args)
        .env_remove("SITEOPS_TRANSFORM_URL")
        .env_remove("SITEOPS_ADMIN_URL")
        .env_remove("GITHUB_ACTIONS")
        .env_remove("GITHUB_SHA")
        .env("NO_COLOR", "1")
        .env("ACME_GIT_SYNC_SECRET", SYNC_SECRET)
        .env("ACME_TEMPLATE_API_KEY", TEMPLATE_KEY)
        .env("ACME_PARTNER_PREVIEW_SECRET", PARTNER_SECRET);
    command
}

/// [`run_siteops`] with the variables of `unset` left out of the environment (the
/// example sites' secrets are otherwise set).
async fn run_siteops_unsetting(args: Vec<String>, env: &[(&str, &str)], unset: &[&str]) -> Run {
    let env: Vec<(String, String)> = env
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let unset: Vec<String> = unset.iter().map(|name| name.to_string()).collect();
    let output: Output = tokio::task::spawn_blocking(move || {
        let mut command = siteops_command(&args);
        command.envs(env);
        for name in &unset {
            command.env_remove(name);
        }
        command.output().expect("siteops runs")
    })
    .await
    .expect("the run finishes");
    Run::of(&output)
}
