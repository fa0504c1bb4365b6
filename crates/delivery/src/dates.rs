//! The few JavaScript `Date` operations the pipes use: reading a date as `new Date(text)`
//! does (`Last-Modified` sources: the configuration's, a bus object's), writing it as
//! `toUTCString()` (the `last-modified` header) and as the day of `toISOString()` (a
//! sitemap's `<lastmod>`).
//!
//! Times are milliseconds since the epoch, as in JavaScript. Reading accepts the ISO 8601
//! forms and the HTTP date forms (RFC 1123, RFC 850, `asctime`, and `Date.toString()`'s);
//! the other shapes V8's lenient parser takes read as invalid here. A date-time without
//! an offset is read as UTC, as the platform (which runs in UTC) reads it.

/// The largest time a JavaScript `Date` holds (±100,000,000 days).
const MAX_TIME: i64 = 8_640_000_000_000_000;

const DAY_MS: i64 = 86_400_000;

const MONTHS: [&str; 12] = [
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
];

const WEEKDAYS: [&str; 7] = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];

/// `new Date(text).valueOf()`, `None` for an invalid date.
pub(crate) fn parse(text: &str) -> Option<i64> {
    let text = text.trim();
    let time = parse_iso(text).or_else(|| parse_http(text))?;
    (time.abs() <= MAX_TIME).then_some(time)
}

/// `new Date(time).toUTCString()`.
pub(crate) fn to_utc_string(time: i64) -> String {
    let (year, month, day) = civil_from_days(time.div_euclid(DAY_MS));
    let ms = time.rem_euclid(DAY_MS);
    let weekday = WEEKDAYS[(time.div_euclid(DAY_MS) + 4).rem_euclid(7) as usize];
    let month = MONTHS[(month - 1) as usize];
    let month = format!("{}{}", month[..1].to_uppercase(), &month[1..]);
    let year = if year < 0 {
        format!("-{:06}", -year)
    } else {
        format!("{year:04}")
    };
    format!(
        "{weekday}, {day:02} {month} {year} {:02}:{:02}:{:02} GMT",
        ms / 3_600_000,
        ms / 60_000 % 60,
        ms / 1000 % 60
    )
}

/// `new Date(time).toISOString().substring(0, 10)`; `None` where `toISOString` throws
/// (`RangeError: Invalid time value`).
pub(crate) fn iso_day_prefix(time: f64) -> Option<String> {
    if !time.is_finite() || time.abs() > MAX_TIME as f64 {
        return None;
    }
    let time = time.trunc() as i64;
    let (year, month, day) = civil_from_days(time.div_euclid(DAY_MS));
    let iso = if (0..=9999).contains(&year) {
        format!("{year:04}-{month:02}-{day:02}")
    } else {
        // Extended years carry a sign and six digits: "+010000-01-01T…".
        let sign = if year < 0 { '-' } else { '+' };
        format!("{sign}{:06}-{month:02}-{day:02}", year.abs())
    };
    Some(iso.chars().take(10).collect())
}

