//! A sheet's JSON filtered by a request's `limit`, `offset` and `sheet` parameters, as
//! the platform's `utils/json-filter.js` answers: the shapes (`total`, `offset`, `limit`,
//! `data`, `columns`, `:type`; a multi-sheet's sheets, `:version`, `:names`), their key
//! order and number forms, and its errors with their statuses.
//!
//! A request with none of the parameters gets the stored bytes back unless the document
//! is a multi-sheet (`:names`). The work is linear in the document: each sheet is
//! filtered once however often `:names` repeats it, and `limit` only bounds a slice of
//! what is there, so no parameter makes the answer larger than the document.

use std::collections::{HashMap, HashSet};

use siteops_template::json::{Json, JsonRef, Kind};
use url::Url;

use crate::js_json::{
    js_property_order, js_string, object_entries, write_compact, write_number, write_string,
};
use crate::pipe_support::parse_int;

/// Rows a sheet gives when the request names no `limit`.
pub(crate) const DEFAULT_LIMIT: f64 = 1000.0;

/// The filter's parameters, read from a request's query as the reference reads them.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct JsonQuery {
    /// `parseInt(limit)` (`NaN` for `limit=abc`); `None` when absent or empty.
    pub(crate) limit: Option<f64>,
    pub(crate) offset: Option<f64>,
    /// Every `sheet` value, when the last one is not empty.
    pub(crate) sheets: Vec<String>,
    /// None of `limit`, `offset`, `sheet` is in the query (empty ones count as present).
    pub(crate) raw: bool,
}

impl JsonQuery {
    pub(crate) fn from_url(url: &Url) -> JsonQuery {
        let (mut limit, mut offset, mut sheet) = (None, None, None);
        let mut sheets = Vec::new();
        for (name, value) in url.query_pairs() {
            match &*name {
                "limit" => limit = Some(value.into_owned()),
                "offset" => offset = Some(value.into_owned()),
                "sheet" => {
                    sheets.push(value.to_string());
                    sheet = Some(value.into_owned());
                }
                _ => {}
            }
        }
        let raw = limit.is_none() && offset.is_none() && sheet.is_none();
        // `Object.fromEntries` keeps a parameter's last value; an empty `sheet` is none.
        if sheet.as_deref().is_none_or(str::is_empty) {
            sheets.clear();
        }
        let number = |v: Option<String>| v.filter(|v| !v.is_empty()).map(|v| parse_int(&v));
        JsonQuery {
            limit: number(limit),
            offset: number(offset),
            sheets,
            raw,
        }
    }
}

/// Which bus the document came from: errors in the code's JSON are the request's
/// (400), in the content's the platform's (502).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SourceBus {
    Content,
    Code,
}

/// What the filter answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Filtered {
    /// The stored bytes as they are.
    Stored,
    /// The stored bytes as they are, as text: they are not JSON.
    StoredAsText,
    /// The filtered JSON.
    Json(String),
}

/// A status the filter answers with, and why (the `x-error` header).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub(crate) struct FilterError {
    pub(crate) status: u16,
    pub(crate) message: String,
}

impl FilterError {
    fn new(status: u16, message: impl Into<String>) -> FilterError {
        FilterError {
            status,
            message: message.into(),
        }
    }

    /// A `TypeError` the reference throws on a malformed sheet: a 500 with its message.
    fn type_error(message: impl Into<String>) -> FilterError {
        FilterError::new(500, message)
    }
}

const NAMES_KEY: &str = ":names";

/// The properties every JavaScript object inherits: `json[name]` finds them when the
/// document has no such key.
const OBJECT_PROTOTYPE: [&str; 12] = [
    "__proto__",
    "constructor",
    "hasOwnProperty",
    "isPrototypeOf",
    "propertyIsEnumerable",
    "toLocaleString",
    "toString",
    "valueOf",
    "__defineGetter__",
    "__defineSetter__",
    "__lookupGetter__",
    "__lookupSetter__",
];

