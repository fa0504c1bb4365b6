//! `html-pipe`: the answer to a page request (a path without extension, `.plain.html`, a
//! code `.html`, a `.md`), everything around the markdown render itself
//! (`siteops_ingest::render`), in the reference's order:
//!
//! ```text
//! path info ──invalid──▶ 404
//!   ──init-config (metadata and headers modifiers, hosts)──▶ fetch (content bus; code bus for .html)
//!   ──404──▶ code: the content bus's redirect, else 404 + 404.html
//!            content: the folder mapping's page (content bus) or file (code bus), else 404 + 404.html
//!   ──sourced and mapped metadata sheets──▶
//!   error (redirect 301, 404, 502) ──▶ x-error; below 500: custom headers, CSP on 404.html
//!   code or .md ──▶ custom headers, the file as it is (CSP on code)
//!   markdown ──▶ custom headers, render (metadata, CSP on the head) ──▶ last-modified
//! ```
//!
//! Not done, knowingly: `x-surrogate-key` (CDN purge keys, nothing purges here), the page
//! metadata's own `last-modified` (`applyMetaLastModified`; the render does not return
//! it).

use siteops_ingest::render::{CspInput, PageDelivery, PageOptions, page, plain};

use crate::bus::{Bus, BusObject, Buses, Fetched, MAX_OBJECT_BYTES};
use crate::config::PipelineConfig;
use crate::csp;
use crate::custom_headers::set_custom_headers;
use crate::dates;
use crate::modifiers::Modifiers;
use crate::path_info::{PathInfo, extension, is_valid, path_info};
use crate::pipe_support::{Hosts, LastModified, set_error};
use crate::response::{DeliveryRequest, Response};
use crate::sheets;

const HTML: &str = "text/html; charset=utf-8";

/// Sites created from this day render section metadata by default (rendering version 2).
const SECTION_METADATA_FROM: &str = "2026-05-01";

/// The request as the steps share it (the reference's `state`).
struct State<'a> {
    config: &'a PipelineConfig,
    info: PathInfo,
    source: Bus,
    /// The folder mapping that covers the request (`state.mappedPath`).
    mapped_path: Option<String>,
    /// The request is served by a mapped page of the content bus (`state.mapped`).
    mapped: bool,
    content: Option<BusObject>,
    /// Why the answer is not the page (`res.error`): a redirect, a 404, a failed read.
    error: Option<String>,
    dates: LastModified,
}

