//! JSON schemas generated from the Rust types: written to `schemas/` for editors and other
//! tools, and compiled once here to validate repository files and API request bodies.
//! Schema errors become [`Diagnostic`]s that carry a JSON pointer, so a caller with a span
//! index can point at `file:line:col`.
//!
//! The schemas state every rule of a single value that JSON schema can say (URL, path and
//! name patterns, an address's form, a `byogit` source's required keys, which keys a
//! content source's type has), so that editors and API clients see them. Where a semantic
//! rule (`crate::rules`) checks the same, the constraint carries the rule's code as
//! [`RULE_KEYWORD`]; [`SchemaKind::check`] leaves such a failure to the rule, which says it
//! with its own code, pointer and help, so that it is reported once.

use std::sync::LazyLock;

use jsonschema::JsonType;
use jsonschema::error::{TypeKind, ValidationErrorKind};
use jsonschema::{ValidationError, Validator};
use schemars::generate::SchemaSettings;
use schemars::{JsonSchema, Schema};
use serde_json::Value;

use crate::diagnostic::{Code, Diagnostic};
use crate::document::{push_token, table_name};
use crate::model::{api, files};

/// Every schema siteops publishes. `Api*` validate request bodies; `*File` validate the
/// repository's files.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SchemaKind {
    ApiSite,
    ApiCode,
    ApiContent,
    ApiAccess,
    ApiPublic,
    ApiSecret,
    ApiWorkerConfig,
    SettingsFile,
    SiteFile,
    AccessFile,
    PublicFile,
    SecretsFile,
    TransformFile,
    FstabFile,
    ApiProfile,
    ApiOrg,
    OrgFile,
    ProfileFile,
    QueryFile,
    SitemapFile,
}

impl SchemaKind {
    pub const ALL: [SchemaKind; 20] = [
        SchemaKind::ApiSite,
        SchemaKind::ApiCode,
        SchemaKind::ApiContent,
        SchemaKind::ApiAccess,
        SchemaKind::ApiPublic,
        SchemaKind::ApiSecret,
        SchemaKind::ApiWorkerConfig,
        SchemaKind::SettingsFile,
        SchemaKind::SiteFile,
        SchemaKind::AccessFile,
        SchemaKind::PublicFile,
        SchemaKind::SecretsFile,
        SchemaKind::TransformFile,
        SchemaKind::FstabFile,
        SchemaKind::ApiProfile,
        SchemaKind::ApiOrg,
        SchemaKind::OrgFile,
        SchemaKind::ProfileFile,
        SchemaKind::QueryFile,
        SchemaKind::SitemapFile,
    ];

