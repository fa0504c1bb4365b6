//! `siteops serve`: the local administration service, worker and site preview hosts, with
//! the repository applied to them and re-applied on every change (the live session).

use std::net::{Ipv4Addr, SocketAddr};
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Result;
use siteops_live::code_watch::CodeWatch;
use siteops_live::offline::{Mode, OfflineTransport};
use siteops_live::{Live, SERVE_SUBJECT, Target, reload, watch};
use siteops_server::auth::SignIn;
use siteops_server::auth::oidc::OidcSettings;
use siteops_server::preview::{AddressPolicy, ReqwestTransport};
use siteops_server::quota::Quotas;
use siteops_server::server::listen::ConnectionLimits;
use siteops_server::server::{RunningServer, ServerConfig, start};

use super::Outcome;
use crate::cli::ServeArgs;

/// The environment variables of the identity provider's client.
const OIDC_CLIENT_ID: &str = "SITEOPS_OIDC_CLIENT_ID";
const OIDC_CLIENT_SECRET: &str = "SITEOPS_OIDC_CLIENT_SECRET";

/// How people sign in, from the flags and the environment.
fn sign_in(args: &ServeArgs) -> Result<SignIn> {
    if args.no_sign_in {
        return Ok(SignIn::Off);
    }
    let Some(issuer) = &args.oidc_issuer else {
        return Ok(SignIn::Email);
    };
    let client_id = std::env::var(OIDC_CLIENT_ID)
        .ok()
        .filter(|id| !id.trim().is_empty())
        .ok_or_else(|| anyhow::anyhow!("--oidc-issuer needs ${OIDC_CLIENT_ID}: the client id the provider issued for this service"))?;
    Ok(SignIn::Oidc(OidcSettings {
        issuer: issuer.clone(),
        client_id,
        client_secret: std::env::var(OIDC_CLIENT_SECRET)
            .ok()
            .filter(|secret| !secret.is_empty()),
        redirect_url: args.oidc_redirect_url.clone(),
    }))
}

fn server_sign_in(args: &ServeArgs) -> Option<&str> {
    args.oidc_issuer.as_deref().filter(|_| !args.no_sign_in)
}

pub(crate) fn run(args: &ServeArgs) -> Result<Outcome> {
    let runtime = siteops_server::server::runtime()?;
    runtime.block_on(serve(args))
}

