//! Every message the walker gives about bad input, in one place and in Terraform's words.

use crate::dag::{cycle_diagnostics, cycle_summary};
use crate::diag::{Diagnostic, Diagnostics};
use crate::eval::number::Number;

/// Terraform's check in `internal/terraform/context.go` (`NewContext`): the same summary and,
/// for values below one, the same detail. tfgraph has no "0 means default" rule: callers
/// leave the option out to get 10.
pub fn invalid_parallelism(value: f64) -> Diagnostic {
    let shown = shown(value);
    let detail = if value.is_finite() && value.fract() == 0.0 {
        format!("The parallelism must be a positive value. Not {shown}.")
    } else {
        format!("The parallelism must be a positive whole number. Not {shown}.")
    };
    Diagnostic::error("Invalid parallelism value", detail)
}

/// The value as `{}` prints an f64 (the shortest digits that read back, never an exponent),
/// through the evaluator's number printing: `{}` on an f64 here was the package's only use of
/// the standard library's float formatter, 14 KB of wasm (bench/RESULTS.md, 2026-11-27 "size2").
fn shown(value: f64) -> String {
    if value.is_nan() {
        "NaN".into()
    } else if value.is_infinite() {
        (if value < 0.0 { "-inf" } else { "inf" }).into()
    } else if value.fract() == 0.0 && value.abs() < 1e15 {
        (value as i64).to_string()
    } else {
        // A subnormal f64 has only its fraction's bits of precision, not 53.
        let bits = if value.abs() < f64::MIN_POSITIVE {
            64 - (value.to_bits() & ((1 << 52) - 1)).leading_zeros() as u64
        } else {
            53
        };
        Number::from_f64(value).shortest_at(bits)
    }
}

pub fn duplicate_node(name: &str) -> Diagnostic {
    Diagnostic::error(
        "Duplicate node name",
        format!("The node name {name:?} appears more than once; every node of a walk needs its own name."),
    )
    .with_address(name)
}

pub fn unknown_node(from: &str, to: &str, unknown: &str) -> Diagnostic {
    Diagnostic::error(
        "Edge to an unknown node",
        format!("The edge {from:?} -> {to:?} names {unknown:?}, which is not in the graph's node list."),
    )
}

/// The cycles of a walk graph, each listed in dependency order (for `a -> b -> c -> a`: a, b,
/// c), as diagnostics in the same text and order as the graph's own (`dag::Graph::validate`):
/// Terraform 1.16's `Cycle:` with one name per line from the shortest name, cycles sorted by
/// their text, then `Self reference: x` for one-node cycles, sorted by name.
pub fn cycles<'a>(found: impl IntoIterator<Item = Vec<&'a str>>) -> Diagnostics {
    let mut loops = Vec::new();
    let mut selves = Vec::new();
    for names in found {
        match names.as_slice() {
            [one] => selves.push(*one),
            _ => loops.push((cycle_summary(&names.iter().rev().collect::<Vec<_>>()), String::new())),
        }
    }
    crate::util::sort::sort(&mut selves);
    cycle_diagnostics(loops, selves.into_iter().map(|name| (name, String::new())))
}

/// Checks a parallelism option the way `walk` accepts it: a whole number of at least one.
#[allow(clippy::result_large_err)] // the error is the diagnostic the caller shows; it is built once
pub fn check_parallelism(value: f64) -> Result<usize, Diagnostic> {
    if value.is_finite() && value.fract() == 0.0 && value >= 1.0 && value <= u32::MAX as f64 {
        Ok(value as usize)
    } else {
        Err(invalid_parallelism(value))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parallelism_wording_follows_terraform() {
        assert_eq!(check_parallelism(10.0), Ok(10));
        assert_eq!(check_parallelism(1.0), Ok(1));
        let zero = check_parallelism(0.0).unwrap_err();
        assert_eq!(zero.summary, "Invalid parallelism value");
        assert_eq!(zero.detail, "The parallelism must be a positive value. Not 0.");
        assert_eq!(check_parallelism(-3.0).unwrap_err().detail, "The parallelism must be a positive value. Not -3.");
        assert_eq!(
            check_parallelism(2.5).unwrap_err().detail,
            "The parallelism must be a positive whole number. Not 2.5."
        );
        assert!(check_parallelism(f64::NAN).is_err());
        assert_eq!(
            check_parallelism(1e300).unwrap_err().detail,
            format!("The parallelism must be a positive value. Not {}.", 1e300)
        );
        assert!(check_parallelism(f64::INFINITY).is_err());
    }

    #[test]
    fn values_print_as_rust_prints_an_f64() {
        let odd = [
            2.5,
            -0.1,
            0.1 + 0.2,
            1e-7,
            5e-324,
            -1.5e-320,
            2.2250738585072e-308,
            f64::MAX,
            -f64::MIN_POSITIVE,
            1e15,
            2f64.powi(60),
            123456.789e3,
            1.0 / 3.0,
        ];
        // And 3,000 bit patterns from a xorshift: every exponent range, subnormals included.
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let random = std::iter::repeat_with(move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            f64::from_bits(x)
        });
        for v in odd.into_iter().chain([f64::NAN, f64::INFINITY, f64::NEG_INFINITY, -0.0, 7.0]).chain(random.take(3000))
        {
            let std = if v.fract() == 0.0 && v.abs() < 1e15 { format!("{}", v as i64) } else { format!("{v}") };
            assert_eq!(shown(v), std, "{v:e}");
        }
    }
}
