//! `siteops serve`: the local administration service and the site preview hosts.

use std::net::{Ipv4Addr, SocketAddr};

use anyhow::Result;
use siteops::server::{ServerConfig, start};

use super::Outcome;
use crate::cli::ServeArgs;

pub fn run(args: &ServeArgs) -> Result<Outcome> {
    let runtime = tokio::runtime::Runtime::new()?;
    runtime.block_on(serve(args))
}

async fn serve(args: &ServeArgs) -> Result<Outcome> {
    let data_dir = args.data.dir(&args.repo.root);
    let config = ServerConfig {
        // Loopback only: the sign-in page trusts whoever can reach it.
        addr: SocketAddr::from((Ipv4Addr::LOCALHOST, args.port)),
        data_dir: data_dir.clone(),
        org_admins: args.org_admins.clone(),
        preview_limits: siteops::preview::Limits::default(),
        preview_transport: None,
    };
    let server = start(config).await?;
    let port = server.addr.port();
    println!("siteops serve: listening on http://127.0.0.1:{port}");
    println!("  administration API    http://127.0.0.1:{port}/admin");
    println!("  transformation worker http://127.0.0.1:{port}/transform");
    println!("  sign in               http://127.0.0.1:{port}/admin/login");
    println!("  preview hosts         http://<branch>--<site>--<org>.localhost:{port}/");
    println!("  data                  {}", data_dir.display());
    if args.org_admins.is_empty() {
        println!("  org administrators    none: pass --org-admin ADDRESS to allow creating sites");
    }
    server.wait().await?;
    Ok(Outcome::Success)
}
