//! Import: the documents a live administration service holds for an org (its own
//! document, profiles, sites with their public, index and sitemap configurations and
//! secret ids) turned into the repository files `validate` reads, as TOML text. Pure: the
//! caller reads the service and writes the files.
//!
//! What the service stamps (`created`, `lastModified`, `contentBusId`, a secret's `hash`)
//! or mints (`apiKeys` of a profile, the deprecated `tokens`) is not written; a site's
//! minted API keys, and the secrets the service made (answered as hashed), are written as
//! declarations of what the service makes (`made = "service"`), named by the keys'
//! descriptions. Secret values are never answered: each other secret, and each CDN purge
//! credential, becomes an environment reference with a derived name ([`env_name`]). A site
//! whose code is another's (repoless: the same code block, without `secretId`) is written
//! with `base = "<site>"` instead of a `[code]` block ([`bases`]), so the files compile to
//! the same bodies.

use std::collections::BTreeMap;

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::model::api::{AccessConfig, CdnConfig, PublicConfig, QueryConfig, SitemapConfig};
use crate::model::files::{
    API_KEY_NAME_PATTERN, EnvRef, MadeApiKey, MadeBy, OrgFile, ProfileFile, SecretSource,
    SecretsFile, SiteFile, TransformEntryFile, TransformFile,
};
use crate::rules::{NameError, NameKind};

#[cfg(test)]
mod tests;

/// What the service holds for one org, as its documents answer.
#[derive(Debug, Clone, Default)]
pub struct OrgSnapshot {
    pub org: String,
    /// `config/<org>.json`, when the org has one.
    pub document: Option<Value>,
    /// Profile name -> its document.
    pub profiles: BTreeMap<String, Value>,
    /// Site name -> what the service holds for it.
    pub sites: BTreeMap<String, SiteSnapshot>,
}

/// What the service holds for one site.
#[derive(Debug, Clone, Default)]
pub struct SiteSnapshot {
    /// `config/<org>/sites/<site>.json`.
    pub document: Value,
    /// `…/public.json`, when read apart (else the document's `public`).
    pub public: Option<Value>,
    /// The ids of the site's secrets (else the keys of the document's `secrets`).
    pub secrets: Option<Vec<String>>,
    /// `…/content/query.yaml`, as data.
    pub query: Option<Value>,
    /// `…/content/sitemap.yaml`, as data.
    pub sitemap: Option<Value>,
    /// Branch -> the worker's entries for it (`config/<org>/<site>/<branch>`), when the
    /// worker was read.
    pub workers: BTreeMap<String, Value>,
}

/// One file to write, by path relative to the repository root (`/`-separated).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportedFile {
    pub path: String,
    pub text: String,
}

/// The files of an org, and what could not be written (each a sentence).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Imported {
    pub files: Vec<ImportedFile>,
    pub notes: Vec<String>,
    /// The templates the imported worker entries name, which live in the site's code, not
    /// on the services: validation looks for them in the site's directory. Sorted by path.
    pub templates: Vec<TemplateFile>,
}

/// A template a worker entry names: where the repository keeps it, and where it is in the
/// site's code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TemplateFile {
    /// `sites/<org>/<site>/templates/…`.
    pub path: String,
    pub site: String,
    /// The branch whose entries name it (`main` when several do).
    pub branch: String,
    /// The entry's `template`, a path of the site's code (`/templates/product.html`).
    pub template: String,
}

/// A document the import cannot write as files: which, where, and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{document}: `{field}`: {message}")]
pub struct ImportError {
    /// The service's path of the document (`config/acme/sites/web.json`).
    pub document: String,
    /// The field, as a dotted path (`cdn.prod`), or `(document)` for the whole.
    pub field: String,
    pub message: String,
}

/// The environment variable a secret's value is read from: the parts, upper case, joined
/// by `_`, every character but letters and digits turned into `_`
/// (`["acme", "website", "git-sync"]` → `ACME_WEBSITE_GIT_SYNC`).
pub fn env_name(parts: &[&str]) -> String {
    let mut name: String = parts
        .join("_")
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_uppercase()
            } else {
                '_'
            }
        })
        .collect();
    if name.starts_with(|c: char| c.is_ascii_digit()) {
        name.insert(0, '_');
    }
    name
}

