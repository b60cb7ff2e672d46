//! The numeric functions (Terraform's "Numeric Functions": cty's `stdlib/number.go`): `abs`,
//! `ceil`, `floor`, `log`, `max`, `min`, `parseint`, `pow`, `signum`. `log` and `pow` compute
//! in float64 as cty does (Go's `math.Pow` algorithm, ported below, so that `pow(10, 308)` is
//! Go's `1.0000000000000006e308`), and their results print as a 53-bit float prints.

use super::{FuncError, Function, Param, Registry, Returns};
use crate::eval::number::Number;
use crate::eval::types::Type;
use crate::eval::value::Value;
use num_bigint::BigUint;

/// gocty's error converting a number to a Go `int`.
const NOT_INT: &str = "value must be a whole number, between -9223372036854775808 and 9223372036854775807";

/// The number as a Go `int`, or gocty's error.
pub(super) fn go_int(v: &Value) -> Result<i64, String> {
    v.as_number().filter(|n| n.is_integer()).and_then(Number::to_i64).ok_or_else(|| NOT_INT.to_string())
}

/// A float64 result as cty's `NumberFloatVal` keeps it: printed as the shortest decimal that
/// reads back to the same float64. NaN is Go's panic in `big.Float.SetFloat64`.
pub(super) fn float_val(f: f64) -> Result<Value, FuncError> {
    if f.is_nan() {
        return Err(FuncError::Other("panic in function implementation: Float.SetFloat64(NaN)".into()));
    }
    if f.is_infinite() {
        return Ok(Value::number(Number::from_f64(f)));
    }
    // The decimal Go prints for a 53-bit big.Float, read back at cty's 512 bits (it prints
    // the same digits).
    let exact = Number::from_f64(f);
    if f == 0.0 {
        // Keeps the sign: log(100, 0) is -0 in Terraform.
        return Ok(Value::number(exact));
    }
    let n = Number::parse(&exact.shortest_at(53)).unwrap_or(exact);
    Ok(Value::number(n))
}

/// A whole number with a positive zero (Go's `big.Float.SetInt` never makes -0).
fn whole(n: Number) -> Number {
    if n.is_zero() {
        Number::zero()
    } else {
        n
    }
}

fn num(v: &Value) -> Number {
    v.as_number().cloned().unwrap_or_else(Number::zero)
}

fn one(name: &'static str, param: Param, imp: super::ImplFn) -> Function {
    Function { name, params: vec![param], variadic: None, returns: Returns::Type(Type::Number), imp }
}

