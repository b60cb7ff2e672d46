//! Terraform's numbers: cty keeps every number as a Go `big.Float` with a 512-bit mantissa,
//! rounded to nearest even, and prints it with `Text('f', -1)` (the shortest decimal that reads
//! back to the same 512-bit value). So `0.1 + 0.2` is `0.3`, integers stay exact to ~154
//! digits, and `1/3` prints 157 digits. This module is that float, built on num-bigint.
//!
//! A finite value is `(-1)^neg × mant × 2^exp` with `mant` of at most [`PREC`] bits, kept
//! without trailing zero bits so that equal values have one representation.

use num_bigint::BigUint;
use std::cmp::Ordering;
use std::fmt;

/// cty's precision: `big.Float` mantissa bits (cty's `NumberVal` parses with 512).
pub const PREC: u64 = 512;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Number {
    /// `mant == 0` is zero (with its sign: Terraform prints `-0`).
    Finite {
        neg: bool,
        mant: BigUint,
        exp: i64,
    },
    Inf {
        neg: bool,
    },
}

fn zero_big() -> BigUint {
    BigUint::from(0u32)
}

impl Number {
    pub fn zero() -> Number {
        Number::Finite { neg: false, mant: zero_big(), exp: 0 }
    }

    /// Rounds an exact `mant × 2^exp` to [`PREC`] bits, to nearest even, as big.Float does.
    fn round(neg: bool, mut mant: BigUint, mut exp: i64, sticky: bool) -> Number {
        let bits = mant.bits();
        if bits > PREC {
            let shift = bits - PREC;
            let half = BigUint::from(1u32) << (shift - 1);
            let low = &mant & ((BigUint::from(1u32) << shift) - 1u32);
            mant >>= shift;
            exp += shift as i64;
            let up = match low.cmp(&half) {
                Ordering::Greater => true,
                Ordering::Equal => sticky || mant.bit(0),
                Ordering::Less => false,
            };
            if up {
                mant += 1u32;
                if mant.bits() > PREC {
                    mant >>= 1;
                    exp += 1;
                }
            }
        }
        Number::normal(neg, mant, exp)
    }

    fn normal(neg: bool, mut mant: BigUint, mut exp: i64) -> Number {
        if mant.bits() == 0 {
            return Number::Finite { neg, mant, exp: 0 };
        }
        let tz = mant.trailing_zeros().unwrap_or(0);
        if tz > 0 {
            mant >>= tz;
            exp += tz as i64;
        }
        Number::Finite { neg, mant, exp }
    }

    pub fn from_i64(v: i64) -> Number {
        Number::normal(v < 0, BigUint::from(v.unsigned_abs()), 0)
    }

    pub fn from_u64(v: u64) -> Number {
        Number::normal(false, BigUint::from(v), 0)
    }

    /// An f64 exactly (every f64 fits in 512 bits). NaN has no cty form: callers check first.
    pub fn from_f64(v: f64) -> Number {
        if v.is_infinite() {
            return Number::Inf { neg: v < 0.0 };
        }
        let bits = v.to_bits();
        let neg = bits >> 63 == 1;
        let e = ((bits >> 52) & 0x7ff) as i64;
        let frac = bits & ((1u64 << 52) - 1);
        let (m, exp) = if e == 0 { (frac, -1074) } else { (frac | (1u64 << 52), e - 1075) };
        Number::normal(neg, BigUint::from(m), exp)
    }