/// Fields the service stamps or mints on every document; never written.
const STAMPED: [&str; 2] = ["created", "lastModified"];

/// The keys a `site.toml` takes besides `base` and `environment`, which the service has
/// no word for.
const SITE_KEYS: [&str; 17] = [
    "version",
    "code",
    "content",
    "title",
    "description",
    "extends",
    "folders",
    "headers",
    "cdn",
    "groups",
    "sidekick",
    "metadata",
    "robots",
    "editor",
    "events",
    "features",
    "limits",
];

/// The files of `snapshot`'s org: `sites/<org>/org.toml`, `<name>.profile.toml`, and for
/// each site `site.toml` and, where the service holds them, `access.toml`, `public.toml`,
/// `secrets.toml`, `query.toml` and `sitemap.toml`. Sorted by path. Every org, profile,
/// site and branch name is checked against the platform's rule for it ([`NameKind`])
/// before it becomes a path: a snapshot naming one that is not (`..`, `a/b`) is an error
/// naming the listing it came from, and gives no file.
pub fn import(snapshot: &OrgSnapshot) -> Result<Imported, ImportError> {
    let org = &snapshot.org;
    check_names(snapshot)?;
    let mut out = Imported::default();
    if let Some(document) = &snapshot.document {
        let path = format!("sites/{org}/org.toml");
        let text = org_file(org, document, &mut out.notes)?;
        out.files.push(ImportedFile { path, text });
    }
    for (name, document) in &snapshot.profiles {
        let path = format!("sites/{org}/{name}.profile.toml");
        let text = profile_file(org, name, document, &mut out.notes)?;
        out.files.push(ImportedFile { path, text });
    }
    let bases = bases(snapshot);
    for (name, site) in &snapshot.sites {
        let base = bases.get(name).map(String::as_str);
        site_files(org, name, site, base, &mut out)?;
    }
    out.files.sort_by(|a, b| a.path.cmp(&b.path));
    out.templates.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(out)
}

/// Site name -> the site whose code it shares (repoless), of `snapshot`'s sites. Sites
/// whose code blocks are equal but for `code.source.secretId` share one repository; the
/// one that names the secret (else the one named as the repository, else the first by
/// name) keeps its `[code]`, and each other is written as sharing it: `base` compiles to
/// the base's code without `secretId`, which is what such a site holds. A site that holds
/// an index or sitemap configuration keeps its own code (those are a primary site's), as
/// does a site with a `secretId` of its own.
fn bases(snapshot: &OrgSnapshot) -> BTreeMap<String, String> {
    fn code(site: &SiteSnapshot) -> Option<&Value> {
        site.document.get("code").filter(|c| c.is_object())
    }
    let secret_id = |code: &Value| code.pointer("/source/secretId").is_some();
    let mut groups: BTreeMap<String, Vec<&str>> = BTreeMap::new();
    for (name, site) in &snapshot.sites {
        let Some(code) = code(site) else { continue };
        let mut shared = code.clone();
        if let Some(Value::Object(source)) = shared.get_mut("source") {
            source.remove("secretId");
        }
        groups.entry(shared.to_string()).or_default().push(name);
    }
    let mut out = BTreeMap::new();
    for members in groups.values().filter(|members| members.len() > 1) {
        let site = |name: &str| &snapshot.sites[name];
        let carriers: Vec<&str> = (members.iter().copied())
            .filter(|name| code(site(name)).is_some_and(secret_id))
            .collect();
        let repo = |name: &str| {
            code(site(name))
                .and_then(|c| c.get("repo"))
                .and_then(Value::as_str)
                == Some(name)
        };
        let primary = match carriers.as_slice() {
            [one] => *one,
            [] => (members.iter().copied())
                .find(|name| repo(name))
                .unwrap_or(members[0]),
            // Several name a secret: none is another's.
            _ => continue,
        };
        for &name in members {
            let own_yaml = site(name).query.is_some() || site(name).sitemap.is_some();
            if name != primary && !own_yaml && !carriers.contains(&name) {
                out.insert(name.to_string(), primary.to_string());
            }
        }
    }
    out
}

