//! `siteops restore`: brings an org's documents back to what an earlier apply wrote. For
//! each document (the org's, each profile, each site the service lists; or the `--site`
//! sites only) it finds the newest version apply named after the commit `--to` gives
//! (`siteops@<sha>`), shows what restoring it changes (masked), asks, and has the service
//! restore it (`POST …?restoreVersion=<n>`). Documents without such a version are left
//! alone, and said so. The other way back is to check the commit out and apply it.

use anyhow::{Context, Result, anyhow, bail};
use futures_util::future::{join_all, try_join_all};
use siteops_config::compile::Owner;
use siteops_config::model::SiteId;
use siteops_plan::plan::Change;
use siteops_plan::plan::render::change_line;
use siteops_plan::remote::{Client, ClientError, Endpoints, Location, live};
use siteops_plan::versions::{
    APPLIED_PREFIX, DocumentVersion, VersionList, commit_prefix, describe, named, restore_changes,
    written_by,
};

use super::Outcome;
use super::apply::confirmed;
use super::planning::{check_url, remote_client};
use super::versions::resolve;
use crate::cli::RestoreArgs;

/// What `--to` names: the versions of a commit (a sha prefix), or one version name.
enum Target {
    Commit(String),
    Name(String),
}

impl Target {
    fn find<'a>(&self, list: &'a VersionList) -> Option<&'a DocumentVersion> {
        match self {
            Target::Commit(prefix) => written_by(list, prefix),
            Target::Name(name) => named(list, name),
        }
    }

    fn describe(&self) -> String {
        match self {
            Target::Commit(sha) => format!("commit {sha} ({APPLIED_PREFIX}{sha}…)"),
            Target::Name(name) => format!("the version named {name:?}"),
        }
    }
}

/// One document and what becomes of it.
struct Found {
    owner: Owner,
    address: String,
    what: Restore,
}

enum Restore {
    /// No version of the target (or it deleted the document): left alone.
    Missing,
    /// The version holds what the document holds now.
    Same(DocumentVersion),
    /// The version, and what restoring it changes.
    Changes(DocumentVersion, Vec<Change>),
}

pub(crate) fn run(args: &RestoreArgs) -> Result<Outcome> {
    let target = target(args)?;
    let endpoints = Endpoints {
        admin: check_url("--admin", &args.remote.admin)?,
        worker: None,
    };
    let (mut client, family) = remote_client(&args.remote, endpoints)?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let failed = |e: ClientError| anyhow!(e);
    if family.is_none() {
        let family = (runtime.block_on(client.probe_family(&args.org)))
            .map_err(failed)
            .context("cannot ask the administration API which path family it answers")?;
        client.set_family(family);
    }
    let owners = runtime
        .block_on(documents(&client, args))
        .map_err(failed)
        .context("cannot list the org's documents")?;
    let examined = owners
        .into_iter()
        .map(|owner| examine(&client, owner, &target));
    let found = runtime
        .block_on(try_join_all(examined))
        .map_err(failed)
        .context("cannot read the documents' versions")?;
    let Some(found) = found.into_iter().collect::<Option<Vec<Found>>>() else {
        bail!(
            "the service at {} keeps no versions of the documents (versions.json answers 404): check the commit out and apply it instead",
            args.remote.admin
        );
    };
    println!("Restoring {} to {}:", args.org, target.describe());
    let mut restoring = Vec::new();
    for document in &found {
        match &document.what {
            Restore::Missing => println!("  skip     {}  (no such version)", document.address),
            Restore::Same(version) => println!(
                "  same     {}  (holds {} already)",
                document.address,
                describe(version)
            ),
            Restore::Changes(version, changes) => {
                println!("~ restore  {}  to {}", document.address, describe(version));
                for change in changes {
                    println!("      {}", change_line(change));
                }
                restoring.push((document, version));
            }
        }
    }
    println!();
    if found.iter().all(|d| matches!(d.what, Restore::Missing)) {
        println!("No document has a version of {}.", target.describe());
        return Ok(Outcome::Failure);
    }
    if restoring.is_empty() {
        println!("Nothing to restore.");
        return Ok(Outcome::Success);
    }
    let question = format!("Restore {} documents?", restoring.len());
    if !args.yes && !confirmed(&question, "restore", "")? {
        println!("Restore cancelled.");
        return Ok(Outcome::Failure);
    }
    let restores = restoring.iter().map(|(document, version)| {
        let client = &client;
        async move {
            // Named as the version it brings back, so that a plan reads it as that
            // apply's write, not as someone else's change.
            let name = match &version.name {
                Some(name) => format!("{name} (restore of {})", version.version),
                None => format!("restore of {}", version.version),
            };
            let location = location(&document.owner);
            client
                .restore(&location, version.version, Some(&name))
                .await
        }
    });
    let results = runtime.block_on(join_all(restores));
    let mut failures = 0;
    for ((document, version), result) in restoring.iter().zip(results) {
        match result {
            Ok(()) => println!(
                "restored {} to version {}",
                document.address, version.version
            ),
            Err(error) => {
                failures += 1;
                println!("failed   {}: {error}", document.address);
            }
        }
    }
    println!();
    println!(
        "Restore: {} restored, {failures} failed.",
        restoring.len() - failures
    );
    Ok(if failures == 0 {
        Outcome::Success
    } else {
        Outcome::Failure
    })
}

