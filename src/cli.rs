//! The command line, declared once with clap derive. Each subcommand's behaviour lives in
//! its own module under `commands/`; flags shared by several are defined here once.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};
use siteops_plan::shard::Shard;
use siteops_server::store::StoreLocation;

#[derive(Debug, Parser)]
#[command(
    name = "siteops",
    version,
    about = "Configuration as code for fleets of sites on markup content sources",
    long_about = "Configuration as code for fleets of sites on markup content sources.\n\n\
                  Exit codes: 0 success, 1 failure (invalid configuration, bad usage, \
                  errors), 2 changes present (plan --detailed-exitcode), 130 interrupted \
                  (apply stopped by Ctrl-C or SIGTERM)."
)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Check the sites repository: schemas and semantic rules, every problem in one run.
    Validate(ValidateArgs),
    /// Compile the sites into the exact JSON bodies of the administration API and worker.
    Compile(CompileArgs),
    /// Compare the repository with a live administration service and worker: what apply
    /// would change.
    Plan(PlanArgs),
    /// Make the changes a plan shows, in dependency order.
    Apply(ApplyArgs),
    /// Write the repository files of an org's sites, profiles and org document from a live
    /// administration service, so that a plan of them shows no changes.
    Import(ImportArgs),
    /// Bring an org's documents back to what an earlier apply wrote: the versions the
    /// service keeps, found by the commit apply named them after.
    Restore(RestoreArgs),
    /// Write the JSON schemas of the file formats and API bodies into <root>/schemas/.
    Schema(SchemaArgs),
    /// Run the local administration service, transformation worker, site preview hosts
    /// and dashboard, live on the repository (or shared, on object storage).
    Serve(ServeArgs),
    /// Mint a token signed by the local administration service (for scripts and CI).
    Token(TokenArgs),
    /// Mustache templates, rendered as the transformation worker renders them.
    #[command(subcommand)]
    Template(TemplateCommand),
    /// Convert local HTML pages to the markdown a preview stores, with the preview's own
    /// ingestion (images are not fetched).
    Ingest(IngestArgs),
    /// Offline mocks of the HTTP services the sites talk to (`sites/<org>/<site>/mocks/`).
    #[command(subcommand)]
    Mocks(MocksCommand),
    /// Render the golden cases (golden/<case>/) through the local pipeline, offline, and
    /// compare them with their stored snapshots.
    Test(TestArgs),
    /// Print a completion script for a shell: `siteops completions bash >
    /// /etc/bash_completion.d/siteops`, `siteops completions zsh > ~/.zfunc/_siteops`,
    /// `siteops completions fish > ~/.config/fish/completions/siteops.fish`.
    Completions(CompletionsArgs),
    /// Write the manual pages (siteops.1 and one per subcommand) into a directory.
    #[command(hide = true)]
    Man(ManArgs),
}

#[derive(Debug, Subcommand)]
pub(crate) enum MocksCommand {
    /// Preview pages once through the real sources and write every request they made
    /// (page, worker data, images) as the site's mocks, to work offline on real content.
    Record(RecordArgs),
}

#[derive(Debug, Args)]
pub(crate) struct RecordArgs {
    /// The site whose pages are previewed and whose `mocks/` is written: `org/site`.
    #[arg(value_name = "ORG/SITE")]
    pub site: String,
    /// Page paths to preview, such as `/` or `/products/1234`.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<String>,
    /// Repository root: the directory that holds `sites/` and `siteops.toml`.
    #[arg(long, value_name = "DIR", default_value = ".")]
    pub root: PathBuf,
    /// The branch previewed.
    #[arg(long, value_name = "BRANCH", default_value = "main")]
    pub branch: String,
    /// The environment variable whose value the content sources get as `Authorization`
    /// (a preview's `x-content-source-authorization`). It is never written to the mocks.
    #[arg(long, value_name = "NAME")]
    pub source_auth_env: Option<String>,
}

