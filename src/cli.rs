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
    /// Run the local administration service and the site preview hosts.
    Serve(ServeArgs),
    /// Mint a token signed by the local administration service (for scripts and CI).
    Token(TokenArgs),
    /// Mustache templates, rendered as the transformation worker renders them.
    #[command(subcommand)]
    Template(TemplateCommand),
    /// Convert local HTML pages to the markdown a preview stores, with the preview's own
    /// ingestion (images are not fetched).
    Ingest(IngestArgs),
}

#[derive(Debug, Args)]
pub struct IngestArgs {
    /// HTML files to convert.
    #[arg(required = true, value_name = "FILE.html")]
    pub files: Vec<PathBuf>,
    /// The page URL the files were fetched from: relative image URLs are resolved against
    /// it, as a preview resolves them before downloading.
    #[arg(long, value_name = "URL")]
    pub url: Option<url::Url>,
    /// Write NAME.md per file into DIR instead of printing (required for several files).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Largest title, meta value or JSON-LD script accepted, in UTF-16 code units.
    #[arg(long, value_name = "N", default_value_t = siteops::ingest::DEFAULT_MAX_METADATA_SIZE)]
    pub max_metadata_size: usize,
    /// What to write: the stored markdown, the rendered page, or its `.plain.html` body.
    #[arg(long, value_enum, default_value_t = IngestFormat::Md)]
    pub format: IngestFormat,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum IngestFormat {
    /// NAME.md: the markdown a preview stores.
    Md,
    /// NAME.html: the page as the preview host serves it.
    Html,
    /// NAME.plain.html: the main content alone.
    Plain,
}

impl IngestFormat {
    pub fn extension(self) -> &'static str {
        match self {
            IngestFormat::Md => "md",
            IngestFormat::Html => "html",
            IngestFormat::Plain => "plain.html",
        }
    }
}

#[derive(Debug, Subcommand)]
pub enum TemplateCommand {
    /// Render TEMPLATE over the JSON in DATA and print the result exactly (no newline added).
    Render(RenderArgs),
}

#[derive(Debug, Args)]
pub struct RenderArgs {
    pub template: PathBuf,
    pub data: PathBuf,
    /// Where `{{> name}}` finds partials: DIR/name, DIR/name.html or DIR/name.mustache.
    #[arg(long, value_name = "DIR")]
    pub partials: Option<PathBuf>,
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

/// Where the local service keeps its data.
#[derive(Debug, Args)]
pub struct DataArgs {
    /// Data directory of the local service [default: <root>/.siteops/data].
    #[arg(long, value_name = "DIR")]
    pub data: Option<PathBuf>,
}

impl DataArgs {
    pub fn dir(&self, root: &std::path::Path) -> PathBuf {
        self.data
            .clone()
            .unwrap_or_else(|| root.join(".siteops").join("data"))
    }
}

#[derive(Debug, Args)]
pub struct ServeArgs {
    #[command(flatten)]
    pub repo: RepoArgs,
    #[command(flatten)]
    pub data: DataArgs,
    /// Port on 127.0.0.1 (0: any free port).
    #[arg(long, default_value_t = 3000)]
    pub port: u16,
    /// An org administrator, who may create sites: `ADDRESS` (every org) or
    /// `org:ADDRESS`. Repeatable.
    #[arg(long = "org-admin", value_name = "ADDRESS")]
    pub org_admins: Vec<String>,
}

#[derive(Debug, Args)]
pub struct TokenArgs {
    /// The holder: an e-mail address or a technical account identifier.
    #[arg(long, value_name = "ADDRESS")]
    pub email: String,
    /// Repository root (for the default data directory).
    #[arg(long, value_name = "DIR", default_value = ".")]
    pub root: PathBuf,
    #[command(flatten)]
    pub data: DataArgs,
    /// Lifetime: seconds, or a number with s, m, h or d.
    #[arg(long, default_value = "24h", value_parser = parse_ttl)]
    pub ttl: u64,
    /// The sites the token is good for: `org/site`, `org/*` or `*`.
    #[arg(long, default_value = "*")]
    pub site: String,
}

/// Parses `90`, `90s`, `15m`, `24h`, `7d` into seconds.
fn parse_ttl(text: &str) -> Result<u64, String> {
    let (digits, unit) = match text.char_indices().last() {
        Some((i, c)) if c.is_ascii_alphabetic() => (&text[..i], c),
        _ => (text, 's'),
    };
    let n: u64 = digits
        .parse()
        .map_err(|_| format!("`{text}` is not a duration like 30m, 24h or 7d"))?;
    let unit = match unit {
        's' => 1,
        'm' => 60,
        'h' => 3600,
        'd' => 86_400,
        _ => return Err(format!("unknown unit in `{text}`: use s, m, h or d")),
    };
    n.checked_mul(unit)
        .filter(|s| *s > 0)
        .ok_or_else(|| format!("`{text}` is not a positive duration"))
}
