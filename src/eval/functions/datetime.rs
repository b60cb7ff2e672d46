//! The date and time functions: `formatdate`, `timeadd` (cty's, over its strict RFC 3339
//! parser), `timecmp` (Terraform's, over Go's plain `time.Parse`), `timestamp` and
//! `plantimestamp`.
//!
//! The error texts come from Go's `time.Parse(time.RFC3339, ...)` as cty and Terraform reword
//! them, so this file walks the layout `2006-01-02T15:04:05Z07:00` as Go's parser does and
//! keeps its `ParseError` fields (layout element, remaining value, message).
//!
//! `timestamp()` is unknown while planning, as in Terraform. `plantimestamp()` is the plan's
//! time while planning; `terraform console` has no such function, and outside a plan we give
//! an unknown string instead (a deliberate difference, so that configurations using it still
//! evaluate).

use super::{platform, FuncError, Function, Param, Registry, Returns};
use crate::dag::go_quote;
use crate::eval::types::Type;
use crate::eval::value::Value;

/// An instant with the UTC offset it was written in.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Time {
    /// Seconds since 1970-01-01T00:00:00Z.
    pub unix: i64,
    pub nanos: u32,
    /// Offset east of UTC, in seconds.
    pub offset: i32,
}

/// Go's `time.ParseError` fields.
struct ParseError {
    layout_elem: &'static str,
    value_elem: String,
    message: String,
}

fn perr(layout_elem: &'static str, value_elem: &str, message: &str) -> ParseError {
    ParseError { layout_elem, value_elem: value_elem.to_string(), message: message.to_string() }
}

fn is_digit(s: &[u8], i: usize) -> bool {
    s.get(i).is_some_and(u8::is_ascii_digit)
}

/// Go's `getnum`.
fn getnum(s: &[u8], fixed: bool) -> Option<(i64, &[u8])> {
    if !is_digit(s, 0) {
        return None;
    }
    if !is_digit(s, 1) {
        if fixed {
            return None;
        }
        return Some(((s[0] - b'0') as i64, &s[1..]));
    }
    Some((((s[0] - b'0') * 10 + (s[1] - b'0')) as i64, &s[2..]))
}

fn is_leap(y: i64) -> bool {
    y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)
}

fn days_in(month: i64, year: i64) -> i64 {
    match month {
        2 if is_leap(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        1..=12 => 31,
        _ => 0,
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date.
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146097 + doe - 719468
}

fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719468;
    let era = z.div_euclid(146097);
    let doe = z - era * 146097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + if m <= 2 { 1 } else { 0 }, m, d)
}

/// Go's `parseNanoseconds` on `.ddd…` (at most 9 digits count).
fn nanos_of(frac_digits: &[u8]) -> u32 {
    let mut ns: u64 = 0;
    for i in 0..9 {
        ns = ns * 10 + frac_digits.get(i).map_or(0, |d| (d - b'0') as u64);
    }
    ns as u32
}