/// Every name of `snapshot` that becomes a path, each a name of its kind; else the first
/// that is not, named with the listing that gave it.
fn check_names(snapshot: &OrgSnapshot) -> Result<(), ImportError> {
    let org = &snapshot.org;
    let refused = |document: String, field: &str, error: NameError| ImportError {
        document,
        field: field.to_string(),
        message: error.to_string(),
    };
    let sites = || crate::api_path::sites(org);
    NameKind::Org
        .check(org)
        .map_err(|e| refused(sites(), "(org)", e))?;
    for name in snapshot.profiles.keys() {
        NameKind::Profile
            .check(name)
            .map_err(|e| refused(crate::api_path::profiles(org), "profiles", e))?;
    }
    for (name, site) in &snapshot.sites {
        NameKind::Site
            .check(name)
            .map_err(|e| refused(sites(), "sites", e))?;
        for branch in site.workers.keys() {
            NameKind::Branch.check(branch).map_err(|e| {
                let listing = crate::api_path::worker_branches(org, name);
                refused(format!("transform: {listing}"), "branches", e)
            })?;
        }
    }
    Ok(())
}

/// The JSON schemas that the `#:schema` lines of `files` name, as `schemas/files/…`
/// files beside them (what `siteops schema` writes there), so that an editor finds each
/// one offline in the imported repository. A line naming no schema siteops publishes is
/// left alone.
pub fn schema_files(files: &[ImportedFile]) -> Vec<ImportedFile> {
    let mut out: Vec<ImportedFile> = Vec::new();
    for file in files {
        let Some(named) = (file.text.lines().next())
            .and_then(|line| line.strip_prefix("#:schema "))
            .and_then(|target| resolve(&file.path, target.trim()))
        else {
            continue;
        };
        let kind = (crate::schema::SchemaKind::ALL.iter())
            .find(|kind| format!("schemas/{}", kind.file_name()) == named);
        if let Some(kind) = kind
            && !out.iter().any(|known| known.path == named)
        {
            let text = crate::compile::pretty(&kind.generate());
            out.push(ImportedFile { path: named, text });
        }
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    out
}

/// `target`, relative to the directory of the repository file `from`, as a path from the
/// root; `None` when it leaves the root or is absolute.
pub fn resolve(from: &str, target: &str) -> Option<String> {
    if target.starts_with('/') || target.contains("://") {
        return None;
    }
    let mut parts: Vec<&str> = from.split('/').collect();
    parts.pop();
    for part in target.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            other => parts.push(other),
        }
    }
    Some(parts.join("/"))
}

/// A `siteops.toml` for a repository that has none: no settings (URLs are written out).
pub fn settings_file() -> String {
    with_header(
        "./schemas/files/siteops.toml.schema.json",
        "Settings shared by every site of this repository. Site files write the worker's\n# address out; `transform_url = \"…\"` here and `{transform_url}` in them name it once.",
        "",
    )
}

fn org_file(org: &str, document: &Value, notes: &mut Vec<String>) -> Result<String, ImportError> {
    let at = crate::api_path::org(org);
    let mut map = object(&at, document)?;
    strip(&mut map, &STAMPED);
    drop_version(&at, &mut map)?;
    if map.remove("tokens").is_some() {
        notes.push(format!(
            "{at}: the deprecated `tokens` are the service's, not written"
        ));
    }
    let mut secrets = Map::new();
    if let Some(entries) = map.remove("secrets") {
        let entries = object(&at, &entries).map_err(|e| ImportError {
            field: "secrets".into(),
            ..e
        })?;
        for (id, entry) in entries {
            match entry.get("type").and_then(Value::as_str) {
                Some("key") => {
                    let env = EnvRef {
                        env: env_name(&[org, &id]),
                    };
                    secrets.insert(id, serde_json::to_value(env).expect("serializes"));
                }
                Some("hashed") => notes.push(format!(
                    "{at}: secret `{id}` is hashed (made on the service): not written; its value cannot be read back"
                )),
                other => {
                    return Err(ImportError {
                        document: at,
                        field: format!("secrets.{id}.type"),
                        message: format!("expected \"key\" or \"hashed\", found {other:?}"),
                    });
                }
            }
        }
    }
    if !secrets.is_empty() {
        map.insert("secrets".into(), Value::Object(secrets));
    }
    let file: OrgFile = typed(&at, map)?;
    Ok(with_header(
        "../../schemas/files/org.toml.schema.json",
        &format!("The {org} org, imported from the service's {at}."),
        &toml_text(&at, &file)?,
    ))
}