/// Days since 1970-01-01 -> (year, month 1-12, day 1-31), proleptic Gregorian.
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// (year, month 1-12, day 1-31) -> days since 1970-01-01.
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let yoe = year.rem_euclid(400);
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn days_in_month(year: i64, month: i64) -> i64 {
    match month {
        2 if year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

fn to_time(year: i64, month: i64, day: i64, (h, m, s, ms): (i64, i64, i64, i64)) -> Option<i64> {
    let valid = (1..=12).contains(&month)
        && (1..=days_in_month(year, month)).contains(&day)
        && (h, m, s) <= (24, 0, 0)
        && (0..60).contains(&m)
        && (0..60).contains(&s);
    valid.then(|| days_from_civil(year, month, day) * DAY_MS + ((h * 60 + m) * 60 + s) * 1000 + ms)
}

/// Digits at the front of `text`: exactly `n` of them.
fn digits(text: &str, n: usize) -> Option<(i64, &str)> {
    let head = text.get(..n)?;
    head.bytes()
        .all(|b| b.is_ascii_digit())
        .then(|| (head.parse().ok(), &text[n..]))
        .and_then(|(v, rest)| Some((v?, rest)))
}

/// ECMAScript's date-time string format: `YYYY[-MM[-DD]][THH:mm[:ss[.sss]][Z|±HH:mm]]`.
fn parse_iso(text: &str) -> Option<i64> {
    let (year, mut rest) = match text.as_bytes().first()? {
        b'+' | b'-' => {
            let (y, rest) = digits(&text[1..], 6)?;
            let negative = text.starts_with('-');
            if negative && y == 0 {
                return None;
            }
            (if negative { -y } else { y }, rest)
        }
        _ => digits(text, 4)?,
    };
    let (mut month, mut day) = (1, 1);
    if let Some(r) = rest.strip_prefix('-') {
        (month, rest) = digits(r, 2)?;
        if let Some(r) = rest.strip_prefix('-') {
            (day, rest) = digits(r, 2)?;
        }
    }
    let mut clock = (0, 0, 0, 0);
    let mut offset_minutes = 0;
    if let Some(r) = rest.strip_prefix(['T', 't']) {
        let (h, r) = digits(r, 2)?;
        let (m, mut r) = digits(r.strip_prefix(':')?, 2)?;
        let (mut s, mut ms) = (0, 0);
        if let Some(after) = r.strip_prefix(':') {
            (s, r) = digits(after, 2)?;
            if let Some(after) = r.strip_prefix(['.', ',']) {
                let n = after.bytes().take_while(u8::is_ascii_digit).count();
                if n == 0 {
                    return None;
                }
                let fraction = &after[..n];
                ms = fraction
                    .bytes()
                    .chain(std::iter::repeat(b'0'))
                    .take(3)
                    .fold(0, |acc, b| acc * 10 + i64::from(b - b'0'));
                r = &after[n..];
            }
        }
        clock = (h, m, s, ms);
        rest = r;
        if let Some(r) = rest.strip_prefix(['Z', 'z']) {
            rest = r;
        } else if let Some(sign) = rest.chars().next().filter(|c| *c == '+' || *c == '-') {
            let (oh, r) = digits(&rest[1..], 2)?;
            let (om, r) = digits(r.strip_prefix(':')?, 2)?;
            offset_minutes = (oh * 60 + om) * if sign == '-' { -1 } else { 1 };
            rest = r;
        }
    }
    if !rest.is_empty() {
        return None;
    }
    Some(to_time(year, month, day, clock)? - offset_minutes * 60_000)
}

/// The HTTP date forms and `Date.toString()`'s: a weekday (ignored), the day, month name
/// and year in either order, a clock, and `GMT`/`UTC`/`Z` with an optional `±hhmm`.
fn parse_http(text: &str) -> Option<i64> {
    let mut day = None;
    let mut month = None;
    let mut year = None;
    let mut clock = None;
    let mut offset_minutes = 0;
    let tokens = text
        .split([' ', ',', '-'])
        .filter(|t| !t.is_empty())
        .collect::<Vec<_>>();
    let mut numbers = Vec::new();
    for (i, token) in tokens.iter().enumerate() {
        let lower = token.to_ascii_lowercase();
        if token.contains(':') {
            let parts: Vec<&str> = token.split(':').collect();
            let field =
                |i: usize| -> Option<i64> { parts.get(i).map_or(Some(0), |p| p.parse().ok()) };
            if parts.len() > 3 || clock.is_some() {
                return None;
            }
            clock = Some((field(0)?, field(1)?, field(2)?, 0));
        } else if let Some(m) = MONTHS.iter().position(|m| lower.starts_with(m)) {
            month = Some(m as i64 + 1);
        } else if lower == "gmt" || lower == "utc" || lower == "ut" || lower == "z" {
        } else if let Some(rest) = lower
            .strip_prefix("gmt")
            .or_else(|| lower.strip_prefix("utc"))
            .or_else(|| (i > 0 && token.starts_with('+')).then_some(token))
        {
            let sign = if rest.starts_with('-') { -1 } else { 1 };
            let (oh, r) = digits(rest.get(1..)?, 2)?;
            let (om, r) = digits(r, 2)?;
            if !r.is_empty() {
                return None;
            }
            offset_minutes = sign * (oh * 60 + om);
        } else if token.bytes().all(|b| b.is_ascii_digit()) {
            numbers.push(token.parse::<i64>().ok()?);
        } else if WEEKDAYS
            .iter()
            .any(|w| lower.starts_with(&w.to_ascii_lowercase()))
            && i == 0
        {
        } else {
            return None;
        }
    }
    // The day comes first among the numbers, the year after it.
    for n in numbers {
        if day.is_none() && (1..=31).contains(&n) && year.is_none() {
            day = Some(n);
        } else if year.is_none() {
            year = Some(match n {
                0..=49 => 2000 + n,
                50..=99 => 1900 + n,
                n => n,
            });
        } else {
            return None;
        }
    }
    let time = to_time(year?, month?, day?, clock.unwrap_or((0, 0, 0, 0)))?;
    Some(time - offset_minutes * 60_000)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_what_the_platform_reads() {
        // node -e 'console.log(new Date(s).valueOf())', the platform's zone is UTC
        for (text, expected) in [
            ("Fri, 30 Apr 2021 03:47:18 GMT", Some(1_619_754_438_000)),
            ("2021-04-30", Some(1_619_740_800_000)),
            ("2021-04-30T03:47:18.123Z", Some(1_619_754_438_123)),
            ("2021-04-30T03:47:18+02:00", Some(1_619_747_238_000)),
            ("Friday, 30-Apr-21 03:47:18 GMT", Some(1_619_754_438_000)),
            ("30 Apr 2021 03:47:18 GMT", Some(1_619_754_438_000)),
            ("Fri Apr 30 2021 03:47:18 GMT+0000", Some(1_619_754_438_000)),
            ("garbage", None),
            ("2021-02-30", None),
            ("", None),
        ] {
            assert_eq!(parse(text), expected, "{text}");
        }
    }

    #[test]
    fn writes_as_javascript_writes() {
        assert_eq!(
            to_utc_string(1_619_754_438_000),
            "Fri, 30 Apr 2021 03:47:18 GMT"
        );
        assert_eq!(to_utc_string(0), "Thu, 01 Jan 1970 00:00:00 GMT");
        // node -e 'console.log(new Date(n * 1000).toISOString())'
        for (seconds, expected) in [
            (0.0, Some("1970-01-01")),
            (1_700_000_000.0, Some("2023-11-14")),
            (-1.0, Some("1969-12-31")),
            (253_402_300_800.0, Some("+010000-01")),
            (8.64e12, Some("+275760-09")),
            (8.64e12 + 1.0, None),
            (-62_198_755_200.0, Some("-000001-01")),
        ] {
            assert_eq!(
                iso_day_prefix(seconds * 1000.0).as_deref(),
                expected,
                "{seconds}"
            );
        }
    }
}