pub(super) fn register(r: &mut Registry) {
    r.add(one("abs", Param::new("num", Type::Number).dynamic().marked(), |_, a, _| {
        let n = num(&a[0]);
        Ok(Value::number(n.abs()).mark(a[0].sensitive))
    }));
    r.add(one("ceil", Param::new("num", Type::Number), |_, a, _| Ok(Value::number(whole(num(&a[0]).ceil())))));
    r.add(one("floor", Param::new("num", Type::Number), |_, a, _| Ok(Value::number(whole(num(&a[0]).floor())))));
    r.add(Function {
        name: "log",
        params: vec![Param::new("num", Type::Number), Param::new("base", Type::Number)],
        variadic: None,
        returns: Returns::Type(Type::Number),
        imp: |_, a, _| float_val(num(&a[0]).to_f64().ln() / num(&a[1]).to_f64().ln()),
    });
    r.add(Function {
        name: "pow",
        params: vec![Param::new("num", Type::Number), Param::new("power", Type::Number)],
        variadic: None,
        returns: Returns::Type(Type::Number),
        imp: |_, a, _| float_val(go_pow(num(&a[0]).to_f64(), num(&a[1]).to_f64())),
    });
    r.add(one("signum", Param::new("num", Type::Number), |_, a, _| {
        let i = go_int(&a[0]).map_err(FuncError::Other)?;
        Ok(Value::int(i.signum()))
    }));
    for (name, want) in [("max", std::cmp::Ordering::Greater), ("min", std::cmp::Ordering::Less)] {
        r.add(Function {
            name,
            params: vec![],
            variadic: Some(Param::new("numbers", Type::Number).dynamic()),
            returns: Returns::Type(Type::Number),
            imp: if want == std::cmp::Ordering::Greater {
                |_, a, _| extreme(a, std::cmp::Ordering::Greater)
            } else {
                |_, a, _| extreme(a, std::cmp::Ordering::Less)
            },
        });
    }
    r.add(Function {
        name: "parseint",
        params: vec![Param::new("number", Type::Dynamic), Param::new("base", Type::Number)],
        variadic: None,
        returns: Returns::Computed(|a| {
            if a[0].ty() != Type::String {
                return Err(FuncError::Arg(
                    0,
                    format!("first argument must be a string, not {}", a[0].ty().friendly_name()),
                ));
            }
            Ok(Type::Number)
        }),
        imp: |_, a, _| {
            let text = a[0].as_str().unwrap_or_default();
            let base = go_int(&a[1]).map_err(|m| FuncError::Arg(1, m))?;
            if !(2..=62).contains(&base) {
                return Err(FuncError::Arg(1, "base must be a whole number between 2 and 62 inclusive".into()));
            }
            let parsed = parse_big_int(text, base as u32)
                .ok_or_else(|| {
                    FuncError::Arg(0, format!("cannot parse {} as a base {base} integer", crate::dag::go_quote(text)))
                })?
                .map_err(|m| FuncError::Arg(0, m))?;
            Ok(Value::number(parsed))
        },
    });
}

/// cty's `max`/`min`: the first argument strictly beyond every earlier one.
fn extreme(args: &[Value], want: std::cmp::Ordering) -> Result<Value, FuncError> {
    let mut best: Option<&Value> = None;
    for v in args {
        match best {
            Some(b) if num(v).cmp_num(&num(b)) != want => {}
            _ => best = Some(v),
        }
    }
    best.map(|v| Value::number(num(v))).ok_or_else(|| FuncError::Other("must pass at least one number".into()))
}

/// The longest digit string `parseint` takes (a deliberate limit: Go parses any length, in
/// quadratic time; 4096 binary digits are already far past cty's 512-bit precision).
const MAX_PARSEINT_DIGITS: usize = 4096;

/// Go's `big.Int.SetString(s, base)` for a base in 2..=62: an optional sign, then digits (no
/// prefix, no underscores); for bases up to 36 letters of either case, above that lower case
/// first (10..35) then upper case (36..61).
fn parse_big_int(text: &str, base: u32) -> Option<Result<Number, String>> {
    let (neg, digits) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    if digits.is_empty() {
        return None;
    }
    if digits.len() > MAX_PARSEINT_DIGITS {
        return Some(Err(format!(
            "tfgraph parses at most {MAX_PARSEINT_DIGITS} digits (cty keeps 512 bits of any number)"
        )));
    }
    let mut v = BigUint::from(0u32);
    for b in digits.bytes() {
        let d = match b {
            b'0'..=b'9' => (b - b'0') as u32,
            b'a'..=b'z' => (b - b'a') as u32 + 10,
            b'A'..=b'Z' if base <= 36 => (b - b'A') as u32 + 10,
            b'A'..=b'Z' => (b - b'A') as u32 + 36,
            _ => return None,
        };
        if d >= base {
            return None;
        }
        v = v * base + d;
    }
    let n = Number::parse(&v.to_string())?;
    Some(Ok(if neg && !n.is_zero() { n.neg() } else { n }))
}

/// Go's `math.Frexp`: `f = frac × 2^exp` with `frac` in [0.5, 1).
fn frexp(f: f64) -> (f64, i64) {
    if f == 0.0 || !f.is_finite() {
        return (f, 0);
    }
    let (f, mut e) = if f.abs() < f64::MIN_POSITIVE { (f * (1u64 << 52) as f64, -52i64) } else { (f, 0) };
    let bits = f.to_bits();
    e += ((bits >> 52) & 0x7ff) as i64 - 1022;
    let frac = f64::from_bits((bits & !(0x7ffu64 << 52)) | (1022u64 << 52));
    (frac, e)
}

