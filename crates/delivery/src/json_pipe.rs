//! `json-pipe`: the answer to a `.json` request, as the platform's `json-pipe.js` gives
//! it. The sheet is read from the content bus, else from the code bus, else through the
//! configuration's folder mapping (a JSON path maps only to a document: an exact key);
//! a stored redirect answers 301; a missing `/config.json` is the configuration's
//! `public` part; the rest is filtered by [`crate::json_filter`].
//!
//! Not ported: the `x-surrogate-key` header (the platform's CDN purging).

use siteops_template::json::Json;

use crate::bus::{Bus, Buses, Fetched};
use crate::config::PipelineConfig;
use crate::js_json::write_pretty;
use crate::json_filter::{Filtered, JsonQuery, SourceBus, filter};
use crate::pipe_support::{LastModified, set_custom_headers, set_error};
use crate::response::{DeliveryRequest, Response};

/// `json-pipe`: a sheet from the content bus (else the code bus), filtered by the
/// request's `limit` (default 1,000), `offset` and `sheet` parameters.
pub async fn json_pipe(
    request: &DeliveryRequest,
    config: &PipelineConfig,
    buses: &impl Buses,
) -> Response {
    let Some(info) = path_info(request.url.path()) else {
        // The reference's caller never passes a path it cannot read (`//`, `..`).
        let mut response = Response::new(404);
        set_error(&mut response, "invalid path");
        return response;
    };
    if info.extension != ".json" {
        let mut response = Response::new(400);
        set_error(&mut response, "only json resources supported.");
        return response;
    }
    let query = JsonQuery::from_url(&request.url);
    let mut dates = LastModified::default();
    dates.record("config", config.last_modified.as_deref());

    let mut path = info.path;
    let mut resource_path = info.resource_path;
    let mut read = read_sheet(buses, &path).await;
    if matches!(read, Read::Missing { failed: None })
        && let Some((_, mapped)) = config.folders.iter().find(|(folder, _)| *folder == path)
    {
        let Some(mapped_info) = path_info(mapped) else {
            return failure(
                request,
                config,
                &path,
                500,
                "Cannot set properties of null (setting 'unmappedPath')",
            );
        };
        // The mapped document's web path is read; errors name the folder's target.
        path = mapped_info.path;
        resource_path = mapped.clone();
        read = read_sheet(buses, &path).await;
    }

    let mut response = Response::new(200);
    response.set_header("content-type", "application/json");
    match read {
        Read::Redirect(location) => {
            let mut response = Response::new(301);
            response.set_header("location", location);
            return response;
        }
        Read::Missing { failed: None }
            if path == "/config.json" && public_config(config).is_some() =>
        {
            response.body = public_config(config).unwrap_or_default().into_bytes();
        }
        Read::Missing { failed } => {
            let (status, why) = match failed {
                Some(why) => (502, why),
                None => (404, "404".to_owned()),
            };
            let message = format!("failed to load {resource_path}: {why}");
            return failure(request, config, &path, status, &message);
        }
        Read::Found {
            body,
            source,
            last_modified,
        } => {
            dates.record("content", last_modified.as_deref());
            match filter(&body, source, &query) {
                Ok(Filtered::Stored) => response.body = body,
                Ok(Filtered::StoredAsText) => {
                    response.set_header("content-type", "text/plain; charset=utf-8");
                    response.body = body;
                }
                Ok(Filtered::Json(json)) => response.body = json.into_bytes(),
                Err(e) => return failure(request, config, &path, e.status, &e.message),
            }
        }
    }
    dates.apply(&mut response);
    set_custom_headers(config, request, &path, &mut response);
    response
}

/// The pipe's error answer: no body, `x-error`, and below 500 the custom headers.
fn failure(
    request: &DeliveryRequest,
    config: &PipelineConfig,
    path: &str,
    status: u16,
    message: &str,
) -> Response {
    let mut response = Response::new(status);
    set_error(&mut response, message);
    if status < 500 {
        set_custom_headers(config, request, path, &mut response);
    }
    response
}