/// Go's `time.Parse(time.RFC3339, s)`.
fn go_parse(s: &str) -> Result<Time, ParseError> {
    let v = s.as_bytes();
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    // 2006
    if v.len() < 4 || !is_digit(v, 0) {
        return Err(perr("2006", s, ""));
    }
    if !v[..4].iter().all(u8::is_ascii_digit) {
        return Err(perr("2006", s, ""));
    }
    let year: i64 = s[..4].parse().unwrap_or(0);
    let mut rest = &v[4..];
    let skip = |rest: &[u8], lit: u8, elem: &'static str| -> Result<usize, ParseError> {
        if rest.first() == Some(&lit) {
            Ok(1)
        } else {
            Err(perr(elem, &String::from_utf8_lossy(rest), ""))
        }
    };
    rest = &rest[skip(rest, b'-', "-")?..];
    let hold = rest;
    let (month, r) = getnum(rest, true).ok_or_else(|| perr("01", &text(hold), ""))?;
    rest = r;
    if !(1..=12).contains(&month) {
        return Err(perr("01", &text(rest), ": month out of range"));
    }
    rest = &rest[skip(rest, b'-', "-")?..];
    let hold = rest;
    let (day, r) = getnum(rest, true).ok_or_else(|| perr("02", &text(hold), ""))?;
    rest = r;
    rest = &rest[skip(rest, b'T', "T")?..];
    let hold = rest;
    let (hour, r) = getnum(rest, false).ok_or_else(|| perr("15", &text(hold), ""))?;
    rest = r;
    if !(0..24).contains(&hour) {
        return Err(perr("15", &text(rest), ": hour out of range"));
    }
    rest = &rest[skip(rest, b':', ":")?..];
    let hold = rest;
    let (min, r) = getnum(rest, true).ok_or_else(|| perr("04", &text(hold), ""))?;
    rest = r;
    if !(0..60).contains(&min) {
        return Err(perr("04", &text(rest), ": minute out of range"));
    }
    rest = &rest[skip(rest, b':', ":")?..];
    let hold = rest;
    let (sec, r) = getnum(rest, true).ok_or_else(|| perr("05", &text(hold), ""))?;
    rest = r;
    if !(0..60).contains(&sec) {
        return Err(perr("05", &text(rest), ": second out of range"));
    }
    let mut nanos = 0;
    if rest.len() >= 2 && (rest[0] == b'.' || rest[0] == b',') && is_digit(rest, 1) {
        let mut n = 2;
        while is_digit(rest, n) {
            n += 1;
        }
        nanos = nanos_of(&rest[1..n]);
        rest = &rest[n..];
    }
    // Z07:00
    let hold = rest;
    let offset;
    if rest.first() == Some(&b'Z') {
        rest = &rest[1..];
        offset = 0;
    } else {
        if rest.len() < 6 || rest[3] != b':' {
            return Err(perr("Z07:00", &text(hold), ""));
        }
        let sign = rest[0];
        let hr = getnum(&rest[1..3], true).map(|x| x.0);
        let mm = getnum(&rest[4..6], true).map(|x| x.0);
        rest = &rest[6..];
        let (Some(hr), Some(mm)) = (hr, mm) else { return Err(perr("Z07:00", &text(hold), "")) };
        if hr > 24 {
            return Err(perr("Z07:00", &text(rest), ": time zone offset hour out of range"));
        }
        if mm > 60 {
            return Err(perr("Z07:00", &text(rest), ": time zone offset minute out of range"));
        }
        let o = ((hr * 60 + mm) * 60) as i32;
        offset = match sign {
            b'+' => o,
            b'-' => -o,
            _ => return Err(perr("Z07:00", &text(hold), "")),
        };
    }
    if !rest.is_empty() {
        let r = text(rest);
        return Err(perr("", &r, &format!(": extra text: {}", go_quote(&r))));
    }
    if day < 1 || day > days_in(month, year) {
        return Err(perr("", "", ": day out of range"));
    }
    let local = days_from_civil(year, month, day) * 86400 + hour * 3600 + min * 60 + sec;
    Ok(Time { unix: local - offset as i64, nanos, offset })
}