    /// Path of the schema under `schemas/`.
    pub fn file_name(self) -> &'static str {
        match self {
            SchemaKind::ApiSite => "api/site.schema.json",
            SchemaKind::ApiCode => "api/code.schema.json",
            SchemaKind::ApiContent => "api/content.schema.json",
            SchemaKind::ApiAccess => "api/access.schema.json",
            SchemaKind::ApiPublic => "api/public.schema.json",
            SchemaKind::ApiSecret => "api/secret.schema.json",
            SchemaKind::ApiWorkerConfig => "api/worker-config.schema.json",
            SchemaKind::SettingsFile => "files/siteops.toml.schema.json",
            SchemaKind::SiteFile => "files/site.toml.schema.json",
            SchemaKind::AccessFile => "files/access.toml.schema.json",
            SchemaKind::PublicFile => "files/public.toml.schema.json",
            SchemaKind::SecretsFile => "files/secrets.toml.schema.json",
            SchemaKind::TransformFile => "files/transform.toml.schema.json",
            SchemaKind::FstabFile => "files/fstab.yaml.schema.json",
            SchemaKind::ApiProfile => "api/profile.schema.json",
            SchemaKind::ApiOrg => "api/org.schema.json",
            SchemaKind::OrgFile => "files/org.toml.schema.json",
            SchemaKind::ProfileFile => "files/profile.toml.schema.json",
            SchemaKind::QueryFile => "files/query.toml.schema.json",
            SchemaKind::SitemapFile => "files/sitemap.toml.schema.json",
        }
    }

    /// The schema as JSON.
    pub fn generate(self) -> Value {
        let mut schema = match self {
            SchemaKind::ApiSite => schema_for::<api::SiteConfig>(),
            SchemaKind::ApiCode => schema_for::<api::CodeConfig>(),
            SchemaKind::ApiContent => schema_for::<api::ContentConfig>(),
            SchemaKind::ApiAccess | SchemaKind::AccessFile => schema_for::<api::AccessConfig>(),
            SchemaKind::ApiPublic | SchemaKind::PublicFile => schema_for::<api::PublicConfig>(),
            SchemaKind::ApiSecret => schema_for::<api::SecretBody>(),
            SchemaKind::ApiWorkerConfig => {
                let mut schema = schema_for::<Vec<api::WorkerEntry>>();
                schema.insert("minItems".into(), 1.into());
                schema
            }
            SchemaKind::SettingsFile => schema_for::<files::SettingsFile>(),
            SchemaKind::SiteFile => with_url_variables(schema_for::<files::SiteFile>()),
            SchemaKind::SecretsFile => {
                let mut schema = schema_for::<files::SecretsFile>();
                // Secret ids are path segments of the API: restrict them in the schema too.
                schema.insert("propertyNames".into(), id_pattern_schema());
                schema
            }
            SchemaKind::TransformFile => schema_for::<files::TransformFile>(),
            SchemaKind::FstabFile => schema_for::<files::FstabFile>(),
            SchemaKind::ApiProfile => schema_for::<api::ProfileConfig>(),
            SchemaKind::ApiOrg => schema_for::<api::OrgConfig>(),
            SchemaKind::OrgFile => schema_for::<files::OrgFile>(),
            SchemaKind::ProfileFile => with_url_variables(schema_for::<files::ProfileFile>()),
            // The files are the bodies as is; the compiled YAML parses to the same shape.
            SchemaKind::QueryFile => schema_for::<api::QueryConfig>(),
            SchemaKind::SitemapFile => schema_for::<api::SitemapConfig>(),
        };
        schema.insert(
            "$id".into(),
            format!("https://siteops.dev/schemas/{}", self.file_name()).into(),
        );
        Value::Object(schema.as_object().cloned().unwrap_or_default())
    }

    /// The compiled validator, built once per process.
    pub fn validator(self) -> &'static Validator {
        &compiled(self).1
    }

    /// Validates `instance`; every problem comes back, each with the pointer of the value.
    pub fn check(self, instance: &Value) -> Vec<Diagnostic> {
        let (schema, validator) = compiled(self);
        if validator.is_valid(instance) {
            return Vec::new();
        }
        let errors: Vec<ValidationError<'_>> = validator
            .iter_errors(instance)
            .filter(|error| ruled_by(error, schema).is_none())
            .collect();
        let at =
            |error: &ValidationError<'_>, pointer: &str| error.instance_path().as_str() == pointer;
        let closed_set = |pointer: &str| {
            errors.iter().find_map(|error| match error.kind() {
                ValidationErrorKind::Enum { options } if at(error, pointer) => Some(&**options),
                _ => None,
            })
        };
        let mistyped = |pointer: &str| {
            errors.iter().any(|error| {
                matches!(error.kind(), ValidationErrorKind::Type { .. }) && at(error, pointer)
            })
        };
        errors
            .iter()
            .flat_map(|error| {
                let pointer = error.instance_path().as_str();
                match error.kind() {
                    // A value of the wrong type for a closed set is one problem: the type
                    // error, with the allowed values as its help (`requireAuth = true`
                    // needs the string "true").
                    ValidationErrorKind::Enum { .. } if mistyped(pointer) => Vec::new(),
                    ValidationErrorKind::Type { .. } => {
                        let diagnostics = to_diagnostics(error, schema);
                        match closed_set(pointer) {
                            Some(options) => diagnostics
                                .into_iter()
                                .map(|d| {
                                    d.with_help(format!("allowed values: {}", list_values(options)))
                                })
                                .collect(),
                            None => diagnostics,
                        }
                    }
                    _ => to_diagnostics(error, schema),
                }
            })
            .collect()
    }
}

/// Each kind's schema with its compiled validator, generated once per process. The schema
/// is kept beside the validator for error messages (known keys, field descriptions), which
/// the validator does not expose.
fn compiled(kind: SchemaKind) -> &'static (Value, Validator) {
    static COMPILED: LazyLock<Vec<(Value, Validator)>> = LazyLock::new(|| {
        SchemaKind::ALL
            .iter()
            .map(|kind| {
                let schema = kind.generate();
                // Formats are assertions, as API clients (schemathesis among them) and
                // the platform read them: a `hostname` that is none is refused.
                let validator = jsonschema::options()
                    .should_validate_formats(true)
                    .build(&schema)
                    .expect("generated schemas are valid JSON schemas");
                (schema, validator)
            })
            .collect()
    });
    let index = SchemaKind::ALL
        .iter()
        .position(|k| *k == kind)
        .expect("every kind is in ALL");
    &COMPILED[index]
}

