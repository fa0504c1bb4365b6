//! The network seam of the preview pipeline: one GET, nothing else.
//!
//! A [`Transport`] sends one request and returns the status, the headers and a body of at
//! most `limit` bytes. It never follows redirects (the pipeline judges every hop) and has
//! no time-out of its own (the pipeline bounds each call). The pipeline takes the transport
//! per run, so the server, tests and an offline harness answering from mock files share
//! all the rest of the code.
//!
//! [`ReqwestTransport`] is the real one. It resolves names through [`GuardedResolver`],
//! which refuses link-local and cloud-metadata addresses, in any IPv6 form (and, under
//! [`AddressPolicy::PublicOnly`], loopback and private ranges too), and it uses no proxy,
//! so the address it checks is the address it connects to.

use std::future::Future;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::pin::Pin;
use std::sync::Arc;

use http::HeaderMap;
use url::Url;

pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

#[derive(Debug, Clone)]
pub struct OutgoingRequest {
    pub url: Url,
    /// Exactly the headers to send; a transport adds none of the caller's.
    pub headers: HeaderMap,
    /// Largest body accepted: reading stops past it with [`TransportError::TooLarge`].
    pub limit: usize,
}

#[derive(Debug, Clone)]
pub struct IncomingResponse {
    pub status: u16,
    pub headers: HeaderMap,
    pub body: Vec<u8>,
    /// Who answered: the network, or a mock standing in for it (`serve`'s trace says it).
    pub answerer: Answerer,
}

/// Who answered a request.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Answerer {
    #[default]
    Network,
    /// A stub of the mocks: its name and mapping file.
    Mock { name: String, file: String },
}

impl IncomingResponse {
    /// A header's value as text, when it is one.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TransportError {
    /// The address is not one siteops connects to (link-local, cloud metadata).
    #[error("refused address: {0}")]
    Refused(String),
    #[error("the body is larger than {limit} bytes")]
    TooLarge { limit: usize },
    #[error("network error: {0}")]
    Network(String),
    /// Answered from the mocks, which have no answer (`serve --offline`, or a host the
    /// mocks stand in for): the request never reached the network.
    #[error("{0}")]
    Unmocked(String),
}

pub trait Transport: Send + Sync + std::fmt::Debug {
    fn get(
        &self,
        request: OutgoingRequest,
    ) -> BoxFuture<'_, Result<IncomingResponse, TransportError>>;
}

/// Cloud metadata and platform services outside the link-local ranges (which hold the
/// common 169.254.169.254 and are refused whole), by the address they answer on.
pub const METADATA_ADDRESSES: [(IpAddr, &str); 5] = [
    (
        IpAddr::V4(Ipv4Addr::new(168, 63, 129, 16)),
        "Azure's wire server (VM agent, extensions, DNS)",
    ),
    (
        IpAddr::V4(Ipv4Addr::new(100, 100, 100, 200)),
        "Alibaba Cloud's metadata service",
    ),
    (
        IpAddr::V4(Ipv4Addr::new(192, 0, 0, 192)),
        "Oracle Cloud's classic metadata service",
    ),
    (
        IpAddr::V6(Ipv6Addr::new(0xfd00, 0xec2, 0, 0, 0, 0, 0, 0x254)),
        "AWS's metadata service over IPv6",
    ),
    (
        IpAddr::V6(Ipv6Addr::new(0xfd20, 0xce, 0, 0, 0, 0, 0, 0x254)),
        "Google Cloud's metadata service over IPv6",
    ),
];

/// The IPv4 address an IPv6 address stands for, when it carries one a packet can reach:
/// IPv4-mapped (`::ffff:a.b.c.d`), IPv4-compatible (`::a.b.c.d`, deprecated but still
/// routed by some stacks; `::` and `::1` are IPv6's own), NAT64 (`64:ff9b::a.b.c.d`, the
/// well-known prefix, where a gateway translates it) and 6to4 (`2002:aabb:ccdd::/48`, the
/// relay's IPv4 address).
pub(crate) fn embedded_ipv4(v6: Ipv6Addr) -> Option<Ipv4Addr> {
    let s = v6.segments();
    let low = Ipv4Addr::from(((s[6] as u32) << 16) | s[7] as u32);
    match s {
        [0, 0, 0, 0, 0, 0xffff, ..] => Some(low),
        [0, 0, 0, 0, 0, 0, ..] if u32::from(low) > 1 => Some(low),
        [0x64, 0xff9b, 0, 0, 0, 0, ..] => Some(low),
        [0x2002, high, low, ..] => Some(Ipv4Addr::from(((high as u32) << 16) | low as u32)),
        _ => None,
    }
}