#[derive(Debug, Args)]
pub(crate) struct TestArgs {
    /// Repository root: the directory that holds `sites/` and `golden/`.
    #[arg(long, value_name = "DIR", default_value = ".")]
    pub root: PathBuf,
    /// Write the rendered outputs as the new snapshots (and remove snapshots no page
    /// renders any more) instead of failing on differences.
    #[arg(long)]
    pub update: bool,
    /// Only these cases (directory names under golden/) [default: all].
    #[arg(value_name = "CASE")]
    pub cases: Vec<String>,
    /// Cases rendered at once, each worker on its own server (every core by default).
    #[arg(short, long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub jobs: Option<u16>,
    /// Only shard K of N of the cases: each case goes to one shard by its name, so N jobs
    /// of a CI matrix split the golden pages between them.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<Shard>,
}

#[derive(Debug, Args)]
pub(crate) struct IngestArgs {
    /// HTML files to convert (`.md` files are taken as stored markdown and rendered).
    /// Without a file, --url names the page to deliver from --content and --code.
    #[arg(required_unless_present = "url", value_name = "FILE.html")]
    pub files: Vec<PathBuf>,
    /// The page's URL: the canonical link and the base of relative meta images; with the
    /// delivery's flags (below), the request: its path is where FILE stands in the content,
    /// or, without FILE, what is delivered (`/page`, `/page.plain.html`, `/static.html`).
    #[arg(long, value_name = "URL")]
    pub url: Option<url::Url>,
    /// The site's head.html, added to the page's head (with --format html); replaces the
    /// --config's `head.html`.
    #[arg(long, value_name = "FILE")]
    pub head: Option<PathBuf>,
    /// Write NAME.md per file into DIR instead of printing (required for several files).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Largest title, meta value or JSON-LD script accepted, in UTF-16 code units.
    #[arg(long, value_name = "N", default_value_t = siteops_ingest::DEFAULT_MAX_METADATA_SIZE)]
    pub max_metadata_size: usize,
    /// Largest file converted, in bytes (the preview's page limit by default).
    #[arg(long, value_name = "BYTES", default_value_t = siteops_server::preview::PAGE_LIMIT as u64)]
    pub max_input_size: u64,
    /// What to write: the stored markdown, the rendered page, or its `.plain.html` body
    /// [default: md; without FILE, the URL's path decides, `plain` asks for its
    /// `.plain.html`].
    #[arg(long, value_enum)]
    pub format: Option<IngestFormat>,
    /// Files converted at once (every core by default).
    #[arg(short, long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub jobs: Option<u16>,
    #[command(flatten)]
    pub delivery: DeliveryArgs,
}

/// `siteops ingest`'s delivery: the page answered as the platform's pipeline answers it
/// around the markdown (metadata sheets, custom headers, the CSP nonce, folders, redirects,
/// the code's static pages and 404.html). Any of these flags, or no FILE, turns it on.
#[derive(Debug, Args)]
#[command(next_help_heading = "Delivery")]
pub(crate) struct DeliveryArgs {
    /// The site's pipeline configuration, as JSON (the configuration service's answer:
    /// `cdn`, `head.html`, `folders`, `headers`, `metadata`, `features`, `created`).
    #[arg(long, value_name = "FILE.json")]
    pub config: Option<PathBuf>,
    /// A folder standing for the content bus: pages' markdown (`page.md`, `folder/index.md`)
    /// and sheets' JSON (`metadata.json`) by path.
    #[arg(long, value_name = "DIR")]
    pub content: Option<PathBuf>,
    /// A folder standing for the code bus: `404.html`, static `.html` pages, files that
    /// folders map to.
    #[arg(long, value_name = "DIR")]
    pub code: Option<PathBuf>,
    /// A metadata sheet (JSON: `data` rows of URL, key and value, or URL and a column per
    /// key) applied as a sourced one: as the platform does, only when the configuration has
    /// no metadata rows for the partition.
    #[arg(long, value_name = "FILE.json")]
    pub metadata: Option<PathBuf>,
    /// The CSP nonce that replaces `'nonce-aem'` [default: 18 random bytes, base64].
    #[arg(long, value_name = "VALUE")]
    pub nonce: Option<String>,
    /// Which partition's metadata rows apply [default: live].
    #[arg(long, value_enum)]
    pub partition: Option<IngestPartition>,
    /// Write the answer's status line and headers to FILE (as `curl -D`; `-`: standard error).
    #[arg(long, value_name = "FILE")]
    pub dump_headers: Option<PathBuf>,
}