async fn serve(args: &ServeArgs) -> Result<Outcome> {
    let started = Instant::now();
    let root = args
        .repo
        .root
        .canonicalize()
        .unwrap_or_else(|_| args.repo.root.clone());
    let store = args.data.location(&args.repo.root);
    // Held until serve returns: a second serve on the same directory refuses to start.
    let _lock = store.lock()?;
    let mode = match (args.offline, args.online) {
        (true, _) => Mode::Offline,
        (false, true) => Mode::Online,
        // Mocks stand in for the hosts they name; the rest is fetched (issue 44).
        (false, false) if has_mocks(&root) => Mode::Mocks,
        (false, false) => Mode::Online,
    };
    let live = (!args.no_repo).then(|| {
        let mut live = Live::new(root.clone(), mode == Mode::Offline);
        live.mode = mode;
        // Relative to where serve was started, as a shell user means it.
        live.code_overrides = args
            .code
            .iter()
            .map(|(repo, dir)| {
                (
                    repo.clone(),
                    std::path::absolute(dir).unwrap_or(dir.clone()),
                )
            })
            .collect();
        Arc::new(live)
    });
    // Loopback unless --listen says otherwise, and only loopback and localhost Host names
    // (plus --allowed-host): the sign-in page trusts whoever can reach it.
    let addr = args
        .listen
        .unwrap_or(SocketAddr::from((Ipv4Addr::LOCALHOST, args.port)));
    let exposed = siteops_server::server::is_exposed(addr, &args.allowed_hosts);
    let policy = private_sources(exposed, args);
    let network = ReqwestTransport::under(policy);
    let transport: Arc<dyn siteops_server::preview::Transport> = match &live {
        Some(live) if mode != Mode::Online => {
            let live = live.clone();
            let mocks = Arc::new(move || live.mocks());
            Arc::new(OfflineTransport::in_mode(
                mode,
                mocks,
                Arc::new(network.clone()),
            ))
        }
        _ => Arc::new(network.clone()),
    };
    let mut org_admins = args.org_admins.clone();
    if live.is_some() {
        // The live session applies the repository as an org administrator of its own.
        org_admins.push(SERVE_SUBJECT.to_string());
    }
    let config = ServerConfig {
        addr,
        store: store.clone(),
        org_admins,
        preview_limits: siteops_server::preview::Limits {
            preview_deadline: Duration::from_secs(args.preview_deadline),
            ..siteops_server::preview::Limits::default()
        },
        preview_transport: Some(transport),
        session: live
            .clone()
            .map(|live| live as Arc<dyn siteops_server::app::Session>),
        allowed_hosts: args.allowed_hosts.clone(),
        connection_limits: ConnectionLimits {
            header_read_timeout: Duration::from_secs(args.header_timeout),
            request_timeout: Duration::from_secs(args.request_timeout),
            max_connections: args.max_connections as usize,
            ..ConnectionLimits::default()
        },
        quotas: Quotas {
            sites_per_org: args.max_sites_per_org as usize,
            concurrent_previews: args.max_previews as usize,
            previews_per_org: args.max_previews_per_org as usize,
            concurrent_sync_jobs: args.max_sync_jobs as usize,
            sign_ins_per_minute: args.sign_in_rate,
            webhooks_per_minute: args.webhook_rate,
            preview_bytes_per_site: args.max_preview_bytes_per_site,
        },
        sign_in: sign_in(args)?,
    };
    let server = start(config).await?;
    // The previews ask the bundled worker over HTTP, whatever the policy.
    network.allow_own(server.addr);
    let (here, port) = (server.addr, server.addr.port());
    println!("siteops serve: listening on http://{}", server.listening);
    if live.is_some() {
        println!("  dashboard             http://localhost:{port}/");
    }
    println!("  administration API    http://{here}/admin");
    println!("  transformation worker http://{here}/transform");
    println!(
        "  sign in               http://{here}/admin/login ({})",
        match &server_sign_in(args) {
            Some(issuer) => format!("through {issuer}"),
            None if args.no_sign_in => "off: tokens from `siteops token`".to_string(),
            None => "by e-mail address, for this machine only".to_string(),
        }
    );
    println!("  preview hosts         http://<branch>--<site>--<org>.localhost:{port}/");
    let site_ports = open_site_ports(&server, &args.site_ports).await?;
    if let Some(live) = &live {
        let _ = live.site_ports.set(site_ports);
    }
    println!("  data                  {store}");
    println!(
        "  private sources       {}",
        match (policy, exposed) {
            (AddressPolicy::PublicOnly, true) =>
                "refused: reached beyond loopback (--allow-private-sources to fetch them)",
            (AddressPolicy::PublicOnly, false) => "refused (--refuse-private-sources)",
            (AddressPolicy::AllowPrivate, true) =>
                "fetched, though reached beyond loopback (--allow-private-sources)",
            (AddressPolicy::AllowPrivate, false) => "fetched: loopback only",
        }
    );
    println!(
        "  secrets               {}",
        if matches!(siteops_server::sites::sealed::key(), Ok(Some(_))) {
            "encrypted at rest (SITEOPS_SECRETS_KEY)"
        } else {
            "stored in the clear: set SITEOPS_SECRETS_KEY (32 bytes, base64) to encrypt them"
        }
    );
    if let Some(live) = &live {
        println!(
            "  repository            {} ({})",
            root.display(),
            match mode {
                Mode::Offline => "offline: outgoing requests answered from the sites' mocks",
                Mode::Mocks =>
                    "mocks for the hosts they name, the network for the rest (see the dashboard)",
                Mode::Online => "online",
            }
        );
        // Watching starts before the first apply, so no edit made meanwhile is missed.
        let (watch, batches) = watch::watch(&live.root)?;
        reload(live, &Target::of(&server)).await;
        // The checkouts are watched before "applied" is said: whoever waits for that line
        // (a script, a test) and then saves a file gets its reload.
        let mut code_watch = CodeWatch::new(live.clone());
        follow_code(&mut code_watch, &server.state.code);
        say_first_apply(live, started);
        watch_repository(live.clone(), &server, watch, batches, code_watch);
    } else if args.org_admins.is_empty() {
        println!("  org administrators    none: pass --org-admin ADDRESS to allow creating sites");
    }
    server.wait().await?;
    Ok(Outcome::Success)
}

