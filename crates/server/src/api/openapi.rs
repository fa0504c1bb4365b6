//! The OpenAPI 3.1 document of the administration API (`/admin`) and the worker
//! (`/transform`): served at `/admin/openapi.json`, checked in as `schemas/openapi.json`.
//!
//! Request bodies are the JSON schemas that validate them ([`SchemaKind`]); answers are
//! the schemas of the types the handlers serialize ([`crate::api::answers`], the job
//! record, the stored documents). Nothing is written twice: a field added to a type shows
//! here, and the stale check of `schemas/` says so. schemathesis checks the running
//! service against this document in CI.

use serde_json::{Map, Value, json};

use crate::api::answers::{
    BranchList, BulkStarted, Ignored, JobList, JobStarted, MadeApiKey, MadeSecret, PreviewAnswer,
    PreviewJobList, ProfileList, SecretList, SecretView, SiteList, Status, VersionList,
};
use crate::api::body::KeyRequest;
use crate::api::{BODY_LIMIT, BODY_TIMEOUT, MAX_NAME_LEN, ROBOTS_LIMIT};
use crate::bulk::MAX_RESOURCES;
use crate::bulk::{BulkRequest, PreviewJob};

use crate::codesync::job::Job;
use siteops_config::schema::{ID_PATTERN, SchemaKind, schema_for};

/// Where the document is served, under the server's root.
pub const PATH: &str = "/admin/openapi.json";

/// The document, as JSON.
pub fn document() -> Value {
    json!({
        "openapi": "3.1.0",
        "info": {
            "title": "siteops administration service and transformation worker",
            "version": env!("CARGO_PKG_VERSION"),
            "description": "The service `siteops serve` runs: site configuration, code sync, previews \
                and the transformation worker. Errors are `text/plain` with the message also in \
                the `x-error` header; the configuration and preview APIs' errors have an empty body, \
                as the platform's. The configuration API is also served under `/api` in the \
                platform's newer path family (`/api/{org}/sites/{site}/config.json`). Names of orgs, \
                sites, branches and secrets are `[a-z0-9][a-z0-9-]*`, at most 250 characters.",
        },
        "servers": [{"url": "/"}],
        "paths": paths(),
        "components": {
            "schemas": schemas(),
            "securitySchemes": {
                "token": {
                    "type": "apiKey", "in": "header", "name": "x-auth-token",
                    "description": "The token the service signs: the `auth_token` cookie after \
                        sign-in, or `siteops token`."
                },
                "authorization": {
                    "type": "apiKey", "in": "header", "name": "Authorization",
                    "description": "`token <TOKEN>` (the platform's form) or `Bearer <TOKEN>`."
                },
                "cookie": {"type": "apiKey", "in": "cookie", "name": "auth_token"},
            },
            "responses": {
                "BodilessError": {
                    "description": "An error: an empty body, the message in `x-error` (the platform's form). \
                        The configuration API adds the platform's code in `x-error-code` where it has one.",
                    "headers": {
                        "x-error": {"description": "The message.", "schema": {"type": "string"}},
                        "x-error-code": {"description": "The platform's error code (`AEM_BACKEND_CONFIG_EXISTS`, …).", "schema": {"type": "string"}},
                        "retry-after": {"description": "With 503: seconds to wait.", "schema": {"type": "integer"}},
                    },
                },
                "Error": error_response(&format!(
                    "An error: the message, also in `x-error`. 408: a body that did not arrive within {} s; 413: a body larger than {BODY_LIMIT} bytes; 415: a JSON body sent as another content type.",
                    BODY_TIMEOUT.as_secs()
                )),
            },
        },
    })
}

/// A body schema as a component: the file's `$id` and `$schema` are the file's own.
fn body(kind: SchemaKind) -> Value {
    let mut schema = kind.generate();
    if let Value::Object(map) = &mut schema {
        map.remove("$id");
        map.remove("$schema");
    }
    schema
}

fn answer<T: schemars::JsonSchema>() -> Value {
    let mut schema = serde_json::to_value(schema_for::<T>()).expect("schemas serialize");
    if let Value::Object(map) = &mut schema {
        map.remove("$schema");
    }
    schema
}

/// A stored document as the service answers it: the body, with the dates the service
/// keeps (`created`, `lastModified`) and, for sites, the `version` it defaults to 1.
fn stored(kind: SchemaKind, required: &[&str]) -> Value {
    let mut schema = body(kind);
    let date = json!({"type": "string", "format": "date-time"});
    schema["properties"]["created"] = date.clone();
    schema["properties"]["lastModified"] = date;
    let mut all: Vec<Value> = schema["required"].as_array().cloned().unwrap_or_default();
    all.extend(required.iter().map(|r| json!(r)));
    schema["required"] = Value::Array(all);
    schema
}

