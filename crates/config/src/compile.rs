//! Compilation: the validated [`Fleet`] to the exact JSON bodies of the administration API
//! and the worker. Pure: secret values come from a caller-supplied lookup (the process
//! environment at the edge, a map in tests), or are redacted.
//!
//! Output is deterministic: resources sorted by path, object keys sorted.

use std::fmt;

use serde::Serialize;
use serde_json::Value;

use crate::diagnostic::{Code, Diagnostic};
use crate::model::api::CDN_CREDENTIALS;
use crate::model::{Fleet, Sensitive, Site, SiteId};

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
    /// A named secret of a site (e.g. a code sync secret).
    Secret { site: &'a SiteId, id: &'a str },
    /// A worker entry's `templateApiKey`: reads the templates of `site`.
    TemplateApiKey { site: &'a SiteId },
    /// A credential of the site's production CDN (`authToken`…), for purging it.
    CdnCredential { site: &'a SiteId, name: &'a str },
}

/// The stand-in for a secret value in redacted output.
pub const REDACTED: &str = "(sensitive)";

/// One document the service takes, addressed as the API addresses it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ResourceKind {
    Site,
    Public,
    Access,
    Code,
    Secret(String),
    /// The worker configuration of one branch.
    Worker(String),
}

impl ResourceKind {
    /// Whether the value at `pointer` (JSON pointer segments) in a body of this kind is a
    /// secret value: a secret's `value`, an entry's `templateApiKey`, a CDN credential.
    pub fn is_secret_at(&self, pointer: &[String]) -> bool {
        match (self, pointer) {
            (ResourceKind::Site, [cdn, prod, field]) => {
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
    pub site: SiteId,
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
        crate::api_path::Location::of(&self.site, &self.kind).compile_path()
    }

    /// The secret values the body holds, for masking (`::add-mask::`) and scrubbing.
    pub fn secret_values(&self) -> Vec<&str> {
        let values: Vec<&Value> = match (&self.kind, &self.body) {
            (ResourceKind::Secret(_), body) => body.get("value").into_iter().collect(),
            (ResourceKind::Site, body) => CDN_CREDENTIALS
                .iter()
                .filter_map(|name| body.pointer(&format!("/cdn/prod/{name}")))
                .collect(),
            (ResourceKind::Worker(_), Value::Array(entries)) => entries
                .iter()
                .filter_map(|e| e.get("templateApiKey"))
                .collect(),
            _ => Vec::new(),
        };
        values.into_iter().filter_map(Value::as_str).collect()
    }

    /// Whether the body holds a secret value (a secret, or a worker key).
    pub fn is_sensitive(&self) -> bool {
        match &self.kind {
            ResourceKind::Secret(_) => true,
            ResourceKind::Site => !self.secret_values().is_empty(),
            ResourceKind::Worker(_) => self
                .body
                .as_array()
                .is_some_and(|entries| entries.iter().any(|e| e.get("templateApiKey").is_some())),
            _ => false,
        }
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

/// Compiles every site. Fails with one diagnostic per secret value that cannot be read.
pub fn compile(fleet: &Fleet, secrets: &Secrets<'_>) -> Result<Compiled, Vec<Diagnostic>> {
    use rayon::prelude::*;
    // Each site on its own, on every core; merged in the sites' order.
    let compiled: Vec<Compiler<'_>> = fleet
        .sites
        .par_iter()
        .map(|site| {
            let mut compiler = Compiler {
                secrets,
                resources: Vec::new(),
                problems: Vec::new(),
            };
            compiler.site(site);
            compiler
        })
        .collect();
    let mut resources = Vec::new();
    let mut problems = Vec::new();
    for compiler in compiled {
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
    fn site(&mut self, site: &Site) {
        let mut config = site.config.clone();
        if let Some(cdn) = &site.cdn {
            // Every credential read, so that each missing variable is reported.
            let mut complete = true;
            let read = cdn.clone().map_credentials(|name, sensitive| {
                let usage = SecretUse::CdnCredential {
                    site: &site.id,
                    name,
                };
                let value = self.read(site, &format!("cdn.prod.{name}"), &sensitive, usage);
                complete &= value.is_some();
                Ok::<_, std::convert::Infallible>(value.unwrap_or_default())
            });
            config.cdn = read.ok().filter(|_| complete);
        }
        let config = &config;
        self.push(site, ResourceKind::Site, to_value(config));
        if let Some(public) = &site.public {
            self.push(site, ResourceKind::Public, to_value(public));
        }
        if let Some(access) = &config.access {
            self.push(site, ResourceKind::Access, to_value(access));
        }
        if let Some(code) = &config.code {
            self.push(site, ResourceKind::Code, to_value(code));
        }
        for (id, sensitive) in &site.secrets {
            let usage = SecretUse::Secret { site: &site.id, id };
            if let Some(value) = self.read(site, &format!("secret `{id}`"), sensitive, usage) {
                let body = crate::model::api::SecretBody { value };
                self.push(site, ResourceKind::Secret(id.clone()), to_value(&body));
            }
        }
        for (branch, entries) in &site.transform {
            let mut bodies = Vec::with_capacity(entries.len());
            for spec in entries {
                let mut entry = spec.entry.clone();
                if let Some(key) = &spec.template_api_key {
                    let usage = SecretUse::TemplateApiKey { site: &site.id };
                    entry.template_api_key = self.read(site, "templateApiKey", key, usage);
                }
                bodies.push(to_value(&entry));
            }
            self.push(
                site,
                ResourceKind::Worker(branch.clone()),
                Value::Array(bodies),
            );
        }
    }

    fn push(&mut self, site: &Site, kind: ResourceKind, body: Value) {
        self.resources.push(Resource {
            site: site.id.clone(),
            kind,
            body,
        });
    }

    fn read(
        &mut self,
        site: &Site,
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
                        "environment variable `{}` is not set ({what} of {})",
                        sensitive.env, site.id
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