/// The answer to `request` for the site configured by `config`, reading from `buses`.
pub async fn html_pipe(
    request: &DeliveryRequest,
    config: &PipelineConfig,
    buses: &impl Buses,
) -> Response {
    let Some(info) = path_info(request.url.path()).filter(is_valid) else {
        let mut response = Response::new(404);
        response.set_header("x-error", "invalid path");
        return response;
    };
    let mut response = Response::new(200);
    response.set_header("content-type", HTML);
    let mut state = State {
        config,
        info,
        source: Bus::Content,
        mapped_path: None,
        mapped: false,
        content: None,
        error: None,
        dates: LastModified::default(),
    };
    // init-config
    let partition = request.partition.name();
    let metadata_rows = config
        .metadata
        .as_ref()
        .and_then(|m| match request.partition {
            crate::Partition::Preview => m.preview.as_ref(),
            crate::Partition::Live => m.live.as_ref(),
        });
    let mut metadata = metadata_rows.map_or_else(Modifiers::default, |m| Modifiers::new(&m.data));
    let headers = Modifiers::new(&config.headers);
    state
        .dates
        .record("config", config.last_modified.as_deref());

    // `.html` is the code's, but for `.plain.html`.
    if state.info.original_extension == ".html" && state.info.selector != "plain" {
        state.source = Bus::Code;
    }
    state.mapped_path = map_path(&config.folders, &state.info.path).map(str::to_owned);
    fetch_content(&mut state, buses, &mut response).await;
    if response.status == 404 {
        if state.source == Bus::Code {
            // A code file that is not there may still be a redirect of the content bus.
            let code_error = state.error.take();
            state.source = Bus::Content;
            fetch_content(&mut state, buses, &mut response).await;
            state.source = Bus::Code;
            if response.status != 301 {
                response.status = 404;
                state.error = code_error;
                fetch_404(&mut state, buses, &mut response).await;
            }
        } else {
            apply_folder_mapping(&mut state);
            if state.info.unmapped_path.is_empty() {
                fetch_404(&mut state, buses, &mut response).await;
            } else {
                fetch_content(&mut state, buses, &mut response).await;
                if response.status == 404 {
                    fetch_404(&mut state, buses, &mut response).await;
                }
            }
        }
    }

    // The sheets: read from the content bus only when the configuration has no rows.
    let sources = config.metadata.as_ref().map_or(&[][..], |m| &m.source[..]);
    let mut mapped_metadata = Modifiers::default();
    let sheets = async {
        if metadata.is_empty() && !sources.is_empty() {
            let bus_id = config.content_bus_id.as_deref().unwrap_or_default();
            let (sourced, dates) =
                sheets::sourced(buses, sources, &format!("{bus_id}/{partition}")).await?;
            metadata = sourced;
            for date in dates {
                state.dates.record("content", date.as_deref());
            }
        }
        if let Some(mapped_path) = &state.mapped_path {
            mapped_metadata = sheets::mapped(buses, mapped_path).await?;
        }
        Ok::<(), sheets::SheetError>(())
    };
    if let Err(error) = sheets.await {
        response.status = error.status;
        set_error(&mut response, &error.message);
        return response;
    }

    // `link` only on a page without selector.
    let is_page = state.info.selector.is_empty();
    let origin = request.origin.as_deref();
    if let Some(error) = &state.error {
        set_error(&mut response, error);
        if response.status < 500 {
            state.dates.apply(&mut response);
            set_custom_headers(&mut response, &headers, &state.info.path, is_page, origin);
            csp::on_code(&mut response, &request.nonce);
        }
        return response;
    }
    // The render sees the custom headers (its CSP step reads the policy headers).
    set_custom_headers(&mut response, &headers, &state.info.path, is_page, origin);
    let body = state.content.take().map(|c| c.body).unwrap_or_default();
    if state.source == Bus::Code || state.info.original_extension == ".md" {
        render_code(&state, body, &mut response, &request.nonce);
    } else {
        let markdown = String::from_utf8_lossy(&body);
        let options = page_options(request, &state, &metadata, &mapped_metadata, &response);
        if state.info.selector == "plain" {
            // The platform's answer starts with the newline that `rehype-format` puts
            // before the first section; `plain` leaves it out (the form compared as a
            // document).
            response.body = format!("\n{}", plain(&markdown, &options)).into_bytes();
        } else {
            let rendered = page(&markdown, &options);
            for (name, value) in rendered.headers {
                response.set_header(&name.to_ascii_lowercase(), value);
            }
            response.body = rendered.html.into_bytes();
        }
    }
    state.dates.apply(&mut response);
    response
}

/// What the render needs beyond the markdown, for this request.
fn page_options(
    request: &DeliveryRequest,
    state: &State<'_>,
    metadata: &Modifiers,
    mapped_metadata: &Modifiers,
    response: &Response,
) -> PageOptions {
    let config = state.config;
    let hosts = Hosts::new(config, request);
    let set = |host: String| (!host.is_empty()).then_some(host);
    let metadata_path = if state.info.unmapped_path.is_empty() {
        &state.info.path
    } else {
        &state.info.unmapped_path
    };
    let head_html = config.head_html();
    let header = response.header("content-security-policy");
    let report_only = response.header("content-security-policy-report-only");
    let csp = csp::page_needs_nonce(head_html, header, report_only).then(|| CspInput {
        nonce: request.nonce.clone(),
        header: header.map(str::to_owned),
        header_report_only: report_only.map(str::to_owned),
    });
    PageOptions {
        url: request.url.clone(),
        head_html: head_html.map(str::to_owned),
        delivery: PageDelivery {
            path: (state.info.path != request.url.path()).then(|| state.info.path.clone()),
            prod_host: set(hosts.prod),
            preview_host: set(hosts.preview),
            live_host: set(hosts.live),
            metadata: metadata.get(metadata_path),
            mapped_metadata: mapped_metadata.get(metadata_path),
            section_metadata: section_metadata(config),
            csp,
        },
    }
}

/// `extract-section-metadata`'s switch: the configured rendering version (2 and up), else
/// the site's creation on or after [`SECTION_METADATA_FROM`].
fn section_metadata(config: &PipelineConfig) -> bool {
    let version = config
        .features
        .as_ref()
        .and_then(|f| f.rendering.as_ref())
        .and_then(|r| r.version);
    if let Some(version) = version {
        return version >= 2.0;
    }
    let created = config.created.as_deref().and_then(dates::parse);
    created.is_some_and(|c| dates::parse(SECTION_METADATA_FROM).is_some_and(|from| c >= from))
}

/// `mapPath`: the first folder that is the path, or a folder above it, and what it maps
/// to. (`siteops serve` previews that page when a page under the folder is viewed.)
pub fn map_path<'a>(folders: &'a [(String, String)], path: &str) -> Option<&'a str> {
    folders.iter().find_map(|(folder, mapping)| {
        let covers = path == folder
            || (folder.ends_with('/') && path.starts_with(folder.as_str()))
            || path
                .strip_prefix(folder.as_str())
                .is_some_and(|rest| rest.starts_with('/'));
        covers.then_some(mapping.as_str())
    })
}