/// Addresses never contacted: IPv4 link-local (169.254.0.0/16, which holds the cloud
/// metadata service 169.254.169.254), IPv6 link-local (fe80::/10), the other metadata
/// services of [`METADATA_ADDRESSES`], the unspecified addresses, and every IPv6 form of
/// a refused IPv4 address ([`embedded_ipv4`]). Loopback is allowed: `siteops serve` is a
/// local tool whose sources (its own worker, a local demo, tests) live on 127.0.0.1.
pub(crate) fn is_refused(ip: IpAddr) -> bool {
    if METADATA_ADDRESSES.iter().any(|(refused, _)| *refused == ip) {
        return true;
    }
    match ip {
        IpAddr::V4(v4) => v4.is_link_local() || v4.is_unspecified(),
        IpAddr::V6(v6) => match embedded_ipv4(v6) {
            Some(v4) => is_refused(IpAddr::V4(v4)),
            None => v6.is_unspecified() || (v6.segments()[0] & 0xffc0) == 0xfe80,
        },
    }
}

/// Which addresses outgoing requests may reach.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum AddressPolicy {
    /// Everything but [`is_refused`]'s addresses: a laptop, whose sources (its own worker,
    /// a local demo, tests) live on 127.0.0.1 or the office network.
    #[default]
    AllowPrivate,
    /// Public addresses only: loopback, private, shared (CGNAT), unique-local and the other
    /// non-global ranges are refused too. For a service others reach, whose answers would
    /// otherwise re-serve what only the machine itself may see.
    PublicOnly,
}

impl AddressPolicy {
    pub fn refuses(self, ip: IpAddr) -> bool {
        is_refused(ip) || (self == AddressPolicy::PublicOnly && is_private(ip))
    }
}

/// Loopback, private (RFC 1918), shared (100.64.0.0/10), "this network" (0.0.0.0/8),
/// benchmarking, documentation, multicast and broadcast IPv4; loopback, unique-local
/// (fc00::/7), site-local, documentation and multicast IPv6, and every IPv6 form of those
/// IPv4 addresses ([`embedded_ipv4`]).
pub(crate) fn is_private(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => {
            let [a, b, ..] = v4.octets();
            v4.is_loopback()
                || v4.is_private()
                || v4.is_broadcast()
                || v4.is_multicast()
                || v4.is_documentation()
                || a == 0
                || (a == 100 && (64..128).contains(&b))
                || (a == 198 && (b == 18 || b == 19))
                || a >= 240
        }
        IpAddr::V6(v6) => {
            if let Some(v4) = embedded_ipv4(v6) {
                return is_private(IpAddr::V4(v4));
            }
            let segments = v6.segments();
            v6.is_loopback()
                || v6.is_multicast()
                || (segments[0] & 0xfe00) == 0xfc00
                || (segments[0] & 0xffc0) == 0xfec0
                || (segments[0] == 0x2001 && segments[1] == 0x0db8)
        }
    }
}

/// Whether a URL may be requested at all: http(s) with a host that is not a refused
/// address literal. Names are checked again, after resolution, by [`GuardedResolver`].
pub fn check_url(url: &Url) -> Result<(), TransportError> {
    check_url_under(url, AddressPolicy::AllowPrivate)
}

/// [`check_url`] under `policy`.
pub(crate) fn check_url_under(url: &Url, policy: AddressPolicy) -> Result<(), TransportError> {
    if !matches!(url.scheme(), "http" | "https") {
        return Err(TransportError::Refused(format!(
            "{} URLs are never fetched",
            url.scheme()
        )));
    }
    match url.host() {
        None => Err(TransportError::Refused("a URL without a host".into())),
        Some(url::Host::Ipv4(ip)) if policy.refuses(IpAddr::V4(ip)) => {
            Err(TransportError::Refused(ip.to_string()))
        }
        Some(url::Host::Ipv6(ip)) if policy.refuses(IpAddr::V6(ip)) => {
            Err(TransportError::Refused(ip.to_string()))
        }
        Some(_) => Ok(()),
    }
}

/// DNS resolution that drops the addresses its policy refuses, failing when none is left.
#[derive(Debug, Default)]
pub struct GuardedResolver {
    pub policy: AddressPolicy,
}

