//! Go's `fmt` for the arbitrary-precision numbers cty hands it in `format`: `*big.Float` for
//! `%e %E %f %g %G`, `*big.Int` for `%b %d %o %x %X`, written over exact decimal digits.

use super::string_format_go::Verb;

/// An exact decimal: `0.d1d2d3... × 10^exp`, digits without leading or trailing zeros
/// (empty for zero), like Go's `big.decimal`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decimal {
    pub neg: bool,
    pub inf: bool,
    pub digits: Vec<u8>,
    pub exp: i64,
}

impl Decimal {
    /// Parses a plain or exponent decimal (`-12.5`, `1e+21`, `+Inf`).
    pub fn parse(s: &str) -> Option<Decimal> {
        let (neg, body) = match s.as_bytes().first()? {
            b'-' => (true, &s[1..]),
            b'+' => (false, &s[1..]),
            _ => (false, s),
        };
        if body.eq_ignore_ascii_case("inf") || body.eq_ignore_ascii_case("infinity") {
            return Some(Decimal { neg, inf: true, digits: vec![], exp: 0 });
        }
        let (mant, e) = match body.find(['e', 'E']) {
            Some(i) => (&body[..i], body[i + 1..].parse::<i64>().ok()?),
            None => (body, 0),
        };
        let (int, frac) = match mant.find('.') {
            Some(i) => (&mant[..i], &mant[i + 1..]),
            None => (mant, ""),
        };
        if int.is_empty() && frac.is_empty() {
            return None;
        }
        let mut digits = Vec::with_capacity(int.len() + frac.len());
        for c in int.bytes().chain(frac.bytes()) {
            if !c.is_ascii_digit() {
                return None;
            }
            digits.push(c - b'0');
        }
        let mut exp = int.len() as i64 + e;
        let lead = digits.iter().take_while(|&&d| d == 0).count();
        digits.drain(..lead);
        exp -= lead as i64;
        while digits.last() == Some(&0) {
            digits.pop();
        }
        if digits.is_empty() {
            exp = 0;
        }
        Some(Decimal { neg, inf: false, digits, exp })
    }

    /// Plain decimal text without exponent (Go's `Text('f', -1)`, how cty turns a number
    /// into a string).
    #[allow(dead_code)] // tests/eval_functions_layers.rs checks the layer through it
    pub fn to_plain(&self) -> String {
        if self.inf {
            return if self.neg { "-Inf" } else { "+Inf" }.to_string();
        }
        let frac = (self.digits.len() as i64 - self.exp).max(0) as usize;
        let body = self.fmt_f(frac);
        if self.neg && !self.is_zero() {
            format!("-{body}")
        } else {
            body
        }
    }

    pub fn is_zero(&self) -> bool {
        !self.inf && self.digits.is_empty()
    }

    /// Whether the value is an integer.
    pub fn is_integer(&self) -> bool {
        !self.inf && (self.digits.is_empty() || self.exp >= self.digits.len() as i64)
    }

    /// Rounds to `n` significant digits, half to even (Go's `decimal.round`), and trims.
    fn round_sig(&mut self, n: i64) {
        if n < 0 || n as usize >= self.digits.len() {
            return;
        }
        let n = n as usize;
        let up = match self.digits[n].cmp(&5) {
            std::cmp::Ordering::Greater => true,
            std::cmp::Ordering::Less => false,
            std::cmp::Ordering::Equal => {
                if self.digits[n + 1..].iter().any(|&d| d != 0) {
                    true
                } else {
                    n > 0 && self.digits[n - 1] % 2 == 1
                }
            }
        };
        self.digits.truncate(n);
        if up {
            let mut i = n;
            loop {
                if i == 0 {
                    self.digits.insert(0, 1);
                    self.exp += 1;
                    break;
                }
                i -= 1;
                if self.digits[i] == 9 {
                    self.digits[i] = 0;
                } else {
                    self.digits[i] += 1;
                    break;
                }
            }
        }
        while self.digits.last() == Some(&0) {
            self.digits.pop();
        }
        if self.digits.is_empty() {
            self.exp = 0;
        }
    }

    fn digit(&self, i: i64) -> u8 {
        if i < 0 {
            b'0'
        } else {
            self.digits.get(i as usize).map_or(b'0', |d| b'0' + d)
        }
    }

    /// Go's `%e` body (no sign) with `prec` digits after the point.
    fn fmt_e(&self, upper: bool, prec: usize) -> String {
        let mut s = String::new();
        s.push(if self.digits.is_empty() { '0' } else { self.digit(0) as char });
        if prec > 0 {
            s.push('.');
            for i in 1..=prec as i64 {
                s.push(self.digit(i) as char);
            }
        }
        s.push(if upper { 'E' } else { 'e' });
        let exp = if self.digits.is_empty() { 0 } else { self.exp - 1 };
        s.push(if exp < 0 { '-' } else { '+' });
        let a = exp.unsigned_abs();
        if a < 10 {
            s.push('0');
        }
        s.push_str(&a.to_string());
        s
    }

