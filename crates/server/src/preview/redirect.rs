//! Following redirects by hand, so that every hop is judged: only a hop that `permitted`
//! accepts receives the credential headers (`Authorization`, and for pages
//! `x-content-source-location`); any other hop gets none. Each hop must also pass
//! [`check_url`] (http(s), no refused address literal).

use http::HeaderMap;
use http::header::{AUTHORIZATION, LOCATION};
use url::Url;

use super::trace::{AnsweredBy, Hop};
use super::transport::{
    Answerer, IncomingResponse, OutgoingRequest, Transport, TransportError, check_url,
};

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum ChainError {
    #[error(transparent)]
    Transport(#[from] TransportError),
    #[error("more than {0} redirects")]
    TooManyRedirects(usize),
    #[error("a redirect to an invalid location `{0}`")]
    BadLocation(String),
}

/// GETs `url`, following up to `max_redirects` redirects (301, 302, 303, 307, 308). Every
/// request made is appended to `hops`. Returns the final URL and response.
pub(crate) async fn follow(
    transport: &dyn Transport,
    url: Url,
    credentials: &HeaderMap,
    permitted: &(dyn Fn(&Url) -> bool + Sync),
    limit: usize,
    max_redirects: usize,
    hops: &mut Vec<Hop>,
) -> Result<(Url, IncomingResponse), ChainError> {
    let mut url = url;
    for _ in 0..=max_redirects {
        let allowed = permitted(&url);
        hops.push(Hop {
            url: url.to_string(),
            authorization: allowed && credentials.contains_key(AUTHORIZATION),
            status: None,
            answered_by: None,
        });
        check_url(&url)?;
        let headers = if allowed {
            credentials.clone()
        } else {
            HeaderMap::new()
        };
        let response = transport
            .get(OutgoingRequest {
                url: url.clone(),
                headers,
                limit,
            })
            .await;
        if let (Some(hop), Err(TransportError::Unmocked(_))) = (hops.last_mut(), &response) {
            hop.answered_by = Some(AnsweredBy::Unmocked);
        }
        let response = response?;
        if let Some(hop) = hops.last_mut() {
            hop.status = Some(response.status);
            hop.answered_by = Some(match &response.answerer {
                Answerer::Network => AnsweredBy::Network,
                Answerer::Mock { name, file } => AnsweredBy::Mock {
                    name: name.clone(),
                    file: file.clone(),
                },
            });
        }
        if !matches!(response.status, 301 | 302 | 303 | 307 | 308) {
            return Ok((url, response));
        }
        let Some(location) = response.header(LOCATION.as_str()) else {
            return Ok((url, response));
        };
        url = url
            .join(location)
            .map_err(|_| ChainError::BadLocation(location.to_string()))?;
    }
    Err(ChainError::TooManyRedirects(max_redirects))
}