/// The reworded error cty's and Terraform's `parseTimestamp` give.
fn reword(e: ParseError, cty_hour_rules: bool) -> String {
    const P: &str = "not a valid RFC3339 timestamp";
    if e.layout_elem.is_empty() && e.value_elem.is_empty() && !e.message.is_empty() {
        return format!("{P}{}", e.message);
    }
    let what = match e.layout_elem {
        "2006" => "year",
        "01" => "month",
        "02" => "day of month",
        "15" => "hour",
        "04" => "minute",
        "05" => "second",
        "Z07:00" => "UTC offset",
        "T" => return format!("{P}: missing required time introducer 'T'"),
        ":" | "-" => {
            return if e.value_elem.is_empty() {
                format!("{P}: end of string where {} is expected", go_quote(e.layout_elem))
            } else {
                format!("{P}: found {} where {} is expected", go_quote(&e.value_elem), go_quote(e.layout_elem))
            };
        }
        _ => "timestamp segment",
    };
    if e.value_elem.is_empty() {
        return format!("{P}: end of string before {what}");
    }
    if cty_hour_rules {
        if what == "hour" && e.value_elem.contains(':') {
            return format!("{P}: hour must be between 0 and 23 inclusive");
        }
        if what == "hour" && e.value_elem.len() != 2 {
            return format!("{P}: hour must have exactly two digits");
        }
        if what == "minute" && e.value_elem.len() != 2 {
            return format!("{P}: minute must have exactly two digits");
        }
    }
    format!("{P}: cannot use {} as {what}", go_quote(&e.value_elem))
}

/// cty's `parseStrictRFC3339` + `parseTimestamp` (for `formatdate` and `timeadd`).
pub fn parse_strict(s: &str) -> Result<Time, String> {
    let t = go_parse(s).map_err(|e| reword(e, true))?;
    let b = s.as_bytes();
    // What Go's parser lets through and RFC 3339 does not.
    let strict_err = if b.get(12) == Some(&b':') {
        Some(perr("15", &s[11..12], ": hour must have two digits"))
    } else if b.get(19) == Some(&b',') {
        Some(perr(".", ",", ": sub-second separator must be a period"))
    } else if b.last() != Some(&b'Z') {
        let num2 = |x: &[u8]| (x[0] - b'0') as i64 * 10 + (x[1] - b'0') as i64;
        let n = b.len();
        if num2(&b[n - 5..n - 3]) >= 24 {
            Some(perr("Z07:00", &s[n - 6..], ": timezone hour out of range"))
        } else if num2(&b[n - 2..]) >= 60 {
            Some(perr("Z07:00", &s[n - 6..], ": timezone minute out of range"))
        } else {
            None
        }
    } else {
        None
    };
    match strict_err {
        Some(e) => Err(reword(e, true)),
        None => Ok(t),
    }
}

/// Terraform's own `parseTimestamp` (for `timecmp`): Go's parser without the strict checks.
pub fn parse_plain(s: &str) -> Result<Time, String> {
    go_parse(s).map_err(|e| reword(e, false))
}

const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];
const DAYS: [&str; 7] = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

/// The wall-clock fields in the time's own offset.
struct Civil {
    year: i64,
    month: i64,
    day: i64,
    hour: i64,
    min: i64,
    sec: i64,
    weekday: usize,
}

fn civil(t: &Time) -> Civil {
    let local = t.unix + t.offset as i64;
    let days = local.div_euclid(86400);
    let secs = local.rem_euclid(86400);
    let (year, month, day) = civil_from_days(days);
    Civil {
        year,
        month,
        day,
        hour: secs / 3600,
        min: secs % 3600 / 60,
        sec: secs % 60,
        weekday: (days + 4).rem_euclid(7) as usize,
    }
}

/// Go's `-0700` / `-07:00` / `Z07:00` offsets.
fn offset_text(offset: i32, colon: bool, z: bool) -> String {
    if z && offset == 0 {
        return "Z".into();
    }
    let sign = if offset < 0 { '-' } else { '+' };
    let o = offset.unsigned_abs();
    let (h, m) = (o / 3600, o % 3600 / 60);
    if colon {
        format!("{sign}{h:02}:{m:02}")
    } else {
        format!("{sign}{h:02}{m:02}")
    }
}

fn year_text(y: i64) -> String {
    if y < 0 {
        format!("-{:03}", -y)
    } else {
        format!("{y:04}")
    }
}

/// Go's `Format(time.RFC3339)`.
pub fn rfc3339(t: &Time) -> String {
    let c = civil(t);
    format!(
        "{}-{:02}-{:02}T{:02}:{:02}:{:02}{}",
        year_text(c.year),
        c.month,
        c.day,
        c.hour,
        c.min,
        c.sec,
        offset_text(t.offset, true, true)
    )
}