fn profile_file(
    org: &str,
    name: &str,
    document: &Value,
    notes: &mut Vec<String>,
) -> Result<String, ImportError> {
    let at = crate::api_path::profile(org, name);
    let mut map = object(&at, document)?;
    strip(&mut map, &STAMPED);
    drop_version(&at, &mut map)?;
    for minted in ["apiKeys", "tokens", "secrets"] {
        if map.remove(minted).is_some() {
            notes.push(format!("{at}: `{minted}` is the service's, not written"));
        }
    }
    strip_content_bus(&mut map);
    credentials(&at, &mut map, &[org, "profile", name])?;
    let mut file: ProfileFile = typed(&at, map)?;
    file.access = file.access.map(AccessConfig::readable_form);
    Ok(with_header(
        "../../schemas/files/profile.toml.schema.json",
        &format!("Profile `{name}`, imported from the service's {at}."),
        &toml_text(&at, &file)?,
    ))
}

fn site_files(
    org: &str,
    name: &str,
    site: &SiteSnapshot,
    base: Option<&str>,
    out: &mut Imported,
) -> Result<(), ImportError> {
    let at = crate::api_path::site(org, name);
    let dir = format!("sites/{org}/{name}");
    let mut map = object(&at, &site.document)?;
    strip(&mut map, &STAMPED);
    // The name is the directory's; keys and tokens are minted by the service.
    map.remove("name");
    if map.remove("tokens").is_some() {
        out.notes.push(format!(
            "{at}: `tokens` is minted by the service, not written"
        ));
    }
    let api_keys = map
        .remove("apiKeys")
        .map(|keys| made_api_keys(&at, &keys, &mut out.notes));
    let listed_secrets = map.remove("secrets");
    let public = site.public.clone().or(map.remove("public"));
    map.remove("public");
    let access = map.remove("access");
    strip_content_bus(&mut map);
    credentials(&at, &mut map, &[org, name])?;
    if let Some(key) = map.keys().find(|key| !SITE_KEYS.contains(&key.as_str())) {
        return Err(ImportError {
            document: at,
            field: key.clone(),
            message: "not a field of a site document that siteops writes".into(),
        });
    }
    let mut file: SiteFile = typed(&at, map)?;
    file.api_keys = api_keys.unwrap_or_default();
    if let Some(base) = base {
        file.code = None;
        file.base = Some(base.to_string());
    }
    let schema = |file: &str| format!("../../../schemas/files/{file}.schema.json");
    let imported = format!("Imported from the service's {at}.");
    let mut push = |file: &str, text: String| {
        out.files.push(ImportedFile {
            path: format!("{dir}/{file}"),
            text,
        });
    };
    push(
        "site.toml",
        with_header(&schema("site.toml"), &imported, &toml_text(&at, &file)?),
    );
    if let Some(access) = access {
        // Group references as the repository writes them, the bare id.
        let access = typed_value::<AccessConfig>(&at, "access", access)?.readable_form();
        push(
            "access.toml",
            with_header(&schema("access.toml"), &imported, &toml_text(&at, &access)?),
        );
    }
    if let Some(public) = public {
        let at = crate::api_path::site_part(org, name, "public");
        let public: PublicConfig = typed_value(&at, "(document)", public)?;
        let header = format!("Imported from the service's {at}.");
        push(
            "public.toml",
            with_header(&schema("public.toml"), &header, &toml_text(&at, &public)?),
        );
    }
    let ids: Vec<String> = match (&site.secrets, &listed_secrets) {
        (Some(ids), _) => ids.clone(),
        (None, Some(Value::Object(entries))) => entries.keys().cloned().collect(),
        _ => Vec::new(),
    };
    // The service made the secrets it answers as hashed: their values were answered once,
    // to whoever asked it to make them.
    let made = |id: &str| {
        listed_secrets
            .as_ref()
            .and_then(|entries| entries.get(id))
            .and_then(|entry| entry.get("type"))
            .and_then(Value::as_str)
            == Some("hashed")
    };
    if !ids.is_empty() {
        let secrets: SecretsFile = ids
            .iter()
            .map(|id| {
                let source = if made(id) {
                    SecretSource::made()
                } else {
                    SecretSource::env(env_name(&[org, name, id]))
                };
                (id.clone(), source)
            })
            .collect();
        push(
            "secrets.toml",
            with_header(
                &schema("secrets.toml"),
                "Secret values are never answered: set each variable to the secret's value\n# before `siteops apply` (an existing secret is left alone unless --replace-secret);\n# the service makes those with `made = \"service\"`.",
                &toml_text(&at, &secrets)?,
            ),
        );
    }
    let mut keys = TemplateKeys::default();
    let mut templates: Vec<TemplateFile> = Vec::new();
    for (branch, entries) in &site.workers {
        let at = format!(
            "transform: {}",
            crate::api_path::worker_branch(org, name, branch)
        );
        let file = transform_file(&at, entries, &mut keys, &[org, name])?;
        for template in file.entry.iter().filter_map(|e| e.template.as_deref()) {
            let path = format!("{dir}{template}");
            // Only a path inside the site's directory is one to copy there (the caller
            // looks for it under the root); `/../x` is left to validation, which reports
            // it missing.
            let inside = !template.split('/').any(|part| part == ".." || part == ".");
            if !template.starts_with('/') || !inside {
                continue;
            }
            match templates.iter_mut().find(|known| known.path == path) {
                // The worker reads a branch's template, else main's: main's is the one.
                Some(known) if branch == "main" => known.branch = branch.clone(),
                Some(_) => {}
                None => templates.push(TemplateFile {
                    path,
                    site: name.to_string(),
                    branch: branch.clone(),
                    template: template.to_string(),
                }),
            }
        }
        let header = format!(
            "The worker's entries for branch `{branch}`, imported from its {}.",
            crate::api_path::worker_branch(org, name, branch)
        );
        push(
            &format!("transform/{branch}.toml"),
            with_header(
                "../../../../schemas/files/transform.toml.schema.json",
                &header,
                &toml_text(&at, &file)?,
            ),
        );
    }
    for (file, value, part) in [
        ("query.toml", &site.query, "query"),
        ("sitemap.toml", &site.sitemap, "sitemap"),
    ] {
        let Some(value) = value else { continue };
        let at = crate::api_path::site_yaml(org, name, part);
        let header = format!("Imported from the service's {at}.");
        let text = if part == "query" {
            toml_text(
                &at,
                &typed_value::<QueryConfig>(&at, "(document)", value.clone())?,
            )?
        } else {
            toml_text(
                &at,
                &typed_value::<SitemapConfig>(&at, "(document)", value.clone())?,
            )?
        };
        push(file, with_header(&schema(file), &header, &text));
    }
    out.templates.extend(templates);
    Ok(())
}

