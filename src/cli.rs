//! The command line, declared once with clap derive. Each subcommand's behaviour lives in
//! its own module under `commands/`; flags shared by several are defined here once.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

#[derive(Debug, Parser)]
#[command(
    name = "siteops",
    version,
    about = "Configuration as code for fleets of sites on markup content sources",
    long_about = "Configuration as code for fleets of sites on markup content sources.\n\n\
                  Exit codes: 0 success, 1 failure (invalid configuration, bad usage, \
                  errors), 2 changes present (plan --detailed-exitcode)."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Check the sites repository: schemas and semantic rules, every problem in one run.
    Validate(ValidateArgs),
    /// Compile the sites into the exact JSON bodies of the administration API and worker.
    Compile(CompileArgs),
    /// Write the JSON schemas of the file formats and API bodies into <root>/schemas/.
    Schema(SchemaArgs),
    /// Run the local administration service, worker and preview host (not built yet).
    Serve(ServeArgs),
}

/// Where the sites repository is, and how to read it.
#[derive(Debug, Args)]
pub struct RepoArgs {
    /// Repository root: the directory that holds `sites/` and `siteops.toml`.
    #[arg(long, value_name = "DIR", default_value = ".")]
    pub root: PathBuf,
    /// Address of the transformation worker, for `{transform_url}` in site files
    /// (overrides `transform_url` of siteops.toml).
    #[arg(long, value_name = "URL", env = "SITEOPS_TRANSFORM_URL")]
    pub transform_url: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DiagnosticFormat {
    /// Messages with the source line and a caret.
    Human,
    /// A versioned JSON document.
    Json,
    /// GitHub Actions annotations (`::error file=…`).
    Github,
}

#[derive(Debug, Args)]
pub struct ValidateArgs {
    #[command(flatten)]
    pub repo: RepoArgs,
    #[arg(long, value_enum, default_value_t = DiagnosticFormat::Human)]
    pub format: DiagnosticFormat,
    /// Fail (exit 1) on warnings too.
    #[arg(long)]
    pub deny_warnings: bool,
    /// Print the `{{id}}` and endpoint that each worker entry example resolves to.
    #[arg(long)]
    pub explain: bool,
}

#[derive(Debug, Args)]
pub struct CompileArgs {
    #[command(flatten)]
    pub repo: RepoArgs,
    /// Write one file per body into DIR (replacing an earlier output) instead of printing
    /// a JSON object of all bodies.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Write `(sensitive)` instead of secret values; needs no environment variables.
    #[arg(long)]
    pub redact: bool,
}

#[derive(Debug, Args)]
pub struct SchemaArgs {
    /// Repository root; schemas go to <root>/schemas/.
    #[arg(long, value_name = "DIR", default_value = ".")]
    pub root: PathBuf,
    /// Do not write: fail when a checked-in schema differs from the generated one.
    #[arg(long)]
    pub check: bool,
}

#[derive(Debug, Args)]
pub struct ServeArgs {
    #[command(flatten)]
    pub repo: RepoArgs,
    #[arg(long, default_value_t = 3000)]
    pub port: u16,
}