/// cty's `formatdate` over a parsed time: errors are for the format argument.
fn format_date(format: &str, t: &Time) -> Result<String, String> {
    let c = civil(t);
    let b = format.as_bytes();
    let mut out = String::new();
    let mut i = 0;
    let verb = |x: u8| x.is_ascii_alphabetic();
    while i < b.len() {
        // splitDateFormat's tokens.
        let start = i;
        if b[i] == b'\'' {
            if b.get(i + 1) == Some(&b'\'') {
                i += 2;
            } else {
                i += 1;
                let mut closed = false;
                while i < b.len() {
                    if b[i] == b'\'' {
                        if b.get(i + 1) == Some(&b'\'') {
                            i += 2;
                            continue;
                        }
                        i += 1;
                        closed = true;
                        break;
                    }
                    i += 1;
                }
                let _ = closed;
            }
        } else if verb(b[i]) {
            while i < b.len() && b[i] == b[start] {
                i += 1;
            }
        } else {
            i += 1;
            while i < b.len() && b[i] != b'\'' && !verb(b[i]) {
                i += 1;
            }
        }
        let tok = &format[start..i];
        let tb = tok.as_bytes();
        let n = tb.len();
        if tb[0] == b'\'' {
            if tb[n - 1] != b'\'' || n == 1 {
                return Err("unterminated literal '".into());
            }
            if n == 2 {
                out.push('\'');
            } else {
                let raw = &tok[1..n - 1];
                out.push_str(&raw.replace("''", "'"));
            }
            continue;
        }
        if !verb(tb[0]) {
            out.push_str(tok);
            continue;
        }
        let bad = |why: &str| Err(format!("invalid date format verb {}{why}", go_quote(tok)));
        match (tb[0], n) {
            (b'Y', 2) => out.push_str(&format!("{:02}", c.year.rem_euclid(100))),
            (b'Y', 4) => out.push_str(&year_text(c.year)),
            (b'Y', _) => return bad(": year must either be \"YY\" or \"YYYY\""),
            (b'M', 1) => out.push_str(&c.month.to_string()),
            (b'M', 2) => out.push_str(&format!("{:02}", c.month)),
            (b'M', 3) => out.push_str(&MONTHS[c.month as usize - 1][..3]),
            (b'M', 4) => out.push_str(MONTHS[c.month as usize - 1]),
            (b'M', _) => return bad(": month must be \"M\", \"MM\", \"MMM\", or \"MMMM\""),
            (b'D', 1) => out.push_str(&c.day.to_string()),
            (b'D', 2) => out.push_str(&format!("{:02}", c.day)),
            (b'D', _) => return bad(": day of month must either be \"D\" or \"DD\""),
            (b'E', 3) => out.push_str(&DAYS[c.weekday][..3]),
            (b'E', 4) => out.push_str(DAYS[c.weekday]),
            (b'E', _) => return bad(": day of week must either be \"EEE\" or \"EEEE\""),
            (b'h', 1) => out.push_str(&c.hour.to_string()),
            (b'h', 2) => out.push_str(&format!("{:02}", c.hour)),
            (b'h', _) => return bad(": 24-hour must either be \"h\" or \"hh\""),
            (b'H', 1 | 2) => {
                let h = if c.hour % 12 == 0 { 12 } else { c.hour % 12 };
                out.push_str(&if n == 1 { h.to_string() } else { format!("{h:02}") });
            }
            (b'H', _) => return bad(": 12-hour must either be \"H\" or \"HH\""),
            (b'A' | b'a', 2) => {
                let pm = c.hour >= 12;
                out.push_str(match (tb[0] == b'A', pm) {
                    (true, false) => "AM",
                    (true, true) => "PM",
                    (false, false) => "am",
                    (false, true) => "pm",
                });
            }
            (b'A' | b'a', _) => {
                let l = tb[0] as char;
                return bad(&format!(": must be \"{l}{l}\""));
            }
            (b'm', 1) => out.push_str(&c.min.to_string()),
            (b'm', 2) => out.push_str(&format!("{:02}", c.min)),
            (b'm', _) => return bad(": minute must either be \"m\" or \"mm\""),
            (b's', 1) => out.push_str(&c.sec.to_string()),
            (b's', 2) => out.push_str(&format!("{:02}", c.sec)),
            (b's', _) => return bad(": second must either be \"s\" or \"ss\""),
            (b'Z', 1) => out.push_str(&offset_text(t.offset, true, true)),
            (b'Z', 3) => {
                let o = offset_text(t.offset, false, false);
                out.push_str(if o == "+0000" { "UTC" } else { &o });
            }
            (b'Z', 4) => out.push_str(&offset_text(t.offset, false, false)),
            (b'Z', 5) => out.push_str(&offset_text(t.offset, true, false)),
            (b'Z', _) => return bad(": timezone must be Z, ZZZZ, or ZZZZZ"),
            _ => return bad(""),
        }
    }
    Ok(out)
}