/// Go's `math.Ldexp`: `frac × 2^exp`, in exact power-of-two steps.
fn ldexp(mut frac: f64, mut exp: i64) -> f64 {
    if frac == 0.0 || !frac.is_finite() {
        return frac;
    }
    while exp > 1000 {
        frac *= 2f64.powi(1000);
        exp -= 1000;
        if frac.is_infinite() {
            return frac;
        }
    }
    while exp < -1000 {
        frac *= 2f64.powi(-1000);
        exp += 1000;
        if frac == 0.0 {
            return frac;
        }
    }
    frac * 2f64.powi(exp as i32)
}

fn is_odd_int(x: f64) -> bool {
    x.fract() == 0.0 && x.abs() < 9.2e18 && (x.trunc() as i64) & 1 == 1
}

/// Go's `math.Pow` (the portable algorithm: squaring for the whole part of the exponent,
/// `Exp(yf × Log(x))` for the fraction), so that results match Terraform's to the last bit.
pub(super) fn go_pow(x: f64, y: f64) -> f64 {
    if y == 0.0 || x == 1.0 {
        return 1.0;
    }
    if y == 1.0 {
        return x;
    }
    if x.is_nan() || y.is_nan() {
        return f64::NAN;
    }
    if x == 0.0 {
        if y < 0.0 {
            return if is_odd_int(y) { f64::INFINITY.copysign(x) } else { f64::INFINITY };
        }
        return if is_odd_int(y) { x } else { 0.0 };
    }
    if y.is_infinite() {
        return if x == -1.0 {
            1.0
        } else if (x.abs() < 1.0) == (y > 0.0) {
            0.0
        } else {
            f64::INFINITY
        };
    }
    if x.is_infinite() {
        if x < 0.0 {
            return go_pow(1.0 / x, -y);
        }
        return if y < 0.0 { 0.0 } else { f64::INFINITY };
    }
    if y == 0.5 {
        return x.sqrt();
    }
    if y == -0.5 {
        return 1.0 / x.sqrt();
    }
    let (mut yi, mut yf) = (y.abs().trunc(), y.abs().fract());
    if yf != 0.0 && x < 0.0 {
        return f64::NAN;
    }
    if yi >= 9.223_372_036_854_776e18 {
        return if x == -1.0 {
            1.0
        } else if (x.abs() < 1.0) == (y > 0.0) {
            0.0
        } else {
            f64::INFINITY
        };
    }
    let mut a1 = 1.0;
    let mut ae: i64 = 0;
    if yf != 0.0 {
        if yf > 0.5 {
            yf -= 1.0;
            yi += 1.0;
        }
        a1 = (yf * x.ln()).exp();
    }
    let (mut x1, mut xe) = frexp(x);
    let mut i = yi as i64;
    while i != 0 {
        if !(-(1 << 12)..=(1 << 12)).contains(&xe) {
            ae += xe;
            break;
        }
        if i & 1 == 1 {
            a1 *= x1;
            ae += xe;
        }
        x1 *= x1;
        xe <<= 1;
        if x1 < 0.5 {
            x1 += x1;
            xe -= 1;
        }
        i >>= 1;
    }
    if y < 0.0 {
        a1 = 1.0 / a1;
        ae = -ae;
    }
    ldexp(a1, ae)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pow_as_go_computes_it() {
        // Go's math.Pow(10, 308) is not the nearest float64 to 1e308.
        assert_eq!(go_pow(10.0, 308.0), 1.0000000000000006e308);
        assert_eq!(go_pow(2.0, 64.0), 18446744073709551616.0);
        assert_eq!(go_pow(2.0, -1.0), 0.5);
        assert!(go_pow(-8.0, 1.0 / 3.0).is_nan());
        assert_eq!(frexp(8.0), (0.5, 4));
        assert_eq!(ldexp(0.5, 4), 8.0);
    }
}
