//! `siteops ingest`: local HTML files to markdown with the preview's ingestion, in one
//! process. Images are not fetched, and their URLs stay as written (as the reference
//! converter leaves them without a media handler). With the delivery's flags, or no file,
//! the page is answered as the platform's pipeline answers it ([`delivery`]).

mod delivery;

use std::path::Path;

use anyhow::{Context, Result, bail};
use siteops_ingest::render::{PageOptions, page_html, plain_html};
use siteops_ingest::{IngestOptions, ingest};
use url::Url;

use super::Outcome;
use crate::cli::{IngestArgs, IngestFormat};

pub(crate) fn run(args: &IngestArgs) -> Result<Outcome> {
    if args.files.is_empty() || args.delivery.any() {
        return delivery::run(args);
    }
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
    let head_html = match &args.head {
        Some(path) => Some(
            std::fs::read_to_string(path)
                .with_context(|| format!("cannot read the head.html {}", path.display()))?,
        ),
        None => None,
    };
    // Each file is converted and written on a conversion thread: the writes run in
    // parallel too, and no page's output waits in memory for the others.
    let results = convert_all(&args.files, super::jobs(args.jobs), |file| {
        let converted =
            convert(file, args, &options, head_html.as_deref()).map_err(FileError::Convert)?;
        match &args.out {
            Some(dir) => {
                let target = dir.join(output_name(file, format(args)));
                std::fs::write(&target, &converted.text)
                    .with_context(|| format!("cannot write {}", target.display()))
                    .map_err(FileError::Write)?;
                Ok(Converted {
                    text: String::new(),
                    ..converted
                })
            }
            None => Ok(converted),
        }
    })?;
    // Messages and printed output in the files' order, whatever the threads did.
    let mut outcome = Outcome::Success;
    for (file, result) in args.files.iter().zip(results) {
        match result {
            Ok(converted) => {
                for warning in &converted.warnings {
                    eprintln!("warning: {}: {warning}", file.display());
                }
                if args.out.is_none() {
                    print!("{}", converted.text);
                }
            }
            Err(FileError::Convert(error)) => {
                eprintln!("error: {}: {error:#}", file.display());
                outcome = Outcome::Failure;
            }
            // The output directory cannot be written: nothing else will work either.
            Err(FileError::Write(error)) => return Err(error),
        }
    }
    Ok(outcome)
}

/// Converts every file on `jobs` threads; the results come back in the files' order, so
/// the output does not depend on the scheduling.
fn convert_all<T: Send>(
    files: &[std::path::PathBuf],
    jobs: usize,
    convert: impl Fn(&Path) -> T + Sync,
) -> Result<Vec<T>> {
    use rayon::prelude::*;
    if jobs <= 1 || files.len() <= 1 {
        // One thread: this one, without a pool to hand the work to and wait for.
        return Ok(files.iter().map(|f| convert(f)).collect());
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.min(files.len()))
        // The main thread's stack size: deep documents are as safe here as there.
        .stack_size(8 << 20)
        .build()
        .context("cannot start the conversion threads")?;
    // Largest first, one file per task: the last file to finish is a small one, so the
    // threads end together (a large page left for the end would run on one core alone).
    let mut order: Vec<(u64, usize)> = files
        .iter()
        .enumerate()
        .map(|(i, f)| (std::fs::metadata(f).map_or(0, |m| m.len()), i))
        .collect();
    order.sort_by_key(|&(size, i)| (std::cmp::Reverse(size), i));
    let mut done: Vec<(usize, T)> = pool.install(|| {
        order
            .par_iter()
            .with_max_len(1)
            .map(|&(_, i)| (i, convert(&files[i])))
            .collect()
    });
    done.sort_unstable_by_key(|&(i, _)| i);
    Ok(done.into_iter().map(|(_, result)| result).collect())
}

/// Why a file gave no output: its conversion failed (reported, the others go on), or its
/// output could not be written (the command stops).
enum FileError {
    Convert(anyhow::Error),
    Write(anyhow::Error),
}

/// One file's output (empty once written to `--out`) and the ingestion's warnings.
struct Converted {
    text: String,
    warnings: Vec<String>,
}

/// The format asked for, markdown by default.
fn format(args: &IngestArgs) -> IngestFormat {
    args.format.unwrap_or(IngestFormat::Md)
}

/// FILE's markdown, as [`convert`] makes it (warnings dropped): the delivery's page.
fn markdown_of(file: &Path, args: &IngestArgs) -> Result<String> {
    let options = IngestOptions {
        max_metadata_size: args.max_metadata_size,
    };
    let bytes = read_capped(file, args.max_input_size)
        .with_context(|| format!("cannot read {}", file.display()))?;
    let text = siteops_ingest::decode_page(&bytes);
    if file.extension().is_some_and(|e| e == "md") {
        return Ok(text.into_owned());
    }
    let doc =
        ingest(&text, &options).with_context(|| format!("cannot ingest {}", file.display()))?;
    Ok(doc.to_markdown())
}

fn convert(
    file: &Path,
    args: &IngestArgs,
    options: &IngestOptions,
    head_html: Option<&str>,
) -> Result<Converted> {
    let bytes = read_capped(file, args.max_input_size)?;
    let text = siteops_ingest::decode_page(&bytes);
    // A `.md` file is stored markdown already: it is rendered as it is.
    let (markdown, warnings) = if file.extension().is_some_and(|e| e == "md") {
        (text.into_owned(), Vec::new())
    } else {
        let doc = ingest(&text, options)?;
        let warnings = doc.warnings.iter().map(ToString::to_string).collect();
        (doc.to_markdown(), warnings)
    };
    let text = match format(args) {
        IngestFormat::Md => markdown,
        IngestFormat::Plain => plain_html(&markdown) + "\n",
        IngestFormat::Html => {
            let url = match &args.url {
                Some(url) => url.clone(),
                None => Url::parse("http://localhost/").expect("a valid URL"),
            };
            let options = PageOptions {
                url,
                head_html: head_html.map(str::to_owned),
                delivery: Default::default(),
            };
            page_html(&markdown, &options)
        }
    };
    Ok(Converted { text, warnings })
}

/// The file's bytes, refused past `limit`: the preview refuses such a page, and ingesting
/// one costs far more than its size (55 MB took 22 s and 4.7 GB).
fn read_capped(file: &Path, limit: u64) -> Result<Vec<u8>> {
    let too_large = || {
        anyhow::anyhow!(
            "the file is larger than {limit} bytes, the most a preview ingests; raise the limit with --max-input-size BYTES"
        )
    };
    let mut opened = std::fs::File::open(file).context("cannot read the file")?;
    let size = opened.metadata().context("cannot read the file")?.len();
    if size > limit {
        return Err(too_large());
    }
    // A file that grows while read (or a pipe) is cut one byte past the limit.
    let mut bytes = Vec::with_capacity(size as usize);
    std::io::Read::read_to_end(&mut std::io::Read::take(&mut opened, limit + 1), &mut bytes)
        .context("cannot read the file")?;
    if bytes.len() as u64 > limit {
        return Err(too_large());
    }
    Ok(bytes)
}

/// `page.html` -> `page.md` (or `page.html`, `page.plain.html`).
fn output_name(file: &Path, format: IngestFormat) -> String {
    let stem = file
        .file_stem()
        .map_or_else(|| "page".into(), |s| s.to_string_lossy().into_owned());
    format!("{stem}.{}", format.extension())
}
