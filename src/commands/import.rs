//! `siteops import`: an org's documents on a live administration service, written as the
//! repository's files. The service is read here; the conversion is the config crate's
//! (`siteops_config::import`), pure.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{Context, Result, anyhow, bail};
use futures_util::TryFutureExt;
use serde_json::Value;
use siteops_config::compile::{Owner, ResourceKind};
use siteops_config::import::{
    ImportedFile, OrgSnapshot, SiteSnapshot, external_code_as_byogit, import, schema_files,
    settings_file,
};
use siteops_config::model::SiteId;
use siteops_config::repo::SETTINGS_FILE;
use siteops_config::rules::NameKind;
use siteops_plan::remote::{Client, Endpoints, Location, PathFamily};

use super::Outcome;
use super::planning::{check_url, remote_client};
use crate::cli::ImportArgs;

pub(crate) fn run(args: &ImportArgs) -> Result<Outcome> {
    if let Some(dir) = &args.from_repo {
        return super::import_repo::run(args, dir);
    }
    let remote = (args.remote.as_ref())
        .context("--admin (or SITEOPS_ADMIN_URL) names the service to read, or --from-repo a git-era repository")?;
    // The org becomes the first segment of every path and URL, as each listed name does.
    NameKind::Org
        .check(&args.org)
        .map_err(|error| anyhow!("--org: {error}"))?;
    let worker = (args.transform_url.as_deref())
        .map(|url| check_url("--transform-url", url))
        .transpose()?;
    let endpoints = Endpoints {
        admin: check_url("--admin", &remote.admin)?,
        worker,
    };
    let (mut client, named) = remote_client(remote, endpoints)?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let family = match named {
        Some(family) => family,
        None => runtime
            .block_on(client.probe_family(&args.org))
            .context("cannot ask the administration API which path family it answers")?,
    };
    client.set_family(family);
    let mut snapshot = runtime
        .block_on(read_org(&client, &args.org, &args.sites))
        .with_context(|| format!("cannot read org `{}` from {}", args.org, remote.admin))?;
    if family == PathFamily::Newer {
        let documents = (snapshot.profiles.values_mut())
            .chain(snapshot.sites.values_mut().map(|site| &mut site.document));
        documents.for_each(external_code_as_byogit);
    }
    let imported = import(&snapshot).context("cannot write the service's documents as files")?;

    let mut files = imported.files;
    let settings = args.root.join(SETTINGS_FILE);
    if !settings.exists() {
        files.insert(
            0,
            ImportedFile {
                path: SETTINGS_FILE.into(),
                text: settings_file(),
            },
        );
    }
    // What the files need beside them: the schemas their `#:schema` lines name, and the
    // templates of the sites' code. One the root holds already, as is, is no conflict.
    let (templates, unread) = runtime.block_on(super::import_templates::read(
        &imported.templates,
        &snapshot,
        &super::import_templates::CodeSources {
            checkouts: &args.code,
            admin: &remote.admin,
            token: std::env::var(&remote.token_env).ok().as_deref(),
            local: super::planning::is_loopback(&remote.admin),
        },
    ));
    let beside = schema_files(&files).into_iter().chain(templates);
    let same = |file: &ImportedFile| {
        std::fs::read(args.root.join(&file.path)).is_ok_and(|bytes| bytes == file.text.as_bytes())
    };
    files.extend(beside.filter(|file| !same(file)));
    files.sort_by(|a, b| a.path.cmp(&b.path));
    let existing: Vec<&str> = files
        .iter()
        .filter(|f| args.root.join(&f.path).exists())
        .map(|f| f.path.as_str())
        .collect();
    let verb = if args.dry_run { "Would write" } else { "Wrote" };
    if !existing.is_empty() && !args.force {
        let what = if args.dry_run {
            "would be refused: these files exist"
        } else {
            "refused: these files exist"
        };
        let message = format!(
            "{what} under {} (pass --force to overwrite them): {}",
            args.root.display(),
            existing.join(", ")
        );
        if !args.dry_run {
            bail!(message);
        }
        eprintln!("warning: {message}");
    }
    for file in &files {
        if !args.dry_run {
            write(&args.root, file)?;
        }
        let replaced = if existing.contains(&file.path.as_str()) {
            " (replacing the file there)"
        } else {
            ""
        };
        println!("{verb} {}{replaced}", file.path);
    }
    for note in &imported.notes {
        eprintln!("note: {note}");
    }
    let missing: Vec<String> = (unread.iter())
        .filter(|unread| !args.root.join(&unread.path).exists())
        .map(|unread| format!("{} ({})", unread.path, unread.why))
        .collect();
    if !missing.is_empty() {
        eprintln!(
            "note: the worker entries name templates of the sites' code that could not be read (pass --code OWNER/REPO=DIR to copy them from a checkout); copy them here for `siteops validate`: {}",
            missing.join(", ")
        );
    }
    let sites = snapshot.sites.len();
    let profiles = snapshot.profiles.len();
    let org = if snapshot.document.is_some() {
        "its document, "
    } else {
        ""
    };
    println!(
        "{} org {}: {org}{profiles} profile{}, {sites} site{} ({} files{}).",
        if args.dry_run {
            "Dry run, nothing written:"
        } else {
            "Imported"
        },
        args.org,
        plural(profiles),
        plural(sites),
        files.len(),
        if args.root == Path::new(".") {
            String::new()
        } else {
            format!(" under {}", args.root.display())
        }
    );
    Ok(Outcome::Success)
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

fn write(root: &Path, file: &ImportedFile) -> Result<()> {
    let path = root.join(&file.path);
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    std::fs::write(&path, &file.text).with_context(|| format!("cannot write {}", path.display()))
}

/// Reads the org's document, its profiles and the selected sites. Where each lives is the
/// remote client's [`Location`]s: the path family is theirs, not the import's. A name a
/// listing gives becomes a URL path segment here and a file path later, so each is
/// checked against the platform's rule for its kind first ([`listed`]): a listing that
/// names what is no name stops the import before anything is asked for it or written.
async fn read_org(client: &Client, org: &str, patterns: &[String]) -> Result<OrgSnapshot> {
    let document = client
        .get(&Location::of(&Owner::Org(org.into()), &ResourceKind::Org))
        .await?;
    let mut profiles = BTreeMap::new();
    let listed_profiles = Location::profiles_of(org);
    if let Some(listing) = client.get_listing(&listed_profiles).await? {
        let names = names(&listing, "profiles", "config/<org>/profiles.json")?;
        for name in &names {
            listed(client, &listed_profiles, NameKind::Profile, name)?;
        }
        for name in names {
            let owner = Owner::Profile {
                org: org.into(),
                name: name.clone(),
            };
            if let Some(profile) = client
                .get(&Location::of(&owner, &ResourceKind::Profile))
                .await?
            {
                profiles.insert(name, profile);
            }
        }
    }
    let listed_sites = Location::sites_of(org);
    let listing = client.get(&listed_sites).await?.ok_or_else(|| {
        anyhow!("the service has no org `{org}` (its sites listing is not found)")
    })?;
    let all = names(&listing, "sites", "config/<org>/sites.json")?;
    let selected: Vec<String> = all
        .iter()
        .filter(|name| patterns.is_empty() || patterns.iter().any(|p| glob(p, name)))
        .cloned()
        .collect();
    for pattern in patterns {
        if !all.iter().any(|name| glob(pattern, name)) {
            bail!("--site {pattern}: the service has no such site in org `{org}`");
        }
    }
    // Only the selected names become paths: `--site` leaves a site out, whatever its name.
    for name in &selected {
        listed(client, &listed_sites, NameKind::Site, name)?;
    }
    let mut sites = BTreeMap::new();
    for name in selected {
        let id = SiteId {
            org: org.into(),
            site: name.clone(),
        };
        if let Some(site) = read_site(client, &id).await? {
            sites.insert(name, site);
        }
    }
    Ok(OrgSnapshot {
        org: org.into(),
        document,
        profiles,
        sites,
    })
}

async fn read_site(client: &Client, id: &SiteId) -> Result<Option<SiteSnapshot>> {
    let Some(document) = client
        .get(&Location::of_site(id, &ResourceKind::Site))
        .await?
    else {
        return Ok(None);
    };
    let (public, listing) = (
        Location::of_site(id, &ResourceKind::Public),
        Location::secrets_of(id),
    );
    let (query, sitemap) = (
        Location::of_site(id, &ResourceKind::Query),
        Location::of_site(id, &ResourceKind::Sitemap),
    );
    let (public, secrets, query, sitemap, workers) = tokio::try_join!(
        client.get(&public).err_into(),
        client.get_listing(&listing).err_into(),
        client.get_yaml(&query).err_into(),
        client.get_yaml(&sitemap).err_into(),
        read_workers(client, id),
    )?;
    // The listing is keyed by id (`{"<id>": {…}}`); without one, the document's entries.
    let secrets = secrets
        .as_ref()
        .and_then(Value::as_object)
        .map(|listing| listing.keys().cloned().collect());
    Ok(Some(SiteSnapshot {
        document,
        public,
        secrets,
        query,
        sitemap,
        workers,
    }))
}

/// Every branch's worker entries, as the worker lists its branches; none without a worker.
async fn read_workers(client: &Client, id: &SiteId) -> Result<BTreeMap<String, Value>> {
    if client.endpoints().worker.is_none() {
        return Ok(BTreeMap::new());
    }
    let listed_branches = Location::branches_of(id);
    let Some(listing) = client.get_listing(&listed_branches).await? else {
        return Ok(BTreeMap::new());
    };
    let branches: Vec<&str> = (listing.get("branches").and_then(Value::as_array))
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    for branch in &branches {
        listed(client, &listed_branches, NameKind::Branch, branch)?;
    }
    let mut workers = BTreeMap::new();
    for branch in branches {
        let kind = ResourceKind::Worker(branch.to_string());
        if let Some(entries) = client.get(&Location::of_site(id, &kind)).await? {
            workers.insert(branch.to_string(), entries);
        }
    }
    Ok(workers)
}

/// The `key = "name"` of each item of a listing's array.
fn names(listing: &Value, array: &str, what: &str) -> Result<Vec<String>> {
    let items = listing
        .get(array)
        .and_then(Value::as_array)
        .ok_or_else(|| anyhow!("{what}: unexpected listing: no `{array}` array"))?;
    Ok(items
        .iter()
        .filter_map(|item| item.get("name").and_then(Value::as_str))
        .map(str::to_string)
        .collect())
}

/// Whether `name`, from the listing at `listing`, is a name of `kind`; else an error
/// naming the listing (by the URL asked) and the name, before the name becomes a path or a
/// URL.
fn listed(client: &Client, listing: &Location, kind: NameKind, name: &str) -> Result<()> {
    kind.check(name).map(drop).map_err(|error| {
        let at = client.url(listing).unwrap_or_else(|_| listing.path.clone());
        anyhow!(
            "the listing {at} names what is no {} name, so nothing is asked for it or written: {error}",
            kind.what()
        )
    })
}

/// Whether `name` matches `pattern`, where `*` is any run of characters and `?` one.
fn glob(pattern: &str, name: &str) -> bool {
    let (pattern, name): (Vec<char>, Vec<char>) =
        (pattern.chars().collect(), name.chars().collect());
    // The classic two-pointer match with one backtrack point.
    let (mut p, mut n, mut star, mut mark) = (0, 0, None, 0);
    while n < name.len() {
        if p < pattern.len() && (pattern[p] == '?' || pattern[p] == name[n]) {
            p += 1;
            n += 1;
        } else if p < pattern.len() && pattern[p] == '*' {
            star = Some(p);
            p += 1;
            mark = n;
        } else if let Some(s) = star {
            p = s + 1;
            mark += 1;
            n = mark;
        } else {
            return false;
        }
    }
    pattern[p..].iter().all(|&c| c == '*')
}

#[cfg(test)]
mod tests {
    use super::glob;

    #[test]
    fn globs_match_names() {
        assert!(glob("website", "website"));
        assert!(glob("web*", "website-prod"));
        assert!(glob("*-prod", "website-prod"));
        assert!(glob("b?og", "blog"));
        assert!(glob("*", "blog"));
        assert!(!glob("web*", "blog"));
        assert!(!glob("website", "website-prod"));
        assert!(!glob("*-prod", "blog"));
    }
}