fn schemas() -> Value {
    json!({
        "SiteConfig": body(SchemaKind::ApiSite),
        "SiteDocument": stored(SchemaKind::ApiSite, &["version", "created", "lastModified"]),
        "CodeConfig": body(SchemaKind::ApiCode),
        "ContentConfig": body(SchemaKind::ApiContent),
        "AccessConfig": body(SchemaKind::ApiAccess),
        "PublicConfig": body(SchemaKind::ApiPublic),
        "SecretBody": body(SchemaKind::ApiSecret),
        "WorkerConfig": body(SchemaKind::ApiWorkerConfig),
        "ProfileConfig": body(SchemaKind::ApiProfile),
        "ProfileDocument": stored(SchemaKind::ApiProfile, &["version", "created", "lastModified"]),
        "OrgConfig": body(SchemaKind::ApiOrg),
        "OrgDocument": stored(SchemaKind::ApiOrg, &["version", "created", "lastModified"]),
        "SiteList": answer::<SiteList>(),
        "VersionList": answer::<VersionList>(),
        "ProfileList": answer::<ProfileList>(),
        "Secret": answer::<SecretView>(),
        "SecretList": answer::<SecretList>(),
        "MadeSecret": answer::<MadeSecret>(),
        "ApiKeyRequest": answer::<KeyRequest>(),
        "ApiKey": answer::<siteops_config::model::api::ApiKey>(),
        "ApiKeyList": answer::<siteops_config::model::api::ApiKeys>(),
        "MadeApiKey": answer::<MadeApiKey>(),
        "BranchList": answer::<BranchList>(),
        "JobStarted": answer::<JobStarted>(),
        "Ignored": answer::<Ignored>(),
        "Job": answer::<Job>(),
        "JobList": answer::<JobList>(),
        "Status": answer::<Status>(),
        "Preview": answer::<PreviewAnswer>(),
        "BulkPreviewRequest": answer::<BulkRequest>(),
        "BulkStarted": answer::<BulkStarted>(),
        "PreviewJob": answer::<PreviewJob>(),
        "PreviewJobList": answer::<PreviewJobList>(),
        "PushNotification": {
            "type": "object",
            "description": "The git service's push event; `ref` names the branch pushed \
                (`refs/heads/<branch>`), other fields are ignored.",
            "properties": {"ref": {"type": "string"}},
        },
        "WebhookAnswer": {"anyOf": [
            {"$ref": "#/components/schemas/JobStarted"},
            {"$ref": "#/components/schemas/Ignored"},
        ]},
    })
}

fn error_response(description: &str) -> Value {
    json!({
        "description": description,
        "headers": {
            "x-error": {"description": "The message.", "schema": {"type": "string"}},
            "retry-after": {"description": "With 429 and 503: seconds to wait.", "schema": {"type": "integer"}},
        },
        "content": {"text/plain": {"schema": {"type": "string"}}},
    })
}

/// A path parameter.
fn param(name: &str, what: &str, pattern: &str) -> Value {
    json!({
        "name": name, "in": "path", "required": true, "description": what,
        "schema": {"type": "string", "pattern": pattern, "minLength": 1, "maxLength": MAX_NAME_LEN},
    })
}

/// A profile's name: the platform's `[0-9a-zA-Z-_]+`.
fn profile_param() -> Value {
    param("profile", "The profile's name.", "^[0-9a-zA-Z_-]+$")
}

fn name_param(name: &str) -> Value {
    param(name, &format!("The {name}'s name."), ID_PATTERN)
}

/// `?versionName=`: the name of the version a write makes.
fn version_name_param() -> Value {
    use crate::sites::versions::NAME_LIMIT;
    // No control character; a blank name (spaces only, or empty) names nothing.
    let text = "[^\\u0000-\\u001f\\u007f-\\u009f]";
    json!({
        "name": "versionName", "in": "query", "required": false,
        "description": "The name of the version of the document this write makes (the \
            document's versions are listed at `versions.json`; `siteops apply` names them \
            `siteops@<commit>`); a blank one names nothing.",
        "schema": {"type": "string", "maxLength": NAME_LIMIT,
            "pattern": format!("^{text}*$")},
    })
}

