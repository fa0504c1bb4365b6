//! Pure facts about a downloaded image: its stored name, its content type, and its size
//! in pixels when the file's header says so cheaply.

use sha2::{Digest, Sha256};

/// `media_<first 40 hex digits of the SHA-256 of the bytes>.<ext>`.
pub fn media_name(bytes: &[u8], extension: &str) -> String {
    let digest = Sha256::digest(bytes);
    format!("media_{}.{extension}", hex::encode(&digest[..20]))
}

/// Whether a name is a stored media name (`media_<40 hex>.<known extension>`).
pub fn is_media_name(name: &str) -> bool {
    let Some((stem, extension)) = name.rsplit_once('.') else {
        return false;
    };
    stem.strip_prefix("media_").is_some_and(|hex| {
        hex.len() == 40 && hex.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
    }) && content_type_of(extension).is_some()
}

const TYPES: &[(&str, &str)] = &[
    ("image/png", "png"),
    ("image/jpeg", "jpg"),
    ("image/gif", "gif"),
    ("image/webp", "webp"),
    ("image/avif", "avif"),
    ("image/svg+xml", "svg"),
    ("image/bmp", "bmp"),
    ("image/tiff", "tiff"),
    ("image/x-icon", "ico"),
    ("image/vnd.microsoft.icon", "ico"),
    ("image/apng", "apng"),
    ("image/heic", "heic"),
    ("image/heif", "heif"),
    ("image/jxl", "jxl"),
];

/// The media type of a `Content-Type` value, lower case, without parameters.
pub fn essence(content_type: &str) -> String {
    content_type
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase()
}

/// The stored extension of an accepted image type (`image/jpg` is taken as JPEG); `None`
/// for a type that is not `image/*`. Other image types are stored as `.img`.
pub fn extension_of(essence: &str) -> Option<&'static str> {
    let essence = if essence == "image/jpg" {
        "image/jpeg"
    } else {
        essence
    };
    if !essence.starts_with("image/") || essence.len() == "image/".len() {
        return None;
    }
    Some(
        TYPES
            .iter()
            .find(|(t, _)| *t == essence)
            .map_or("img", |(_, ext)| ext),
    )
}

/// The content type the preview host serves a stored media file with.
pub fn content_type_of(extension: &str) -> Option<&'static str> {
    if extension == "img" {
        return Some("application/octet-stream");
    }
    TYPES
        .iter()
        .find(|(_, ext)| *ext == extension)
        .map(|(t, _)| *t)
}

/// Width and height from the header of a PNG, GIF, WebP or JPEG file.
pub fn dimensions(bytes: &[u8]) -> Option<(u32, u32)> {
    let be16 = |at: usize| Some(u16::from_be_bytes(bytes.get(at..at + 2)?.try_into().ok()?) as u32);
    let le16 = |at: usize| Some(u16::from_le_bytes(bytes.get(at..at + 2)?.try_into().ok()?) as u32);
    let be32 = |at: usize| Some(u32::from_be_bytes(bytes.get(at..at + 4)?.try_into().ok()?));
    let le24 = |at: usize| {
        let b = bytes.get(at..at + 3)?;
        Some(b[0] as u32 | (b[1] as u32) << 8 | (b[2] as u32) << 16)
    };
    if bytes.starts_with(b"\x89PNG\r\n\x1a\n") && bytes.get(12..16) == Some(b"IHDR") {
        return Some((be32(16)?, be32(20)?));
    }
    if bytes.starts_with(b"GIF87a") || bytes.starts_with(b"GIF89a") {
        return Some((le16(6)?, le16(8)?));
    }
    if bytes.starts_with(b"RIFF") && bytes.get(8..12) == Some(b"WEBP") {
        return match bytes.get(12..16)? {
            b"VP8 " => Some((le16(26)? & 0x3fff, le16(28)? & 0x3fff)),
            b"VP8L" => {
                let bits = u32::from_le_bytes(bytes.get(21..25)?.try_into().ok()?);
                Some(((bits & 0x3fff) + 1, ((bits >> 14) & 0x3fff) + 1))
            }
            b"VP8X" => Some((le24(24)? + 1, le24(27)? + 1)),
            _ => None,
        };
    }
    if bytes.starts_with(&[0xff, 0xd8]) {
        // Walk the segments to the first start-of-frame marker.
        let mut at = 2;
        while at + 4 <= bytes.len() {
            if bytes[at] != 0xff {
                return None;
            }
            let marker = bytes[at + 1];
            if marker == 0xff {
                at += 1;
                continue;
            }
            let length = be16(at + 2)? as usize;
            let is_frame = matches!(marker, 0xc0..=0xcf) && !matches!(marker, 0xc4 | 0xc8 | 0xcc);
            if is_frame {
                return Some((be16(at + 7)?, be16(at + 5)?));
            }
            at += 2 + length;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_content_hashes() {
        let name = media_name(b"hello", "png");
        assert_eq!(name, "media_2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c.png");
        assert!(is_media_name(&name));
        for bad in [
            "media_2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c.exe",
            "media_2cf24dba.png",
            "media_2CF24DBA5FB0A30E26E83B2AC5B9E29E1B161E5C.png",
            "image.png",
            "media_2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c",
        ] {
            assert!(!is_media_name(bad), "{bad}");
        }
    }

    #[test]
    fn only_image_types_have_an_extension() {
        let cases = [
            ("image/png", Some("png")),
            ("image/jpg", Some("jpg")),
            ("image/svg+xml", Some("svg")),
            ("image/x-unknown", Some("img")),
            ("image/", None),
            ("text/html", None),
            ("application/octet-stream", None),
        ];
        for (essence, extension) in cases {
            assert_eq!(extension_of(essence), extension, "{essence}");
        }
        assert_eq!(essence("Image/PNG; charset=binary"), "image/png");
        assert_eq!(content_type_of("jpg"), Some("image/jpeg"));
    }

    #[test]
    fn dimensions_from_headers() {
        let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
        png.extend_from_slice(&640u32.to_be_bytes());
        png.extend_from_slice(&480u32.to_be_bytes());
        assert_eq!(dimensions(&png), Some((640, 480)));

        let gif = b"GIF89a\x20\x03\x58\x02rest";
        assert_eq!(dimensions(gif), Some((800, 600)));

        // JPEG: SOI, an APP0 segment of 16 bytes, then SOF0 with height 300, width 400.
        let mut jpeg = vec![0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10];
        jpeg.extend_from_slice(&[0; 14]);
        jpeg.extend_from_slice(&[0xff, 0xc0, 0x00, 0x11, 0x08, 0x01, 0x2c, 0x01, 0x90, 0x03]);
        assert_eq!(dimensions(&jpeg), Some((400, 300)));

        let mut webp = b"RIFF\0\0\0\0WEBPVP8X".to_vec();
        webp.extend_from_slice(&[0; 8]);
        webp.extend_from_slice(&[0x1f, 0x03, 0x00, 0x57, 0x02, 0x00]);
        assert_eq!(dimensions(&webp), Some((800, 600)));

        let mut lossless = b"RIFF\0\0\0\0WEBPVP8L\0\0\0\0\x2f".to_vec();
        let bits: u32 = (99) | (49 << 14);
        lossless.extend_from_slice(&bits.to_le_bytes());
        assert_eq!(dimensions(&lossless), Some((100, 50)));

        assert_eq!(dimensions(b"<svg/>"), None);
        assert_eq!(dimensions(b"\x89PNG"), None);
        assert_eq!(dimensions(&[0xff, 0xd8, 0xff]), None);
    }
}