/// `applyFolderMapping`: the mapped page (content bus) or file (code bus, when the mapping
/// has an extension) stands for the request.
fn apply_folder_mapping(state: &mut State<'_>) {
    let Some(mapped_path) = state.mapped_path.clone() else {
        return;
    };
    // A mapping that is no valid path leaves the request unmapped (the reference would fail
    // on it with a 500).
    let Some(mut info) = path_info(&mapped_path) else {
        return;
    };
    info.unmapped_path = state.info.path.clone();
    if extension(&mapped_path).is_empty() {
        state.mapped = true;
    } else {
        state.source = Bus::Code;
        info.resource_path = mapped_path;
    }
    state.info = info;
}

fn bus_name(bus: Bus) -> &'static str {
    match bus {
        Bus::Content => "content",
        Bus::Code => "code",
    }
}

/// `fetchContent`: the resource from the state's bus: its redirect, its body, or why not.
async fn fetch_content(state: &mut State<'_>, buses: &impl Buses, response: &mut Response) {
    let resource = state.info.resource_path.clone();
    let failed = |why: &str| {
        format!(
            "failed to load {resource} from {}-bus: {why}",
            bus_name(state.source)
        )
    };
    match buses.get(state.source, &resource).await {
        Fetched::Found(BusObject {
            redirect_location: Some(location),
            ..
        }) => {
            response.status = 301;
            response.body.clear();
            let mut location = location;
            if location.starts_with('/') && state.info.selector == "plain" {
                location.push_str(".plain.html");
            }
            response.set_header("location", location);
            state.error = Some("moved".into());
        }
        Fetched::Found(object) if object.body.len() > MAX_OBJECT_BYTES => {
            response.status = 502;
            state.error = Some(failed(&format!("larger than {MAX_OBJECT_BYTES} bytes")));
        }
        Fetched::Found(object) => {
            response.status = 200;
            state.error = None;
            state
                .dates
                .record("content", object.last_modified.as_deref());
            state.content = Some(object);
            // `/index` is refused, after its redirect was looked for.
            if state.info.original_filename == "index" {
                response.status = 404;
                state.error = Some(format!("request to {resource} not allowed (no-index)."));
            }
        }
        Fetched::NotFound => {
            response.status = 404;
            state.error = Some(failed("404"));
        }
        Fetched::Failed(why) => {
            response.status = 502;
            state.error = Some(failed(&why));
        }
    }
}

/// `fetch404`: the code's `404.html` as the body of a 404, when there is one.
async fn fetch_404(state: &mut State<'_>, buses: &impl Buses, response: &mut Response) {
    let Fetched::Found(object) = buses.get(Bus::Code, "/404.html").await else {
        return;
    };
    if object.body.len() > MAX_OBJECT_BYTES {
        return;
    }
    state
        .dates
        .record("content", object.last_modified.as_deref());
    if let Some(date) = &object.last_modified {
        response.set_header("last-modified", date.clone());
    }
    response.body = object.body;
    response.set_header("content-type", HTML);
}

/// `renderCode`: the file as it is, its type from its name (the charset kept), the CSP
/// nonce applied.
fn render_code(state: &State<'_>, body: Vec<u8>, response: &mut Response, nonce: &str) {
    let mut content_type = mime_type(&state.info.resource_path).to_owned();
    if let Some(charset) = response.header("content-type").and_then(charset) {
        content_type = format!("{content_type}; charset={charset}");
    }
    response.set_header("content-type", content_type);
    response.body = body;
    csp::on_code(response, nonce);
}

/// `CHARSET_RE`'s match: the value after `charset=`.
fn charset(content_type: &str) -> Option<String> {
    let lower = content_type.to_ascii_lowercase();
    let at = lower.find("charset=")? + "charset=".len();
    let value: String = content_type[at..]
        .chars()
        .take_while(|c| !c.is_whitespace() && !"()<>@,;:\"/[]?.=".contains(*c))
        .collect();
    Some(value)
}

/// `mime.getType` for what reaches the code path (code files, `.md`); JavaScript's `null`
/// for a type it does not know, as the reference writes it.
fn mime_type(path: &str) -> &'static str {
    let ext = extension(path).trim_start_matches('.').to_ascii_lowercase();
    match ext.as_str() {
        "html" | "htm" | "shtml" => "text/html",
        "md" | "markdown" => "text/markdown",
        "json" => "application/json",
        "txt" | "text" => "text/plain",
        "xml" => "application/xml",
        "css" => "text/css",
        "js" | "mjs" => "text/javascript",
        "svg" => "image/svg+xml",
        "csv" => "text/csv",
        "pdf" => "application/pdf",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "webp" => "image/webp",
        _ => "null",
    }
}