/// Go's `time.ParseDuration`, in nanoseconds.
pub fn parse_duration(orig: &str) -> Result<i128, String> {
    let invalid = || format!("time: invalid duration {}", go_quote(orig));
    let mut s = orig.as_bytes();
    let mut neg = false;
    if let Some(&c) = s.first() {
        if c == b'-' || c == b'+' {
            neg = c == b'-';
            s = &s[1..];
        }
    }
    if s == b"0" {
        return Ok(0);
    }
    if s.is_empty() {
        return Err(invalid());
    }
    const MAX: u128 = 1 << 63;
    let mut d: u128 = 0;
    while !s.is_empty() {
        if !(s[0] == b'.' || s[0].is_ascii_digit()) {
            return Err(invalid());
        }
        let pl = s.len();
        let mut v: u128 = 0;
        let mut i = 0;
        while i < s.len() && s[i].is_ascii_digit() {
            if v > (MAX - 1) / 10 {
                return Err(invalid());
            }
            v = v * 10 + (s[i] - b'0') as u128;
            if v > MAX {
                return Err(invalid());
            }
            i += 1;
        }
        s = &s[i..];
        let pre = pl != s.len();
        let (mut f, mut scale, mut post) = (0u128, 1f64, false);
        if s.first() == Some(&b'.') {
            s = &s[1..];
            let pl = s.len();
            let mut overflow = false;
            let mut i = 0;
            while i < s.len() && s[i].is_ascii_digit() {
                if !overflow {
                    if f > (MAX - 1) / 10 {
                        overflow = true;
                    } else {
                        let y = f * 10 + (s[i] - b'0') as u128;
                        if y > MAX {
                            overflow = true;
                        } else {
                            f = y;
                            scale *= 10.0;
                        }
                    }
                }
                i += 1;
            }
            s = &s[i..];
            post = pl != s.len();
        }
        if !pre && !post {
            return Err(invalid());
        }
        let mut i = 0;
        while i < s.len() && !(s[i] == b'.' || s[i].is_ascii_digit()) {
            i += 1;
        }
        if i == 0 {
            return Err(format!("time: missing unit in duration {}", go_quote(orig)));
        }
        let u = String::from_utf8_lossy(&s[..i]).into_owned();
        s = &s[i..];
        let unit: u128 = match u.as_str() {
            "ns" => 1,
            "us" | "\u{b5}s" | "\u{3bc}s" => 1_000,
            "ms" => 1_000_000,
            "s" => 1_000_000_000,
            "m" => 60_000_000_000,
            "h" => 3_600_000_000_000,
            _ => return Err(format!("time: unknown unit {} in duration {}", go_quote(&u), go_quote(orig))),
        };
        if v > MAX / unit {
            return Err(invalid());
        }
        v *= unit;
        if f > 0 {
            v += (f as f64 * (unit as f64 / scale)) as u128;
            if v > MAX {
                return Err(invalid());
            }
        }
        d += v;
        if d > MAX {
            return Err(invalid());
        }
    }
    if neg {
        return Ok(-(d as i128));
    }
    if d > MAX - 1 {
        return Err(invalid());
    }
    Ok(d as i128)
}