/// The JSON schema of `T`, subschemas inline (draft 2020-12): the one generator of every
/// schema siteops publishes, these files and the OpenAPI document alike.
pub fn schema_for<T: JsonSchema>() -> Schema {
    // Inline subschemas: the files stay readable on their own, and error paths follow the
    // document instead of `$ref` hops.
    SchemaSettings::draft2020_12()
        .with(|settings| settings.inline_subschemas = true)
        .into_generator()
        .into_root_schema_for::<T>()
}

/// The keyword that names, beside a constraint, the semantic rule that checks the same
/// (its diagnostic code): the constraint's failures are that rule's to report.
pub const RULE_KEYWORD: &str = "x-siteops-rule";

/// The code of the rule that reports `error`, when a rule checks what failed: the nearest
/// subschema on the failing keyword's path that names one. Never a wrong type (but a value
/// where only null, that is absence, is allowed: a key of another content source type)
/// nor a length bound (the service's, which no rule states).
pub fn ruled_by<'s>(error: &ValidationError<'_>, schema: &'s Value) -> Option<&'s str> {
    match error.kind() {
        ValidationErrorKind::Type { kind } if !matches!(kind, TypeKind::Single(JsonType::Null)) => {
            return None;
        }
        ValidationErrorKind::MaxLength { .. } | ValidationErrorKind::MaxItems { .. } => {
            return None;
        }
        _ => {}
    }
    let mut path = error.schema_path().as_str();
    loop {
        if let Some(code) = schema
            .pointer(path)
            .and_then(|s| s.get(RULE_KEYWORD))
            .and_then(Value::as_str)
        {
            return Some(code);
        }
        if path.is_empty() {
            return None;
        }
        path = parent_pointer(path);
    }
}

/// A site's or profile's file may write a content URL with the one variable siteops fills,
/// `{transform_url}` (`siteops.toml`): there the URL is that variable and the rest of the
/// address, or a URL.
fn with_url_variables(mut schema: Schema) -> Schema {
    let file_url = serde_json::json!({
        "anyOf": [
            {"pattern": api::HTTP_URL_PATTERN},
            {"pattern": r"^\{transform_url\}(?:[/?#]\S*)?$"}
        ]
    });
    for pointer in [
        "/properties/content/properties/source/properties/url",
        "/properties/content/properties/overlay/properties/url",
    ] {
        if let Some(Value::Object(url)) = schema.pointer_mut(pointer)
            && url.remove("pattern").is_some()
        {
            url.insert("allOf".into(), serde_json::json!([file_url.clone()]));
        }
    }
    schema
}

/// The pattern every org, site, branch and secret id follows.
pub const ID_PATTERN: &str = "^[a-z0-9][a-z0-9-]*$";

fn id_pattern_schema() -> Value {
    serde_json::json!({ "pattern": ID_PATTERN })
}

fn to_diagnostics(error: &ValidationError<'_>, schema: &Value) -> Vec<Diagnostic> {
    let pointer = error.instance_path().as_str().to_string();
    let key = pointer.rsplit('/').next().unwrap_or_default();
    // What the message calls the value: its key, or the whole document at the root.
    let subject = if pointer.is_empty() {
        "the document".to_string()
    } else {
        format!("`{key}`")
    };
    let subschema = schema.pointer(parent_pointer(error.schema_path().as_str()));
    match error.kind() {
        ValidationErrorKind::AdditionalProperties { unexpected } => unexpected
            .iter()
            .map(|name| {
                let known = known_properties(subschema);
                let child = push_token(&pointer, name);
                let mut diagnostic = Diagnostic::error(
                    Code::UnknownKey,
                    format!("unknown key `{name}` in {}", table_name(&child)),
                )
                .at_key(child);
                if let Some(help) = unknown_key_help(name, &known) {
                    diagnostic = diagnostic.with_help(help);
                }
                diagnostic
            })
            .collect(),
        ValidationErrorKind::Required { property } => {
            let name = property.as_str().unwrap_or_default();
            let child = push_token(&pointer, name);
            let description = subschema
                .and_then(|s| s.pointer(&format!("/properties/{name}/description")))
                .and_then(Value::as_str);
            let mut diagnostic = Diagnostic::error(
                Code::MissingKey,
                format!("missing key `{name}` in {}", table_name(&child)),
            )
            .at_pointer(child);
            if let Some(description) = description {
                diagnostic = diagnostic.with_help(format!("`{name}`: {description}"));
            }
            vec![diagnostic]
        }
        ValidationErrorKind::Type { kind } => vec![
            Diagnostic::error(
                Code::WrongType,
                format!(
                    "{subject} must be {}, found {}",
                    expected_type(kind),
                    json_type(error.instance())
                ),
            )
            .at_pointer(pointer),
        ],
        ValidationErrorKind::PropertyNames { error } => {
            let name = error.instance().as_str().unwrap_or_default();
            vec![
                Diagnostic::error(Code::InvalidName, format!("invalid name `{name}`"))
                    .with_help("names use lowercase letters, digits and dashes, and start with a letter or digit")
                    .at_key(push_token(&pointer, name)),
            ]
        }
        // The value itself may be long: its length says it.
        ValidationErrorKind::MaxLength { limit } => vec![
            Diagnostic::error(
                Code::InvalidValue,
                format!(
                    "{subject} has {} characters, more than the {limit} allowed",
                    error
                        .instance()
                        .as_str()
                        .map_or(0, |text| text.chars().count())
                ),
            )
            .at_pointer(pointer),
        ],
        ValidationErrorKind::Enum { options } => vec![
            Diagnostic::error(
                Code::InvalidValue,
                format!("{subject} cannot be {}", error.instance()),
            )
            .with_help(format!("allowed values: {}", list_values(options)))
            .at_pointer(pointer),
        ],
        _ => vec![
            Diagnostic::error(
                Code::InvalidValue,
                format!("{subject}: {}", error.to_string().trim_end_matches('.')),
            )
            .at_pointer(pointer),
        ],
    }
}

