//! What the impure functions (`uuid`, `bcrypt`, `timestamp`) need from the machine: the time
//! and random bytes. The evaluator knows nothing of JavaScript, so the wasm bindings install
//! the browser's or Node's (`Date.now`, `crypto.getRandomValues`) through [`install`]; natively
//! the defaults use the system clock and the OS-seeded hasher keys of `std`.

use std::sync::RwLock;

/// The clock and the random source.
#[derive(Clone, Copy)]
pub struct Platform {
    /// Nanoseconds since the Unix epoch, if there is a clock.
    pub now_unix_nanos: fn() -> Option<i128>,
    /// Fills the buffer with random bytes; false if there is no source.
    pub fill_random: fn(&mut [u8]) -> bool,
}

static PLATFORM: RwLock<Option<Platform>> = RwLock::new(None);

/// Replaces the clock and the random source (the wasm bindings call this once).
pub fn install(p: Platform) {
    if let Ok(mut g) = PLATFORM.write() {
        *g = Some(p);
    }
}

fn current() -> Platform {
    PLATFORM.read().ok().and_then(|g| *g).unwrap_or(Platform { now_unix_nanos: native_now, fill_random: native_random })
}

#[cfg(not(target_arch = "wasm32"))]
fn native_now() -> Option<i128> {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).ok().map(|d| d.as_nanos() as i128)
}

#[cfg(target_arch = "wasm32")]
fn native_now() -> Option<i128> {
    None
}

#[cfg(not(target_arch = "wasm32"))]
fn native_random(buf: &mut [u8]) -> bool {
    use std::hash::{BuildHasher, Hasher};
    // Each RandomState has fresh keys from the OS (then a per-thread counter).
    for chunk in buf.chunks_mut(8) {
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_u64(0x9e37_79b9_7f4a_7c15);
        let v = h.finish().to_le_bytes();
        chunk.copy_from_slice(&v[..chunk.len()]);
    }
    true
}

#[cfg(target_arch = "wasm32")]
fn native_random(_: &mut [u8]) -> bool {
    false
}

/// The current time, or an error naming what is missing.
pub(super) fn now() -> Result<i128, String> {
    (current().now_unix_nanos)().ok_or_else(|| "no clock is available to this build of tfgraph".into())
}

/// `n` random bytes, or an error naming what is missing.
pub(super) fn random(n: usize) -> Result<Vec<u8>, String> {
    let mut buf = vec![0u8; n];
    if (current().fill_random)(&mut buf) {
        Ok(buf)
    } else {
        Err("no source of random numbers is available to this build of tfgraph".into())
    }
}
