//! Compilation: the validated [`Fleet`] to the exact JSON bodies of the administration API
//! and the worker. Pure: secret values come from a caller-supplied lookup (the process
//! environment at the edge, a map in tests), or are redacted.
//!
//! Every resource has an [`Owner`]: the org (its own document), a profile, or a site (its
//! document and sub-resources). Output is deterministic: resources sorted by path, object
//! keys sorted.

use std::fmt;

use serde::Serialize;
use serde_json::Value;

use crate::diagnostic::{Code, Diagnostic};
use crate::model::api::{AccessConfig, CDN_CREDENTIALS, CdnConfig};
use crate::model::{Fleet, Org, Profile, Sensitive, Site, SiteId};

/// What secret values become in the output.
pub enum Secrets<'a> {
    /// Read each value with this lookup (by environment variable name).
    Lookup(&'a (dyn Fn(&str) -> Option<String> + Sync)),
    /// Read each value with `lookup`; where it has none, take `stand_in`'s value for that
    /// use instead of failing. What `serve` does for variables that are not set: the
    /// stand-in must grant nothing beyond what the secret stands for.
    StandIn {
        lookup: &'a (dyn Fn(&str) -> Option<String> + Sync),
        stand_in: &'a (dyn Fn(&SecretUse<'_>) -> String + Sync),
    },
    /// Write [`REDACTED`] instead; needs no values.
    Redacted,
}

/// What a secret value is for, so that a stand-in can be made for exactly that.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SecretUse<'a> {
    /// A named secret of a site (e.g. a code sync secret) or of the org (site
    /// authentication's `secretId`).
    Secret { owner: &'a Owner, id: &'a str },
    /// A worker entry's `templateApiKey`: reads the templates of `site`.
    TemplateApiKey { site: &'a SiteId },
    /// A credential of a site's or profile's production CDN (`authToken`…), for purging it.
    CdnCredential { owner: &'a Owner, name: &'a str },
}

/// Whose a resource is: the org's own document, a profile, or a site's.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Owner {
    Org(String),
    Profile { org: String, name: String },
    Site(SiteId),
}

impl Owner {
    pub fn org(&self) -> &str {
        match self {
            Owner::Org(org) | Owner::Profile { org, .. } => org,
            Owner::Site(site) => &site.org,
        }
    }

    /// The site, for a site's resource.
    pub fn site(&self) -> Option<&SiteId> {
        match self {
            Owner::Site(site) => Some(site),
            _ => None,
        }
    }

    /// The kind of the owner's own document (the org's, a profile's, a site's).
    pub fn document_kind(&self) -> ResourceKind {
        match self {
            Owner::Org(_) => ResourceKind::Org,
            Owner::Profile { .. } => ResourceKind::Profile,
            Owner::Site(_) => ResourceKind::Site,
        }
    }
}

impl fmt::Display for Owner {
    /// `acme` (the org), `acme/profiles/repoless` (a profile), `acme/web` (a site).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Owner::Org(org) => f.write_str(org),
            Owner::Profile { org, name } => write!(f, "{org}/profiles/{name}"),
            Owner::Site(site) => site.fmt(f),
        }
    }
}

/// The stand-in for a secret value in redacted output.
pub const REDACTED: &str = "(sensitive)";

/// The body of a secret the service makes (`made = "service"`): no value, which the service
/// chooses and answers once, to the request that makes it.
pub fn made_secret() -> Value {
    serde_json::json!({ "made": "service" })
}

/// One document the service takes, addressed as the API addresses it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ResourceKind {
    /// The org's document (owner: the org).
    Org,
    /// A profile's document (owner: the profile).
    Profile,
    /// A site's document; the kinds below are its sub-resources (owner: the site).
    Site,
    Public,
    Access,
    Code,
    /// A secret: its value (`{"value"}`), or [`made_secret`]'s body for one the service
    /// makes.
    Secret(String),
    /// An admin API key the service mints, by name (the `description` it records); the
    /// body is what the mint request sends, `{"description", "roles"}`.
    ApiKey(String),
    /// The worker configuration of one branch.
    Worker(String),
    /// The index configuration, `content/query.yaml`: kept as YAML by the service.
    Query,
    /// The sitemap configuration, `content/sitemap.yaml`: kept as YAML by the service.
    Sitemap,
}

