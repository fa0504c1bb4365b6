//! JavaScript's `Number.prototype.toString()`, so that numbers print as
//! mustache.js prints them (`3.0` as `3`, `1e21` as `1e+21`, `2**60` as
//! `1152921504606847000`).

use std::fmt::Write;

/// Above this every integer is still exact in an `f64` and JavaScript prints
/// all its digits, so the integer path below gives the same text.
const EXACT_INTEGER_LIMIT: f64 = 9_007_199_254_740_992.0; // 2^53

/// Appends the JavaScript string form of `x` to `out`.
pub fn write_js_number(x: f64, out: &mut String) {
    if x.is_nan() {
        out.push_str("NaN");
    } else if x == 0.0 {
        // Covers -0, which JavaScript prints as "0".
        out.push('0');
    } else if x.is_infinite() {
        out.push_str(if x < 0.0 { "-Infinity" } else { "Infinity" });
    } else {
        if x < 0.0 {
            out.push('-');
        }
        write_positive(x.abs(), out);
    }
}

fn write_positive(x: f64, out: &mut String) {
    if x.fract() == 0.0 && x < EXACT_INTEGER_LIMIT {
        // The common case; `as` is exact here because x < 2^53.
        write_digits(x as u64, 0, out);
    } else if !write_short_decimal(x, out) {
        write_general(x, out);
    }
}

/// Powers of ten up to the 15 digits the short-decimal path handles; all
/// exact as `f64`.
const POWERS_OF_TEN: [f64; 16] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
];

/// Fast path for the usual non-integers (prices, ratios): finds the fewest
/// decimals `d` such that `n / 10^d` reads back as `x`, for integer `n`
/// below 10^15. Within 15 significant digits the decimal that reads back
/// as `x` is unique, dividing two exact doubles rounds exactly as parsing
/// the decimal would, and `x` lies in JavaScript's fixed-notation range
/// (1e-6 to 1e21): so the text is exactly JavaScript's, without the cost
/// of the general formatter. Returns `false` to leave `x` to that.
fn write_short_decimal(x: f64, out: &mut String) -> bool {
    if x < 1e-6 {
        return false;
    }
    for (decimals, &scale) in POWERS_OF_TEN.iter().enumerate().skip(1) {
        let scaled = (x * scale).round();
        if scaled >= 1e15 {
            return false;
        }
        if scaled / scale == x {
            write_digits(scaled as u64, decimals, out);
            return true;
        }
    }
    false
}

/// Writes `n / 10^decimals` in fixed notation (`decimals` > 0 puts a
/// point before the last `decimals` digits, with a leading `0.` and
/// zero-padding as needed), filling a stack buffer from the right.
fn write_digits(mut n: u64, decimals: usize, out: &mut String) {
    // Room for u64::MAX (20 digits), or 15 digits with `0.` in front.
    let mut buf = [b'0'; 24];
    let mut start = buf.len();
    // Position of the units digit, counted from the right.
    let units = if decimals > 0 { decimals + 1 } else { 0 };
    for (written, slot) in buf.iter_mut().rev().enumerate() {
        if written == decimals && decimals > 0 {
            *slot = b'.';
        } else {
            *slot = b'0' + (n % 10) as u8;
            n /= 10;
        }
        start -= 1;
        if n == 0 && written >= units {
            break;
        }
    }
    let text = buf.get(start..).and_then(|b| std::str::from_utf8(b).ok());
    out.push_str(text.unwrap_or("0"));
}

/// The specification's algorithm (ECMA-262 `Number::toString`) for
/// positive `x`: the shortest digits that round-trip, laid out in fixed or
/// exponential notation depending on where the decimal point falls.
fn write_general(x: f64, out: &mut String) {
    let mut buf = StackBuf::default();
    if shortest_digits(x, &mut buf).is_err() {
        let _ = write!(out, "{x}");
        return;
    }
    let Some((mantissa, exponent)) = buf.as_str().split_once('e') else {
        let _ = write!(out, "{x}");
        return;
    };
    let Ok(exponent) = exponent.parse::<i32>() else {
        let _ = write!(out, "{x}");
        return;
    };
    let (first, rest) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    lay_out(first, rest, exponent + 1, out);
}

/// Writes the digits JavaScript chooses for positive, finite `x`, in Rust's
/// `d.ddde-N` notation: the fewest digits that read back as `x`, and among
/// those the closest to `x`, ties going to the even digit.
///
/// Rust's `{:e}` finds the fewest digits but settles an exact tie upwards
/// (`72090000178118.625` gives `...118.63`, JavaScript `...118.62`). Such
/// ties only arise with 16 or 17 digits, where the correctly rounded
/// (half-to-even) form of the same length is checked and preferred.
fn shortest_digits(x: f64, buf: &mut StackBuf) -> std::fmt::Result {
    write!(buf, "{x:e}")?;
    let mantissa = buf.as_str().split('e').next().unwrap_or("");
    let significant = mantissa.len() - usize::from(mantissa.contains('.'));
    if significant >= 16 {
        let mut closest = StackBuf::default();
        write!(closest, "{x:.prec$e}", prec = significant - 1)?;
        if closest.as_str().parse::<f64>() == Ok(x) {
            *buf = closest;
        }
    }
    Ok(())
}

/// Lays out digits `first` + `rest` (value 0.d1d2... × 10^point) as
/// JavaScript does: plain up to 21 integer digits, `0.000ddd` down to 1e-6,
/// exponential beyond.
fn lay_out(first: &str, rest: &str, point: i32, out: &mut String) {
    let digits = 1 + rest.len() as i32;
    if digits <= point && point <= 21 {
        out.push_str(first);
        out.push_str(rest);
        push_zeros(out, point - digits);
    } else if 0 < point && point <= 21 {
        // The point falls inside `rest`; `point - 1` is at most 20 here
        // and `rest` is ASCII digits, so the split cannot fail.
        let (int_part, frac_part) = rest
            .split_at_checked((point - 1) as usize)
            .unwrap_or((rest, ""));
        out.push_str(first);
        out.push_str(int_part);
        out.push('.');
        out.push_str(frac_part);
    } else if -6 < point && point <= 0 {
        out.push_str("0.");
        push_zeros(out, -point);
        out.push_str(first);
        out.push_str(rest);
    } else {
        out.push_str(first);
        if !rest.is_empty() {
            out.push('.');
            out.push_str(rest);
        }
        let exponent = point - 1;
        out.push_str(if exponent < 0 { "e-" } else { "e+" });
        let _ = write!(out, "{}", exponent.unsigned_abs());
    }
}

fn push_zeros(out: &mut String, n: i32) {
    for _ in 0..n.max(0) {
        out.push('0');
    }
}

/// A fixed buffer for `{:e}` output so that printing a number does not
/// allocate; 32 bytes hold any `f64` (the longest is 24 characters).
#[derive(Default)]
struct StackBuf {
    bytes: [u8; 32],
    len: usize,
}

impl StackBuf {
    fn as_str(&self) -> &str {
        self.bytes
            .get(..self.len)
            .and_then(|b| std::str::from_utf8(b).ok())
            .unwrap_or("")
    }
}

impl Write for StackBuf {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        let end = self.len + s.len();
        let slot = self.bytes.get_mut(self.len..end).ok_or(std::fmt::Error)?;
        slot.copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}