fn parent_pointer(pointer: &str) -> &str {
    pointer.rfind('/').map_or("", |slash| &pointer[..slash])
}

fn known_properties(subschema: Option<&Value>) -> Vec<&str> {
    subschema
        .and_then(|s| s.get("properties"))
        .and_then(Value::as_object)
        .map(|properties| properties.keys().map(String::as_str).collect())
        .unwrap_or_default()
}

fn unknown_key_help(name: &str, known: &[&str]) -> Option<String> {
    if known.is_empty() {
        return None;
    }
    Some(match near_miss(name, known) {
        Some(candidate) => format!("did you mean `{candidate}`?"),
        None => format!(
            "known keys here: {}",
            known
                .iter()
                .map(|k| format!("`{k}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    })
}

/// The candidate a mistyped key was surely meant to be: the closest, if it is a small
/// edit away (at most 2, or a third of its length).
pub(crate) fn near_miss<'c>(name: &str, candidates: &[&'c str]) -> Option<&'c str> {
    candidates
        .iter()
        .map(|candidate| (edit_distance(name, candidate), *candidate))
        .min()
        .filter(|(distance, candidate)| *distance <= 2.max(candidate.len() / 3))
        .map(|(_, candidate)| candidate)
}

/// Levenshtein distance, case-insensitive: enough to suggest `suffix` for `sufix`.
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.to_lowercase().chars().collect();
    let b: Vec<char> = b.to_lowercase().chars().collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut current = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let substitution = previous[j] + usize::from(ca != cb);
            current.push(substitution.min(previous[j + 1] + 1).min(current[j] + 1));
        }
        previous = current;
    }
    previous[b.len()]
}

/// The type a value must have, in the words of the file. `null` is how the schema says a
/// value may be absent, which a TOML or YAML file says by leaving the key out (TOML has
/// no null at all): "a string (or left out)", never "a null or a string".
fn expected_type(kind: &TypeKind) -> String {
    let name = |t: &dyn std::fmt::Display| match t.to_string().as_str() {
        "object" => "a table".to_string(),
        "array" => "an array".to_string(),
        "integer" => "an integer".to_string(),
        other => format!("a {other}"),
    };
    let names: Vec<String> = match kind {
        TypeKind::Single(t) => vec![t.to_string()],
        TypeKind::Multiple(set) => set.iter().map(|t| t.to_string()).collect(),
    };
    let optional = names.iter().any(|n| n == "null");
    let types: Vec<String> = names
        .iter()
        .filter(|n| *n != "null")
        .map(|n| name(n))
        .collect();
    match (types.is_empty(), optional) {
        (true, _) => "left out".to_string(),
        (false, true) => format!("{} (or left out)", types.join(" or ")),
        (false, false) => types.join(" or "),
    }
}

fn json_type(value: &Value) -> String {
    match value {
        Value::Null => "nothing".into(),
        Value::Bool(b) => format!("a boolean ({b})"),
        Value::Number(n) => format!("a number ({n})"),
        Value::String(s) => format!("a string ({s:?})"),
        Value::Array(_) => "an array".into(),
        Value::Object(_) => "a table".into(),
    }
}