impl reqwest::dns::Resolve for GuardedResolver {
    fn resolve(&self, name: reqwest::dns::Name) -> reqwest::dns::Resolving {
        let host = name.as_str().to_string();
        let policy = self.policy;
        Box::pin(async move {
            let found: Vec<SocketAddr> =
                tokio::net::lookup_host((host.as_str(), 0)).await?.collect();
            let allowed: Vec<SocketAddr> = found
                .iter()
                .copied()
                .filter(|a| !policy.refuses(a.ip()))
                .collect();
            if allowed.is_empty() && !found.is_empty() {
                return Err(
                    format!("refused address: {host} resolves to {}", found[0].ip()).into(),
                );
            }
            Ok(Box::new(allowed.into_iter()) as reqwest::dns::Addrs)
        })
    }
}

/// The real transport: reqwest, no redirects, no proxy, guarded name resolution.
#[derive(Debug, Clone)]
pub struct ReqwestTransport {
    client: reqwest::Client,
    policy: AddressPolicy,
    /// The server's own address, reachable whatever the policy (the preview asks the
    /// bundled worker over HTTP). Set once the server has bound it.
    own: Arc<std::sync::OnceLock<SocketAddr>>,
}

impl Default for ReqwestTransport {
    fn default() -> Self {
        ReqwestTransport::new()
    }
}

impl ReqwestTransport {
    pub fn new() -> ReqwestTransport {
        ReqwestTransport::with_hosts(&[])
    }

    /// A transport that resolves the given names to the given addresses without asking
    /// DNS, so a URL such as `http://cms.test:<port>/` reaches a local server on that port
    /// while its host stays an ordinary, non-loopback name (tests record and replay mocks
    /// this way). The URL's port is used. Refused addresses are left out.
    pub fn with_hosts(hosts: &[(&str, IpAddr)]) -> ReqwestTransport {
        ReqwestTransport::build(hosts, AddressPolicy::AllowPrivate)
    }

    /// A transport that reaches only what `policy` allows.
    pub fn under(policy: AddressPolicy) -> ReqwestTransport {
        ReqwestTransport::build(&[], policy)
    }

    fn build(hosts: &[(&str, IpAddr)], policy: AddressPolicy) -> ReqwestTransport {
        siteops_plan::http::install_crypto_provider();
        let mut builder = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .no_proxy()
            .dns_resolver(Arc::new(GuardedResolver { policy }))
            .user_agent(concat!("siteops/", env!("CARGO_PKG_VERSION")));
        for (name, ip) in hosts.iter().filter(|(_, ip)| !policy.refuses(*ip)) {
            builder = builder.resolve(name, SocketAddr::new(*ip, 0));
        }
        let client = builder
            .build()
            .expect("the HTTP client configuration is valid");
        ReqwestTransport {
            client,
            policy,
            own: Arc::default(),
        }
    }

    /// Lets requests to `addr` (an address literal and its port) through whatever the
    /// policy: the server's own. Clones of this transport share it.
    pub fn allow_own(&self, addr: SocketAddr) {
        let _ = self.own.set(addr);
    }

    fn is_own(&self, url: &Url) -> bool {
        self.own.get().is_some_and(|own| is_own_origin(*own, url))
    }
}

/// Whether `url` addresses the server listening on `own`: its address literal and port
/// (a name is never taken for it: names resolve to whatever their owner says).
pub(crate) fn is_own_origin(own: SocketAddr, url: &Url) -> bool {
    let ip = match url.host() {
        Some(url::Host::Ipv4(ip)) => IpAddr::V4(ip),
        Some(url::Host::Ipv6(ip)) => IpAddr::V6(ip),
        _ => return false,
    };
    url.scheme() == "http" && ip == own.ip() && url.port_or_known_default() == Some(own.port())
}

impl Transport for ReqwestTransport {
    fn get(
        &self,
        request: OutgoingRequest,
    ) -> BoxFuture<'_, Result<IncomingResponse, TransportError>> {
        Box::pin(async move {
            let policy = if self.is_own(&request.url) {
                AddressPolicy::AllowPrivate
            } else {
                self.policy
            };
            check_url_under(&request.url, policy)?;
            let response = self
                .client
                .get(request.url)
                .headers(request.headers)
                .send()
                .await
                .map_err(network)?;
            let status = response.status().as_u16();
            let headers = response.headers().clone();
            let body = siteops_plan::http::read_limited(response, request.limit)
                .await
                .map_err(|error| match error {
                    siteops_plan::http::BodyError::TooLarge(limit) => {
                        TransportError::TooLarge { limit }
                    }
                    siteops_plan::http::BodyError::Http(error) => network(error),
                })?;
            Ok(IncomingResponse {
                status,
                headers,
                body,
                answerer: Answerer::Network,
            })
        })
    }
}

