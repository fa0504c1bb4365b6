//! `siteops schema`: write (or check) the generated JSON schemas and OpenAPI document under
//! `<root>/schemas/`.

use std::fs;

use anyhow::{Context, Result};
use siteops::published;
use siteops_config::compile::pretty;

use super::Outcome;
use crate::cli::SchemaArgs;

pub(crate) fn run(args: &SchemaArgs) -> Result<Outcome> {
    let dir = args.root.join("schemas");
    let mut stale = Vec::new();
    for (file, document) in published::documents() {
        let path = dir.join(file);
        let generated = pretty(&document);
        let current = fs::read_to_string(&path).ok();
        if current.as_deref() == Some(generated.as_str()) {
            continue;
        }
        if args.check {
            stale.push(path.display().to_string());
            continue;
        }
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent)
                .with_context(|| format!("cannot create {}", parent.display()))?;
        }
        fs::write(&path, generated).with_context(|| format!("cannot write {}", path.display()))?;
        println!("wrote {}", path.display());
    }
    if stale.is_empty() {
        return Ok(Outcome::Success);
    }
    for path in &stale {
        println!("stale: {path}");
    }
    println!("run `cargo xtask schema` (or `siteops schema`) to regenerate");
    Ok(Outcome::Failure)
}