/// Binds `serve --site-port`'s ports on loopback and says where each preview host is
/// also answered (for tools that do not resolve `*.localhost`).
async fn open_site_ports(
    server: &RunningServer,
    wanted: &[(siteops_server::preview::PreviewHost, u16)],
) -> Result<Vec<(siteops_server::preview::PreviewHost, SocketAddr)>> {
    let mut bound = Vec::new();
    for (host, port) in wanted {
        let addr = server
            .open_site_port(host, SocketAddr::from((Ipv4Addr::LOCALHOST, *port)))
            .await?;
        println!(
            "  site port             http://{addr}/ answers as {}",
            host.origin(Some(server.addr.port()))
        );
        bound.push((host.clone(), addr));
    }
    Ok(bound)
}

/// Which sources outgoing requests may reach: private ones are refused when asked, or
/// by default when the server is reached beyond loopback (their answers would be served
/// to whoever reaches it), unless explicitly allowed.
fn private_sources(exposed: bool, args: &ServeArgs) -> AddressPolicy {
    match (args.refuse_private_sources, args.allow_private_sources) {
        (true, _) => AddressPolicy::PublicOnly,
        (false, true) => AddressPolicy::AllowPrivate,
        (false, false) if exposed => AddressPolicy::PublicOnly,
        (false, false) => AddressPolicy::AllowPrivate,
    }
}

/// Watches the checkouts the last reload mapped, and says where each one is.
fn follow_code(code_watch: &mut CodeWatch, code: &siteops_server::code::SiteCode) {
    let checkouts = code.checkouts();
    if code_watch.follow(&checkouts) {
        for (repo, checkout) in checkouts.iter() {
            println!(
                "  code {repo:<16} {} (local checkout, live)",
                checkout.configured.display()
            );
        }
    }
}

fn has_mocks(root: &Path) -> bool {
    let Ok(orgs) = std::fs::read_dir(root.join("sites")) else {
        return false;
    };
    orgs.flatten().any(|org| {
        std::fs::read_dir(org.path())
            .into_iter()
            .flatten()
            .flatten()
            .any(|site| site.path().join("mocks").is_dir())
    })
}

/// What the first apply did (or why it did not apply).
fn say_first_apply(live: &Live, started: Instant) {
    let snapshot = live.snapshot.read().unwrap_or_else(|p| p.into_inner());
    match &snapshot.error {
        None => println!(
            "  applied               {} changes in {} ms; ready {} ms after start",
            snapshot.changes.len(),
            snapshot.reload_ms,
            started.elapsed().as_millis()
        ),
        Some(error) => println!("  not applied           {error} (see the dashboard)"),
    }
    print_diagnostics(&snapshot.diagnostics);
}

/// A reload's diagnostics, whole: stdout is line-buffered, so a last line without its
/// newline would wait, unseen, for the next thing printed.
fn print_diagnostics(diagnostics: &str) {
    print!("{}", whole_lines(diagnostics));
}

fn whole_lines(text: &str) -> String {
    let mut text = text.to_string();
    if !text.is_empty() && !text.ends_with('\n') {
        text.push('\n');
    }
    text
}

/// What the terminal says of a reload that failed: why, that serve keeps what it had
/// applied (the session's message gives the reason only: `siteops test` keeps nothing),
/// and the diagnostics, where and why, in whole lines.
fn failed_reload(generation: u64, error: &str, diagnostics: &str) -> String {
    format!(
        "reload {generation}: {error}; the last good state stays applied\n{}",
        whole_lines(diagnostics)
    )
}