fn list_values(options: &Value) -> String {
    options
        .as_array()
        .map(|values| {
            values
                .iter()
                .map(Value::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        })
        .unwrap_or_else(|| options.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn codes(kind: SchemaKind, value: Value) -> Vec<(Code, String, String)> {
        kind.check(&value)
            .into_iter()
            .map(|d| (d.code, d.pointer.unwrap_or_default(), d.message))
            .collect()
    }

    #[test]
    fn every_schema_compiles() {
        for kind in SchemaKind::ALL {
            let _ = kind.validator();
        }
    }

    #[test]
    fn all_problems_come_back_at_once_with_pointers() {
        let problems = codes(
            SchemaKind::SiteFile,
            json!({"version": 2, "content": {"source": {"url": 3, "sufix": ".html"}}}),
        );
        let summary: Vec<(Code, &str)> =
            problems.iter().map(|(c, p, _)| (*c, p.as_str())).collect();
        assert!(
            summary.contains(&(Code::InvalidValue, "/version")),
            "{problems:?}"
        );
        assert!(
            summary.contains(&(Code::WrongType, "/content/source/url")),
            "{problems:?}"
        );
        assert!(
            summary.contains(&(Code::MissingKey, "/content/source/type")),
            "{problems:?}"
        );
        assert!(
            summary.contains(&(Code::UnknownKey, "/content/source/sufix")),
            "{problems:?}"
        );
    }

    #[test]
    fn unknown_keys_suggest_the_closest_known_key() {
        let diagnostics = SchemaKind::ApiContent
            .check(&json!({"source": {"url": "u", "type": "markup", "sufix": "x"}}));
        assert_eq!(
            diagnostics[0].help.as_deref(),
            Some("did you mean `suffix`?")
        );
    }

    /// A value outside a closed set names the allowed values; an open set (the code source
    /// type) takes any string.
    #[test]
    fn closed_sets_name_their_values() {
        let helps = |kind: SchemaKind, value: Value| -> Vec<(String, String)> {
            kind.check(&value)
                .into_iter()
                .map(|d| (d.pointer.unwrap_or_default(), d.help.unwrap_or_default()))
                .collect()
        };
        assert_eq!(
            helps(
                SchemaKind::AccessFile,
                json!({"admin": {"requireAuth": "maybe"}})
            ),
            [(
                "/admin/requireAuth".to_string(),
                r#"allowed values: true, false, "auto""#.to_string()
            )]
        );
        for version in [json!(2), json!(-1), json!(0)] {
            assert_eq!(
                helps(SchemaKind::SiteFile, json!({ "version": version })),
                [("/version".to_string(), "allowed values: 1".to_string())]
            );
        }
        // A value of the wrong type is one problem, not also one of the closed set.
        let problems = SchemaKind::SiteFile.check(&json!({"version": "1"}));
        let problems: Vec<(Code, Option<&str>)> = problems
            .iter()
            .map(|d| (d.code, d.help.as_deref()))
            .collect();
        assert_eq!(problems, [(Code::WrongType, Some("allowed values: 1"))]);
        let code = json!({"owner": "acme", "repo": "web", "source": {"type": "gitlab", "url": "https://x"}});
        assert_eq!(helps(SchemaKind::ApiCode, code), []);
    }

    /// Issue 28: an optional value's type is said in the file's words: TOML has no null.
    #[test]
    fn optional_values_are_said_to_be_left_out_not_null() {
        let problems = codes(
            SchemaKind::SiteFile,
            json!({"content": {"source": {"url": "https://x", "type": "markup", "suffix": 3}}}),
        );
        assert_eq!(
            problems,
            [(
                Code::WrongType,
                "/content/source/suffix".to_string(),
                "`suffix` must be a string (or left out), found a number (3)".to_string()
            )]
        );
    }

    #[test]
    fn secret_ids_follow_the_id_pattern() {
        let problems = codes(SchemaKind::SecretsFile, json!({"Bad_Id": {"env": "X"}}));
        assert_eq!(problems.len(), 1, "{problems:?}");
    }

    #[test]
    fn worker_config_needs_at_least_one_entry() {
        assert_eq!(codes(SchemaKind::ApiWorkerConfig, json!([])).len(), 1);
        assert!(
            codes(
                SchemaKind::ApiWorkerConfig,
                json!([{"path": "/", "endpoint": "https://x"}])
            )
            .is_empty()
        );
    }
}