    /// Parses a decimal number as HCL and cty do (`12`, `-1.5`, `1e10`, `.5`), rounded to 512
    /// bits. `None` when the text is not a number.
    pub fn parse(text: &str) -> Option<Number> {
        // Most literals are small whole numbers: no decimal arithmetic for them.
        if !text.is_empty() && text.len() <= 18 && text.bytes().all(|b| b.is_ascii_digit()) {
            return text.parse::<u64>().ok().map(Number::from_u64);
        }
        let s = text.trim_start_matches('+');
        let (neg, s) = match s.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, s),
        };
        if s.is_empty() {
            return None;
        }
        let lower = s.to_ascii_lowercase();
        if lower == "inf" || lower == "infinity" {
            return Some(Number::Inf { neg });
        }
        let (digits_part, exp_part) = match s.find(['e', 'E']) {
            Some(i) => (&s[..i], Some(&s[i + 1..])),
            None => (s, None),
        };
        let (int, frac) = match digits_part.find('.') {
            Some(i) => (&digits_part[..i], &digits_part[i + 1..]),
            None => (digits_part, ""),
        };
        if int.is_empty() && frac.is_empty() {
            return None;
        }
        if !int.bytes().chain(frac.bytes()).all(|b| b.is_ascii_digit()) {
            return None;
        }
        let mut exp10: i64 = -(frac.len() as i64);
        if let Some(e) = exp_part {
            let e = e.strip_prefix('+').unwrap_or(e);
            if e.is_empty() || e == "-" {
                return None;
            }
            let v: i64 = e.parse().ok()?;
            // Beyond this the value is 0 or Inf at any sensible precision; Go's big parser
            // reports overflow there too.
            if v.abs() > 100_000_000 {
                return None;
            }
            exp10 += v;
        }
        let mut digits = String::with_capacity(int.len() + frac.len());
        digits.push_str(int);
        digits.push_str(frac);
        let d = BigUint::parse_bytes(digits.as_bytes(), 10).unwrap_or_else(zero_big);
        Some(Number::from_decimal(neg, d, exp10))
    }

    /// `d × 10^exp10`, rounded to 512 bits.
    fn from_decimal(neg: bool, d: BigUint, exp10: i64) -> Number {
        if d.bits() == 0 {
            return Number::Finite { neg, mant: d, exp: 0 };
        }
        if exp10 >= 0 {
            let p = BigUint::from(10u32).pow(exp10 as u32);
            Number::round(neg, d * p, 0, false)
        } else {
            let p = BigUint::from(10u32).pow((-exp10) as u32);
            Number::div_exact(neg, d, 0, p, 0)
        }
    }

    /// `(a × 2^ea) / (b × 2^eb)` rounded to 512 bits; `b` is not zero.
    fn div_exact(neg: bool, a: BigUint, ea: i64, b: BigUint, eb: i64) -> Number {
        let want = PREC + 2;
        let k = (want + b.bits()).saturating_sub(a.bits()) as i64 + 1;
        let num = a << (k as u64);
        let q = &num / &b;
        let r = &num % &b;
        let sticky = r.bits() != 0;
        // The sticky bit goes below every kept bit, so it only breaks ties.
        let (q, extra) = if sticky { ((q << 1u32) | BigUint::from(1u32), 1) } else { (q, 0) };
        Number::round(neg, q, ea - eb - k - extra, false)
    }

    pub fn is_zero(&self) -> bool {
        matches!(self, Number::Finite { mant, .. } if mant.bits() == 0)
    }

    pub fn is_neg(&self) -> bool {
        match self {
            Number::Finite { neg, mant, .. } => *neg && mant.bits() != 0,
            Number::Inf { neg } => *neg,
        }
    }

    pub fn is_infinite(&self) -> bool {
        matches!(self, Number::Inf { .. })
    }

    /// A whole number (no fractional bits).
    pub fn is_integer(&self) -> bool {
        match self {
            Number::Finite { mant, exp, .. } => mant.bits() == 0 || *exp >= 0,
            Number::Inf { .. } => false,
        }
    }

    pub fn neg(&self) -> Number {
        match self {
            Number::Finite { neg, mant, exp } => Number::Finite { neg: !neg, mant: mant.clone(), exp: *exp },
            Number::Inf { neg } => Number::Inf { neg: !neg },
        }
    }

    pub fn abs(&self) -> Number {
        match self {
            Number::Finite { mant, exp, .. } => Number::Finite { neg: false, mant: mant.clone(), exp: *exp },
            Number::Inf { .. } => Number::Inf { neg: false },
        }
    }

    /// `None` for Inf − Inf (Go panics with ErrNaN there; callers report it).
    pub fn add(&self, other: &Number) -> Option<Number> {
        match (self, other) {
            (Number::Inf { neg: a }, Number::Inf { neg: b }) => (a == b).then_some(Number::Inf { neg: *a }),
            (Number::Inf { .. }, _) => Some(self.clone()),
            (_, Number::Inf { .. }) => Some(other.clone()),
            (Number::Finite { neg: na, mant: ma, exp: ea }, Number::Finite { neg: nb, mant: mb, exp: eb }) => {
                if mb.bits() == 0 {
                    if ma.bits() == 0 {
                        // -0 + -0 is -0; any other sum of zeros is +0.
                        return Some(Number::Finite { neg: *na && *nb, mant: zero_big(), exp: 0 });
                    }
                    return Some(self.clone());
                }
                if ma.bits() == 0 {
                    return Some(other.clone());
                }
                let e = (*ea).min(*eb);
                let a = ma << ((ea - e) as u64);
                let b = mb << ((eb - e) as u64);
                Some(if na == nb {
                    Number::round(*na, a + b, e, false)
                } else {
                    match a.cmp(&b) {
                        Ordering::Greater => Number::round(*na, a - b, e, false),
                        Ordering::Less => Number::round(*nb, b - a, e, false),
                        Ordering::Equal => Number::zero(),
                    }
                })
            }
        }
    }

    pub fn sub(&self, other: &Number) -> Option<Number> {
        self.add(&other.neg())
    }

    /// `None` for 0 × Inf.
    pub fn mul(&self, other: &Number) -> Option<Number> {
        let neg = self.is_sign_neg() != other.is_sign_neg();
        match (self, other) {
            (Number::Inf { .. }, o) | (o, Number::Inf { .. }) => (!o.is_zero()).then_some(Number::Inf { neg }),
            (Number::Finite { mant: ma, exp: ea, .. }, Number::Finite { mant: mb, exp: eb, .. }) => {
                Some(Number::round(neg, ma * mb, ea + eb, false))
            }
        }
    }

    /// `None` for 0/0 and Inf/Inf. x/0 is ±Inf, as big.Float's Quo.
    pub fn div(&self, other: &Number) -> Option<Number> {
        let neg = self.is_sign_neg() != other.is_sign_neg();
        match (self, other) {
            (Number::Inf { .. }, Number::Inf { .. }) => None,
            (Number::Inf { .. }, _) => Some(Number::Inf { neg }),
            (_, Number::Inf { .. }) => Some(Number::Finite { neg, mant: zero_big(), exp: 0 }),
            (Number::Finite { mant: ma, exp: ea, .. }, Number::Finite { mant: mb, exp: eb, .. }) => {
                if mb.bits() == 0 {
                    return (ma.bits() != 0).then_some(Number::Inf { neg });
                }
                if ma.bits() == 0 {
                    return Some(Number::Finite { neg, mant: zero_big(), exp: 0 });
                }
                Some(Number::div_exact(neg, ma.clone(), *ea, mb.clone(), *eb))
            }
        }
    }

    fn is_sign_neg(&self) -> bool {
        match self {
            Number::Finite { neg, .. } | Number::Inf { neg } => *neg,
        }
    }

    /// Toward zero (Go's `big.Float.Int`).
    pub fn trunc(&self) -> Number {
        match self {
            Number::Finite { neg, mant, exp } if *exp < 0 => {
                let shift = (-exp) as u64;
                Number::normal(*neg, mant >> shift, 0)
            }
            _ => self.clone(),
        }
    }

    pub fn floor(&self) -> Number {
        let t = self.trunc();
        if self.is_neg() && t != *self {
            t.sub(&Number::from_i64(1)).unwrap_or(t)
        } else {
            t
        }
    }

    pub fn ceil(&self) -> Number {
        let t = self.trunc();
        if !self.is_neg() && !self.is_zero() && t != *self && !self.is_infinite() {
            t.add(&Number::from_i64(1)).unwrap_or(t)
        } else {
            t
        }
    }

    /// cty's `Modulo`: for whole numbers the remainder of truncated division (sign of the
    /// dividend, as Go's `big.Int.Rem`); otherwise `x - y*trunc(x/y)`. `None` when `y` is 0.
    /// cty's `Modulo` as Terraform reaches it: `x % 0` is `x`; with an infinity, `None`
    /// (cty's infinity shortcut compares pointers, so a computed infinity misses it: `x % inf`
    /// multiplies zero by infinity, "can't use modulo with zero and infinity", and `inf % x`
    /// panics on the infinite quotient's integer part, which we report the same way).
    pub fn rem(&self, other: &Number) -> Option<Number> {
        if other.is_zero() {
            return Some(self.clone());
        }
        if self.is_infinite() || other.is_infinite() {
            return None;
        }
        let q = self.div(other)?.trunc();
        self.sub(&q.mul(other)?)
    }

    pub fn cmp_num(&self, other: &Number) -> Ordering {
        match (self, other) {
            (Number::Inf { neg: a }, Number::Inf { neg: b }) => b.cmp(a),
            (Number::Inf { neg }, _) => {
                if *neg {
                    Ordering::Less
                } else {
                    Ordering::Greater
                }
            }
            (_, Number::Inf { neg }) => {
                if *neg {
                    Ordering::Greater
                } else {
                    Ordering::Less
                }
            }
            _ => {
                let d = self.sub(other).expect("finite");
                if d.is_zero() {
                    Ordering::Equal
                } else if d.is_neg() {
                    Ordering::Less
                } else {
                    Ordering::Greater
                }
            }
        }
    }

    /// The nearest f64 (for the functions cty computes in float64: `log`, `pow`, ...).
    pub fn to_f64(&self) -> f64 {
        match self {
            Number::Inf { neg } => {
                if *neg {
                    f64::NEG_INFINITY
                } else {
                    f64::INFINITY
                }
            }
            Number::Finite { .. } => {
                // Shortest decimal text reads back to the correctly rounded f64 (Rust's parser
                // rounds correctly); only huge exponents need the saturation below.
                let s = self.to_string();
                s.parse::<f64>().unwrap_or(0.0)
            }
        }
    }

    /// The value as i64 when it is whole and fits.
    pub fn to_i64(&self) -> Option<i64> {
        match self {
            Number::Finite { neg, mant, exp } if self.is_integer() => {
                if mant.bits() == 0 {
                    return Some(0);
                }
                // 64 bits: -2^63 is an i64 too.
                if mant.bits() as i64 + exp > 64 {
                    return None;
                }
                let v: u64 = (mant << (*exp as u64)).try_into().ok()?;
                if *neg {
                    i64::try_from(-(v as i128)).ok()
                } else {
                    i64::try_from(v).ok()
                }
            }
            _ => None,
        }
    }

    /// The exact decimal digits and the position of the decimal point: value = 0.DIGITS × 10^point.
    fn exact_decimal(mant: &BigUint, exp: i64) -> (Vec<u8>, i64) {
        if exp >= 0 {
            let v = mant << (exp as u64);
            let d = v.to_str_radix(10).into_bytes();
            let n = d.len() as i64;
            (d, n)
        } else {
            // mant / 2^k = mant × 5^k / 10^k
            let k = (-exp) as u32;
            let v = mant * BigUint::from(5u32).pow(k);
            let d = v.to_str_radix(10).into_bytes();
            let n = d.len() as i64 - k as i64;
            (d, n)
        }
    }

    /// Go's `big.Float.Text('f', -1)`: the shortest decimal that rounds back to this value at
    /// 512 bits (math/big's roundShortest), in plain notation.
    fn shortest(&self) -> String {
        self.shortest_at(PREC)
    }

    /// [`Number::shortest`] for a `big.Float` of `prec` bits: `shortest_at(53)` of an f64 is
    /// how cty prints a `NumberFloatVal` (`log`, `pow`), which differs from Rust's shortest
    /// round-trip at powers of two (Go takes the lower half-ulp as wide as the upper).
    pub fn shortest_at(&self, prec: u64) -> String {
        let (neg, mant, exp) = match self {
            Number::Inf { neg } => return if *neg { "-Inf".into() } else { "+Inf".into() },
            Number::Finite { neg, mant, exp } => (*neg, mant, *exp),
        };
        let sign = if neg { "-" } else { "" };
        if mant.bits() == 0 {
            return format!("{sign}0");
        }
        // A whole number below 2^64 is exact with room to spare (its ulp at `prec` >= 64 bits is
        // at most 1), so its shortest text is its digits: skip the three big decimal expansions.
        if exp >= 0 && mant.bits() as i64 + exp <= 64 && prec >= 64 {
            if let Ok(v) = u64::try_from(mant << (exp as u64)) {
                return format!("{sign}{v}");
            }
        }
        let (mut digits, mut point) = Number::exact_decimal(mant, exp);
        trim_zeros(&mut digits);
        // Go views the mantissa as exactly PREC bits; shift it to PREC+1 bits so that its
        // lowest bit is half an ulp.
        let s = mant.bits() as i64 - (prec as i64 + 1);
        let (m2, e2) = if s < 0 { (mant << ((-s) as u64), exp + s) } else { (mant >> (s as u64), exp + s) };
        let (mut lower, lpoint) = Number::exact_decimal(&(&m2 - 1u32), e2);
        let (mut upper, upoint) = Number::exact_decimal(&(&m2 + 1u32), e2);
        trim_zeros(&mut lower);
        trim_zeros(&mut upper);
        let inclusive = !m2.bit(1);
        // Align the three to the same decimal point.
        let at = |d: &[u8], p: i64, i: usize| -> u8 {
            let idx = i as i64 - (point - p);
            if idx >= 0 && (idx as usize) < d.len() {
                d[idx as usize]
            } else {
                b'0'
            }
        };
        let lower_len = (lower.len() as i64 + (point - lpoint)).max(0) as usize;
        let upper_len = (upper.len() as i64 + (point - upoint)).max(0) as usize;
        for i in 0..digits.len() {
            let l = at(&lower, lpoint, i);
            let m = digits[i];
            let u = at(&upper, upoint, i);
            let okdown = l != m || inclusive && i + 1 == lower_len;
            let okup = m != u && (inclusive || m + 1 < u || i + 1 < upper_len);
            if okdown && okup {
                round_half_up(&mut digits, &mut point, i + 1);
                break;
            } else if okdown {
                digits.truncate(i + 1);
                break;
            } else if okup {
                round_up(&mut digits, &mut point, i + 1);
                break;
            }
        }
        trim_zeros(&mut digits);
        format!("{sign}{}", plain(&digits, point))
    }
}

