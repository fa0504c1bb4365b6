//! `siteops template render`: one render, printed exactly as the worker would produce it.

use std::borrow::Cow;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use siteops_template::json::Json;
use siteops_template::{NoPartials, PartialSource, Template};

use super::Outcome;
use crate::cli::{RenderArgs, TemplateCommand};

pub(crate) fn run(command: &TemplateCommand) -> Result<Outcome> {
    match command {
        TemplateCommand::Render(args) => render(args),
    }
}

fn render(args: &RenderArgs) -> Result<Outcome> {
    let source = read(&args.template)?;
    let template = Template::compile(&source).map_err(|error| {
        anyhow::anyhow!(
            "{}:{}:{}: {}",
            args.template.display(),
            error.line,
            error.column,
            error.message
        )
    })?;
    // Parsed where it was read, without a copy (a listing's data can be megabytes); only
    // when it fails is the file read again, to say exactly where and why.
    let mut data_bytes = std::fs::read(&args.data)
        .with_context(|| format!("cannot read {}", args.data.display()))?;
    if let Err(error) = std::str::from_utf8(&data_bytes) {
        bail!("{}: invalid JSON: not UTF-8 ({error})", args.data.display());
    }
    let data = match Json::parse_in_place(&mut data_bytes) {
        Ok(data) => data,
        Err(_) => {
            let text = read(&args.data)?;
            let mut buffer = Vec::new();
            let error = match Json::parse(text.as_bytes(), &mut buffer) {
                Err(error) => error,
                Ok(_) => bail!("{}: invalid JSON", args.data.display()),
            };
            bail!(
                "{}:{}:{}: invalid JSON: {}",
                args.data.display(),
                error.line,
                error.column,
                error.message
            );
        }
    };
    let output = match &args.partials {
        Some(dir) => template.render(data.root(), &DirPartials(dir.clone())),
        None => template.render(data.root(), &NoPartials),
    };
    let output = match output {
        Ok(output) => output,
        Err(error) => {
            let file = error
                .partial
                .clone()
                .unwrap_or_else(|| args.template.display().to_string());
            bail!("{file}:{}:{}: {}", error.line, error.column, error.message);
        }
    };
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(output.as_bytes())?;
    stdout.flush()?;
    Ok(Outcome::Success)
}

fn read(path: &Path) -> Result<String> {
    std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))
}

/// Partials from a directory: `name`, then `name.html`, then `name.mustache`.
struct DirPartials(PathBuf);

impl PartialSource for DirPartials {
    fn partial(&self, name: &str) -> Option<Cow<'_, str>> {
        // A partial name is a file name in the directory, never a path out of it.
        if name.is_empty() || name.contains(['/', '\\']) || name.starts_with('.') {
            return None;
        }
        ["", ".html", ".mustache"]
            .iter()
            .find_map(|extension| {
                std::fs::read_to_string(self.0.join(format!("{name}{extension}"))).ok()
            })
            .map(Cow::Owned)
    }
}