impl ResourceKind {
    /// Whether the service keeps bodies of this kind as YAML text (sent as `text/yaml`,
    /// answered as YAML): the body is the data, [`Resource::text`] the text.
    pub fn is_yaml(&self) -> bool {
        matches!(self, ResourceKind::Query | ResourceKind::Sitemap)
    }

    /// Whether the value at `pointer` (JSON pointer segments) in a body of this kind is a
    /// secret value: a secret's `value` (of `secrets/<id>.json`, or of an org document's
    /// `secrets` entry), an entry's `templateApiKey`, a CDN credential.
    pub fn is_secret_at(&self, pointer: &[String]) -> bool {
        match (self, pointer) {
            (ResourceKind::Org, [secrets, _, field]) => secrets == "secrets" && field == "value",
            (ResourceKind::Site | ResourceKind::Profile, [cdn, prod, field]) => {
                cdn == "cdn" && prod == "prod" && CDN_CREDENTIALS.contains(&field.as_str())
            }
            (ResourceKind::Secret(_), [field]) => field == "value",
            (ResourceKind::Worker(_), [index, field]) => {
                field == "templateApiKey" && index.parse::<usize>().is_ok()
            }
            _ => false,
        }
    }
}

/// `value`, found at `pointer` in a body of `kind`, with every secret value in it replaced
/// by [`REDACTED`]. What every output that shows bodies (plans, reports) prints.
pub fn mask_at(kind: &ResourceKind, pointer: &mut Vec<String>, value: &Value) -> Value {
    if kind.is_secret_at(pointer) {
        return Value::String(REDACTED.to_string());
    }
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(key, item)| {
                    pointer.push(key.clone());
                    let masked = mask_at(kind, pointer, item);
                    pointer.pop();
                    (key.clone(), masked)
                })
                .collect(),
        ),
        Value::Array(items) => Value::Array(
            items
                .iter()
                .enumerate()
                .map(|(index, item)| {
                    pointer.push(index.to_string());
                    let masked = mask_at(kind, pointer, item);
                    pointer.pop();
                    masked
                })
                .collect(),
        ),
        other => other.clone(),
    }
}

/// A whole body of `kind` with its secret values masked.
pub fn masked(kind: &ResourceKind, body: &Value) -> Value {
    mask_at(kind, &mut Vec::new(), body)
}

#[derive(Clone, PartialEq)]
pub struct Resource {
    pub owner: Owner,
    pub kind: ResourceKind,
    pub body: Value,
}

impl fmt::Debug for Resource {
    // Bodies may hold secret values: a debug print shows only the address.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Resource({})", self.path())
    }
}

impl Resource {
    /// Path of the body in `siteops compile --out`, mirroring the API paths.
    pub fn path(&self) -> String {
        crate::api_path::Location::of(&self.owner, &self.kind).compile_path()
    }

    /// The site, for a site's resource.
    pub fn site(&self) -> Option<&SiteId> {
        self.owner.site()
    }

    /// The body as the service takes it: YAML for the kinds it keeps as YAML, else
    /// [`pretty`] JSON. What `siteops compile --out` writes.
    pub fn text(&self) -> String {
        if self.kind.is_yaml() {
            crate::document::to_yaml(&self.body)
        } else {
            pretty(&self.body)
        }
    }

    /// The secret values the body holds, for masking (`::add-mask::`) and scrubbing.
    pub fn secret_values(&self) -> Vec<&str> {
        let values: Vec<&Value> = match (&self.kind, &self.body) {
            (ResourceKind::Secret(_), body) => body.get("value").into_iter().collect(),
            (ResourceKind::Site | ResourceKind::Profile, body) => CDN_CREDENTIALS
                .iter()
                .filter_map(|name| body.pointer(&format!("/cdn/prod/{name}")))
                .collect(),
            (ResourceKind::Org, body) => body
                .get("secrets")
                .and_then(Value::as_object)
                .into_iter()
                .flat_map(|secrets| secrets.values())
                .filter_map(|entry| entry.get("value"))
                .collect(),
            (ResourceKind::Worker(_), Value::Array(entries)) => entries
                .iter()
                .filter_map(|e| e.get("templateApiKey"))
                .collect(),
            _ => Vec::new(),
        };
        values.into_iter().filter_map(Value::as_str).collect()
    }

    /// Whether the service makes the resource's value (a made secret, an API key): apply
    /// asks it to, once, and the value is answered then only.
    pub fn is_made(&self) -> bool {
        is_made(&self.kind, &self.body)
    }