/// A reqwest error with its causes (the refusal of [`GuardedResolver`] is one).
fn network(error: reqwest::Error) -> TransportError {
    let mut message = error.to_string();
    let mut source = std::error::Error::source(&error);
    while let Some(cause) = source {
        message = format!("{message}: {cause}");
        source = cause.source();
    }
    if message.contains("refused address:") {
        TransportError::Refused(message)
    } else {
        TransportError::Network(message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refused_addresses() {
        let cases = [
            ("169.254.169.254", true),
            ("169.254.0.1", true),
            ("0.0.0.0", true),
            ("::", true),
            ("fe80::1", true),
            ("febf::1", true),
            ("fd00:ec2::254", true),
            ("::ffff:169.254.169.254", true),
            ("64:ff9b::a9fe:a9fe", true),
            ("127.0.0.1", false),
            ("::1", false),
            ("10.0.0.1", false),
            ("169.253.255.255", false),
            ("169.255.0.1", false),
            ("fec0::1", false),
            ("2001:db8::1", false),
        ];
        for (ip, refused) in cases {
            assert_eq!(is_refused(ip.parse().expect(ip)), refused, "{ip}");
        }
    }

    /// Issue 27, finding 13: every refused IPv4 address, and each metadata address, is
    /// refused in every IPv6 form that reaches it, whatever the policy.
    #[test]
    fn refused_addresses_in_every_form() {
        let v4s = [
            "169.254.169.254",
            "169.254.170.2",
            "169.254.0.23",
            "168.63.129.16",
            "100.100.100.200",
            "192.0.0.192",
            "0.0.0.0",
        ];
        for v4 in v4s {
            let [a, b, c, d] = v4.parse::<Ipv4Addr>().expect(v4).octets();
            let (high, low) = (u16::from_be_bytes([a, b]), u16::from_be_bytes([c, d]));
            for form in [
                v4.to_string(),
                format!("::ffff:{v4}"),
                format!("::{v4}"),
                format!("64:ff9b::{v4}"),
                format!("2002:{high:x}:{low:x}::1"),
            ] {
                let ip: IpAddr = form.parse().expect(&form);
                assert!(is_refused(ip), "{form} ({v4})");
                for policy in [AddressPolicy::AllowPrivate, AddressPolicy::PublicOnly] {
                    assert!(policy.refuses(ip), "{form} under {policy:?}");
                }
                let url = Url::parse(&match ip {
                    IpAddr::V4(_) => format!("http://{form}/"),
                    IpAddr::V6(_) => format!("http://[{form}]/"),
                })
                .expect("url");
                assert!(check_url(&url).is_err(), "{url}");
            }
        }
        for (ip, what) in METADATA_ADDRESSES {
            assert!(is_refused(ip), "{ip}: {what}");
        }
        // [::a9fe:a9fe] is 169.254.169.254 written IPv4-compatible.
        assert!(is_refused("::a9fe:a9fe".parse().expect("ip")));
        assert!(is_refused("fd20:ce::254".parse().expect("ip")));
        // Neighbours of the metadata addresses, and IPv6's own, are not.
        for allowed in [
            "168.63.129.15",
            "168.63.129.17",
            "100.100.100.201",
            "192.0.0.193",
            "fd20:ce::253",
            "::1",
            "2002:5db8:d822::1",
            "::ffff:93.184.216.34",
            "2606:4700::1111",
        ] {
            assert!(!is_refused(allowed.parse().expect(allowed)), "{allowed}");
        }
    }

    #[test]
    fn the_ipv4_inside_ipv6() {
        let cases = [
            ("::ffff:10.1.2.3", Some("10.1.2.3")),
            ("::10.1.2.3", Some("10.1.2.3")),
            ("64:ff9b::a01:203", Some("10.1.2.3")),
            ("2002:a01:203::", Some("10.1.2.3")),
            ("2002:a01:203:1:2:3:4:5", Some("10.1.2.3")),
            ("::", None),
            ("::1", None),
            ("64:ff9b:1::a01:203", None),
            ("2001:db8::a01:203", None),
        ];
        for (v6, v4) in cases {
            let v6: Ipv6Addr = v6.parse().expect(v6);
            let v4 = v4.map(|v4| v4.parse::<Ipv4Addr>().expect(v4));
            assert_eq!(embedded_ipv4(v6), v4, "{v6}");
        }
    }

    #[tokio::test]
    async fn resolution_drops_refused_addresses() {
        use reqwest::dns::Resolve;
        let resolve = |name: &str| GuardedResolver::default().resolve(name.parse().expect("name"));
        let refused = resolve("169.254.169.254").await.err().expect("refused");
        assert!(
            refused.to_string().starts_with("refused address:"),
            "{refused}"
        );
        let local: Vec<SocketAddr> = resolve("127.0.0.1").await.expect("allowed").collect();
        assert_eq!(local[0].ip().to_string(), "127.0.0.1");
    }

    #[test]
    fn only_http_urls_to_allowed_literals() {
        let cases = [
            ("http://127.0.0.1:1/x", true),
            ("https://example.com/x", true),
            ("http://169.254.169.254/latest/meta-data", false),
            ("http://0xa9fea9fe/", false),
            ("http://[fe80::1]/", false),
            ("http://[::ffff:a9fe:a9fe]/", false),
            ("file:///etc/passwd", false),
            ("ftp://example.com/x", false),
            ("data:image/png;base64,AAAA", false),
        ];
        for (url, ok) in cases {
            let url = Url::parse(url).expect(url);
            assert_eq!(check_url(&url).is_ok(), ok, "{url}");
        }
    }

    #[test]
    fn public_only_refuses_loopback_and_private_ranges() {
        let cases = [
            ("127.0.0.1", true),
            ("127.8.9.10", true),
            ("::1", true),
            ("10.1.2.3", true),
            ("172.16.0.1", true),
            ("172.31.255.255", true),
            ("192.168.1.1", true),
            ("100.64.0.1", true),
            ("100.127.255.255", true),
            ("0.1.2.3", true),
            ("255.255.255.255", true),
            ("224.0.0.1", true),
            ("fc00::1", true),
            ("fd12:3456::1", true),
            ("::ffff:10.0.0.1", true),
            ("64:ff9b::7f00:1", true),
            ("::7f00:1", true),
            ("::10.0.0.1", true),
            ("2002:c0a8:101::1", true),
            ("2002:7f00:1::1", true),
            ("::5db8:d822", false),
            ("2002:5db8:d822::1", false),
            ("169.254.169.254", true),
            ("93.184.216.34", false),
            ("172.32.0.1", false),
            ("100.128.0.1", false),
            ("2606:4700::1111", false),
        ];
        for (ip, refused) in cases {
            let ip: IpAddr = ip.parse().expect(ip);
            assert_eq!(AddressPolicy::PublicOnly.refuses(ip), refused, "{ip}");
        }
        let loopback: IpAddr = "127.0.0.1".parse().expect("ip");
        assert!(!AddressPolicy::AllowPrivate.refuses(loopback));
    }

    /// Refused before any connection: the resolver answers without a socket to the address.
    #[tokio::test]
    async fn public_only_refuses_before_connecting() {
        use reqwest::dns::Resolve;
        let resolver = GuardedResolver {
            policy: AddressPolicy::PublicOnly,
        };
        let refused = resolver
            .resolve("localhost".parse().expect("name"))
            .await
            .err()
            .expect("refused");
        assert!(
            refused.to_string().starts_with("refused address:"),
            "{refused}"
        );
        let transport = ReqwestTransport::under(AddressPolicy::PublicOnly);
        let request = OutgoingRequest {
            url: Url::parse("http://10.0.0.1:9/page").expect("url"),
            headers: HeaderMap::new(),
            limit: 10,
        };
        let error = transport.get(request.clone()).await.expect_err("refused");
        assert_eq!(error, TransportError::Refused("10.0.0.1".into()));
        // The server's own address stays reachable (port 9 on 10.0.0.1 is not this
        // machine's: only the refusal is checked, never a connection).
        transport.allow_own("10.0.0.1:10".parse().expect("address"));
        let error = transport.get(request).await.expect_err("refused");
        assert_eq!(error, TransportError::Refused("10.0.0.1".into()));
    }

    #[tokio::test]
    async fn the_servers_own_address_stays_reachable() {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let own = listener.local_addr().expect("address");
        tokio::spawn(async move {
            use tokio::io::AsyncWriteExt;
            while let Ok((mut socket, _)) = listener.accept().await {
                let mut buffer = [0u8; 1024];
                let _ = tokio::io::AsyncReadExt::read(&mut socket, &mut buffer).await;
                let answer = "HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: close\r\n\r\nok";
                let _ = socket.write_all(answer.as_bytes()).await;
            }
        });
        let transport = ReqwestTransport::under(AddressPolicy::PublicOnly);
        let request = OutgoingRequest {
            url: Url::parse(&format!("http://{own}/transform")).expect("url"),
            headers: HeaderMap::new(),
            limit: 10,
        };
        let refused = transport.get(request.clone()).await.expect_err("refused");
        assert!(matches!(refused, TransportError::Refused(_)), "{refused:?}");
        transport.allow_own(own);
        let answer = transport.get(request).await.expect("answered");
        assert_eq!((answer.status, answer.body), (200, b"ok".to_vec()));
    }
}
