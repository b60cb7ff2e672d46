//! A monotonic clock for measurements (how long each graph transformer took). The core knows
//! nothing of JavaScript, and `std::time::Instant` panics on wasm32-unknown-unknown, so there the
//! bindings install the host's `performance.now()` through [`install`]; until they do (and where
//! the host has none) there is no clock and measurements are `None`.

use std::sync::OnceLock;

static HOST: OnceLock<fn() -> Option<f64>> = OnceLock::new();

/// Sets the host's clock, in microseconds from an arbitrary origin. The first call wins.
pub fn install(now_micros: fn() -> Option<f64>) {
    let _ = HOST.set(now_micros);
}

/// Microseconds since an arbitrary origin, if there is a clock.
pub fn now_micros() -> Option<f64> {
    match HOST.get() {
        Some(host) => host(),
        None => std_now_micros(),
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn std_now_micros() -> Option<f64> {
    use std::time::Instant;
    static ORIGIN: OnceLock<Instant> = OnceLock::new();
    Some(ORIGIN.get_or_init(Instant::now).elapsed().as_secs_f64() * 1e6)
}

#[cfg(target_arch = "wasm32")]
fn std_now_micros() -> Option<f64> {
    None
}