/// Re-applies on every batch of changes, in the background, until the server stops.
fn watch_repository(
    live: Arc<Live>,
    server: &RunningServer,
    watch: watch::RepoWatch,
    mut batches: tokio::sync::mpsc::Receiver<Vec<std::path::PathBuf>>,
    mut code_watch: CodeWatch,
) {
    let (addr, state) = (server.addr, server.state.clone());
    tokio::spawn(async move {
        let _watch = watch;
        while let Some(batch) = batches.recv().await {
            let names: Vec<String> = batch.iter().map(|p| p.display().to_string()).collect();
            tracing::info!(changed = %names.join(", "), "repository changed");
            reload(&live, &Target::new(addr, &state)).await;
            follow_code(&mut code_watch, &state.code);
            let snapshot = live.snapshot.read().unwrap_or_else(|p| p.into_inner());
            match &snapshot.error {
                None => println!(
                    "reload {}: {} changed, {} applied in {} ms",
                    snapshot.generation,
                    names.join(", "),
                    snapshot.changes.len(),
                    snapshot.reload_ms
                ),
                Some(error) => print!(
                    "{}",
                    failed_reload(snapshot.generation, error, &snapshot.diagnostics)
                ),
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    fn policy_of(flags: &[&str]) -> AddressPolicy {
        let cli = crate::cli::Cli::try_parse_from(["siteops", "serve"].iter().chain(flags))
            .expect("valid flags");
        let crate::cli::Command::Serve(args) = cli.command else {
            panic!("serve");
        };
        let addr = args
            .listen
            .unwrap_or(SocketAddr::from((Ipv4Addr::LOCALHOST, args.port)));
        private_sources(
            siteops_server::server::is_exposed(addr, &args.allowed_hosts),
            &args,
        )
    }

    /// Issue 44: `--site-port` names a preview host and a port; bad values say why.
    #[test]
    fn site_ports_name_a_preview_host_and_a_port() {
        let parse = |value: &str| {
            crate::cli::Cli::try_parse_from(["siteops", "serve", "--site-port", value])
                .map(|cli| match cli.command {
                    crate::cli::Command::Serve(args) => args.site_ports,
                    _ => panic!("serve"),
                })
                .map_err(|e| e.to_string())
        };
        let ports = parse("acme/website=3001").expect("valid");
        assert_eq!(
            ports[0].0.origin(None),
            "http://main--website--acme.localhost"
        );
        assert_eq!(ports[0].1, 3001);
        let ports = parse("acme/website@feature-x=0").expect("valid");
        assert_eq!(ports[0].0.branch, "feature-x");
        for (bad, says) in [
            ("acme/website", "expected ORG/SITE=PORT"),
            ("acme=3001", "is not a site"),
            ("acme/website=70000", "is not a port"),
            ("acme/web.site=3001", "names no preview host"),
        ] {
            let error = parse(bad).expect_err(bad);
            assert!(error.contains(says), "{bad}: {error}");
        }
    }

    /// Issue 28: a failed reload prints its diagnostics, every line of them.
    #[test]
    fn a_failed_reload_says_why_and_where_in_whole_lines() {
        assert_eq!(
            failed_reload(
                3,
                "the repository does not validate",
                "error[x]: a\n --> f.json:1:2"
            ),
            "reload 3: the repository does not validate; the last good state stays applied\nerror[x]: a\n --> f.json:1:2\n"
        );
        assert_eq!(
            failed_reload(4, "e", ""),
            "reload 4: e; the last good state stays applied\n"
        );
    }

    /// Issue 27, finding 13: private sources are refused by default once the server is
    /// reached beyond loopback, and either flag decides over the default.
    #[test]
    fn private_sources_are_refused_by_default_beyond_loopback() {
        use AddressPolicy::{AllowPrivate, PublicOnly};
        for (flags, policy) in [
            (&[][..], AllowPrivate),
            (&["--port", "0"][..], AllowPrivate),
            (&["--listen", "127.0.0.2:0"][..], AllowPrivate),
            (&["--listen", "[::1]:3000"][..], AllowPrivate),
            (&["--refuse-private-sources"][..], PublicOnly),
            (&["--listen", "0.0.0.0:3000"][..], PublicOnly),
            (&["--listen", "[::]:3000"][..], PublicOnly),
            (&["--listen", "10.0.0.5:3000"][..], PublicOnly),
            (&["--allowed-host", "siteops.acme.example"][..], PublicOnly),
            (
                &["--listen", "0.0.0.0:3000", "--allow-private-sources"][..],
                AllowPrivate,
            ),
            (
                &[
                    "--allowed-host",
                    "siteops.acme.example",
                    "--allow-private-sources",
                ][..],
                AllowPrivate,
            ),
        ] {
            assert_eq!(policy_of(flags), policy, "{flags:?}");
        }
        let parse = |flags: &[&str]| {
            crate::cli::Cli::try_parse_from(["siteops", "serve"].iter().chain(flags)).is_ok()
        };
        assert!(!parse(&[
            "--refuse-private-sources",
            "--allow-private-sources"
        ]));
        assert!(!parse(&["--port", "3000", "--listen", "0.0.0.0:3000"]));
        assert!(!parse(&["--listen", "localhost:3000"]));
    }
}
