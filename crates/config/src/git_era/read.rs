//! Reading one git-era file: UTF-8, YAML (JSON is read as the YAML it also is, so that
//! its values have spans too), the keys siteops has no place for, then the schema of the
//! file it becomes. Every problem is located in the original file.

use std::sync::Arc;

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use super::Report;
use crate::diagnostic::{Code, Diagnostic};
use crate::document::{Document, Spans, push_token};
use crate::schema::SchemaKind;
use crate::source::SourceFile;

/// A parsed file: its value and where each part of it is.
pub(super) struct Read {
    pub(super) value: Value,
    pub(super) spans: Spans,
}

impl Read {
    pub(super) fn locate(&self, diagnostic: Diagnostic) -> Diagnostic {
        self.spans.locate(diagnostic)
    }

    /// A warning that what is at `pointer` is not carried over, and why.
    pub(super) fn not_carried(&self, pointer: &str, what: &str, why: &str) -> Diagnostic {
        self.locate(
            Diagnostic::warning(
                Code::NotCarriedOver,
                format!("{what} is not carried over: {why}"),
            )
            .at_key(pointer),
        )
    }
}

/// The file's text, or an `invalid-utf8` error.
pub(super) fn text(path: &str, bytes: &[u8], report: &mut Report) -> Option<Arc<SourceFile>> {
    match std::str::from_utf8(bytes) {
        Ok(text) => {
            let source = SourceFile::new(path, text);
            report.sources.insert(path.to_string(), source.clone());
            Some(source)
        }
        Err(error) => {
            let source = SourceFile::new(path, String::from_utf8_lossy(bytes));
            let at = error.valid_up_to();
            report.diagnostics.push(
                Diagnostic::error(Code::InvalidUtf8, "the file is not valid UTF-8")
                    .with_help("save the file as UTF-8")
                    .at(&source, at..at),
            );
            report.sources.insert(path.to_string(), source);
            None
        }
    }
}

/// The file as a YAML (or JSON) document.
pub(super) fn yaml(path: &str, bytes: &[u8], report: &mut Report) -> Option<Read> {
    let source = text(path, bytes, report)?;
    match Document::parse_yaml(source) {
        Ok(Document { value, spans }) => Some(Read { value, spans }),
        Err(errors) => {
            report.diagnostics.extend(errors);
            None
        }
    }
}

/// The object at `pointer`, or a `wrong-type` error there.
pub(super) fn object<'v>(
    read: &Read,
    value: &'v Value,
    pointer: &str,
    what: &str,
    report: &mut Report,
) -> Option<&'v Map<String, Value>> {
    let object = value.as_object();
    if object.is_none() {
        report.diagnostics.push(
            read.locate(
                Diagnostic::error(Code::WrongType, format!("{what} is not a mapping"))
                    .at_pointer(pointer),
            ),
        );
    }
    object
}

/// Removes from the object at `pointer` every key not in `known`, each reported with
/// `why(key)`.
pub(super) fn drop_unknown(
    read: &Read,
    object: &mut Map<String, Value>,
    pointer: &str,
    known: &[&str],
    why: impl Fn(&str) -> String,
    report: &mut Report,
) {
    let unknown: Vec<String> = (object.keys())
        .filter(|key| !known.contains(&key.as_str()))
        .cloned()
        .collect();
    for key in unknown {
        object.remove(&key);
        report.diagnostics.push(read.not_carried(
            &push_token(pointer, &key),
            &format!("`{key}`"),
            &why(&key),
        ));
    }
}

/// `value` as the file type of `schema`, its problems located in `read`'s file; `None`
/// when it has any error.
pub(super) fn typed<T: DeserializeOwned>(
    read: &Read,
    value: &Value,
    schema: SchemaKind,
    report: &mut Report,
) -> Option<T> {
    let problems = schema.check(value);
    let failed = problems.iter().any(Diagnostic::is_error);
    report.diagnostics.extend(read.spans.locate_all(problems));
    if failed {
        return None;
    }
    match T::deserialize(value) {
        Ok(typed) => Some(typed),
        Err(error) => {
            report.diagnostics.push(read.locate(Diagnostic::error(
                Code::InvalidValue,
                format!("the file does not fit its format: {error}"),
            )));
            None
        }
    }
}

/// A `wrong-type`-free list: a string stands for a list of one, as the platform's
/// schema validation (`coerceTypes: 'array'`) reads it.
pub(super) fn coerce_to_array(value: &mut Value) {
    if let Value::String(one) = value {
        *value = Value::Array(vec![Value::String(std::mem::take(one))]);
    }
}

/// Adds the rules' problems, located in `read`'s file; `None` when one is an error.
pub(super) fn ruled(read: &Read, problems: Vec<Diagnostic>, report: &mut Report) -> Option<()> {
    let failed = problems.iter().any(Diagnostic::is_error);
    report.diagnostics.extend(read.spans.locate_all(problems));
    (!failed).then_some(())
}
