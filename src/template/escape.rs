//! HTML escaping exactly as mustache.js 4.2 does it for `{{name}}`.

/// Appends `s` to `out`, replacing the eight characters mustache.js escapes:
/// `&` `<` `>` `"` `'` `/` `` ` `` `=`. The last four go beyond what the
/// Mustache specification asks for, but a template must render here byte for
/// byte as it does in mustache.js.
pub fn escape_html(s: &str, out: &mut String) {
    // Bytes of `s` already copied to `out`.
    let mut copied = 0;
    // All eight characters are ASCII, and a byte below 0x80 is never part
    // of a multi-byte character: the slices below start and end on
    // character boundaries.
    for (at, &byte) in s.as_bytes().iter().enumerate() {
        let entity = ENTITY_OF_BYTE[usize::from(byte)];
        if entity != 0 {
            out.push_str(s.get(copied..at).unwrap_or_default());
            out.push_str(ENTITIES[usize::from(entity)]);
            copied = at + 1;
        }
    }
    out.push_str(s.get(copied..).unwrap_or_default());
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
