//! HTML escaping exactly as mustache.js 4.2 does it for `{{name}}`.

/// Appends `s` to `out`, replacing the eight characters mustache.js escapes:
/// `&` `<` `>` `"` `'` `/` `` ` `` `=`. The last four go beyond what the
/// Mustache specification asks for, but a template must render here byte for
/// byte as it does in mustache.js.
pub fn escape_html(s: &str, out: &mut String) {
    let bytes = s.as_bytes();
    out.reserve(bytes.len());
    // Bytes of `s` already copied to `out`. All eight characters are ASCII, and a byte
    // below 0x80 is never part of a multi-byte character, so every slice of `s` taken
    // below starts and ends on character boundaries.
    let mut copied = 0;
    let mut replace = |at: usize, out: &mut String| {
        let entity = ENTITY_OF_BYTE[usize::from(bytes[at])];
        if entity != 0 {
            out.push_str(s.get(copied..at).unwrap_or_default());
            out.push_str(ENTITIES[usize::from(entity)]);
            copied = at + 1;
        }
    };
    // Whole 16-byte blocks: find the characters to replace a block at a time.
    let blocks = bytes.len() / BLOCK * BLOCK;
    let mut block = 0;
    while block < blocks {
        let mut hits = special_bytes(&bytes[block..block + BLOCK]);
        while hits != 0 {
            replace(block + hits.trailing_zeros() as usize, out);
            hits &= hits - 1;
        }
        block += BLOCK;
    }
    for at in blocks..bytes.len() {
        replace(at, out);
    }
    out.push_str(s.get(copied..).unwrap_or_default());
}

/// [`escape_html`] that appends only while `out` stays within `limit` bytes: `false`, with
/// `out` holding a prefix of the escaped text, when the whole would pass it. Far from the
/// limit this is the fast path; near it the text is written a piece at a time, so the
/// output never grows past the limit.
pub(crate) fn escape_html_within(s: &str, out: &mut String, limit: usize) -> bool {
    let room = limit.saturating_sub(out.len());
    if s.len() > room {
        // Escaping never shortens the text.
        return false;
    }
    if s.len().saturating_mul(MAX_ENTITY_LEN) <= room {
        escape_html(s, out);
        return true;
    }
    let mut copied = 0;
    for (at, &byte) in s.as_bytes().iter().enumerate() {
        let entity = ENTITY_OF_BYTE[usize::from(byte)];
        if entity != 0 {
            let plain = s.get(copied..at).unwrap_or_default();
            let entity = ENTITIES[usize::from(entity)];
            if out.len() + plain.len() + entity.len() > limit {
                return false;
            }
            out.push_str(plain);
            out.push_str(entity);
            copied = at + 1;
        }
    }
    let rest = s.get(copied..).unwrap_or_default();
    if out.len() + rest.len() > limit {
        return false;
    }
    out.push_str(rest);
    true
}

/// The longest replacement, `&quot;`: no text escapes to more than this many times its length.
const MAX_ENTITY_LEN: usize = 6;

const BLOCK: usize = 16;

/// A bit mask of the bytes of `block` (16 bytes) that are among the eight to escape:
/// bit `i` is set when `block[i]` is one.
#[inline]
fn special_bytes(block: &[u8]) -> u32 {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    // SAFETY: `special_bytes_sse2` needs only SSE2, which every x86_64 processor has (the
    // cfg above confirms the build assumes it); it reads `block` through safe accesses.
    return unsafe { special_bytes_sse2(block) };
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    return block
        .iter()
        .enumerate()
        .filter(|(_, &b)| ENTITY_OF_BYTE[usize::from(b)] != 0)
        .fold(0, |mask, (i, _)| mask | 1 << i);
}

/// [`special_bytes`] with sixteen byte comparisons at once.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[target_feature(enable = "sse2")]
fn special_bytes_sse2(block: &[u8]) -> u32 {
    use std::arch::x86_64::{
        _mm_cmpeq_epi8, _mm_movemask_epi8, _mm_or_si128, _mm_set_epi64x, _mm_set1_epi8,
    };
    let word = |half: Option<&[u8]>| {
        i64::from_le_bytes(half.and_then(|h| h.try_into().ok()).unwrap_or_default())
    };
    let v = _mm_set_epi64x(word(block.get(8..16)), word(block.get(..8)));
    let is = |c: u8| _mm_cmpeq_epi8(v, _mm_set1_epi8(c as i8));
    let hits = _mm_or_si128(
        _mm_or_si128(
            _mm_or_si128(is(b'&'), is(b'<')),
            _mm_or_si128(is(b'>'), is(b'"')),
        ),
        _mm_or_si128(
            _mm_or_si128(is(b'\''), is(b'/')),
            _mm_or_si128(is(b'`'), is(b'=')),
        ),
    );
    _mm_movemask_epi8(hits) as u32
}

/// The replacements, indexed by [`ENTITY_OF_BYTE`]; index 0 means none.
const ENTITIES: [&str; 9] = [
    "", "&amp;", "&lt;", "&gt;", "&quot;", "&#39;", "&#x2F;", "&#x60;", "&#x3D;",
];

/// For each byte, the index of its replacement in [`ENTITIES`]: a table
/// lookup per byte keeps the scan over plain text cheap.
static ENTITY_OF_BYTE: [u8; 256] = {
    let mut table = [0; 256];
    table[b'&' as usize] = 1;
    table[b'<' as usize] = 2;
    table[b'>' as usize] = 3;
    table[b'"' as usize] = 4;
    table[b'\'' as usize] = 5;
    table[b'/' as usize] = 6;
    table[b'`' as usize] = 7;
    table[b'=' as usize] = 8;
    table
};

#[cfg(test)]
mod tests {
    use super::*;

    /// The block scan must find a special character at every offset of a block, and in the
    /// tail shorter than a block, as the byte-by-byte table does.
    #[test]
    fn every_position_and_character_is_escaped() {
        for special in ['&', '<', '>', '"', '\'', '/', '`', '='] {
            for len in [1, 15, 16, 17, 31, 32, 33, 40] {
                for pos in 0..len {
                    let mut text: String = "é".repeat(len);
                    let mut chars: Vec<char> = text.chars().collect();
                    chars[pos] = special;
                    text = chars.into_iter().collect();
                    let mut fast = String::new();
                    escape_html(&text, &mut fast);
                    let slow: String = text
                        .chars()
                        .map(|c| match ENTITY_OF_BYTE.get(c as usize) {
                            Some(&e) if c.is_ascii() && e != 0 => ENTITIES[usize::from(e)].into(),
                            _ => c.to_string(),
                        })
                        .collect();
                    assert_eq!(fast, slow, "{special:?} at {pos} of {len}");
                }
            }
        }
    }
}