    /// Go's `%f` body (no sign) with `prec` digits after the point.
    fn fmt_f(&self, prec: usize) -> String {
        let mut s = String::new();
        if self.exp > 0 {
            for i in 0..self.exp {
                s.push(self.digit(i) as char);
            }
        } else {
            s.push('0');
        }
        if prec > 0 {
            s.push('.');
            for i in 0..prec as i64 {
                s.push(self.digit(self.exp + i) as char);
            }
        }
        s
    }
}

/// Go's `big.Float.Format` for verbs `e E f g G` (cty passes the verb text through to
/// `fmt.Sprintf`, minus any `[n]`): flags `+ - space 0`, width and precision.
pub fn format_float(v: &Verb, x: &Decimal) -> String {
    let mode = v.mode;
    let mut d = x.clone();
    let body = if d.inf {
        "Inf".to_string()
    } else {
        let shortest = v.prec.is_none();
        match mode {
            'e' | 'E' => {
                let p = v.prec.unwrap_or(6);
                d.round_sig(1 + p as i64);
                d.fmt_e(mode == 'E', p)
            }
            'f' => {
                let p = v.prec.unwrap_or(6);
                d.round_sig(d.exp + p as i64);
                d.fmt_f(p)
            }
            _ => {
                // g, G
                let mut prec = match v.prec {
                    None => d.digits.len() as i64,
                    Some(0) => 1,
                    Some(p) => p as i64,
                };
                if !shortest {
                    d.round_sig(prec);
                }
                let len = d.digits.len() as i64;
                let mut eprec = prec;
                if eprec > len && len >= d.exp {
                    eprec = len;
                }
                if shortest {
                    eprec = 6;
                }
                let exp = d.exp - 1;
                if d.digits.is_empty() || !(exp < -4 || exp >= eprec) {
                    if prec > d.exp {
                        prec = len;
                    }
                    d.fmt_f((prec - d.exp).max(0) as usize)
                } else {
                    if prec > len {
                        prec = len;
                    }
                    d.fmt_e(mode == 'G', (prec - 1).max(0) as usize)
                }
            }
        }
    };
    let sign = if x.neg {
        "-"
    } else if v.plus {
        "+"
    } else if v.space {
        " "
    } else {
        ""
    };
    // big.Float's Format pads with zeros when asked even if '-' is given too (unlike
    // big.Int's, where '-' wins).
    if v.zero && !x.inf {
        let width = v.width.unwrap_or(0);
        let len = sign.len() + body.len();
        if len < width {
            return format!("{sign}{}{body}", "0".repeat(width - len));
        }
    }
    pad_number(v, sign, "", &body, false)
}

/// Go's `big.Float.Text('g', prec)` of a number (Terraform's diagnostics print numbers with 10
/// significant digits: `1.23456789e+10`, `0.3333333333`).
pub fn text_g(n: &crate::eval::number::Number, prec: usize) -> String {
    match Decimal::parse(&n.to_string()) {
        Some(d) => format_float(&Verb { mode: 'g', prec: Some(prec), ..Verb::default() }, &d),
        None => n.to_string(),
    }
}

/// Go's `big.Int.Format` for `b d o x X` (flags `# + - space 0`, width, precision).
pub fn format_int(v: &Verb, x: &Decimal) -> String {
    let digits = int_digits(
        x,
        match v.mode {
            'b' => 2,
            'o' => 8,
            'x' | 'X' => 16,
            _ => 10,
        },
    );
    let mut digits = if v.mode == 'X' { digits.to_ascii_uppercase() } else { digits };
    let prefix = if v.sharp {
        match v.mode {
            'b' => "0b",
            'o' => "0",
            'x' => "0x",
            'X' => "0X",
            _ => "",
        }
    } else {
        ""
    };
    let sign = if x.neg && !x.is_zero() {
        "-"
    } else if v.plus {
        "+"
    } else if v.space {
        " "
    } else {
        ""
    };
    // Precision: minimum digits; a zero value with precision 0 prints nothing at all (no
    // sign, no padding: big.Int's Format returns early).
    if let Some(p) = v.prec {
        if x.is_zero() && p == 0 {
            return String::new();
        } else if digits.len() < p {
            digits = "0".repeat(p - digits.len()) + &digits;
        }
        return pad_number(v, sign, prefix, &digits, false);
    }
    pad_number(v, sign, prefix, &digits, v.zero)
}