/// The variables the worker entries' `templateApiKey`s are read from: one per distinct
/// key of a site (`ACME_WEBSITE_TEMPLATE_API_KEY`, then `…_2`), since values are compared,
/// never written.
#[derive(Default)]
struct TemplateKeys(Vec<String>);

impl TemplateKeys {
    fn variable(&mut self, owner: &[&str], value: &str) -> String {
        let index = match self.0.iter().position(|known| known == value) {
            Some(index) => index,
            None => {
                self.0.push(value.to_string());
                self.0.len() - 1
            }
        };
        let mut parts = owner.to_vec();
        parts.push("template-api-key");
        let name = env_name(&parts);
        match index {
            0 => name,
            n => format!("{name}_{}", n + 1),
        }
    }
}

/// A branch's worker entries as a `transform/<branch>.toml`: the entries as the worker
/// holds them, each `templateApiKey` an environment reference.
fn transform_file(
    at: &str,
    entries: &Value,
    keys: &mut TemplateKeys,
    owner: &[&str],
) -> Result<TransformFile, ImportError> {
    let Value::Array(entries) = entries else {
        return Err(ImportError {
            document: at.to_string(),
            field: "(document)".into(),
            message: format!("expected an array of entries, found {}", kind_of(entries)),
        });
    };
    let entry = entries
        .iter()
        .enumerate()
        .map(|(index, entry)| {
            let mut entry = object(at, entry)?;
            if let Some(key) = entry.remove("templateApiKey") {
                let value = key.as_str().unwrap_or_default();
                let env = EnvRef {
                    env: keys.variable(owner, value),
                };
                let env = serde_json::to_value(env).expect("serializes");
                entry.insert("templateApiKey".into(), env);
            }
            typed_value(at, &index.to_string(), Value::Object(entry))
        })
        .collect::<Result<Vec<TransformEntryFile>, ImportError>>()?;
    Ok(TransformFile { entry })
}

