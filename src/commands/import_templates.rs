//! The templates an import's worker entries name, read from the site's code: a local
//! checkout given with `--code OWNER/REPO=DIR`, else the site's preview host on the service
//! that was read, which serves the site's code as the platform's preview hosts do. A
//! template that cannot be read is named with why, for copying by hand.

use std::time::Duration;

use siteops_config::import::{ImportedFile, OrgSnapshot, TemplateFile};
use siteops_server::code::{Checkout, CodePath, CodeRepo};
use url::Url;

/// Largest template read from a preview host.
const TEMPLATE_LIMIT: usize = 1024 * 1024;

/// Where templates are read from.
pub(super) struct CodeSources<'a> {
    pub checkouts: &'a [(CodeRepo, std::path::PathBuf)],
    /// The administration service's address (`--admin`).
    pub admin: &'a str,
    pub token: Option<&'a str>,
    /// Whether the service is on this machine (a `siteops serve`): its preview hosts are
    /// `<branch>--<site>--<org>.localhost` on its port, and take its token.
    pub local: bool,
}

/// A template that could not be read: its path in the repository, and why.
pub(super) struct Unread {
    pub path: String,
    pub why: String,
}

/// Each template as a file to write, and each that could not be read.
pub(super) async fn read(
    templates: &[TemplateFile],
    snapshot: &OrgSnapshot,
    sources: &CodeSources<'_>,
) -> (Vec<ImportedFile>, Vec<Unread>) {
    let (mut found, mut missing) = (Vec::new(), Vec::new());
    let client = client();
    for template in templates {
        let result = match code_repo(snapshot, &template.site) {
            Some(repo) if sources.checkouts.iter().any(|(r, _)| *r == repo) => {
                let dir = (sources.checkouts.iter())
                    .find(|(r, _)| *r == repo)
                    .map(|(_, dir)| dir)
                    .expect("found above");
                from_checkout(dir, &template.template)
            }
            _ => from_preview_host(&client, &snapshot.org, template, sources).await,
        };
        match result
            .and_then(|bytes| String::from_utf8(bytes).map_err(|_| "not UTF-8 text".to_string()))
        {
            Ok(text) => found.push(ImportedFile {
                path: template.path.clone(),
                text,
            }),
            Err(why) => missing.push(Unread {
                path: template.path.clone(),
                why,
            }),
        }
    }
    (found, missing)
}

/// The code repository (`code.owner`/`code.repo`) of a site of the snapshot.
fn code_repo(snapshot: &OrgSnapshot, site: &str) -> Option<CodeRepo> {
    let code = snapshot.sites.get(site)?.document.get("code")?;
    let owner = code.get("owner")?.as_str()?;
    let repo = code.get("repo")?.as_str()?;
    CodeRepo::parse(&format!("{owner}/{repo}"))
}

/// The template from the checkout at `dir`, read as the bundled service reads a checkout:
/// nothing outside it, nothing its code sync would leave out.
fn from_checkout(dir: &std::path::Path, template: &str) -> Result<Vec<u8>, String> {
    let path = CodePath::new(template.trim_start_matches('/')).map_err(|e| e.to_string())?;
    let checkout = Checkout::open(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    match checkout.read(&path) {
        Ok(Some(bytes)) => Ok(bytes),
        Ok(None) => Err(format!("not in the checkout {}", dir.display())),
        Err(error) => Err(format!("{}: {error}", dir.display())),
    }
}

/// The template from the site's preview host on its branch: on a service on this machine
/// asked at the service's own address (`Host: <branch>--<site>--<org>.localhost:<port>`,
/// no name to resolve) with its token; on the platform at `<branch>--<site>--<org>.aem.page`,
/// without one (the administration token is the administration service's alone).
async fn from_preview_host(
    client: &reqwest::Client,
    org: &str,
    template: &TemplateFile,
    sources: &CodeSources<'_>,
) -> Result<Vec<u8>, String> {
    let label = format!("{}--{}--{org}", template.branch, template.site);
    let admin = Url::parse(sources.admin).map_err(|e| e.to_string())?;
    let request = if sources.local {
        let mut url = admin.clone();
        url.set_path(&template.template);
        let host = match admin.port() {
            Some(port) => format!("{label}.localhost:{port}"),
            None => format!("{label}.localhost"),
        };
        let mut request = client.get(url).header(reqwest::header::HOST, host);
        if let Some(token) = sources.token {
            request = request.header("authorization", format!("token {token}"));
        }
        request
    } else {
        let url = format!("https://{label}.aem.page{}", template.template);
        client.get(url)
    };
    let response = request.send().await.map_err(|e| e.to_string())?;
    let status = response.status();
    if !status.is_success() {
        return Err(format!(
            "the preview host of {org}/{} answered {status}",
            template.site
        ));
    }
    siteops_plan::http::read_limited(response, TEMPLATE_LIMIT)
        .await
        .map_err(|e| e.to_string())
}

/// No redirects: a template is where the site's code has it.
fn client() -> reqwest::Client {
    siteops_plan::http::install_crypto_provider();
    reqwest::Client::builder()
        .timeout(Duration::from_secs(30))
        .redirect(reqwest::redirect::Policy::none())
        .user_agent(concat!("siteops/", env!("CARGO_PKG_VERSION")))
        .build()
        .expect("the HTTP client configuration is valid")
}