fn trim_zeros(d: &mut Vec<u8>) {
    while d.last() == Some(&b'0') {
        d.pop();
    }
}

/// Keeps `n` digits, rounding half up on the next one (Go's decimal.round after the shortest
/// search only sees digits at least 5 as "up").
fn round_half_up(d: &mut Vec<u8>, point: &mut i64, n: usize) {
    if n < d.len() && d[n] >= b'5' {
        // Go rounds to even on an exact half: "5" followed by nothing.
        let exact_half = d[n] == b'5' && n + 1 == d.len();
        if exact_half && (d[n - 1] - b'0') % 2 == 0 {
            d.truncate(n);
        } else {
            round_up(d, point, n);
        }
    } else {
        d.truncate(n);
    }
}

fn round_up(d: &mut Vec<u8>, point: &mut i64, n: usize) {
    d.truncate(n);
    let mut i = n;
    while i > 0 {
        i -= 1;
        if d[i] < b'9' {
            d[i] += 1;
            d.truncate(i + 1);
            return;
        }
    }
    // All nines: 999 → 1000.
    d.clear();
    d.push(b'1');
    *point += 1;
}

/// Digits `0.DIGITS × 10^point` in plain notation, as Go's %f with the exact precision.
fn plain(d: &[u8], point: i64) -> String {
    let mut out = String::new();
    if point <= 0 {
        out.push_str("0.");
        for _ in 0..(-point) {
            out.push('0');
        }
        out.push_str(std::str::from_utf8(d).unwrap_or(""));
        if d.is_empty() {
            out.truncate(1);
        }
    } else {
        let p = point as usize;
        if d.len() <= p {
            out.push_str(std::str::from_utf8(d).unwrap_or(""));
            for _ in d.len()..p {
                out.push('0');
            }
        } else {
            out.push_str(std::str::from_utf8(&d[..p]).unwrap_or(""));
            out.push('.');
            out.push_str(std::str::from_utf8(&d[p..]).unwrap_or(""));
        }
    }
    out
}

