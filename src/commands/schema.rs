//! `siteops schema`: write (or check) the generated JSON schemas under `<root>/schemas/`.

use std::fs;

use anyhow::{Context, Result};
use siteops::compile::pretty;
use siteops::schema::SchemaKind;

use super::Outcome;
use crate::cli::SchemaArgs;

pub fn run(args: &SchemaArgs) -> Result<Outcome> {
    let dir = args.root.join("schemas");
    let mut stale = Vec::new();
    for kind in SchemaKind::ALL {
        let path = dir.join(kind.file_name());
        let generated = pretty(&kind.generate());
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