/// A document's minted API keys as declarations (`made = "service"`), each named by the
/// `description` the service recorded; a key whose description cannot name it (none, not
/// a name, or shared with another key) is left out, with a note.
fn made_api_keys(
    at: &str,
    records: &Value,
    notes: &mut Vec<String>,
) -> BTreeMap<String, MadeApiKey> {
    let mut out = BTreeMap::new();
    let mut shared = Vec::new();
    let records = records.as_object().into_iter().flat_map(|r| r.iter());
    for (key, record) in records {
        let roles: Vec<String> = (record.get("roles").and_then(Value::as_array))
            .map(|roles| {
                roles
                    .iter()
                    .filter_map(Value::as_str)
                    .map(str::to_string)
                    .collect()
            })
            .unwrap_or_default();
        let name = record.get("description").and_then(Value::as_str);
        match name.filter(|name| is_key_name(name)) {
            Some(name) if !roles.is_empty() => {
                let declared = MadeApiKey {
                    made: MadeBy::Service,
                    roles,
                };
                if out.insert(name.to_string(), declared).is_some() {
                    shared.push(name.to_string());
                }
            }
            _ => notes.push(format!(
                "{at}: API key `{key}` is not written: its description does not name it (letters, digits, `-`, `_`) or it has no roles"
            )),
        }
    }
    for name in shared {
        out.remove(&name);
        notes.push(format!(
            "{at}: API keys described `{name}` are not written: more than one key has that description"
        ));
    }
    out
}