fn add(t: &Time, nanos: i128) -> Time {
    let total = t.unix as i128 * 1_000_000_000 + t.nanos as i128 + nanos;
    Time {
        unix: total.div_euclid(1_000_000_000) as i64,
        nanos: total.rem_euclid(1_000_000_000) as u32,
        offset: t.offset,
    }
}

fn now() -> Result<Time, FuncError> {
    let n = platform::now().map_err(FuncError::Other)?;
    Ok(Time { unix: n.div_euclid(1_000_000_000) as i64, nanos: 0, offset: 0 })
}

fn s(v: &Value) -> &str {
    v.as_str().unwrap_or_default()
}

pub(super) fn register(r: &mut Registry) {
    r.add(Function {
        name: "formatdate",
        params: vec![Param::new("format", Type::String), Param::new("time", Type::String)],
        variadic: None,
        returns: Returns::Type(Type::String),
        imp: |_, a, _| {
            let t = parse_strict(s(&a[1])).map_err(|e| FuncError::Arg(1, e))?;
            format_date(s(&a[0]), &t).map(Value::string).map_err(|e| FuncError::Arg(0, e))
        },
    });
    r.add(Function {
        name: "timeadd",
        params: vec![Param::new("timestamp", Type::String), Param::new("duration", Type::String)],
        variadic: None,
        returns: Returns::Type(Type::String),
        imp: |_, a, _| {
            let t = parse_strict(s(&a[0])).map_err(FuncError::Other)?;
            let d = parse_duration(s(&a[1])).map_err(FuncError::Other)?;
            Ok(Value::string(rfc3339(&add(&t, d))))
        },
    });
    r.add(Function {
        name: "timecmp",
        params: vec![Param::new("timestamp_a", Type::String), Param::new("timestamp_b", Type::String)],
        variadic: None,
        returns: Returns::Type(Type::Number),
        imp: |_, a, _| {
            let x = parse_plain(s(&a[0])).map_err(|e| FuncError::Arg(0, e))?;
            let y = parse_plain(s(&a[1])).map_err(|e| FuncError::Arg(1, e))?;
            Ok(Value::int(match (x.unix, x.nanos).cmp(&(y.unix, y.nanos)) {
                std::cmp::Ordering::Less => -1,
                std::cmp::Ordering::Equal => 0,
                std::cmp::Ordering::Greater => 1,
            }))
        },
    });
    r.add(Function {
        name: "timestamp",
        params: vec![],
        variadic: None,
        returns: Returns::Type(Type::String),
        imp: |ctx, _, _| {
            if ctx.planning {
                Ok(Value::unknown(Type::String))
            } else {
                Ok(Value::string(rfc3339(&now()?)))
            }
        },
    });
    r.add(Function {
        name: "plantimestamp",
        params: vec![],
        variadic: None,
        returns: Returns::Type(Type::String),
        imp: |ctx, _, _| {
            if ctx.planning {
                Ok(Value::string(rfc3339(&now()?)))
            } else {
                Ok(Value::unknown(Type::String))
            }
        },
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_dates_round_trip() {
        for days in [-719528i64, -1, 0, 1, 11016, 2932896] {
            let (y, m, d) = civil_from_days(days);
            assert_eq!(days_from_civil(y, m, d), days);
        }
        assert_eq!(rfc3339(&parse_strict("2017-11-22T00:00:00+05:00").unwrap()), "2017-11-22T00:00:00+05:00");
        assert_eq!(parse_duration("1h30m").unwrap(), 5_400_000_000_000);
    }
}
