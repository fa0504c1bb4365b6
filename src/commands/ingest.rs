//! `siteops ingest`: local HTML files to markdown with the preview's ingestion, in one
//! process. Images are not fetched, and their URLs stay as written (as the reference
//! converter leaves them without a media handler).

use std::path::Path;

use anyhow::{Context, Result, bail};
use siteops::ingest::render::{PageOptions, page_html, plain_html};
use siteops::ingest::{IngestOptions, ingest};
use url::Url;

use super::Outcome;
use crate::cli::{IngestArgs, IngestFormat};

pub fn run(args: &IngestArgs) -> Result<Outcome> {
    if args.out.is_none() && args.files.len() > 1 {
        bail!("several files need --out DIR (one NAME.md per file)");
    }
    if let Some(dir) = &args.out {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create the output directory {}", dir.display()))?;
    }
    let options = IngestOptions {
        max_metadata_size: args.max_metadata_size,
    };
    let mut outcome = Outcome::Success;
    for file in &args.files {
        match convert(file, args, &options) {
            Ok(markdown) => match &args.out {
                Some(dir) => {
                    let target = dir.join(output_name(file, args.format));
                    std::fs::write(&target, markdown)
                        .with_context(|| format!("cannot write {}", target.display()))?;
                }
                None => print!("{markdown}"),
            },
            Err(error) => {
                eprintln!("error: {}: {error:#}", file.display());
                outcome = Outcome::Failure;
            }
        }
    }
    Ok(outcome)
}

fn convert(file: &Path, args: &IngestArgs, options: &IngestOptions) -> Result<String> {
    let bytes = std::fs::read(file).context("cannot read the file")?;
    let html = String::from_utf8_lossy(&bytes);
    let doc = ingest(&html, options)?;
    for warning in &doc.warnings {
        eprintln!("warning: {}: {warning}", file.display());
    }
    Ok(match args.format {
        IngestFormat::Md => doc.to_markdown(),
        IngestFormat::Plain => plain_html(&doc.to_markdown()) + "\n",
        IngestFormat::Html => {
            let url = match &args.url {
                Some(url) => url.clone(),
                None => Url::parse("http://localhost/").expect("a valid URL"),
            };
            let options = PageOptions {
                url,
                head_html: None,
            };
            page_html(&doc.to_markdown(), &options)
        }
    })
}

/// `page.html` -> `page.md` (or `page.html`, `page.plain.html`).
fn output_name(file: &Path, format: IngestFormat) -> String {
    let stem = file
        .file_stem()
        .map_or_else(|| "page".into(), |s| s.to_string_lossy().into_owned());
    format!("{stem}.{}", format.extension())
}
