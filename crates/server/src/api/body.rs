//! Request bodies parsed and validated before a handler acts on them: the body's JSON, with
//! the fields the service manages dropped, checked against its schema and the document
//! rules; 400 naming every problem.

use serde::de::DeserializeOwned;
use serde_json::Value;
use siteops_config::diagnostic::Diagnostic;
use siteops_config::schema::SchemaKind;

use super::ApiError;
use crate::sites::MANAGED;

/// A request body parsed once: the JSON as sent (what is stored and answered) and the
/// same body typed (what the rules and the handler's checks read), both validated.
#[derive(Debug, Clone)]
pub struct Parsed<T> {
    pub json: Value,
    pub typed: T,
}

/// Parses a request body once and validates it against a schema and the document rules:
/// 400 naming every problem.
pub(crate) fn parse_body<T: DeserializeOwned>(
    bytes: &[u8],
    schema: SchemaKind,
    rules: impl Fn(&T) -> Vec<Diagnostic>,
) -> Result<Parsed<T>, ApiError> {
    parse_value(parse_json(bytes)?, schema, rules)
}

/// A request body as JSON: 400 when it is not.
pub(crate) fn parse_json(bytes: &[u8]) -> Result<Value, ApiError> {
    serde_json::from_slice(bytes).map_err(|error| {
        ApiError::bad_request(format!("invalid JSON: {error}"))
            .with_code(super::error::code::TYPE_MISSING)
    })
}

/// Validates a JSON document as [`parse_body`] does: a request body, or a stored document
/// with a request's change applied.
pub(crate) fn parse_value<T: DeserializeOwned>(
    mut json: Value,
    schema: SchemaKind,
    rules: impl Fn(&T) -> Vec<Diagnostic>,
) -> Result<Parsed<T>, ApiError> {
    // The service's fields a client sends back are checked as the schema says (a date is
    // a string), then ignored.
    let problems = schema.check(&json);
    if !problems.is_empty() {
        return Err(ApiError::invalid_body(&problems));
    }
    if let Value::Object(map) = &mut json {
        for field in MANAGED {
            map.remove(field);
        }
    }
    // The schema is the type's: a body it accepts reads as the type, else that is the
    // schema's bug, answered as a bad request rather than ignored.
    let typed = T::deserialize(&json).map_err(|error| ApiError::bad_request(error.to_string()))?;
    let errors: Vec<Diagnostic> = rules(&typed)
        .into_iter()
        .filter(Diagnostic::is_error)
        .collect();
    if !errors.is_empty() {
        return Err(ApiError::invalid_body(&errors));
    }
    Ok(Parsed { json, typed })
}

/// The body of `POST …/apiKeys.json` (a site's, the org's, a profile's): the key's roles,
/// one or more role names as `admin.role` takes them, and what it is for.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct KeyRequest {
    /// What the key is for; no effect.
    #[serde(default)]
    pub description: Option<String>,
    /// The roles the key holds on the sites it is for.
    #[schemars(length(min = 1), inner(regex(pattern = siteops_config::model::api::ROLE_PATTERN)))]
    pub roles: Vec<String>,
}