/// The versions of a document (`path`: its folder, `id`: `Site`, `Profile`, `Org`):
/// their list, and one version's document.
fn versions_paths(
    add: &mut impl FnMut(&str, Value),
    path: &str,
    id: &str,
    params: &[Value],
    document: &'static str,
) {
    let with = |op: Op| params.iter().fold(op, |op, p| op.param(p.clone()));
    let version = json!({
        "name": "version", "in": "path", "required": true, "description": "The version's number.",
        "schema": {"type": "integer", "minimum": 1, "maximum": 9_007_199_254_740_991_u64},
    });
    add(
        &format!("{path}/versions.json"),
        path_item(vec![(
            "get",
            with(Op::new(
                format!("list{id}Versions"),
                format!(
                    "The versions of the {} document kept (the last {}), newest first.",
                    id.to_lowercase(),
                    crate::sites::versions::KEPT
                ),
            ))
            .answer(200, "The versions.", Some("VersionList"))
            .errors(&[400, 404])
            .bodiless_errors(),
        )]),
    );
    add(
        &format!("{path}/versions/{{version}}.json"),
        path_item(vec![(
            "get",
            with(Op::new(
                format!("get{id}Version"),
                "The document as a version wrote it (secrets without their values).",
            ))
            .param(version)
            .answer(200, "The document.", Some(document))
            .errors(&[400, 404])
            .bodiless_errors(),
        )]),
    );
}

/// What one operation answers and needs.
struct Op {
    id: String,
    summary: String,
    secured: bool,
    params: Vec<Value>,
    body: Option<Value>,
    /// Status, description, schema component (`None`: no body).
    answers: Vec<(u16, &'static str, Option<&'static str>)>,
    /// Statuses answered with the error response.
    errors: Vec<u16>,
    /// Content type of the 200 answer when it is not JSON.
    media: Option<&'static str>,
    /// The error response component.
    error: &'static str,
    /// Whether a content source's 4xx comes back as the answer.
    source_4xx: bool,
}

impl Op {
    fn new(id: impl Into<String>, summary: impl Into<String>) -> Op {
        Op {
            id: id.into(),
            summary: summary.into(),
            secured: true,
            params: Vec::new(),
            body: None,
            answers: Vec::new(),
            errors: Vec::new(),
            media: None,
            error: "Error",
            source_4xx: false,
        }
    }

    /// Any 4xx a content source answers is passed on, as the platform does.
    fn source_errors(mut self) -> Op {
        self.source_4xx = true;
        self
    }

    /// Errors with an empty body, the message only in `x-error` (the preview API's form).
    fn bodiless_errors(mut self) -> Op {
        self.error = "BodilessError";
        self
    }

    fn params(mut self, names: &[&str]) -> Op {
        self.params
            .extend(names.iter().map(|name| name_param(name)));
        self
    }

    fn param(mut self, param: Value) -> Op {
        self.params.push(param);
        self
    }

    fn open(mut self) -> Op {
        self.secured = false;
        self
    }

    fn json_body(mut self, component: &str) -> Op {
        self.body = Some(json!({
            "required": true,
            "content": {"application/json": {"schema": {"$ref": format!("#/components/schemas/{component}")}}},
        }));
        self.errors.extend([408, 413, 415]);
        self
    }

    /// A `text/plain` body (`robots.txt`): not empty, at most `limit` bytes (413 beyond;
    /// not a `maxLength`, which counts characters).
    fn text_body(mut self, limit: usize) -> Op {
        self.body = Some(json!({
            "required": true,
            "description": format!("The text, UTF-8, at most {limit} bytes."),
            "content": {"text/plain": {"schema": {"type": "string", "minLength": 1}}},
        }));
        self.errors.extend([408, 413, 415]);
        self
    }

    fn form_body(mut self, schema: Value) -> Op {
        self.body = Some(json!({
            "required": true,
            "content": {"application/x-www-form-urlencoded": {"schema": schema}},
        }));
        self.errors.extend([408, 413]);
        self
    }

    fn answer(
        mut self,
        status: u16,
        description: &'static str,
        schema: Option<&'static str>,
    ) -> Op {
        self.answers.push((status, description, schema));
        self
    }

    fn html(mut self) -> Op {
        self.media = Some("text/html");
        self
    }

    fn text(mut self) -> Op {
        self.media = Some("text/plain");
        self
    }

    fn errors(mut self, statuses: &[u16]) -> Op {
        self.errors.extend_from_slice(statuses);
        self
    }