impl fmt::Display for Number {
    /// As Terraform prints a number (console, templates, `tostring`, JSON).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.shortest())
    }
}

impl PartialOrd for Number {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp_num(other))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(s: &str) -> Number {
        Number::parse(s).unwrap()
    }

    #[test]
    fn whole_numbers_print_their_digits_on_both_sides_of_the_u64_fast_path() {
        for text in [
            "1",
            "-1",
            "7",
            "1024",
            "4294967296",
            "9223372036854775807",
            "-9223372036854775808",
            "18446744073709551615",
            "18446744073709551616",
            "-18446744073709551617",
            "36893488147419103232",
        ] {
            assert_eq!(n(text).to_string(), text);
            assert_eq!(n(text).add(&Number::zero()).unwrap().to_string(), text);
        }
        for i in (0..200_000u64).step_by(997) {
            assert_eq!(Number::from_u64(i * 1_000_003).to_string(), (i * 1_000_003).to_string());
        }
    }

    #[test]
    fn prints_as_terraform_console() {
        // Each right-hand side was printed by `terraform console` (1.11.4).
        let cases = [
            (n("0.1").add(&n("0.2")).unwrap(), "0.3"),
            (n("1").div(&n("3")).unwrap(), "0.33333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333335"),
            (n("9007199254740993").add(&n("0")).unwrap(), "9007199254740993"),
            (n("1e100"), "10000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"),
            (n("2").div(&n("3")).unwrap().mul(&n("3")).unwrap(), "2"),
            (n("0").neg(), "-0"),
            (n("100000000000000000000000000001").mul(&n("3")).unwrap(), "300000000000000000000000000003"),
            (n("0.1").mul(&n("3")).unwrap(), "0.3"),
            (n("1e-7"), "0.0000001"),
            (n("123456789.123456789"), "123456789.123456789"),
            (n("1").div(&n("0")).unwrap(), "+Inf"),
            (n("1.5"), "1.5"),
            (n("-12"), "-12"),
        ];
        for (v, want) in cases {
            assert_eq!(v.to_string(), want);
        }
    }

    #[test]
    fn integers_and_rounding() {
        assert_eq!(n("7").rem(&n("3")).unwrap().to_string(), "1");
        assert_eq!(n("-7").rem(&n("3")).unwrap().to_string(), "-1");
        assert_eq!(n("2.5").floor().to_string(), "2");
        assert_eq!(n("-2.5").floor().to_string(), "-3");
        assert_eq!(n("2.1").ceil().to_string(), "3");
        assert_eq!(n("42").to_i64(), Some(42));
        assert_eq!(n("4.2").to_i64(), None);
        assert!((n("0.1").to_f64() - 0.1).abs() < 1e-18);
        assert_eq!(Number::from_f64(0.5).to_string(), "0.5");
        assert!(Number::parse("1.2.3").is_none());
        assert!(Number::parse("").is_none());
        assert!(n("3") > n("2.5"));
    }
}
