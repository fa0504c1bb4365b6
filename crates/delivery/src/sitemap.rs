//! The sitemap pipes: `/sitemap.xml` (`sitemap-pipe.js`) and `/sitemap-index.xml`
//! (`sitemap-index-pipe.js`), as the platform answers them.
//!
//! `/sitemap.xml` is the content bus's stored `sitemap.xml`, else one written from the
//! content bus's `sitemap.json` (its `data` rows' `path` and `lastModified`, in
//! seconds). `/sitemap-index.xml` lists the configuration's `sitemap.index`, else is the
//! code bus's `sitemap-index.xml`. Locations are on the preview host for the preview
//! partition, else on the production host.
//!
//! Differences: the reference reads `sitemap.json` from the live partition whatever the
//! request's; the buses here read the request's partition. Not ported: `x-surrogate-key`.

use siteops_template::json::{Json, JsonRef, Kind};

use crate::bus::{Bus, Buses, Fetched};
use crate::config::PipelineConfig;
use crate::dates;
use crate::pipe_support::{
    Hosts, LastModified, escape_xml, origin, parse_int, set_custom_headers, set_error,
};
use crate::response::{DeliveryRequest, Response};

const TEXT: &str = "text/plain; charset=utf-8";
const XML: &str = "application/xml; charset=utf-8";

/// The largest sitemap written from `sitemap.json`. Each row repeats the host, which
/// on the live partition may come from the request's `X-Forwarded-Host`: without a cap a
/// small `sitemap.json` and a long header would make an answer of gigabytes. (The
/// sitemaps protocol itself allows 50 MB.) The reference has no cap.
const MAX_SITEMAP_BYTES: usize = 64 << 20;

/// The sitemap pipes: `/sitemap.xml` and `/sitemap-index.xml`; any other path is the
/// caller's mistake (500, as the reference answers a wrong route).
pub async fn sitemap_pipe(
    request: &DeliveryRequest,
    config: &PipelineConfig,
    buses: &impl Buses,
) -> Response {
    let path = request.url.path();
    let outcome = match path {
        "/sitemap.xml" => sitemap(request, config, buses).await,
        "/sitemap-index.xml" => sitemap_index(request, config, buses).await,
        _ => {
            let mut response = Response::new(500);
            set_error(&mut response, "invalid route");
            return response;
        }
    };
    let mut response = Response::new(200);
    response.set_header("content-type", TEXT);
    match outcome {
        Ok(Sitemap { body, dates }) => {
            response.set_header("content-type", XML);
            response.body = body;
            dates.apply(&mut response);
            set_custom_headers(config, request, path, &mut response);
        }
        Err(Failure {
            status,
            message,
            location,
        }) => {
            response.status = status;
            if let Some(location) = location {
                response.set_header("location", location);
            }
            set_error(&mut response, &message);
            if status < 500 {
                set_custom_headers(config, request, path, &mut response);
            }
        }
    }
    response
}

/// A sitemap's text and its `last-modified` candidates.
struct Sitemap {
    body: Vec<u8>,
    dates: LastModified,
}

/// A failed answer: its status, why, and a stored redirect's target.
struct Failure {
    status: u16,
    message: String,
    location: Option<String>,
}

impl Failure {
    fn new(status: u16, message: impl Into<String>) -> Failure {
        Failure {
            status,
            message: message.into(),
            location: None,
        }
    }
}

/// `fetchContent` for `path` on `bus`: the stored file, a redirect (301 "moved"), or
/// why not.
async fn stored(buses: &impl Buses, bus: Bus, path: &str) -> Result<Sitemap, Failure> {
    let name = match bus {
        Bus::Content => "content",
        Bus::Code => "code",
    };
    match buses.get(bus, path).await {
        Fetched::Found(object) => {
            if let Some(location) = object.redirect_location.filter(|l| !l.is_empty()) {
                return Err(Failure {
                    location: Some(location),
                    ..Failure::new(301, "moved")
                });
            }
            let mut dates = LastModified::default();
            dates.record("content", object.last_modified.as_deref());
            Ok(Sitemap {
                body: object.body,
                dates,
            })
        }
        Fetched::NotFound => Err(Failure::new(
            404,
            format!("failed to load {path} from {name}-bus: 404"),
        )),
        Fetched::Failed(why) => Err(Failure::new(
            502,
            format!("failed to load {path} from {name}-bus: {why}"),
        )),
    }
}

