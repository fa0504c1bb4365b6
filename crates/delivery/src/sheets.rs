//! The metadata sheets the pipeline reads from the content bus beside the configuration
//! (`fetch-sourced-metadata.js`, `fetch-mapped-metadata.js`): a sheet's `data` rows (of
//! its `default` sheet when it has several) become [`Modifiers`].

use serde_json::Value;

use crate::bus::{Bus, BusObject, Buses, Fetched, MAX_OBJECT_BYTES};
use crate::modifiers::Modifiers;

/// Why a sheet fails the answer: the status and the `x-error` message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub(crate) struct SheetError {
    pub(crate) status: u16,
    pub(crate) message: String,
}

fn fail(status: u16, message: String) -> SheetError {
    SheetError { status, message }
}

/// A sheet's rows: `None` when it is absent or has no `data` (nothing to apply), an error
/// when it cannot be read or is not a sheet. `name` is how messages call it.
pub(crate) async fn read_rows(
    buses: &impl Buses,
    path: &str,
    name: &str,
) -> Result<Option<(Vec<Value>, BusObject)>, SheetError> {
    let object = match buses.get(Bus::Content, path).await {
        Fetched::Found(object) => object,
        Fetched::NotFound => return Ok(None),
        Fetched::Failed(why) => return Err(fail(502, format!("failed to load {name}: {why}"))),
    };
    if object.body.len() > MAX_OBJECT_BYTES {
        return Err(fail(
            502,
            format!("failed to load {name}: larger than {MAX_OBJECT_BYTES} bytes"),
        ));
    }
    let json: Value = serde_json::from_slice(&object.body)
        .map_err(|e| fail(500, format!("failed parsing of {name}: {e}")))?;
    // `json.default ?? json`, then its `data`.
    let sheet = match &json {
        Value::Null => {
            return Err(fail(
                500,
                "Cannot read properties of null (reading 'default')".into(),
            ));
        }
        Value::Object(map) => match map.get("default") {
            Some(default) if !default.is_null() => default,
            _ => &json,
        },
        _ => &json,
    };
    let data = match sheet {
        Value::Object(map) => map.get("data"),
        _ => None,
    };
    match data {
        // No data (or a false-like one): nothing to apply.
        None | Some(Value::Null | Value::Bool(false)) => Ok(None),
        Some(Value::String(s)) if s.is_empty() => Ok(None),
        Some(Value::Number(n)) if n.as_f64() == Some(0.0) => Ok(None),
        Some(Value::Array(rows)) => Ok(Some((rows.clone(), object))),
        Some(_) => Err(fail(
            500,
            format!("failed loading of {name}: data must be an array"),
        )),
    }
}

/// `fetchSourcedMetadata`'s sheets, in the configuration's order, as one modifiers map; the
/// dates of those read, for `last-modified`.
pub(crate) async fn sourced(
    buses: &impl Buses,
    sources: &[String],
    key_prefix: &str,
) -> Result<(Modifiers, Vec<Option<String>>), SheetError> {
    let mut rows = Vec::new();
    let mut dates = Vec::new();
    for source in sources {
        let name = format!("{key_prefix}/{source}");
        // The reference joins `<bus>/<partition>/` and the source, so `/metadata.json`
        // (as sources are written) would name a key with `//`: the sheet's path is meant.
        let path = format!("/{}", source.trim_start_matches('/'));
        if let Some((data, object)) = read_rows(buses, &path, &name).await? {
            rows.extend(data);
            dates.push(object.last_modified);
        }
    }
    Ok((Modifiers::from_sheet(&rows), dates))
}

/// `fetchMappedMetadata`: the mapped folder's `metadata.json`.
pub(crate) async fn mapped(buses: &impl Buses, mapped_path: &str) -> Result<Modifiers, SheetError> {
    let path = format!("{mapped_path}/metadata.json");
    Ok(read_rows(buses, &path, &path)
        .await?
        .map_or_else(Modifiers::default, |(rows, _)| Modifiers::from_sheet(&rows)))
}