impl DeliveryArgs {
    /// Whether a delivery flag was given.
    pub(crate) fn any(&self) -> bool {
        self.config.is_some()
            || self.content.is_some()
            || self.code.is_some()
            || self.metadata.is_some()
            || self.nonce.is_some()
            || self.partition.is_some()
            || self.dump_headers.is_some()
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum IngestPartition {
    /// The live host's (the pipeline tests' default).
    Live,
    /// The preview host's.
    Preview,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum IngestFormat {
    /// NAME.md: the markdown a preview stores.
    Md,
    /// NAME.html: the page as the preview host serves it.
    Html,
    /// NAME.plain.html: the main content alone.
    Plain,
}

impl IngestFormat {
    pub(crate) fn extension(self) -> &'static str {
        match self {
            IngestFormat::Md => "md",
            IngestFormat::Html => "html",
            IngestFormat::Plain => "plain.html",
        }
    }
}

#[derive(Debug, Subcommand)]
pub(crate) enum TemplateCommand {
    /// Render TEMPLATE over the JSON in DATA and print the result exactly (no newline added).
    Render(RenderArgs),
}

#[derive(Debug, Args)]
pub(crate) struct RenderArgs {
    /// The Mustache template file.
    pub template: PathBuf,
    /// The JSON the template is rendered over, as the worker's endpoint would answer it.
    pub data: PathBuf,
    /// Where `{{> name}}` finds partials: DIR/name, DIR/name.html or DIR/name.mustache.
    #[arg(long, value_name = "DIR")]
    pub partials: Option<PathBuf>,
}

/// Where the sites repository is, and how to read it.
#[derive(Debug, Args)]
pub(crate) struct RepoArgs {
    /// Repository root: the directory that holds `sites/` and `siteops.toml`.
    #[arg(long, value_name = "DIR", default_value = ".")]
    pub root: PathBuf,
    /// Address of the transformation worker: `{transform_url}` in site files and, for plan
    /// and apply, where worker configurations go (overrides `transform_url` of
    /// siteops.toml).
    #[arg(long, value_name = "URL", env = "SITEOPS_TRANSFORM_URL")]
    pub transform_url: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum DiagnosticFormat {
    /// Messages with the source line and a caret.
    Human,
    /// A versioned JSON document.
    Json,
    /// GitHub Actions annotations (`::error file=…`).
    Github,
}

#[derive(Debug, Args)]
pub(crate) struct ValidateArgs {
    #[command(flatten)]
    pub repo: RepoArgs,
    /// How problems are printed: for people, for programs, or for GitHub Actions.
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
pub(crate) struct CompileArgs {
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

/// The services that plan and apply talk to, and how.
#[derive(Debug, Args)]
pub(crate) struct RemoteArgs {
    /// Base address of the administration API ({admin_url}), such as
    /// http://127.0.0.1:3000/admin or https://admin.hlx.page (the older path family), or
    /// http://127.0.0.1:3000/api or https://api.aem.live (the newer).
    #[arg(long, value_name = "URL", env = "SITEOPS_ADMIN_URL")]
    pub admin: String,
    /// The administration API's path family: `older` (config/ORG/sites/SITE.json), `newer`
    /// (ORG/sites/SITE/config.json), or `auto`: the one that lists the org's sites at --admin.
    #[arg(long, value_enum, value_name = "FAMILY", default_value_t = ApiFamily::Auto)]
    pub api_family: ApiFamily,
    /// The old name of --transform-url here, kept for a release with a warning.
    #[arg(long, value_name = "URL", hide = true)]
    pub transform: Option<String>,
    /// The environment variable that holds the token.
    #[arg(long, value_name = "NAME", default_value = "SITEOPS_ADMIN_TOKEN")]
    pub token_env: String,
    /// Requests in flight at once.
    #[arg(long, value_name = "N", default_value_t = 8, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub concurrency: u16,
    /// At most N requests per second [default: 10 for a service not on this machine, as
    /// the hosted service allows; no limit for a local one].
    #[arg(long, value_name = "N", value_parser = parse_rate)]
    pub rate: Option<f64>,
}

/// `--api-family`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum ApiFamily {
    /// `config/<org>/sites/<site>.json` (admin.hlx.page, `serve`'s /admin).
    Older,
    /// `<org>/sites/<site>/config.json` (api.aem.live, `serve`'s /api).
    Newer,
    /// Whichever lists the org's sites at --admin; the older when both or neither do.
    Auto,
}

/// What plan and apply compare.
#[derive(Debug, Args)]
pub(crate) struct SelectArgs {
    /// Only this site, `org/site` (repeatable).
    #[arg(long = "site", value_name = "ORG/SITE")]
    pub sites: Vec<String>,
    /// Also delete what the repository no longer has: sites of the repository's orgs (or
    /// the --site sites), and secrets, public and worker configurations of its sites.
    #[arg(long)]
    pub prune: bool,
    /// Overwrite this secret although it exists: `ID` (in every site) or `ORG/SITE/ID`
    /// (repeatable). Existing secrets are otherwise left alone.
    #[arg(long = "replace-secret", value_name = "ID")]
    pub replace_secrets: Vec<String>,
    /// Only shard K of N: each site goes to one shard by its name, so N jobs of a CI
    /// matrix split the fleet between them (with --prune, each deletes in its share).
    #[arg(long, value_name = "K/N")]
    pub shard: Option<Shard>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum PlanFormat {
    /// One line per change, field-level diffs, a summary line.
    Human,
    /// A versioned JSON document (what --out saves).
    Json,
    /// A pull-request comment (under 65,536 characters).
    Markdown,
}

#[derive(Debug, Args)]
pub(crate) struct PlanArgs {
    #[command(flatten)]
    pub repo: RepoArgs,
    #[command(flatten)]
    pub remote: RemoteArgs,
    #[command(flatten)]
    pub select: SelectArgs,
    /// How the plan is printed.
    #[arg(long, value_enum, default_value_t = PlanFormat::Human)]
    pub format: PlanFormat,
    /// Exit 2 when there are changes (0: none, 1: error).
    #[arg(long)]
    pub detailed_exitcode: bool,
    /// Also save the plan as JSON, for `siteops apply PLAN.json`.
    #[arg(long, value_name = "PLAN.json")]
    pub out: Option<PathBuf>,
    /// Do not list the pages `siteops apply` would preview again (as with its --no-preview).
    #[arg(long)]
    pub no_preview: bool,
}

#[derive(Debug, Args)]
pub(crate) struct ImportArgs {
    /// The service read (absent with --from-repo, which reads files instead).
    #[command(flatten)]
    pub remote: Option<RemoteArgs>,
    /// A git-era site's repository (`fstab.yaml`, `helix-query.yaml`, `helix-sitemap.yaml`,
    /// `paths.json`, `robots.txt`, …): written as the site --org/--site (one name), its
    /// code checked out from DIR, instead of reading a service.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["admin", "transform_url", "code"])]
    pub from_repo: Option<PathBuf>,
    /// Repository root: the files go under `<DIR>/sites/<org>/`, and `siteops.toml` is
    /// written there when it has none.
    #[arg(long, value_name = "DIR", default_value = ".")]
    pub root: PathBuf,
    /// The org whose documents are read.
    #[arg(long, value_name = "ORG")]
    pub org: String,
    /// Only the sites of this name or glob (`*`, `?`; repeatable). The org's document and
    /// profiles are always written: the sites name them.
    #[arg(long = "site", value_name = "NAME|GLOB")]
    pub sites: Vec<String>,
    /// Address of the transformation worker ({transform_url}): each site's worker
    /// configurations, every branch it lists, are written as `transform/<branch>.toml`.
    #[arg(long, value_name = "URL")]
    pub transform_url: Option<String>,
    /// A local checkout of a code repository, `OWNER/REPO=DIR`: the templates the worker
    /// entries name are copied from it for the sites whose code it is (else from each
    /// site's preview host on the service). Repeatable.
    #[arg(long = "code", value_name = "OWNER/REPO=DIR", value_parser = parse_code_checkout)]
    pub code: Vec<(siteops_server::code::CodeRepo, PathBuf)>,
    /// Print what would be written, write nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Overwrite files that exist (refused otherwise).
    #[arg(long)]
    pub force: bool,
}

#[derive(Debug, Args)]
pub(crate) struct ApplyArgs {
    #[command(flatten)]
    pub repo: RepoArgs,
    #[command(flatten)]
    pub remote: RemoteArgs,
    #[command(flatten)]
    pub select: SelectArgs,
    /// A plan saved by `siteops plan --out`: applied as it is, and refused when the live
    /// state or the repository changed since it was made.
    #[arg(value_name = "PLAN.json", conflicts_with_all = ["sites", "prune", "replace_secrets", "shard"])]
    pub plan: Option<PathBuf>,
    /// Do not ask for confirmation.
    #[arg(long)]
    pub yes: bool,
    /// Where the values the service makes (secrets declared `made = "service"`, API keys)
    /// go, answered once: a new file (mode 0600; an existing one is refused) of
    /// `NAME=value` lines, as `gh secret set -f` reads. Needed when the plan makes one.
    #[arg(long, value_name = "FILE")]
    pub secrets_out: Option<PathBuf>,
    /// Do not preview again the pages the changes make stale (a change of a site's
    /// headers, folders or metadata: the plan lists the paths).
    #[arg(long)]
    pub no_preview: bool,
    /// How long to wait for the re-preview jobs to finish, in seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = 300, value_parser = clap::value_parser!(u64).range(1..=86400))]
    pub preview_timeout: u64,
    /// The name of the versions the writes make on the service [default:
    /// `siteops@<commit>`, the repository's git HEAD, `-dirty` when sites/ or siteops.toml
    /// has uncommitted changes; else $GITHUB_SHA]. A name not starting with `siteops@`
    /// reads as someone else's change in the next plan.
    #[arg(long, value_name = "NAME")]
    pub version_name: Option<String>,
}

#[derive(Debug, Args)]
pub(crate) struct RestoreArgs {
    #[command(flatten)]
    pub remote: RemoteArgs,
    /// The repository whose git history `--to` is read in.
    #[arg(long, value_name = "DIR", default_value = ".")]
    pub root: PathBuf,
    /// The org whose documents are restored.
    #[arg(long, value_name = "ORG")]
    pub org: String,
    /// Only this site's document (repeatable) [default: the org's document, every profile
    /// and every site the service lists].
    #[arg(long = "site", value_name = "NAME")]
    pub sites: Vec<String>,
    /// What to go back to: a commit (at least 7 hex digits of its sha, or anything git
    /// resolves in --root: `HEAD~1`, a tag), matched against the versions apply named
    /// `siteops@<sha>`; else a version's exact name.
    #[arg(long, value_name = "COMMIT|NAME")]
    pub to: String,
    /// Do not ask for confirmation.
    #[arg(long)]
    pub yes: bool,
}

#[derive(Debug, Args)]
pub(crate) struct SchemaArgs {
    /// Repository root; schemas go to <root>/schemas/.
    #[arg(long, value_name = "DIR", default_value = ".")]
    pub root: PathBuf,
    /// Do not write: fail when a checked-in schema differs from the generated one.
    #[arg(long)]
    pub check: bool,
}

/// Where the local service keeps its data.
#[derive(Debug, Args)]
pub(crate) struct DataArgs {
    /// Data directory of the local service [default: <root>/.siteops/data]; the same as
    /// `--store file://DIR`.
    #[arg(long, value_name = "DIR")]
    pub data: Option<PathBuf>,
    /// Where the service keeps its state instead of a directory: `s3://bucket/prefix`,
    /// `gs://bucket/prefix`, `az://container/prefix` or `file://DIR`, with credentials from
    /// each cloud's usual environment variables (`AWS_*`, `GOOGLE_*`, `AZURE_*`).
    /// Instances on one store behave as one service.
    #[arg(long, value_name = "URL", conflicts_with = "data", value_parser = StoreLocation::parse)]
    pub store: Option<StoreLocation>,
}

impl DataArgs {
    pub(crate) fn location(&self, root: &std::path::Path) -> StoreLocation {
        match (&self.store, &self.data) {
            (Some(store), _) => store.clone(),
            (None, Some(dir)) => StoreLocation::Dir(dir.clone()),
            (None, None) => StoreLocation::Dir(root.join(".siteops").join("data")),
        }
    }
}

#[derive(Debug, Args)]
pub(crate) struct ServeArgs {
    #[command(flatten)]
    pub repo: RepoArgs,
    #[command(flatten)]
    pub data: DataArgs,
    /// Port on 127.0.0.1 (0: any free port).
    #[arg(long, default_value_t = 3000, conflicts_with = "listen")]
    pub port: u16,
    /// Listen on this address and port instead of 127.0.0.1: `0.0.0.0:3000` or
    /// `[::]:3000` for an instance a load balancer on another machine reaches. Beyond
    /// loopback, private sources are refused unless --allow-private-sources.
    #[arg(long, value_name = "ADDR:PORT")]
    pub listen: Option<std::net::SocketAddr>,
    /// An org administrator, who may create sites: `ADDRESS` (every org) or
    /// `org:ADDRESS`. Repeatable.
    #[arg(long = "org-admin", value_name = "ADDRESS")]
    pub org_admins: Vec<String>,
    /// Answer every outgoing request from the sites' mocks (`sites/<org>/<site>/mocks/`),
    /// never the network (loopback still goes out). By default, the mocks answer only the
    /// hosts they name (their `host` matchers) and the network the rest.
    #[arg(long, conflicts_with = "online")]
    pub offline: bool,
    /// Fetch everything from the network: the mocks are ignored.
    #[arg(long)]
    pub online: bool,
    /// Refuse content, worker, image and code sources on loopback and private addresses
    /// (their answers would be re-served to whoever reaches this server). On by default
    /// when the server is reached beyond loopback (--listen on another address, or any
    /// --allowed-host).
    #[arg(long, conflicts_with = "allow_private_sources")]
    pub refuse_private_sources: bool,
    /// Fetch from loopback and private addresses even when the server is reached beyond
    /// loopback.
    #[arg(long)]
    pub allow_private_sources: bool,
    /// Serve the service alone: do not apply the repository, nor watch it.
    #[arg(long)]
    pub no_repo: bool,
    /// Serve a code repository from a local checkout, live: `owner/repo=DIR`. Takes
    /// precedence over `[code]` in siteops.toml. Repeatable.
    #[arg(long = "code", value_name = "OWNER/REPO=DIR", value_parser = parse_code_checkout)]
    pub code: Vec<(siteops_server::code::CodeRepo, PathBuf)>,
    /// Answer a site's preview host on a port of its own as well, on 127.0.0.1:
    /// `ORG/SITE=PORT` (branch main) or `ORG/SITE@BRANCH=PORT`; 0: any free port. For
    /// tools that do not resolve `*.localhost` names, or proxy to an upstream URL (`aem
    /// up --url http://127.0.0.1:PORT`). Repeatable.
    #[arg(long = "site-port", value_name = "ORG/SITE=PORT", value_parser = parse_site_port)]
    pub site_ports: Vec<(siteops_server::preview::PreviewHost, u16)>,
    /// Also answer requests for this Host name (any port); by default only loopback
    /// addresses, localhost and *.localhost are answered, others get 421. Repeatable.
    #[arg(long = "allowed-host", value_name = "HOST")]
    pub allowed_hosts: Vec<String>,
    /// Sign people in through this OpenID Connect provider (its issuer URL), with the
    /// client id and secret in SITEOPS_OIDC_CLIENT_ID and SITEOPS_OIDC_CLIENT_SECRET; the
    /// provider's `email` claim is who signs in. Without it, the sign-in asks only for an
    /// e-mail address, which serve allows only when just this machine reaches it.
    #[arg(
        long,
        value_name = "URL",
        env = "SITEOPS_OIDC_ISSUER",
        conflicts_with = "no_sign_in"
    )]
    pub oidc_issuer: Option<String>,
    /// Where the provider sends the browser back: this service's public address followed
    /// by `/admin/profile` (by default the request's own host over http).
    #[arg(long, value_name = "URL", requires = "oidc_issuer")]
    pub oidc_redirect_url: Option<String>,
    /// No sign-in page: tokens come from `siteops token` only.
    #[arg(long)]
    pub no_sign_in: bool,
    /// Longest a client may take to send a request's headers, in seconds or with a unit
    /// (`10s`, `1m`); then the connection is closed.
    #[arg(long, value_name = "DURATION", default_value = "10s", value_parser = parse_ttl)]
    pub header_timeout: u64,
    /// Longest the server takes to answer a request (its status and headers); then 503.
    #[arg(long, value_name = "DURATION", default_value = "60s", value_parser = parse_ttl)]
    pub request_timeout: u64,
    /// Connections served at once; further ones wait in the listen backlog.
    #[arg(long, value_name = "N", default_value_t = 1024, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub max_connections: u32,
    /// Longest a whole preview (its page and all its images) may take; then 504.
    #[arg(long, value_name = "DURATION", default_value = "30s", value_parser = parse_ttl)]
    pub preview_deadline: u64,
    /// Previews running at once; further ones wait their turn, and the wait counts against their deadline.
    #[arg(long, value_name = "N", default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub max_previews: u32,
    /// Of those, previews one org may run at once, so that one org's slow sources cannot hold every turn.
    #[arg(long, value_name = "N", default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub max_previews_per_org: u32,
    /// Code sync jobs running at once, over every site; further ones wait their turn.
    #[arg(long, value_name = "N", default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=1_000))]
    pub max_sync_jobs: u32,
    /// Sites one org may have; creating one more gets 409.
    #[arg(long, value_name = "N", default_value_t = 10_000, value_parser = clap::value_parser!(u32).range(1..))]
    pub max_sites_per_org: u32,
    /// Bytes the previews of one site may hold in the store (every branch's pages and images): a number of bytes, or one with KiB, MiB, GiB or TiB (1GiB, 500MiB); a preview that would pass it gets 507 and stores nothing.
    #[arg(long, value_name = "SIZE", default_value = "1GiB", value_parser = parse_size)]
    pub max_preview_bytes_per_site: u64,
    /// Sign-ins (with a good form nonce) per client address per minute: a burst of N, then one every 60/N s; beyond, 429 with Retry-After.
    #[arg(long, value_name = "N", default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..))]
    pub sign_in_rate: u32,
    /// Signed webhook deliveries per site per minute: a burst of N, then one every 60/N s; beyond, 429 with Retry-After.
    #[arg(long, value_name = "N", default_value_t = 60, value_parser = clap::value_parser!(u32).range(1..))]
    pub webhook_rate: u32,
}

#[derive(Debug, Args)]
pub(crate) struct TokenArgs {
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

/// A positive, finite number of requests per second.
fn parse_rate(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(rate) if rate.is_finite() && rate > 0.0 => Ok(rate),
        _ => Err(format!(
            "`{text}` is not a positive number of requests per second"
        )),
    }
}

/// Parses `90`, `90s`, `15m`, `24h`, `7d` into seconds.
fn parse_code_checkout(value: &str) -> Result<(siteops_server::code::CodeRepo, PathBuf), String> {
    let (repo, dir) = value
        .split_once('=')
        .ok_or("expected OWNER/REPO=DIR, such as acme/website=../website")?;
    let repo = siteops_server::code::CodeRepo::parse(repo)
        .ok_or_else(|| format!("`{repo}` is not a code repository: write it as owner/repo"))?;
    if dir.is_empty() {
        return Err("the directory is empty".into());
    }
    Ok((repo, PathBuf::from(dir)))
}

fn parse_site_port(value: &str) -> Result<(siteops_server::preview::PreviewHost, u16), String> {
    let (site, port) = value
        .rsplit_once('=')
        .ok_or("expected ORG/SITE=PORT, such as acme/website=3001")?;
    let port = port
        .parse()
        .map_err(|_| format!("`{port}` is not a port (0 to 65535)"))?;
    let (site, branch) = site.split_once('@').unwrap_or((site, "main"));
    let (org, name) = site
        .split_once('/')
        .ok_or_else(|| format!("`{site}` is not a site: write it as org/site"))?;
    // Parsed as the host name it stands for, so a site port names what a host can.
    let label = format!("{branch}--{name}--{org}.localhost");
    let host = siteops_server::preview::PreviewHost::parse(&label).ok_or_else(|| format!("`{value}` names no preview host: org, site and branch are names of letters, digits and hyphens"))?;
    Ok((host, port))
}

/// A size in bytes: `1048576`, or with a binary unit, `1GiB`, `500MiB`, `64KiB`, `2TiB`.
fn parse_size(text: &str) -> Result<u64, String> {
    let text = text.trim();
    let split = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    let (digits, unit) = text.split_at(split);
    let unit = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "kib" => 1 << 10,
        "mib" => 1 << 20,
        "gib" => 1 << 30,
        "tib" => 1 << 40,
        _ => {
            return Err(format!(
                "`{text}`: write a size as bytes or with KiB, MiB, GiB or TiB, such as 1GiB"
            ));
        }
    };
    let n: u64 = digits
        .parse()
        .map_err(|_| format!("`{text}` is not a size like 1GiB or 500MiB"))?;
    n.checked_mul(unit)
        .filter(|bytes| *bytes > 0)
        .ok_or_else(|| format!("`{text}` is not a positive size"))
}

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

#[derive(Debug, Args)]
pub(crate) struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

#[derive(Debug, Args)]
pub(crate) struct ManArgs {
    /// The directory the pages go to.
    #[arg(long, value_name = "DIR", default_value = "target/man")]
    pub out: PathBuf,
}

#[cfg(test)]
mod tests {
    use super::parse_size;

    #[test]
    fn sizes_in_bytes_or_binary_units() {
        assert_eq!(parse_size("1GiB"), Ok(1 << 30));
        assert_eq!(parse_size("500MiB"), Ok(500 << 20));
        assert_eq!(parse_size("64 kib"), Ok(64 << 10));
        assert_eq!(parse_size("1048576"), Ok(1 << 20));
        assert_eq!(parse_size("2TiB"), Ok(2 << 40));
        for wrong in ["", "0", "1GB", "1.5GiB", "GiB", "-1", "99999999999TiB"] {
            assert!(parse_size(wrong).is_err(), "{wrong}");
        }
    }
}