/// Whether `name` matches [`API_KEY_NAME_PATTERN`], `^[a-zA-Z0-9-_]+$`.
fn is_key_name(name: &str) -> bool {
    debug_assert_eq!(API_KEY_NAME_PATTERN, "^[a-zA-Z0-9-_]+$");
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

fn object(at: &str, value: &Value) -> Result<Map<String, Value>, ImportError> {
    match value {
        Value::Object(map) => Ok(map.clone()),
        other => Err(ImportError {
            document: at.to_string(),
            field: "(document)".into(),
            message: format!("expected an object, found {}", kind_of(other)),
        }),
    }
}

fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn strip(map: &mut Map<String, Value>, fields: &[&str]) {
    for field in fields {
        map.remove(*field);
    }
}

/// `version = 1`, which the service stamps on a document that has none, is no setting of
/// an org or profile file (they have no `version`); another version is not understood.
fn drop_version(at: &str, map: &mut Map<String, Value>) -> Result<(), ImportError> {
    match map.remove("version") {
        None => Ok(()),
        Some(version) if version == 1 => Ok(()),
        Some(other) => Err(ImportError {
            document: at.to_string(),
            field: "version".into(),
            message: format!("expected 1, found {other}"),
        }),
    }
}

/// The content bus the platform gave the site.
fn strip_content_bus(map: &mut Map<String, Value>) {
    if let Some(Value::Object(content)) = map.get_mut("content") {
        content.remove("contentBusId");
    }
}

/// `cdn.prod`'s credentials as environment references named after `owner` and the
/// credential (`ACME_WEBSITE_CDN_AUTHTOKEN`).
fn credentials(at: &str, map: &mut Map<String, Value>, owner: &[&str]) -> Result<(), ImportError> {
    let Some(cdn) = map.remove("cdn") else {
        return Ok(());
    };
    let cdn: CdnConfig = typed_value(at, "cdn", cdn)?;
    let cdn = cdn
        .map_credentials(|credential, _value| {
            let mut parts = owner.to_vec();
            parts.extend(["cdn", credential]);
            Ok::<_, std::convert::Infallible>(EnvRef {
                env: env_name(&parts),
            })
        })
        .unwrap_or_else(|never| match never {});
    map.insert(
        "cdn".into(),
        serde_json::to_value(cdn).expect("a CDN block serializes"),
    );
    Ok(())
}

/// The map as `T`; on failure, the first top-level field that fails alone is named.
fn typed<T: DeserializeOwned>(at: &str, map: Map<String, Value>) -> Result<T, ImportError> {
    match serde_json::from_value(Value::Object(map.clone())) {
        Ok(typed) => Ok(typed),
        Err(error) => {
            let field = map
                .iter()
                .find(|(key, value)| {
                    let alone = Map::from_iter([((*key).clone(), (*value).clone())]);
                    serde_json::from_value::<T>(Value::Object(alone)).is_err()
                })
                .map_or_else(|| "(document)".to_string(), |(key, _)| key.clone());
            Err(ImportError {
                document: at.to_string(),
                field,
                message: error.to_string(),
            })
        }
    }
}

fn typed_value<T: DeserializeOwned>(at: &str, field: &str, value: Value) -> Result<T, ImportError> {
    serde_json::from_value(value).map_err(|error| ImportError {
        document: at.to_string(),
        field: field.to_string(),
        message: error.to_string(),
    })
}

/// TOML text of a file type.
fn toml_text(at: &str, value: &impl Serialize) -> Result<String, ImportError> {
    toml::to_string(value).map_err(|error| ImportError {
        document: at.to_string(),
        field: "(document)".into(),
        message: format!("cannot be written as TOML: {error}"),
    })
}

/// The `#:schema` line, a comment, then the body.
fn with_header(schema: &str, comment: &str, body: &str) -> String {
    let mut text = format!("#:schema {schema}\n# {comment}\n");
    if !body.is_empty() {
        text.push_str(body);
    }
    text
}

/// A document's code source as the newer path family answers it, read back as the
/// interface names it. The platform's code schema has one type, `github`, and tells an
/// external repository by its URL host (the bundled service answers the interface's
/// `byogit` so): a `github` source whose URL is not on github.com is `byogit` again.
pub fn external_code_as_byogit(document: &mut Value) {
    let Some(source) = document.pointer_mut("/code/source") else {
        return;
    };
    let external = source
        .get("url")
        .and_then(Value::as_str)
        .is_some_and(|url| {
            url::Url::parse(url)
                .ok()
                .and_then(|url| url.host_str().map(str::to_ascii_lowercase))
                .is_none_or(|host| host != "github.com" && host != "www.github.com")
        });
    if external && source.get("type").and_then(Value::as_str) == Some("github") {
        source["type"] = Value::String("byogit".into());
    }
}

#[cfg(test)]
mod newer_family_code {
    use serde_json::json;

    use super::external_code_as_byogit;

    #[test]
    fn a_github_source_off_github_com_reads_as_byogit() {
        let mut external = json!({"code": {"source": {"type": "github", "url": "https://git.acme.example/acme/web", "raw_url": "https://raw.git.acme.example/acme/web"}}});
        external_code_as_byogit(&mut external);
        assert_eq!(external["code"]["source"]["type"], "byogit");
        let hosted =
            json!({"code": {"source": {"type": "github", "url": "https://github.com/acme/web"}}});
        let mut read = hosted.clone();
        external_code_as_byogit(&mut read);
        assert_eq!(read, hosted);
        let mut codeless = json!({"title": "no code"});
        external_code_as_byogit(&mut codeless);
        assert_eq!(codeless, json!({"title": "no code"}));
    }
}