/// Filters the document `data` read from `source` by `query`.
pub(crate) fn filter(
    data: &[u8],
    source: SourceBus,
    query: &JsonQuery,
) -> Result<Filtered, FilterError> {
    let text = String::from_utf8_lossy(data);
    let mut buffer = Vec::new();
    let json = match Json::parse(text.as_bytes(), &mut buffer) {
        Ok(json) => json,
        Err(_) if query.raw => return Ok(Filtered::StoredAsText),
        // The reference's message is V8's, which names the offending token differently.
        Err(e) => return Err(FilterError::new(502, format!("failed to parse json: {e}"))),
    };
    let malformed = if source == SourceBus::Code { 400 } else { 502 };
    let Kind::Object(object) = json.root().kind() else {
        if query.raw && source == SourceBus::Code {
            return Ok(Filtered::Stored);
        }
        return Err(FilterError::new(malformed, "json sheet is not an object."));
    };
    let members: HashMap<&str, JsonRef<'_>> = object_entries(object).into_iter().collect();
    if query.raw && !members.contains_key(NAMES_KEY) {
        return Ok(Filtered::Stored);
    }

    // A single sheet is a multi-sheet of one, named `default`.
    let single = members
        .get("data")
        .is_some_and(|d| matches!(d.kind(), Kind::Array(_)));
    let lookup = |name: &str| -> Option<JsonRef<'_>> {
        if single {
            (name == "default").then(|| json.root())
        } else {
            members.get(name).copied()
        }
    };
    let names: Vec<JsonRef<'_>> = if single {
        Vec::new()
    } else {
        match members.get(NAMES_KEY) {
            Some(names) if truthy(*names) => match names.kind() {
                Kind::Array(array) => array.elements().collect(),
                _ => {
                    return Err(FilterError::type_error(
                        "json[NAMES_KEY].filter is not a function",
                    ));
                }
            },
            _ => {
                return Err(FilterError::new(
                    malformed,
                    "multisheet data invalid. missing \":names\" property.",
                ));
            }
        }
    };

    let mut requested = query.sheets.clone();
    if requested.is_empty() && (single || members.contains_key("default")) {
        requested.push("default".to_owned());
    }
    let wanted: HashSet<&str> = requested.iter().map(String::as_str).collect();

    // The sheets by name (first place), and every selected name as written in `:names`.
    let mut sheets: Vec<(String, String)> = Vec::new();
    let mut done: HashSet<String> = HashSet::new();
    let mut sheet_names: Vec<String> = Vec::new();
    let mut select = |key: String, written: String| -> Result<(), FilterError> {
        if !done.contains(&key) {
            let sheet = filter_sheet(
                lookup(&key),
                OBJECT_PROTOTYPE.contains(&key.as_str()),
                query,
            )?;
            done.insert(key.clone());
            sheets.push((key, sheet));
        }
        sheet_names.push(written);
        Ok(())
    };
    if single {
        if wanted.contains("default") {
            select("default".to_owned(), "\"default\"".to_owned())?;
        }
    } else {
        for name in names {
            // `indexOf` compares strictly: only a string name is ever requested.
            let selected = wanted.is_empty() || name.as_str().is_some_and(|n| wanted.contains(n));
            if selected {
                let mut written = String::new();
                write_compact(name, &mut written)
                    .map_err(|e| FilterError::type_error(e.to_string()))?;
                select(js_string(name), written)?;
            }
        }
    }

    if sheet_names.is_empty() && !requested.is_empty() {
        return Err(FilterError::new(
            404,
            format!(
                "filtered result does not contain selected sheet(s): {}",
                requested.join(",")
            ),
        ));
    }

    let body = if sheet_names.len() == 1 && requested.len() < 2 {
        let (_, sheet) = sheets.swap_remove(0);
        format!("{{{sheet},\":type\":\"sheet\"}}")
    } else {
        let mut members: Vec<(String, String)> = sheets
            .into_iter()
            .map(|(name, sheet)| (name, format!("{{{sheet}}}")))
            .collect();
        set_member(&mut members, ":version", "3".to_owned());
        set_member(
            &mut members,
            NAMES_KEY,
            format!("[{}]", sheet_names.join(",")),
        );
        set_member(&mut members, ":type", "\"multi-sheet\"".to_owned());
        js_property_order(&mut members, |(name, _)| name);
        let mut body = String::from("{");
        for (i, (name, value)) in members.iter().enumerate() {
            if i > 0 {
                body.push(',');
            }
            write_string(name, &mut body);
            body.push(':');
            body.push_str(value);
        }
        body.push('}');
        body
    };
    Ok(Filtered::Json(body))
}

