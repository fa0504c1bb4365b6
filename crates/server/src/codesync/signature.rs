//! Push notification signatures: `x-hub-signature-256: sha256=<hex>`, the HMAC-SHA256 of
//! the raw body with the webhook secret (the convention of the common git hosts), compared
//! in constant time.

use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;

pub const HEADER: &str = "x-hub-signature-256";

/// The header value for `body` signed with `secret`.
pub fn sign(secret: &[u8], body: &[u8]) -> String {
    let mut mac = Hmac::<Sha256>::new_from_slice(secret).expect("HMAC takes keys of any length");
    mac.update(body);
    let digest = mac.finalize().into_bytes();
    let hex = hex::encode(digest);
    format!("sha256={hex}")
}

/// Whether `header` is the signature of `body` with `secret`.
pub fn verify(secret: &[u8], body: &[u8], header: &str) -> bool {
    let Some(hex) = header.trim().strip_prefix("sha256=") else {
        return false;
    };
    let Some(signature) = decode_hex(hex) else {
        return false;
    };
    let mut mac = Hmac::<Sha256>::new_from_slice(secret).expect("HMAC takes keys of any length");
    mac.update(body);
    mac.verify_slice(&signature).is_ok()
}

fn decode_hex(hex: &str) -> Option<Vec<u8>> {
    if !hex.len().is_multiple_of(2) {
        return None;
    }
    (0..hex.len())
        .step_by(2)
        .map(|i| {
            hex.get(i..i + 2)
                .and_then(|pair| u8::from_str_radix(pair, 16).ok())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signatures_verify_only_for_the_same_body_and_secret() {
        let body = br#"{"ref":"refs/heads/main"}"#;
        let header = sign(b"secret", body);
        assert!(header.starts_with("sha256=") && header.len() == 7 + 64);
        assert!(verify(b"secret", body, &header));
        assert!(!verify(b"other", body, &header));
        assert!(!verify(b"secret", br#"{"ref":"refs/heads/evil"}"#, &header));
        for bad in [
            "",
            "sha256=",
            "sha1=abcd",
            "sha256=zz",
            &header[..header.len() - 1],
        ] {
            assert!(!verify(b"secret", body, bad), "{bad}");
        }
    }

    #[test]
    fn matches_a_known_vector() {
        // RFC 4231 test case 2 (key "Jefe").
        assert_eq!(
            sign(b"Jefe", b"what do ya want for nothing?"),
            "sha256=5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
    }
}
