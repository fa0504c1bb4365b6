//! `siteops ingest`'s delivery: a page answered as the platform's pipeline answers it
//! (`siteops-delivery`'s html-pipe), from local folders standing for the content and code
//! buses, a pipeline configuration and, optionally, FILE as the page at the URL's path.
//!
//! The files are read here (the delivery is pure): only regular files under the given
//! folders, never past [`MAX_OBJECT_BYTES`].

use std::io::{Read, Write};
use std::path::{Component, Path, PathBuf};

use anyhow::{Context, Result, bail};
use siteops_delivery::bus::{Bus, BusObject, Buses, Fetched, MAX_OBJECT_BYTES};
use siteops_delivery::config::{Head, Metadata};
use siteops_delivery::path_info::path_info;
use siteops_delivery::{DeliveryRequest, Partition, PipelineConfig, Response, html_pipe};
use url::Url;

use super::super::Outcome;
use crate::cli::{IngestArgs, IngestFormat, IngestPartition};

/// Where `--metadata`'s sheet stands in the content bus: a name no site uses, so that it
/// neither hides nor doubles a sheet of `--content`.
const METADATA_FLAG_SOURCE: &str = ".siteops-ingest/metadata.json";

pub(super) fn run(args: &IngestArgs) -> Result<Outcome> {
    let flags = &args.delivery;
    if args.files.len() > 1 {
        bail!("the delivery's flags take one FILE at most: the page at --url's path");
    }
    if args.out.is_some() {
        bail!("--out is for converting files; the delivery prints its answer");
    }
    let format = match (args.format, args.files.is_empty()) {
        (Some(IngestFormat::Md), _) => {
            bail!("--format md prints the stored markdown; the delivery answers html or plain")
        }
        (Some(format), _) => Some(format),
        // With FILE, the page; without, whatever the URL asks.
        (None, false) => Some(IngestFormat::Html),
        (None, true) => None,
    };
    let mut config = match &flags.config {
        Some(file) => read_config(file)?,
        None => PipelineConfig::default(),
    };
    if let Some(head) = &args.head {
        let html = std::fs::read_to_string(head)
            .with_context(|| format!("cannot read the head.html {}", head.display()))?;
        config.head = Some(Head { html: Some(html) });
    }
    let mut overlay: Vec<(Bus, String, Vec<u8>)> = Vec::new();
    if let Some(sheet) = &flags.metadata {
        let bytes = read_file(sheet, MAX_OBJECT_BYTES)
            .with_context(|| format!("cannot read the --metadata sheet {}", sheet.display()))?;
        serde_json::from_slice::<serde_json::Value>(&bytes)
            .map_err(|e| located(sheet, "the --metadata sheet is not JSON", &e))?;
        overlay.push((Bus::Content, format!("/{METADATA_FLAG_SOURCE}"), bytes));
        config
            .metadata
            .get_or_insert_with(Metadata::default)
            .source
            .push(METADATA_FLAG_SOURCE.to_owned());
    }

    let mut url = match &args.url {
        Some(url) => url.clone(),
        None => Url::parse("http://localhost/").expect("a valid URL"),
    };
    if format == Some(IngestFormat::Plain) {
        url.set_path(&plain_path(url.path()));
    }
    if let Some(file) = args.files.first() {
        // FILE is the page the URL's path reads.
        let markdown = super::markdown_of(file, args)?;
        let Some(info) = path_info(url.path()) else {
            bail!("--url {url}: the pipeline refuses this path");
        };
        overlay.push((Bus::Content, info.resource_path, markdown.into_bytes()));
    }
    let nonce = match &flags.nonce {
        Some(nonce) => nonce.clone(),
        None => random_nonce()?,
    };
    let request = DeliveryRequest {
        url: url.clone(),
        partition: match flags.partition.unwrap_or(IngestPartition::Live) {
            IngestPartition::Live => Partition::Live,
            IngestPartition::Preview => Partition::Preview,
        },
        origin: None,
        forwarded_host: None,
        nonce,
    };
    let buses = FolderBuses {
        content: flags.content.clone(),
        code: flags.code.clone(),
        overlay,
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .context("cannot start the delivery")?;
    let response = runtime.block_on(html_pipe(&request, &config, &buses));

    if let Some(file) = &flags.dump_headers {
        std::fs::write(file, status_and_headers(&response))
            .with_context(|| format!("cannot write --dump-headers {}", file.display()))?;
    }
    if response.body.is_empty() {
        let why = response.header("x-error").unwrap_or("no reason given");
        let mut message = format!(
            "--url {url}: the delivery answered {} without a body ({why})",
            response.status
        );
        if let Some(location) = response.header("location") {
            message.push_str(&format!(", location {location}"));
        }
        if response.status == 404 {
            message.push_str(&missing_hint(
                flags.content.as_deref(),
                flags.code.as_deref(),
            ));
        }
        eprintln!("error: {message}");
        return Ok(Outcome::Failure);
    }
    std::io::stdout()
        .write_all(&response.body)
        .context("cannot write the answer")?;
    Ok(Outcome::Success)
}

/// Where a missing page was looked for.
fn missing_hint(content: Option<&Path>, code: Option<&Path>) -> String {
    let name = |flag: &str, dir: Option<&Path>| match dir {
        Some(dir) => format!("--{flag} {}", dir.display()),
        None => format!("no --{flag}"),
    };
    format!(
        "; looked in {} and {} (no 404.html there either)",
        name("content", content),
        name("code", code)
    )
}

/// `/a` → `/a.plain.html`, `/a/` → `/a/index.plain.html`; a path with an extension stays.
fn plain_path(path: &str) -> String {
    if path.ends_with('/') {
        return format!("{path}index.plain.html");
    }
    let last = path.rsplit('/').next().unwrap_or_default();
    if last.contains('.') {
        path.to_owned()
    } else {
        format!("{path}.plain.html")
    }
}

/// The pipeline configuration, or where it is wrong.
fn read_config(file: &Path) -> Result<PipelineConfig> {
    let bytes = read_file(file, MAX_OBJECT_BYTES)
        .with_context(|| format!("cannot read the --config {}", file.display()))?;
    let text = String::from_utf8(bytes)
        .map_err(|_| anyhow::anyhow!("the --config {} is not UTF-8", file.display()))?;
    PipelineConfig::from_json(&text)
        .map_err(|e| located(file, "the --config is not a pipeline configuration", &e))
}

/// `FILE:LINE:COL: what: why` for a JSON file's error.
fn located(file: &Path, what: &str, error: &serde_json::Error) -> anyhow::Error {
    // serde's message ends with where; the location leads here instead.
    let message = error.to_string();
    let message = message
        .rsplit_once(" at line ")
        .map_or(message.as_str(), |(m, _)| m);
    anyhow::anyhow!(
        "{}:{}:{}: {what}: {message}",
        file.display(),
        error.line(),
        error.column()
    )
}

/// A regular file's bytes, refused past `limit`.
fn read_file(file: &Path, limit: usize) -> Result<Vec<u8>> {
    let opened = std::fs::File::open(file)?;
    if !opened.metadata()?.is_file() {
        bail!("not a regular file");
    }
    let mut bytes = Vec::new();
    opened.take(limit as u64 + 1).read_to_end(&mut bytes)?;
    if bytes.len() > limit {
        bail!("larger than {limit} bytes");
    }
    Ok(bytes)
}

fn random_nonce() -> Result<String> {
    let mut bytes = [0u8; 18];
    getrandom::fill(&mut bytes).map_err(|e| anyhow::anyhow!("no randomness for the nonce: {e}"))?;
    Ok(siteops_delivery::csp::nonce_from(bytes))
}

/// The status line and headers, as `curl -D` writes them.
fn status_and_headers(response: &Response) -> String {
    let reason = http::StatusCode::from_u16(response.status)
        .ok()
        .and_then(|s| s.canonical_reason())
        .unwrap_or("");
    let mut text = format!("HTTP/1.1 {} {reason}\r\n", response.status);
    for (name, value) in &response.headers {
        text.push_str(&format!("{name}: {value}\r\n"));
    }
    text.push_str("\r\n");
    text
}

/// The buses as folders: `--content` and `--code`, with what the flags add on top.
struct FolderBuses {
    content: Option<PathBuf>,
    code: Option<PathBuf>,
    overlay: Vec<(Bus, String, Vec<u8>)>,
}

impl Buses for FolderBuses {
    async fn get(&self, bus: Bus, path: &str) -> Fetched {
        if let Some((_, _, body)) = self.overlay.iter().find(|(b, p, _)| *b == bus && p == path) {
            return Fetched::Found(BusObject {
                body: body.clone(),
                ..BusObject::default()
            });
        }
        let root = match bus {
            Bus::Content => self.content.as_deref(),
            Bus::Code => self.code.as_deref(),
        };
        match root {
            Some(root) => read_under(root, path),
            None => Fetched::NotFound,
        }
    }
}

/// The file at bus path `path` under `root`: only plain names (no `..`, no root), only a
/// regular file whose real path is under the root's (a link out reads as absent).
fn read_under(root: &Path, path: &str) -> Fetched {
    let relative = Path::new(path.trim_start_matches('/'));
    if path.is_empty()
        || !relative
            .components()
            .all(|c| matches!(c, Component::Normal(_)))
    {
        return Fetched::NotFound;
    }
    let (Ok(real_root), Ok(real)) = (root.canonicalize(), root.join(relative).canonicalize())
    else {
        return Fetched::NotFound;
    };
    if !real.starts_with(&real_root) || !real.is_file() {
        return Fetched::NotFound;
    }
    match read_file(&real, MAX_OBJECT_BYTES) {
        Ok(body) => Fetched::Found(BusObject {
            body,
            ..BusObject::default()
        }),
        Err(error) => Fetched::Failed(format!("{}: {error}", real.display())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_paths() {
        assert_eq!(plain_path("/a"), "/a.plain.html");
        assert_eq!(plain_path("/"), "/index.plain.html");
        assert_eq!(plain_path("/x/index"), "/x/index.plain.html");
        assert_eq!(plain_path("/a.plain.html"), "/a.plain.html");
    }

    #[test]
    fn only_files_under_the_root() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("content");
        std::fs::create_dir_all(root.join("sub")).unwrap();
        std::fs::write(root.join("sub/page.md"), "# Hi").unwrap();
        std::fs::write(dir.path().join("secret.md"), "no").unwrap();
        assert!(
            matches!(read_under(&root, "/sub/page.md"), Fetched::Found(o) if o.body == b"# Hi")
        );
        assert_eq!(read_under(&root, "/../secret.md"), Fetched::NotFound);
        assert_eq!(read_under(&root, "/sub"), Fetched::NotFound);
        assert_eq!(read_under(&root, "/missing.md"), Fetched::NotFound);
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(dir.path().join("secret.md"), root.join("link.md")).unwrap();
            assert_eq!(read_under(&root, "/link.md"), Fetched::NotFound);
        }
    }
}