/// Sets an object's member as JavaScript does: in its place if it exists, else last.
fn set_member(members: &mut Vec<(String, String)>, name: &str, value: String) {
    match members.iter_mut().find(|(n, _)| n == name) {
        Some(member) => member.1 = value,
        None => members.push((name.to_owned(), value)),
    }
}

/// One sheet, filtered: its members `total`, `offset`, `limit`, `data` and `columns`,
/// written without the braces (a single sheet adds `:type`).
fn filter_sheet(
    sheet: Option<JsonRef<'_>>,
    inherited: bool,
    query: &JsonQuery,
) -> Result<String, FilterError> {
    let limit = query.limit.unwrap_or(DEFAULT_LIMIT);
    let offset = query.offset.unwrap_or(0.0);
    let object = match sheet.map(JsonRef::kind) {
        // `json[name]` of a name an object inherits is a function, without `data`.
        None if inherited => None,
        None => {
            return Err(FilterError::type_error(
                "Cannot read properties of undefined (reading 'data')",
            ));
        }
        Some(Kind::Null) => {
            return Err(FilterError::type_error(
                "Cannot read properties of null (reading 'data')",
            ));
        }
        Some(Kind::Object(object)) => Some(object),
        Some(_) => None,
    };
    let member = |name: &str| object.and_then(|o| o.get(name));
    let data = member("data");
    let length = match data.map(JsonRef::kind) {
        None => {
            return Err(FilterError::type_error(
                "Cannot read properties of undefined (reading 'length')",
            ));
        }
        Some(Kind::Null) => {
            return Err(FilterError::type_error(
                "Cannot read properties of null (reading 'length')",
            ));
        }
        Some(Kind::Array(array)) => array.len(),
        Some(Kind::Str(s)) => s.encode_utf16().count(),
        Some(_) => {
            return Err(FilterError::type_error(
                "dataStruct.data.slice is not a function",
            ));
        }
    };
    // `Math.min(limit, length - offset)`, then `slice(offset, offset + len)`.
    let len = js_min(limit, length as f64 - offset);
    let (from, to) = slice_bounds(length, offset, offset + len);

    let mut out = String::new();
    if let Some(total) = member("total") {
        out.push_str("\"total\":");
        write(total, &mut out)?;
        out.push(',');
    }
    out.push_str("\"offset\":");
    write_number(offset, &mut out);
    out.push_str(",\"limit\":");
    out.push_str(&(to - from).to_string());
    out.push_str(",\"data\":");
    match data.map(JsonRef::kind) {
        Some(Kind::Array(array)) => {
            out.push('[');
            for (i, row) in array.elements().skip(from).take(to - from).enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write(row, &mut out)?;
            }
            out.push(']');
        }
        Some(Kind::Str(s)) => {
            let units: Vec<u16> = s.encode_utf16().skip(from).take(to - from).collect();
            write_string(&String::from_utf16_lossy(&units), &mut out);
        }
        _ => {}
    }
    if let Some(columns) = member("columns").filter(|c| truthy(*c)) {
        out.push_str(",\"columns\":");
        write(columns, &mut out)?;
    }
    Ok(out)
}

fn write(value: JsonRef<'_>, out: &mut String) -> Result<(), FilterError> {
    write_compact(value, out).map_err(|e| FilterError::type_error(e.to_string()))
}

/// `Math.min` of two numbers: `NaN` when either is.
fn js_min(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        f64::NAN
    } else {
        a.min(b)
    }
}

/// `Array.prototype.slice(start, end)`'s range over `length` elements.
fn slice_bounds(length: usize, start: f64, end: f64) -> (usize, usize) {
    let length_f = length as f64;
    let clamp = |x: f64| -> usize {
        let x = if x.is_nan() { 0.0 } else { x.trunc() };
        let x = if x < 0.0 {
            (length_f + x).max(0.0)
        } else {
            x.min(length_f)
        };
        x as usize
    };
    let from = clamp(start);
    let to = clamp(end);
    (from, to.max(from))
}

/// JavaScript truthiness.
fn truthy(value: JsonRef<'_>) -> bool {
    match value.kind() {
        Kind::Null => false,
        Kind::Bool(b) => b,
        Kind::Number(n) => n != 0.0 && !n.is_nan(),
        Kind::Str(s) => !s.is_empty(),
        Kind::Array(_) | Kind::Object(_) => true,
    }
}

#[cfg(test)]
mod tests;
