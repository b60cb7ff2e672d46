//! The knobs the mock providers have beyond the oracle's: seeded jitter of operation delays,
//! and transient rate-limit errors that the provider retries with exponential backoff, as real
//! providers' SDKs do (the walker never retries: a provider that gives up fails the operation).
//!
//! Deterministic under a seed: every draw is a hash of the seed, the operation, the object's
//! `name` (the only identity the provider trait gives a delay) and the attempt, so a plan, its
//! apply and a re-run agree, natively and in wasm.

use super::Op;

/// Retries before a throttled operation gives up, when the options do not say.
pub const DEFAULT_MAX_RETRIES: u32 = 4;
/// The first backoff; each retry doubles it, up to [`MAX_BACKOFF_MS`].
pub const BASE_BACKOFF_MS: u64 = 100;
pub const MAX_BACKOFF_MS: u64 = 5_000;

/// The knobs' settings (part of [`super::mock::MockOptions`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Knobs {
    pub seed: u64,
    /// Each delay moves by up to this much either way (never below zero).
    pub jitter_ms: u64,
    /// The chance (0 to 1) that one attempt of an operation is throttled.
    pub rate_limit: f64,
    /// Retries after a throttled attempt (`None`: [`DEFAULT_MAX_RETRIES`]).
    pub max_retries: Option<u32>,
}

/// What throttling did to one operation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Throttled {
    /// Attempts that were throttled (each followed by a backoff, unless it was the last).
    pub throttled: u32,
    /// Time spent backing off.
    pub backoff_ms: u64,
    /// Every attempt was throttled: the operation fails.
    pub gave_up: bool,
}

/// FNV-1a then splitmix64: a stable hash (the crate's fast hasher is not promised stable).
fn draw(seed: u64, op: Op, name: Option<&str>, salt: u64) -> f64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325 ^ seed;
    let mut eat = |bytes: &[u8]| {
        for b in bytes {
            h ^= u64::from(*b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    };
    eat(op.as_str().as_bytes());
    eat(&[0xff]);
    eat(name.unwrap_or("").as_bytes());
    eat(&salt.to_le_bytes());
    let mut z = h.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^= z >> 31;
    (z >> 11) as f64 / (1u64 << 53) as f64
}

impl Knobs {
    /// `delay` moved by the seeded jitter.
    pub fn jittered(&self, delay: u64, op: Op, name: Option<&str>) -> u64 {
        if self.jitter_ms == 0 {
            return delay;
        }
        let span = self.jitter_ms as f64;
        let offset = (draw(self.seed, op, name, 0) * 2.0 - 1.0) * span;
        (delay as f64 + offset).round().max(0.0) as u64
    }

    /// The throttling of one operation: attempt `i` is throttled when its draw falls under
    /// `rate_limit`; the provider backs off `100 ms × 2^i` (at most 5 s) and tries again.
    pub fn throttling(&self, op: Op, name: Option<&str>) -> Throttled {
        let mut t = Throttled::default();
        if self.rate_limit <= 0.0 {
            return t;
        }
        let retries = self.max_retries.unwrap_or(DEFAULT_MAX_RETRIES);
        for attempt in 0..=retries {
            if draw(self.seed, op, name, u64::from(attempt) + 1) >= self.rate_limit {
                return t;
            }
            t.throttled += 1;
            if attempt < retries {
                t.backoff_ms += (BASE_BACKOFF_MS << attempt.min(16)).min(MAX_BACKOFF_MS);
            }
        }
        t.gave_up = true;
        t
    }

    /// The delay of an operation: jittered, plus the backoffs of its throttled attempts.
    pub fn delay(&self, base: u64, op: Op, name: Option<&str>) -> u64 {
        self.jittered(base, op, name) + self.throttling(op, name).backoff_ms
    }

    /// The error of an operation whose every attempt was throttled (`None`: it went through).
    pub fn rate_limit_error(&self, op: Op, name: Option<&str>) -> Option<super::ProviderError> {
        let t = self.throttling(op, name);
        t.gave_up.then(|| super::ProviderError {
            summary: "Rate exceeded".into(),
            detail: format!(
                "The remote API throttled every attempt to {} {}: the provider retried {} times with exponential backoff ({} ms in all) and gave up.",
                op.as_str(),
                name.map(|n| format!("{n:?}")).unwrap_or_else(|| "the object".into()),
                t.throttled.saturating_sub(1),
                t.backoff_ms
            ),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jitter_is_seeded_bounded_and_varies_by_name() {
        let k = Knobs { seed: 7, jitter_ms: 50, ..Default::default() };
        let a = k.jittered(200, Op::Create, Some("a"));
        assert_eq!(a, k.jittered(200, Op::Create, Some("a")), "same seed, same draw");
        let all: Vec<u64> = (0..40).map(|i| k.jittered(200, Op::Create, Some(&format!("n{i}")))).collect();
        assert!(all.iter().all(|d| (150..=250).contains(d)), "{all:?}");
        assert!(all.iter().any(|&d| d != all[0]), "jitter moves delays");
        let other = Knobs { seed: 8, ..k.clone() };
        assert!(
            (0..40).any(|i| other.jittered(200, Op::Create, Some(&format!("n{i}"))) != all[i]),
            "another seed, other delays"
        );
        assert_eq!(Knobs::default().jittered(200, Op::Create, Some("a")), 200);
    }

    #[test]
    fn throttled_attempts_back_off_and_can_give_up() {
        let never = Knobs { rate_limit: 0.0, ..Default::default() };
        assert_eq!(never.throttling(Op::Create, Some("a")), Throttled::default());
        let always = Knobs { rate_limit: 1.0, max_retries: Some(3), ..Default::default() };
        let t = always.throttling(Op::Create, Some("a"));
        assert_eq!(t, Throttled { throttled: 4, backoff_ms: 100 + 200 + 400, gave_up: true });
        let e = always.rate_limit_error(Op::Create, Some("a")).unwrap();
        assert_eq!(e.summary, "Rate exceeded");
        assert!(e.detail.contains("retried 3 times"), "{}", e.detail);
        // Half the attempts throttled: most operations go through after some retries.
        let half = Knobs { seed: 1, rate_limit: 0.5, ..Default::default() };
        let runs: Vec<Throttled> = (0..200).map(|i| half.throttling(Op::Update, Some(&format!("r{i}")))).collect();
        let retried = runs.iter().filter(|t| t.throttled > 0 && !t.gave_up).count();
        let gave_up = runs.iter().filter(|t| t.gave_up).count();
        assert!(retried > 50 && gave_up < 20, "retried {retried}, gave up {gave_up}");
        for t in runs.iter().filter(|t| !t.gave_up) {
            let want: u64 = (0..t.throttled).map(|i| BASE_BACKOFF_MS << i).sum();
            assert_eq!(t.backoff_ms, want);
        }
        assert_eq!(half.delay(10, Op::Update, Some("r0")), 10 + runs[0].backoff_ms);
    }
}