fn pad_number(v: &Verb, sign: &str, prefix: &str, body: &str, zero: bool) -> String {
    let len = sign.len() + prefix.len() + body.len();
    let width = v.width.unwrap_or(0);
    if len >= width {
        return format!("{sign}{prefix}{body}");
    }
    let pad = width - len;
    if v.minus {
        format!("{sign}{prefix}{body}{}", " ".repeat(pad))
    } else if zero {
        format!("{sign}{prefix}{}{body}", "0".repeat(pad))
    } else {
        format!("{}{sign}{prefix}{body}", " ".repeat(pad))
    }
}

/// The magnitude of an integer decimal in `base`, lowercase.
fn int_digits(x: &Decimal, base: u32) -> String {
    if x.digits.is_empty() {
        return "0".to_string();
    }
    // Decimal digits of the integer, most significant first.
    let mut dec: Vec<u8> = (0..x.exp).map(|i| x.digit(i) - b'0').collect();
    if base == 10 {
        return dec.iter().map(|d| (b'0' + d) as char).collect();
    }
    let mut out = Vec::new();
    while !dec.is_empty() {
        let mut rem = 0u32;
        let mut next = Vec::with_capacity(dec.len());
        for &d in &dec {
            let cur = rem * 10 + d as u32;
            let q = cur / base;
            rem = cur % base;
            if !(next.is_empty() && q == 0) {
                next.push(q as u8);
            }
        }
        out.push(std::char::from_digit(rem, base).unwrap());
        dec = next;
    }
    out.iter().rev().collect()
}

#[cfg(test)]
mod tests {
    use super::super::string_format_go::{scan, Piece};
    use super::*;

    fn verb(f: &str) -> Verb {
        let mut got = None;
        scan(f, |p| {
            if let Piece::Verb(v) = p {
                got = Some(v);
            }
            Ok(())
        })
        .unwrap();
        got.unwrap()
    }
    fn ff(f: &str, n: &str) -> String {
        format_float(&verb(f), &Decimal::parse(n).unwrap())
    }
    fn fi(f: &str, n: &str) -> String {
        format_int(&verb(f), &Decimal::parse(n).unwrap())
    }

    #[test]
    fn floats_as_go_prints_them() {
        assert_eq!(ff("%5.2f", "3.14159"), " 3.14");
        assert_eq!(ff("%e", "1234.5678"), "1.234568e+03");
        assert_eq!(ff("%E", "1234.5678"), "1.234568E+03");
        assert_eq!(ff("%g", "1234.5678"), "1234.5678");
        assert_eq!(ff("%G", "0.000012345"), "1.2345E-05");
        assert_eq!(ff("%f", "0.1"), "0.100000");
        assert_eq!(ff("%.0f", "0.5"), "0");
        assert_eq!(ff("%.0f", "1.5"), "2");
        assert_eq!(ff("%.0f", "2.5"), "2");
        assert_eq!(ff("%g", "100000000"), "1e+08");
        assert_eq!(ff("%g", "1e21"), "1e+21");
        assert_eq!(ff("%.2f", "1e100"), format!("1{}.00", "0".repeat(100)));
        assert_eq!(ff("%+08.3f", "-3.14159"), "-003.142");
        assert_eq!(ff("%f", "0"), "0.000000");
        assert_eq!(ff("%g", "0"), "0");
        assert_eq!(ff("%.3g", "1234.5678"), "1.23e+03");
        assert_eq!(ff("%-8.1f", "2.25"), "2.2     ");
    }

    #[test]
    fn ints_as_go_prints_them() {
        assert_eq!(fi("%x", "255"), "ff");
        assert_eq!(fi("%X", "255"), "FF");
        assert_eq!(fi("%o", "8"), "10");
        assert_eq!(fi("%b", "5"), "101");
        assert_eq!(fi("%#x", "255"), "0xff");
        assert_eq!(fi("%#o", "8"), "010");
        assert_eq!(fi("%x", "-255"), "-ff");
        assert_eq!(fi("%+d", "5"), "+5");
        assert_eq!(fi("% d", "5"), " 5");
        assert_eq!(fi("%05d", "5"), "00005");
        assert_eq!(fi("%-4d", "7"), "7   ");
        assert_eq!(fi("%d", "12345678901234567890123"), "12345678901234567890123");
        assert_eq!(fi("%x", "18446744073709551616"), "10000000000000000");
    }

    #[test]
    fn scanner_errors() {
        let e = |f: &str| scan(f, |_| Ok(())).unwrap_err();
        assert_eq!(e("%"), "invalid format string starting at offset 1");
        assert_eq!(e("%5"), "invalid format string starting at offset 2");
        assert_eq!(e("%*d"), "unrecognized format character '*' at offset 1");
    }
}