    /// Whether the body holds a secret value (a secret, a credential, or a worker key), or
    /// the service makes one ([`Resource::is_made`]).
    pub fn is_sensitive(&self) -> bool {
        match &self.kind {
            ResourceKind::Secret(_) | ResourceKind::ApiKey(_) => true,
            ResourceKind::Site | ResourceKind::Profile | ResourceKind::Org => {
                !self.secret_values().is_empty()
            }
            ResourceKind::Worker(_) => self
                .body
                .as_array()
                .is_some_and(|entries| entries.iter().any(|e| e.get("templateApiKey").is_some())),
            _ => false,
        }
    }
}

/// Whether a body of `kind` asks the service to make the value ([`Resource::is_made`]).
pub fn is_made(kind: &ResourceKind, body: &Value) -> bool {
    match kind {
        ResourceKind::ApiKey(_) => true,
        ResourceKind::Secret(_) => *body == made_secret(),
        _ => false,
    }
}

/// Every resource of the fleet, sorted by path.
#[derive(Debug, Clone, Default)]
pub struct Compiled {
    pub resources: Vec<Resource>,
}

impl Compiled {
    /// `{path: body}`, the form `siteops compile` prints.
    pub fn to_json(&self) -> Value {
        Value::Object(
            self.resources
                .iter()
                .map(|r| (r.path(), r.body.clone()))
                .collect(),
        )
    }
}

/// Compiles every org document, profile and site. Fails with one diagnostic per secret
/// value that cannot be read.
pub fn compile(fleet: &Fleet, secrets: &Secrets<'_>) -> Result<Compiled, Vec<Diagnostic>> {
    use rayon::prelude::*;
    let compiler = || Compiler {
        secrets,
        resources: Vec::new(),
        problems: Vec::new(),
    };
    let mut documents = compiler();
    for org in &fleet.orgs {
        documents.org(org);
    }
    for profile in &fleet.profiles {
        documents.profile(profile);
    }
    // Each site on its own, on every core; merged in the sites' order.
    let compiled: Vec<Compiler<'_>> = fleet
        .sites
        .par_iter()
        .map(|site| {
            let mut compiler = compiler();
            compiler.site(site);
            compiler
        })
        .collect();
    let mut resources = Vec::new();
    let mut problems = Vec::new();
    for compiler in std::iter::once(documents).chain(compiled) {
        resources.extend(compiler.resources);
        problems.extend(compiler.problems);
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    resources.sort_by_cached_key(Resource::path);
    Ok(Compiled { resources })
}

struct Compiler<'s> {
    secrets: &'s Secrets<'s>,
    resources: Vec<Resource>,
    problems: Vec<Diagnostic>,
}