/// What `--to` names: a sha prefix as given, a reference git resolves in `--root`, or a
/// version name.
fn target(args: &RestoreArgs) -> Result<Target> {
    let to = args.to.trim();
    if to.is_empty() {
        bail!("--to is empty: give a commit or a version name");
    }
    if let Some(prefix) = commit_prefix(to) {
        return Ok(Target::Commit(prefix));
    }
    if let Some(sha) = resolve(&args.root, to).as_deref().and_then(commit_prefix) {
        return Ok(Target::Commit(sha));
    }
    Ok(Target::Name(to.to_string()))
}

/// The documents restored: the `--site` sites, else the org's document, its profiles and
/// its sites, as the service lists them.
async fn documents(client: &Client, args: &RestoreArgs) -> Result<Vec<Owner>, ClientError> {
    let org = &args.org;
    if !args.sites.is_empty() {
        let site = |site: &String| {
            Owner::Site(SiteId {
                org: org.clone(),
                site: site.clone(),
            })
        };
        return Ok(args.sites.iter().map(site).collect());
    }
    let mut owners = vec![Owner::Org(org.clone())];
    let profiles = live::list_profiles(client, org).await?.unwrap_or_default();
    owners.extend(profiles.into_iter().map(|name| Owner::Profile {
        org: org.clone(),
        name,
    }));
    let sites = live::list_sites(client, org).await?;
    owners.extend(sites.into_iter().map(Owner::Site));
    Ok(owners)
}

fn location(owner: &Owner) -> Location {
    Location::of(owner, &owner.document_kind())
}

/// What restoring `target` would do to `owner`'s document; `None` when the service keeps
/// no versions.
async fn examine(
    client: &Client,
    owner: Owner,
    target: &Target,
) -> Result<Option<Found>, ClientError> {
    let address = location(&owner).compile_path();
    let Some(list) = live::versions(client, &owner).await? else {
        return Ok(None);
    };
    let missing = |owner, address| {
        Ok(Some(Found {
            owner,
            address,
            what: Restore::Missing,
        }))
    };
    let Some(version) = target.find(&list).cloned() else {
        return missing(owner, address);
    };
    let (now, then) = (
        location(&owner),
        Location::version_of(&owner, version.version),
    );
    let (current, old) = tokio::try_join!(client.get(&now), client.get(&then))?;
    // A version that deleted the document has none to bring back.
    let Some(old) = old else {
        return missing(owner, address);
    };
    let changes = restore_changes(&owner.document_kind(), current.as_ref(), &old);
    let what = if changes.is_empty() && current.is_some() {
        Restore::Same(version)
    } else {
        Restore::Changes(version, changes)
    };
    Ok(Some(Found {
        owner,
        address,
        what,
    }))
}