    fn to_json(&self, head: bool) -> Value {
        let mut responses = Map::new();
        for (status, description, schema) in &self.answers {
            let mut response = json!({"description": description});
            if let Some(media) = self.media.filter(|_| !head) {
                response["content"] = json!({media: {"schema": {"type": "string"}}});
            } else if let Some(schema) = schema.filter(|_| !head) {
                response["content"] = json!({"application/json": {
                    "schema": {"$ref": format!("#/components/schemas/{schema}")}
                }});
            }
            responses.insert(status.to_string(), response);
        }
        let mut errors = self.errors.clone();
        if self.secured {
            errors.extend([401, 403]);
        }
        errors.sort_unstable();
        errors.dedup();
        for status in errors {
            let response = if head {
                json!({"description": "An error: the message in `x-error`."})
            } else {
                json!({"$ref": format!("#/components/responses/{}", self.error)})
            };
            responses.insert(status.to_string(), response);
        }
        if self.source_4xx {
            let response = if head {
                json!({"description": "The content source's answer, passed on."})
            } else {
                json!({"$ref": format!("#/components/responses/{}", self.error)})
            };
            responses.insert("4XX".into(), response);
        }
        let mut op = json!({
            "operationId": if head { format!("{}Head", self.id) } else { self.id.clone() },
            "summary": self.summary,
            "parameters": self.params,
            "responses": responses,
        });
        if self.secured {
            op["security"] = json!([{"token": []}, {"authorization": []}, {"cookie": []}]);
        } else {
            op["security"] = json!([]);
        }
        if let Some(body) = &self.body {
            op["requestBody"] = body.clone();
        }
        op
    }
}

/// A path and its operations by method; a `get` also answers `head`.
fn path_item(ops: Vec<(&str, Op)>) -> Value {
    let mut item = Map::new();
    for (method, op) in ops {
        if method == "get" {
            item.insert("head".into(), op.to_json(true));
        }
        item.insert(method.into(), op.to_json(false));
    }
    Value::Object(item)
}

/// Reading, replacing and deleting one field of a site (`access`, `code`, `content`).
fn site_field(field: &'static str, component: &'static str) -> Value {
    let site = ["org", "site"];
    let (get_id, post_id, delete_id, get_summary, post_summary, delete_summary) = match field {
        "access" => (
            "getAccess",
            "setAccess",
            "deleteAccess",
            "The site's access configuration.",
            "Replaces the site's access configuration; changing who is `admin` needs an admin.",
            "Removes the site's access configuration.",
        ),
        "code" => (
            "getCode",
            "setCode",
            "deleteCode",
            "The site's code source.",
            "Replaces the site's code source.",
            "Removes the site's code source.",
        ),
        _ => (
            "getContent",
            "setContent",
            "deleteContent",
            "The site's content source.",
            "Replaces the site's content source.",
            "Removes the site's content source.",
        ),
    };
    // A code block that selects an external repository this site may not use (not
    // onboarded, or onboarded by another site) is refused 409, as in a whole site.
    let post_errors: &[u16] = if field == "code" {
        &[400, 404, 409]
    } else {
        &[400, 404]
    };
    path_item(vec![
        (
            "get",
            Op::new(get_id, get_summary)
                .params(&site)
                .answer(200, "The configuration.", Some(component))
                .errors(&[400, 404])
                .bodiless_errors(),
        ),
        (
            "post",
            Op::new(post_id, post_summary)
                .params(&site)
                .json_body(component)
                .answer(200, "The configuration as stored.", Some(component))
                .errors(post_errors)
                .bodiless_errors(),
        ),
        (
            "delete",
            Op::new(delete_id, delete_summary)
                .params(&site)
                .answer(204, "Removed.", None)
                .errors(&[400, 404])
                .bodiless_errors(),
        ),
    ])
}

