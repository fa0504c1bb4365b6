//! `last-modified` (`utils/last-modified.js`): each source (the configuration, the content,
//! the metadata sheets) records when it changed; the answer says the latest.

use std::time::SystemTime;

/// The sources' dates, one per source, in the order first recorded.
#[derive(Debug, Clone, Default)]
pub(crate) struct LastModified {
    sources: Vec<(&'static str, SystemTime)>,
}

impl LastModified {
    /// `recordLastModified`: `date` (an HTTP date) for `source`, replacing its earlier one;
    /// an unreadable date is ignored, as the reference does (it logs it).
    pub(crate) fn record(&mut self, source: &'static str, date: Option<&str>) {
        let Some(time) = date.and_then(parse_date) else {
            return;
        };
        match self.sources.iter_mut().find(|(s, _)| *s == source) {
            Some(entry) => entry.1 = time,
            None => self.sources.push((source, time)),
        }
    }

    /// `setLastModified`: the latest date as an HTTP date, if any was recorded.
    pub(crate) fn latest(&self) -> Option<String> {
        let mut latest: Option<SystemTime> = None;
        for (_, time) in &self.sources {
            // Strictly later only, and never the epoch itself (the reference starts at 0).
            if *time > latest.unwrap_or(SystemTime::UNIX_EPOCH) {
                latest = Some(*time);
            }
        }
        latest.map(httpdate::fmt_http_date)
    }
}

/// A date as `new Date(text)` reads the forms the platform writes: HTTP dates (IMF-fixdate,
/// RFC 850, asctime) and ISO 8601 (`2026-05-01`, `2026-05-01T10:00:00.000Z`, with an
/// offset). Differs from JavaScript in reading an ISO date-time without an offset as UTC,
/// as the platform's servers run; other forms JavaScript guesses at are not read.
pub(crate) fn parse_date(text: &str) -> Option<SystemTime> {
    let text = text.trim();
    httpdate::parse_http_date(text)
        .ok()
        .or_else(|| parse_iso(text))
}

fn parse_iso(text: &str) -> Option<SystemTime> {
    let b = text.as_bytes();
    let num = |from: usize, len: usize| -> Option<i64> {
        let digits = b.get(from..from + len)?;
        digits
            .iter()
            .all(u8::is_ascii_digit)
            .then(|| std::str::from_utf8(digits).ok()?.parse().ok())?
    };
    if b.len() < 10 || b[4] != b'-' || b[7] != b'-' {
        return None;
    }
    let (year, month, day) = (num(0, 4)?, num(5, 2)?, num(8, 2)?);
    if !(1..=12).contains(&month) || !(1..=31).contains(&day) {
        return None;
    }
    let mut seconds = days_from_civil(year, month, day) * 86_400;
    if b.len() > 10 {
        if b[10] != b'T' || b.len() < 16 || b[13] != b':' {
            return None;
        }
        let (hour, minute) = (num(11, 2)?, num(14, 2)?);
        if hour > 24 || minute > 59 {
            return None;
        }
        seconds += hour * 3600 + minute * 60;
        let mut at = 16;
        if b.get(at) == Some(&b':') {
            seconds += num(at + 1, 2).filter(|s| *s < 60)?;
            at += 3;
            if b.get(at) == Some(&b'.') {
                at += 1;
                while b.get(at).is_some_and(u8::is_ascii_digit) {
                    at += 1;
                }
            }
        }
        match b.get(at) {
            None => {}
            Some(b'Z') if at + 1 == b.len() => {}
            Some(&sign @ (b'+' | b'-')) if b.len() == at + 6 && b[at + 3] == b':' => {
                let offset = num(at + 1, 2)? * 3600 + num(at + 4, 2)? * 60;
                seconds += if sign == b'+' { -offset } else { offset };
            }
            _ => return None,
        }
    }
    let seconds = u64::try_from(seconds).ok()?;
    SystemTime::UNIX_EPOCH.checked_add(std::time::Duration::from_secs(seconds))
}

/// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's algorithm).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let year_of_era = year - era * 400;
    let month_index = (month + 9) % 12;
    let day_of_year = (153 * month_index + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_latest_source_wins() {
        let mut dates = LastModified::default();
        assert_eq!(dates.latest(), None);
        dates.record("config", Some("Wed, 12 Jan 2022 11:33:01 GMT"));
        dates.record("content", Some("not a date"));
        assert_eq!(
            dates.latest().as_deref(),
            Some("Wed, 12 Jan 2022 11:33:01 GMT")
        );
        dates.record("content", Some("2022-01-13T00:00:00Z"));
        assert_eq!(
            dates.latest().as_deref(),
            Some("Thu, 13 Jan 2022 00:00:00 GMT")
        );
        dates.record("content", Some("Mon, 10 Jan 2022 00:00:00 GMT"));
        assert_eq!(
            dates.latest().as_deref(),
            Some("Wed, 12 Jan 2022 11:33:01 GMT")
        );
    }

    #[test]
    fn iso_dates() {
        let day = |t: &str| parse_date(t).map(httpdate::fmt_http_date);
        assert_eq!(
            day("2026-05-01").as_deref(),
            Some("Fri, 01 May 2026 00:00:00 GMT")
        );
        assert_eq!(
            day("2026-04-30T23:30:00.123-02:00").as_deref(),
            Some("Fri, 01 May 2026 01:30:00 GMT")
        );
        assert_eq!(day("2026-13-01"), None);
        assert_eq!(day("2026-05-01X"), None);
        assert_eq!(day(""), None);
    }
}