#[cfg(test)]
mod tests {
    use futures_executor::block_on;

    use super::*;
    use crate::pipe_support::memory::MemoryBuses;

    /// The answer to `url` from `objects`, configured by `config`.
    fn answer(url: &str, config: &str, objects: Vec<(Bus, &str, Fetched)>) -> Response {
        let request = DeliveryRequest {
            url: url::Url::parse(url).unwrap(),
            partition: crate::Partition::Live,
            origin: None,
            forwarded_host: None,
            nonce: "N0nce".into(),
        };
        let buses = MemoryBuses {
            objects: objects
                .into_iter()
                .map(|(bus, path, fetched)| (bus, path.to_owned(), fetched))
                .collect(),
        };
        block_on(html_pipe(
            &request,
            &PipelineConfig::from_json(config).unwrap(),
            &buses,
        ))
    }

    fn found(body: &[u8]) -> Fetched {
        Fetched::Found(BusObject {
            body: body.to_vec(),
            ..BusObject::default()
        })
    }

    // What the reference's cases cannot show: its loader never fails nor overflows.
    #[test]
    fn a_failing_bus_is_a_502_without_custom_headers() {
        let headers = r#"{"headers": {"/**": [{"key": "X-A", "value": "1"}]}}"#;
        let response = answer(
            "https://h/page",
            headers,
            vec![(Bus::Content, "/page.md", Fetched::Failed("503".into()))],
        );
        assert_eq!(response.status, 502);
        assert_eq!(
            response.header("x-error"),
            Some("failed to load /page.md from content-bus: 503")
        );
        assert_eq!(response.header("x-a"), None);
        assert!(response.body.is_empty());
    }

    #[test]
    fn objects_past_the_limit_are_refused() {
        let big = vec![b'a'; MAX_OBJECT_BYTES + 1];
        let response = answer(
            "https://h/page",
            "{}",
            vec![(Bus::Content, "/page.md", found(&big))],
        );
        assert_eq!(response.status, 502);
        assert!(response.body.is_empty());
        let response = answer(
            "https://h/missing",
            "{}",
            vec![(Bus::Code, "/404.html", found(&big))],
        );
        assert_eq!((response.status, response.body.len()), (404, 0));
    }

    #[test]
    fn a_folder_mapping_that_is_no_path_leaves_the_request_unmapped() {
        let response = answer(
            "https://h/a/b",
            r#"{"folders": {"/a": "//x"}}"#,
            vec![(Bus::Code, "/404.html", found(b"gone"))],
        );
        assert_eq!(
            (response.status, response.body.as_slice()),
            (404, &b"gone"[..])
        );
    }

    #[test]
    fn folders_cover_their_paths() {
        let folders = vec![
            ("/products".to_owned(), "/generic-product".to_owned()),
            (
                "/articles/".to_owned(),
                "/special/default-article".to_owned(),
            ),
        ];
        assert_eq!(map_path(&folders, "/products"), Some("/generic-product"));
        assert_eq!(
            map_path(&folders, "/products/a/b"),
            Some("/generic-product")
        );
        assert_eq!(map_path(&folders, "/productsx"), None);
        assert_eq!(
            map_path(&folders, "/articles/x"),
            Some("/special/default-article")
        );
        assert_eq!(map_path(&folders, "/articles"), None);
    }

    #[test]
    fn charsets_and_types() {
        assert_eq!(
            charset("text/html; charset=utf-8").as_deref(),
            Some("utf-8")
        );
        assert_eq!(charset("text/html"), None);
        assert_eq!(mime_type("/a/b.HTML"), "text/html");
        assert_eq!(mime_type("/a/b.weird"), "null");
    }

    #[test]
    fn section_metadata_by_version_or_creation() {
        let config = |json: &str| PipelineConfig::from_json(json).unwrap();
        assert!(section_metadata(&config(
            r#"{"features": {"rendering": {"version": 2}}}"#
        )));
        assert!(!section_metadata(&config(
            r#"{"features": {"rendering": {"version": 1}}, "created": "2027-01-01"}"#
        )));
        assert!(section_metadata(&config(
            r#"{"created": "2026-05-01T00:00:00Z"}"#
        )));
        assert!(!section_metadata(&config(r#"{"created": "2026-04-30"}"#)));
        assert!(!section_metadata(&config("{}")));
    }
}