#[rustfmt::skip]
fn paths() -> Value {
    let site = ["org", "site"];
    let branch = ["org", "site", "branch"];
    let page = json!({
        "name": "path", "in": "path", "required": true,
        "description": "The page path below the branch. The document describes one-segment \
            paths of lowercase letters, digits, `.`, `_` and `-`; the service takes any path \
            whose segments are UTF-8 without control characters, `.` or `..`.",
        "schema": {"type": "string", "pattern": "^[a-z0-9][a-z0-9._-]*$", "maxLength": 200},
    });
    let job = param("job", "The job's name.", "^[A-Za-z0-9-]+$");
    let mut paths = Map::new();
    let mut add = |path: &str, item: Value| {
        paths.insert(path.to_string(), item);
    };
    add("/admin/openapi.json", path_item(vec![
        ("get", Op::new("getOpenApi", "This document.").open()
            .answer(200, "The OpenAPI document.", None)),
    ]));
    add("/admin/login", path_item(vec![
        ("get", Op::new("login", "The sign-in page (a form that posts to `/admin/profile`).").open().html()
            .answer(200, "The page.", None)),
    ]));
    add("/admin/profile", path_item(vec![
        ("get", Op::new("profile", "Who is signed in, from the `auth_token` cookie.").open().html()
            .answer(200, "The page.", None).answer(303, "Not signed in: to the sign-in page.", None)),
        ("post", Op::new("signIn", "Signs in: sets the `auth_token` cookie.").open().html()
            .form_body(json!({
                "type": "object",
                "required": ["email", "nonce"],
                "properties": {
                    "email": {"type": "string", "description": "The e-mail address to sign in as."},
                    "nonce": {"type": "string", "description": "The single-use nonce of the form at `/admin/login`."},
                },
            }))
            .answer(200, "Signed in.", None).errors(&[400, 403, 408, 413, 429])),
    ]));
    add("/admin/config/{org}/sites.json", path_item(vec![
        ("get", Op::new("listSites", "The org's sites the caller may configure; with `details=true`, each with its title, description and dates.").params(&["org"])
            .param(json!({"name": "details", "in": "query", "required": false,
                "description": "Each site with its title, description and dates.", "schema": {"type": "boolean"}}))
            .answer(200, "The sites.", Some("SiteList")).errors(&[400, 404]).bodiless_errors()),
    ]));
    add("/admin/config/{org}/sites/{site}.json", path_item(vec![
        ("get", Op::new("getSite", "The site's configuration.").params(&site)
            .answer(200, "The stored configuration.", Some("SiteDocument")).errors(&[400, 404]).bodiless_errors()),
        ("put", Op::new("createSite", "Creates a site (409 when it exists).").params(&site).param(version_name_param()).json_body("SiteConfig")
            .answer(201, "Created: an empty body, as the platform answers.", None).errors(&[400, 409]).bodiless_errors()),
        ("post", Op::new("saveSite", "Creates or replaces a site. `?restoreVersion=<n>` without a body writes version `n` again, as a new version (404 for a version not kept).").params(&site)
            .param(version_name_param()).json_body("SiteConfig")
            .answer(200, "Saved.", Some("SiteDocument")).errors(&[400, 404, 409]).bodiless_errors()),
        ("delete", Op::new("deleteSite", "Deletes the site and its sub-resources.").params(&site)
            .answer(204, "Deleted.", None).errors(&[400, 404]).bodiless_errors()),
    ]));
    add("/admin/config/{org}.json", path_item(vec![
        ("get", Op::new("getOrg", "The org's document.").params(&["org"])
            .answer(200, "The stored document (secrets without their values).", Some("OrgDocument")).errors(&[400, 404]).bodiless_errors()),
        ("put", Op::new("createOrg", "Creates the org's document (409 when it exists).").params(&["org"]).param(version_name_param()).json_body("OrgConfig")
            .answer(201, "Created: an empty body, as the platform answers.", None).errors(&[400, 409]).bodiless_errors()),
        ("post", Op::new("saveOrg", "Creates or replaces the org's document; changing its users needs an admin. `?restoreVersion=<n>` without a body writes version `n` again, as a new version (404 for a version not kept).").params(&["org"])
            .param(version_name_param()).json_body("OrgConfig")
            .answer(200, "Saved.", Some("OrgDocument")).errors(&[400, 404, 409]).bodiless_errors()),
        ("delete", Op::new("deleteOrg", "Deletes the org's document.").params(&["org"])
            .answer(204, "Deleted.", None).errors(&[400, 404]).bodiless_errors()),
    ]));
    add("/admin/config/{org}/secrets.json", path_item(vec![
        ("get", Op::new("listOrgSecrets", "The org's secrets: ids and dates, never values.").params(&["org"])
            .answer(200, "The secrets.", Some("SecretList")).errors(&[400, 404]).bodiless_errors()),
        ("post", Op::new("makeOrgSecret", "Makes an org secret whose value the service chooses; the value is answered this once.").params(&["org"])
            .answer(201, "The secret, with its value.", Some("MadeSecret")).errors(&[400, 404]).bodiless_errors()),
    ]));
    add("/admin/config/{org}/secrets/{secret}.json", path_item(vec![
        ("get", Op::new("getOrgSecret", "An org secret's id and dates (never its value).").params(&["org", "secret"])
            .answer(200, "The secret.", Some("Secret")).errors(&[400, 404]).bodiless_errors()),
        ("post", Op::new("setOrgSecret", "Sets an org secret's value.").params(&["org", "secret"]).json_body("SecretBody")
            .answer(200, "Saved.", Some("Secret")).errors(&[400, 404]).bodiless_errors()),
        ("delete", Op::new("deleteOrgSecret", "Deletes an org secret.").params(&["org", "secret"])
            .answer(204, "Deleted.", None).errors(&[400, 404]).bodiless_errors()),
    ]));
    for (path, owner, params, id) in [
        ("/admin/config/{org}", "the org's: every site of the org", vec![name_param("org")], "Org"),
        ("/admin/config/{org}/profiles/{profile}", "the profile's: every site that extends it",
            vec![name_param("org"), profile_param()], "Profile"),
        ("/admin/config/{org}/sites/{site}", "the site's", vec![name_param("org"), name_param("site")], "Site"),
    ] {
        let op = |verb: &str, what: &str| {
            let plural = if verb == "list" { "s" } else { "" };
            let op = Op::new(format!("{verb}{id}ApiKey{plural}"), what);
            params.iter().fold(op, |op, p| op.param(p.clone()))
        };
        let key = param("key", "The key's id (`jti`).", "^[a-zA-Z0-9_-]+$");
        add(&format!("{path}/apiKeys.json"), path_item(vec![
            ("get", op("list", "The records of the API keys minted here (never their tokens).")
                .answer(200, "The records, by id.", Some("ApiKeyList")).errors(&[400, 404]).bodiless_errors()),
            ("post", op("mint", &format!("Mints an API key, good for {owner}, with the roles asked; the token is answered this once.")).json_body("ApiKeyRequest")
                .answer(201, "The key's record, with its token.", Some("MadeApiKey")).errors(&[400, 404]).bodiless_errors()),
        ]));
        add(&format!("{path}/apiKeys/{{key}}.json"), path_item(vec![
            ("get", op("get", "An API key's record.").param(key.clone())
                .answer(200, "The record.", Some("ApiKey")).errors(&[400, 404]).bodiless_errors()),
            ("delete", op("revoke", "Deletes an API key's record, revoking the key.").param(key)
                .answer(204, "Revoked.", None).errors(&[400, 404]).bodiless_errors()),
        ]));
    }
    versions_paths(&mut add, "/admin/config/{org}", "Org", &[name_param("org")], "OrgDocument");
    versions_paths(&mut add, "/admin/config/{org}/profiles/{profile}", "Profile",
        &[name_param("org"), profile_param()], "ProfileDocument");
    versions_paths(&mut add, "/admin/config/{org}/sites/{site}", "Site",
        &[name_param("org"), name_param("site")], "SiteDocument");
    add("/admin/config/{org}/profiles.json", path_item(vec![
        ("get", Op::new("listProfiles", "The org's profiles; with `details=true`, each with its title, description and dates.").params(&["org"])
            .param(json!({"name": "details", "in": "query", "required": false,
                "description": "Each profile with its title, description and dates.", "schema": {"type": "boolean"}}))
            .answer(200, "The profiles.", Some("ProfileList")).errors(&[400, 404]).bodiless_errors()),
    ]));
    add("/admin/config/{org}/profiles/{profile}.json", path_item(vec![
        ("get", Op::new("getProfile", "A profile's document.").params(&["org"]).param(profile_param())
            .answer(200, "The stored document.", Some("ProfileDocument")).errors(&[400, 404]).bodiless_errors()),
        ("put", Op::new("createProfile", "Creates a profile (409 when it exists).").params(&["org"]).param(profile_param()).param(version_name_param()).json_body("ProfileConfig")
            .answer(201, "Created: an empty body, as the platform answers.", None).errors(&[400, 409]).bodiless_errors()),
        ("post", Op::new("saveProfile", "Creates or replaces a profile. `?restoreVersion=<n>` without a body writes version `n` again, as a new version (404 for a version not kept).").params(&["org"]).param(profile_param())
            .param(version_name_param()).json_body("ProfileConfig")
            .answer(200, "Saved.", Some("ProfileDocument")).errors(&[400, 404, 409]).bodiless_errors()),
        ("delete", Op::new("deleteProfile", "Deletes a profile.").params(&["org"]).param(profile_param())
            .answer(204, "Deleted.", None).errors(&[400, 404]).bodiless_errors()),
    ]));
    add("/admin/config/{org}/aggregated/{site}.json", path_item(vec![
        ("get", Op::new("getAggregated", "The site's document over its profile (`extends.profile`, else `default` when it exists): objects merged key by key, other values replaced.").params(&site)
            .answer(200, "The aggregated configuration.", Some("SiteDocument")).errors(&[400, 404]).bodiless_errors()),
    ]));
    for (path, params, id, owner) in [
        ("/admin/config/{org}/sites/{site}/robots.txt", vec![name_param("org"), name_param("site")], "Site", "site"),
        ("/admin/config/{org}/profiles/{profile}/robots.txt", vec![name_param("org"), profile_param()], "Profile", "profile"),
    ] {
        let op = |id: String, what: String| params.iter().fold(Op::new(id, what), |op, p| op.param(p.clone()));
        add(path, path_item(vec![
            ("get", op(format!("get{id}Robots"), format!("The {owner}'s `robots.txt`: the `txt` of its document's `robots`.")).text()
                .answer(200, "The text.", None).errors(&[400, 404]).bodiless_errors()),
            ("post", op(format!("set{id}Robots"), format!("Stores the {owner}'s `robots.txt` as sent (`robots.txt` of its document), which the delivery serves as `/robots.txt`.")).text()
                .text_body(ROBOTS_LIMIT)
                .answer(200, "The text as stored.", None).errors(&[400, 404]).bodiless_errors()),
            ("delete", op(format!("delete{id}Robots"), format!("Removes the {owner}'s `robots.txt`."))
                .answer(204, "Removed.", None).errors(&[400, 404]).bodiless_errors()),
        ]));
    }
    add("/admin/config/{org}/sites/{site}/access.json", site_field("access", "AccessConfig"));
    add("/admin/config/{org}/sites/{site}/code.json", site_field("code", "CodeConfig"));
    add("/admin/config/{org}/sites/{site}/content.json", site_field("content", "ContentConfig"));
    add("/admin/config/{org}/sites/{site}/public.json", path_item(vec![
        ("get", Op::new("getPublic", "The site's public configuration.").params(&site)
            .answer(200, "The configuration (`public` of the site's document).", Some("PublicConfig")).errors(&[400, 404]).bodiless_errors()),
        ("post", Op::new("setPublic", "Replaces the site's public configuration.").params(&site).json_body("PublicConfig")
            .answer(200, "Saved.", Some("PublicConfig")).errors(&[400, 404]).bodiless_errors()),
        ("delete", Op::new("deletePublic", "Removes the site's public configuration.").params(&site)
            .answer(204, "Removed.", None).errors(&[400, 404]).bodiless_errors()),
    ]));
    add("/admin/config/{org}/sites/{site}/secrets.json", path_item(vec![
        ("get", Op::new("listSecrets", "The site's secrets: ids and dates, never values.").params(&site)
            .answer(200, "The secrets.", Some("SecretList")).errors(&[400, 404]).bodiless_errors()),
        ("post", Op::new("makeSecret", "Makes a secret whose value the service chooses; the value is answered this once.").params(&site)
            .answer(201, "The secret, with its value.", Some("MadeSecret")).errors(&[400, 404]).bodiless_errors()),
    ]));
    add("/admin/config/{org}/sites/{site}/secrets/{secret}.json", path_item(vec![
        ("get", Op::new("getSecret", "A secret's id and dates (never its value).").params(&["org", "site", "secret"])
            .answer(200, "The secret.", Some("Secret")).errors(&[400, 404]).bodiless_errors()),
        ("post", Op::new("setSecret", "Sets a secret's value.").params(&["org", "site", "secret"]).json_body("SecretBody")
            .answer(200, "Saved.", Some("Secret")).errors(&[400, 404]).bodiless_errors()),
        ("delete", Op::new("deleteSecret", "Deletes a secret.").params(&["org", "site", "secret"])
            .answer(204, "Deleted.", None).errors(&[400, 404]).bodiless_errors()),
    ]));
    add("/admin/code/{org}/{site}/{branch}", path_item(vec![
        ("post", Op::new("syncCode", "Starts a code sync of the branch.").params(&branch)
            .answer(202, "The job, queued.", Some("JobStarted")).errors(&[400, 404, 409])),
    ]));
    add("/admin/webhook/code/{org}/{site}", path_item(vec![
        ("post", Op::new("pushNotification", "A push notification, signed with the site's sync secret.").open()
            .params(&site)
            .param(json!({"name": "x-hub-signature-256", "in": "header", "required": true,
                "description": "`sha256=` and the HMAC-SHA256 of the body, in hex.",
                "schema": {"type": "string"}}))
            .json_body("PushNotification")
            .answer(202, "A job queued, or the delivery ignored.", Some("WebhookAnswer")).errors(&[400, 401, 429])),
    ]));
    add("/admin/job/{org}/{site}/{branch}/code", path_item(vec![
        ("get", Op::new("listJobs", "The branch's code sync jobs, newest first.").params(&branch)
            .answer(200, "The jobs.", Some("JobList")).errors(&[400, 404])),
    ]));
    add("/admin/job/{org}/{site}/{branch}/code/{job}", path_item(vec![
        ("get", Op::new("getJob", "One code sync job.").params(&branch).param(job.clone())
            .answer(200, "The job.", Some("Job")).errors(&[400, 404])),
    ]));
    add("/admin/status/{org}/{site}/{branch}", path_item(vec![
        ("get", Op::new("status", "What the site uses on the branch, and where each part comes from.").params(&branch)
            .answer(200, "The status.", Some("Status")).errors(&[400, 404])),
    ]));
    add("/admin/preview/{org}/{site}/{branch}/{path}", path_item(vec![
        ("get", Op::new("getPreview", "The stored preview of a page (`preview.status` 404 when it has none).")
            .params(&branch).param(page.clone())
            .answer(200, "The preview.", Some("Preview")).errors(&[400, 404]).bodiless_errors()),
        ("post", Op::new("preview", "Previews the page now, from the site's content source.")
            .params(&branch).param(page.clone())
            .param(json!({"name": "x-content-source-authorization", "in": "header",
                "description": "Sent to the content source as `Authorization`.", "schema": {"type": "string"}}))
            .answer(200, "The preview.", Some("Preview")).errors(&[400, 404, 409, 502, 503, 504, 507]).source_errors().bodiless_errors()),
        ("delete", Op::new("deletePreview", "Removes the stored preview of a page, with the images no other page of the branch shows; 404 when it has none.")
            .params(&branch).param(page.clone())
            .answer(204, "Removed.", None).errors(&[400, 404]).bodiless_errors()),
    ]));
    add("/admin/preview/{org}/{site}/{branch}/*", path_item(vec![
        ("post", Op::new("bulkPreview", format!("Previews many pages in a background job: each path, and for a folder (`/blog/*`, `/*`) every page of the branch previewed under it; at most {MAX_RESOURCES} paths, and pages per job. `delete` removes the previews instead."))
            .params(&branch)
            .param(json!({"name": "x-content-source-authorization", "in": "header",
                "description": "Sent to the content source as `Authorization`, for each page.", "schema": {"type": "string"}}))
            .json_body("BulkPreviewRequest")
            .answer(202, "The job, created.", Some("BulkStarted")).errors(&[400, 404, 409]).bodiless_errors()),
    ]));
    add("/admin/job/{org}/{site}/{branch}/preview", path_item(vec![
        ("get", Op::new("listPreviewJobs", "The branch's bulk preview jobs, newest first.").params(&branch)
            .answer(200, "The jobs.", Some("PreviewJobList")).errors(&[400, 404])),
    ]));
    add("/admin/job/{org}/{site}/{branch}/preview/{job}", path_item(vec![
        ("get", Op::new("getPreviewJob", "One bulk preview job: its state and progress.").params(&branch).param(job.clone())
            .answer(200, "The job.", Some("PreviewJob")).errors(&[400, 404])),
    ]));
    add("/admin/job/{org}/{site}/{branch}/preview/{job}/details", path_item(vec![
        ("get", Op::new("getPreviewJobDetails", "One bulk preview job with each page's result (`data.resources`).").params(&branch).param(job.clone())
            .answer(200, "The job and its pages.", Some("PreviewJob")).errors(&[400, 404])),
    ]));
    add("/transform/config/{org}/{site}", path_item(vec![
        ("get", Op::new("listWorkerBranches", "The branches with worker entries.").params(&site)
            .answer(200, "The branches.", Some("BranchList")).errors(&[400, 404])),
    ]));
    add("/transform/config/{org}/{site}/{branch}", path_item(vec![
        ("get", Op::new("getWorkerConfig", "The branch's worker entries.").params(&branch)
            .answer(200, "The entries.", Some("WorkerConfig")).errors(&[400, 404])),
        ("post", Op::new("setWorkerConfig", "Replaces the branch's worker entries.").params(&branch).json_body("WorkerConfig")
            .answer(200, "Saved.", Some("WorkerConfig")).errors(&[400, 404])),
        ("delete", Op::new("deleteWorkerConfig", "Removes the branch's own worker entries.").params(&branch)
            .answer(204, "Removed.", None).errors(&[400, 404])),
    ]));
    add("/transform/{org}/{site}/{branch}/{path}", path_item(vec![
        ("get", Op::new("workerPage", "A page rendered by the worker: endpoint JSON through the entry's template.")
            .open().html().params(&branch).param(page)
            .answer(200, "The markup page.", None).errors(&[400, 401, 403, 404, 409, 414, 500, 502])),
    ]));
    Value::Object(paths)
}
