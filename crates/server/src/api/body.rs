//! Request bodies parsed and validated before a handler acts on them: the body's JSON, with
//! the fields the service manages dropped, checked against its schema and the document
//! rules; 400 naming every problem.

use serde_json::Value;
use siteops_config::diagnostic::Diagnostic;
use siteops_config::schema::SchemaKind;

use super::ApiError;
use crate::sites::MANAGED;

/// Parses and validates a request body against a schema and the document rules.
pub(crate) fn parse_body(
    bytes: &[u8],
    schema: SchemaKind,
    rules: impl Fn(&Value) -> Vec<Diagnostic>,
) -> Result<Value, ApiError> {
    let mut value: Value = serde_json::from_slice(bytes)
        .map_err(|error| ApiError::bad_request(format!("invalid JSON: {error}")))?;
    if let Value::Object(map) = &mut value {
        for field in MANAGED {
            map.remove(field);
        }
    }
    let problems = schema.check(&value);
    if !problems.is_empty() {
        return Err(ApiError::invalid_body(&problems));
    }
    let errors: Vec<Diagnostic> = rules(&value)
        .into_iter()
        .filter(Diagnostic::is_error)
        .collect();
    if !errors.is_empty() {
        return Err(ApiError::invalid_body(&errors));
    }
    Ok(value)
}

/// Applies a rule function to a body already known to fit its schema.
pub(crate) fn typed<T: serde::de::DeserializeOwned>(
    value: &Value,
    rule: impl Fn(&T) -> Vec<Diagnostic>,
) -> Vec<Diagnostic> {
    serde_json::from_value::<T>(value.clone())
        .map(|t| rule(&t))
        .unwrap_or_default()
}