async fn sitemap(
    request: &DeliveryRequest,
    config: &PipelineConfig,
    buses: &impl Buses,
) -> Result<Sitemap, Failure> {
    let mut found = match stored(buses, Bus::Content, "/sitemap.xml").await {
        Err(missing) if missing.status == 404 => {
            match buses.get(Bus::Content, "/sitemap.json").await {
                Fetched::Found(object) => {
                    let host = Hosts::new(config, request).sitemap_host(config, request);
                    let body = generate_sitemap(&object.body, &host)?;
                    let mut dates = LastModified::default();
                    dates.record("content", object.last_modified.as_deref());
                    Sitemap {
                        body: body.into_bytes(),
                        dates,
                    }
                }
                // Without a `sitemap.json` the answer is the missing `sitemap.xml`.
                _ => return Err(missing),
            }
        }
        other => other?,
    };
    found
        .dates
        .record("config", config.last_modified.as_deref());
    Ok(found)
}

/// `generateSitemap`: a `<url>` per row of `sitemap.json`'s `data`.
fn generate_sitemap(json: &[u8], host: &str) -> Result<String, Failure> {
    let text = String::from_utf8_lossy(json);
    let mut buffer = Vec::new();
    let json = Json::parse(text.as_bytes(), &mut buffer)
        // The reference's message ends with V8's, which words the same fault differently.
        .map_err(|e| Failure::new(404, format!("Failed to parse /sitemap.json: {e}")))?;
    let data = match json.root().kind() {
        Kind::Null => {
            return Err(Failure::new(
                500,
                "Cannot destructure property 'data' of 'config' as it is null.",
            ));
        }
        _ => json.root().get("data").and_then(JsonRef::as_array),
    };
    let Some(data) = data else {
        return Err(Failure::new(
            404,
            "Expected 'data' array not found in /sitemap.json",
        ));
    };
    let origin = origin(host);
    let mut xml = String::from(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\" xmlns:xhtml=\"http://www.w3.org/1999/xhtml\">\n",
    );
    for record in data.elements() {
        if matches!(record.kind(), Kind::Null) {
            return Err(Failure::new(
                500,
                "Cannot destructure property 'path' of 'object null' as it is null.",
            ));
        }
        let path = record.get("path").map(to_text).unwrap_or_default();
        let seconds = record
            .get("lastModified")
            .map(|v| parse_int(&to_text(v)))
            .filter(|n| !n.is_nan())
            .unwrap_or(0.0);
        let day = dates::iso_day_prefix(seconds * 1000.0)
            .ok_or_else(|| Failure::new(500, "Invalid time value"))?;
        xml.push_str("  <url>\n    <loc>");
        xml.push_str(&origin);
        xml.push_str(&escape_xml(&path));
        xml.push_str("</loc>\n    <lastmod>");
        xml.push_str(&day);
        xml.push_str("</lastmod>\n  </url>\n");
        if xml.len() > MAX_SITEMAP_BYTES {
            return Err(Failure::new(
                500,
                format!("sitemap exceeds {MAX_SITEMAP_BYTES} bytes"),
            ));
        }
    }
    xml.push_str("</urlset>\n");
    Ok(xml)
}

async fn sitemap_index(
    request: &DeliveryRequest,
    config: &PipelineConfig,
    buses: &impl Buses,
) -> Result<Sitemap, Failure> {
    let mut found = match config.sitemap.as_ref().and_then(|s| s.index.as_ref()) {
        Some(index) => {
            let host = Hosts::new(config, request).sitemap_host(config, request);
            let mut dates = LastModified::default();
            let last_modified = config
                .sitemap
                .as_ref()
                .and_then(|s| s.last_modified.as_deref());
            dates.record("content", last_modified);
            Sitemap {
                body: generate_index(index, &host).into_bytes(),
                dates,
            }
        }
        None => stored(buses, Bus::Code, "/sitemap-index.xml").await?,
    };
    found
        .dates
        .record("config", config.last_modified.as_deref());
    Ok(found)
}

/// `generateSitemapIndex`: a `<sitemap>` per configured location, a `/`-rooted one on
/// the host (escaped), any other as written.
fn generate_index(index: &[String], host: &str) -> String {
    let origin = origin(host);
    let mut xml = String::from(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n",
    );
    for location in index {
        xml.push_str("  <sitemap>\n    <loc>");
        if location.starts_with('/') {
            xml.push_str(&origin);
            xml.push_str(&escape_xml(location));
        } else {
            xml.push_str(location);
        }
        xml.push_str("</loc>\n  </sitemap>\n");
    }
    xml.push_str("</sitemapindex>\n");
    xml
}

/// lodash's `toString` of a JSON value: JavaScript's `String`, but `null` as empty.
fn to_text(value: JsonRef<'_>) -> String {
    match value.kind() {
        Kind::Null => String::new(),
        _ => crate::js_json::js_string(value),
    }
}

#[cfg(test)]
mod tests;