impl Compiler<'_> {
    /// The org's document, its secrets' values read: each a kept secret (`type = "key"`),
    /// stamped (`created`, `lastModified`) by the service as it stores the document.
    fn org(&mut self, org: &Org) {
        let owner = Owner::Org(org.name.clone());
        let mut body = to_value(&org.config);
        let mut entries = serde_json::Map::new();
        for (id, sensitive) in &org.secrets {
            let usage = SecretUse::Secret { owner: &owner, id };
            let what = format!("secret `{id}`");
            if let Some(value) = self.read(&owner, &what, sensitive, usage) {
                let entry = serde_json::json!({ "id": id, "type": "key", "value": value });
                entries.insert(id.clone(), entry);
            }
        }
        if !org.secrets.is_empty()
            && let Value::Object(map) = &mut body
        {
            map.insert("secrets".into(), Value::Object(entries));
        }
        self.push(owner, ResourceKind::Org, body);
    }

    fn profile(&mut self, profile: &Profile) {
        let owner = Owner::Profile {
            org: profile.org.clone(),
            name: profile.name.clone(),
        };
        let mut config = profile.config.clone();
        config.cdn = self.cdn(&owner, profile.cdn.as_ref());
        config.access = config.access.map(AccessConfig::platform_form);
        self.push(owner, ResourceKind::Profile, to_value(&config));
    }

    /// A CDN block with its credentials read; `None` when one cannot be (each missing
    /// variable is reported).
    fn cdn(&mut self, owner: &Owner, cdn: Option<&CdnConfig<Sensitive>>) -> Option<CdnConfig> {
        let mut complete = true;
        let read = cdn?.clone().map_credentials(|name, sensitive| {
            let usage = SecretUse::CdnCredential { owner, name };
            let value = self.read(owner, &format!("cdn.prod.{name}"), &sensitive, usage);
            complete &= value.is_some();
            Ok::<_, std::convert::Infallible>(value.unwrap_or_default())
        });
        read.ok().filter(|_| complete)
    }

    fn site(&mut self, site: &Site) {
        let owner = Owner::Site(site.id.clone());
        let mut config = site.config.clone();
        if site.cdn.is_some() {
            config.cdn = self.cdn(&owner, site.cdn.as_ref());
        }
        // Group ids are written as the platform stores them, `/groups/<id>.json`.
        config.access = config.access.map(AccessConfig::platform_form);
        let config = &config;
        self.push(owner.clone(), ResourceKind::Site, to_value(config));
        if let Some(public) = &site.public {
            self.push(owner.clone(), ResourceKind::Public, to_value(public));
        }
        if let Some(access) = &config.access {
            self.push(owner.clone(), ResourceKind::Access, to_value(access));
        }
        if let Some(code) = &config.code {
            self.push(owner.clone(), ResourceKind::Code, to_value(code));
        }
        if let Some(query) = &site.query {
            let mut body = to_value(query);
            body["version"] = 1.into();
            self.push(owner.clone(), ResourceKind::Query, body);
        }
        if let Some(sitemap) = &site.sitemap {
            let mut body = to_value(sitemap);
            body["version"] = 1.into();
            self.push(owner.clone(), ResourceKind::Sitemap, body);
        }
        for (id, sensitive) in &site.secrets {
            let usage = SecretUse::Secret { owner: &owner, id };
            let what = format!("secret `{id}`");
            if let Some(value) = self.read(&owner, &what, sensitive, usage) {
                let body = crate::model::api::SecretBody { value };
                self.push(
                    owner.clone(),
                    ResourceKind::Secret(id.clone()),
                    to_value(&body),
                );
            }
        }
        for id in &site.made_secrets {
            self.push(
                owner.clone(),
                ResourceKind::Secret(id.clone()),
                made_secret(),
            );
        }
        for (name, roles) in &site.api_keys {
            let body = serde_json::json!({ "description": name, "roles": roles });
            self.push(owner.clone(), ResourceKind::ApiKey(name.clone()), body);
        }
        for (branch, entries) in &site.transform {
            let mut bodies = Vec::with_capacity(entries.len());
            for spec in entries {
                let mut entry = spec.entry.clone();
                if let Some(key) = &spec.template_api_key {
                    let usage = SecretUse::TemplateApiKey { site: &site.id };
                    entry.template_api_key = self.read(&owner, "templateApiKey", key, usage);
                }
                bodies.push(to_value(&entry));
            }
            self.push(
                owner.clone(),
                ResourceKind::Worker(branch.clone()),
                Value::Array(bodies),
            );
        }
    }

    fn push(&mut self, owner: Owner, kind: ResourceKind, body: Value) {
        self.resources.push(Resource { owner, kind, body });
    }

    fn read(
        &mut self,
        owner: &Owner,
        what: &str,
        sensitive: &Sensitive,
        usage: SecretUse<'_>,
    ) -> Option<String> {
        let lookup = match self.secrets {
            Secrets::Redacted => return Some(REDACTED.to_string()),
            Secrets::Lookup(lookup) => lookup,
            Secrets::StandIn { lookup, stand_in } => {
                return Some(lookup(&sensitive.env).unwrap_or_else(|| stand_in(&usage)));
            }
        };
        let value = lookup(&sensitive.env);
        if value.is_none() {
            self.problems.push(
                Diagnostic::error(
                    Code::MissingSecretValue,
                    format!(
                        "environment variable `{}` is not set ({what} of {owner})",
                        sensitive.env
                    ),
                )
                .with_help(
                    "set the variable where siteops runs (`siteops compile --redact` prints the bodies without secret values)",
                )
                .with_location(sensitive.location.clone()),
            );
        }
        value
    }
}

/// Serializes through `Value`, whose map sorts keys: bodies come out in one stable order.
fn to_value(body: &impl Serialize) -> Value {
    serde_json::to_value(body).expect("API bodies serialize to JSON")
}

/// Pretty JSON with sorted keys and a final newline, the form every output file takes.
pub fn pretty(value: &Value) -> String {
    let mut text = serde_json::to_string_pretty(value).expect("JSON values serialize");
    text.push('\n');
    text
}