/// `{ "public": config.public }`, indented by two, when `public` is truthy.
fn public_config(config: &PipelineConfig) -> Option<String> {
    let public = config.public.as_ref()?;
    let truthy = match public {
        serde_json::Value::Null => false,
        serde_json::Value::Bool(b) => *b,
        serde_json::Value::Number(n) => n.as_f64().is_some_and(|n| n != 0.0),
        serde_json::Value::String(s) => !s.is_empty(),
        serde_json::Value::Array(_) | serde_json::Value::Object(_) => true,
    };
    if !truthy {
        return None;
    }
    // Through the JavaScript-order writer: the configuration's keys reach here sorted
    // (serde_json's map), where the reference keeps their written order.
    let text = serde_json::json!({ "public": public }).to_string();
    let mut buffer = Vec::new();
    let json = Json::parse(text.as_bytes(), &mut buffer).ok()?;
    let mut out = String::new();
    write_pretty(json.root(), &mut out).ok()?;
    Some(out)
}

/// What reading a sheet gave.
enum Read {
    Found {
        body: Vec<u8>,
        source: SourceBus,
        last_modified: Option<String>,
    },
    Redirect(String),
    /// Not on either bus (`failed: None`), or a bus failed (with why).
    Missing {
        failed: Option<String>,
    },
}

/// `fetchJsonContent`: the content bus, and when it has nothing the code bus. A stored
/// redirect wins on either.
async fn read_sheet(buses: &impl Buses, path: &str) -> Read {
    let mut source = SourceBus::Content;
    let mut fetched = buses.get(Bus::Content, path).await;
    if fetched == Fetched::NotFound {
        source = SourceBus::Code;
        fetched = buses.get(Bus::Code, path).await;
    }
    match fetched {
        Fetched::Found(object) => match object.redirect_location.filter(|l| !l.is_empty()) {
            Some(location) => Read::Redirect(location),
            None => Read::Found {
                body: object.body,
                source,
                last_modified: object.last_modified,
            },
        },
        Fetched::NotFound => Read::Missing { failed: None },
        Fetched::Failed(why) => Read::Missing { failed: Some(why) },
    }
}

/// The parts of the reference's `getPathInfo` the pipe reads.
#[derive(Debug, Clone, PartialEq, Eq)]
struct PathInfo {
    /// The web path (`/data.json`, `/blog/` for a folder).
    path: String,
    /// The stored resource (`/data.json`, `/blog/index.md`).
    resource_path: String,
    /// The last dot's extension, `.html` when the name has none.
    extension: String,
}

/// `getPathInfo`: `None` for `//`, `.` or `..` segments.
fn path_info(path: &str) -> Option<PathInfo> {
    let path = if path.is_empty() { "/" } else { path };
    if path.contains("//") {
        return None;
    }
    let mut segments: Vec<&str> = path.split('/').skip(1).collect();
    if segments.is_empty() || segments.iter().any(|s| *s == "." || *s == "..") {
        return None;
    }
    let name = segments.pop().unwrap_or_default();
    let mut extension = ".html".to_owned();
    let (web_name, file_name) = if name.is_empty() || name == "index.md" || name == "index" {
        (String::new(), "index.md".to_owned())
    } else if !name.contains('.') {
        (name.to_owned(), format!("{name}.md"))
    } else {
        let first = name.find('.').unwrap_or_default();
        let last = name.rfind('.').unwrap_or_default();
        extension = name[last..].to_owned();
        let base = &name[..first];
        if last == first {
            (name.to_owned(), name.to_owned())
        } else {
            let selector = &name[first + 1..last];
            let file = if selector == "plain" && extension == ".html" {
                format!("{base}.md")
            } else {
                name.to_owned()
            };
            (name.to_owned(), file)
        }
    };
    let dir: String = segments.iter().map(|s| format!("/{s}")).collect();
    Some(PathInfo {
        path: format!("{dir}/{web_name}"),
        resource_path: format!("{dir}/{file_name}"),
        extension,
    })
}

#[cfg(test)]
mod tests;
