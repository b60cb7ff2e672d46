//! The encoding functions (Terraform's "Encoding Functions").

use super::Registry;

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Go's `base64.StdEncoding.EncodeToString`.
pub fn base64_encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk.iter().enumerate().fold(0u32, |acc, (i, &b)| acc | (b as u32) << (16 - 8 * i));
        for i in 0..4 {
            out.push(if i <= chunk.len() { B64[((n >> (18 - 6 * i)) & 63) as usize] as char } else { '=' });
        }
    }
    out
}

/// Go's `base64.StdEncoding.DecodeString`: strict padding, `\r` and `\n` skipped; `None` on
/// malformed input.
#[allow(dead_code)] // base64decode comes with the encoding family
pub fn base64_decode(text: &str) -> Option<Vec<u8>> {
    let chars: Vec<u8> = text.bytes().filter(|&b| b != b'\r' && b != b'\n').collect();
    if chars.len() % 4 != 0 {
        return None;
    }
    let mut out = Vec::with_capacity(chars.len() / 4 * 3);
    for (qi, q) in chars.chunks(4).enumerate() {
        let last = qi + 1 == chars.len() / 4;
        let pad = q.iter().rev().take_while(|&&b| b == b'=').count();
        if pad > 2 || (pad > 0 && !last) {
            return None;
        }
        let mut n = 0u32;
        for (i, &c) in q[..4 - pad].iter().enumerate() {
            let v = B64.iter().position(|&x| x == c)? as u32;
            n |= v << (18 - 6 * i);
        }
        let keep = 3 - pad;
        // Go rejects non-zero bits in the padding (strict decoding is off, but the trailing
        // bits must still decode to a whole byte count).
        for i in 0..keep {
            out.push((n >> (16 - 8 * i)) as u8);
        }
    }
    Some(out)
}

pub(super) fn register(_r: &mut Registry) {}
