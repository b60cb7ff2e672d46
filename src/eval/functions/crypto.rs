//! The hash and crypto functions (Terraform's `internal/lang/funcs/crypto.go`): `md5`, `sha1`,
//! `sha256`, `sha512`, `base64sha256`, `base64sha512` (of a string's UTF-8 bytes, with
//! RustCrypto's hashes), `rsadecrypt` (in `crypto_rsa.rs`), `uuid`, `uuidv5`, `bcrypt` (Go's x/crypto/bcrypt over the `blowfish`
//! crate's EksBlowfish steps). `uuid` and `bcrypt` are unknown while planning, as in Terraform;
//! otherwise their randomness comes from [`super::platform`].
//!
//! [`hash_bytes`] is public for the file-hashing functions (`filemd5`, `filesha256`, ...).
//!
//! Deliberate difference: Terraform accepts bcrypt costs up to 31 (2^31 rounds: days of work);
//! we refuse costs above [`MAX_BCRYPT_COST`] with an error instead of hanging.

use super::encoding::base64_encode;
use super::numeric::go_int;
use super::{platform, FuncError, Function, Param, Registry, Returns};
use crate::eval::types::Type;
use crate::eval::value::Value;
use sha2::Digest;

/// The highest bcrypt cost we compute (2^16 rounds: seconds, not days).
pub const MAX_BCRYPT_COST: i64 = 16;

/// The digests Terraform offers.
#[derive(Clone, Copy)]
pub enum Hash {
    Md5,
    Sha1,
    Sha256,
    Sha512,
}

/// The digest of `bytes`.
pub fn hash_bytes(h: Hash, bytes: &[u8]) -> Vec<u8> {
    match h {
        Hash::Md5 => md5::Md5::digest(bytes).to_vec(),
        Hash::Sha1 => sha1::Sha1::digest(bytes).to_vec(),
        Hash::Sha256 => sha2::Sha256::digest(bytes).to_vec(),
        Hash::Sha512 => sha2::Sha512::digest(bytes).to_vec(),
    }
}

pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn hash_fn(name: &'static str, imp: super::ImplFn) -> Function {
    Function {
        name,
        params: vec![Param::new("str", Type::String)],
        variadic: None,
        returns: Returns::Type(Type::String),
        imp,
    }
}

fn s(v: &Value) -> &[u8] {
    v.as_str().unwrap_or_default().as_bytes()
}

pub(super) fn register(r: &mut Registry) {
    r.add(hash_fn("md5", |_, a, _| Ok(Value::string(hex(&hash_bytes(Hash::Md5, s(&a[0])))))));
    r.add(hash_fn("sha1", |_, a, _| Ok(Value::string(hex(&hash_bytes(Hash::Sha1, s(&a[0])))))));
    r.add(hash_fn("sha256", |_, a, _| Ok(Value::string(hex(&hash_bytes(Hash::Sha256, s(&a[0])))))));
    r.add(hash_fn("sha512", |_, a, _| Ok(Value::string(hex(&hash_bytes(Hash::Sha512, s(&a[0])))))));
    r.add(hash_fn("base64sha256", |_, a, _| Ok(Value::string(base64_encode(&hash_bytes(Hash::Sha256, s(&a[0])))))));
    r.add(hash_fn("base64sha512", |_, a, _| Ok(Value::string(base64_encode(&hash_bytes(Hash::Sha512, s(&a[0])))))));
    r.add(Function {
        name: "rsadecrypt",
        params: vec![Param::new("ciphertext", Type::String), Param::new("privatekey", Type::String)],
        variadic: None,
        returns: Returns::Type(Type::String),
        imp: |_, a, _| {
            super::crypto_rsa::rsadecrypt(a[0].as_str().unwrap_or_default(), a[1].as_str().unwrap_or_default())
                .map(Value::string)
        },
    });
    r.add(Function {
        name: "uuid",
        params: vec![],
        variadic: None,
        returns: Returns::Type(Type::String),
        imp: |ctx, _, _| {
            if ctx.planning {
                return Ok(Value::unknown(Type::String));
            }
            // hashicorp/go-uuid: 16 random bytes as 8-4-4-4-12 hex, no version bits set.
            let b = platform::random(16).map_err(FuncError::Other)?;
            Ok(Value::string(uuid_text(&b)))
        },
    });
    r.add(Function {
        name: "uuidv5",
        params: vec![Param::new("namespace", Type::String), Param::new("name", Type::String)],
        variadic: None,
        returns: Returns::Type(Type::String),
        imp: |_, a, _| {
            let ns_text = a[0].as_str().unwrap_or_default();
            let ns = match ns_text {
                "dns" => parse_uuid("6ba7b810-9dad-11d1-80b4-00c04fd430c8"),
                "url" => parse_uuid("6ba7b811-9dad-11d1-80b4-00c04fd430c8"),
                "oid" => parse_uuid("6ba7b812-9dad-11d1-80b4-00c04fd430c8"),
                "x500" => parse_uuid("6ba7b814-9dad-11d1-80b4-00c04fd430c8"),
                other => parse_uuid(other),
            }
            .map_err(|e| FuncError::Other(format!("uuidv5() doesn't support namespace {ns_text} ({e})")))?;
            let mut data = ns.to_vec();
            data.extend_from_slice(s(&a[1]));
            let mut h = hash_bytes(Hash::Sha1, &data);
            h.truncate(16);
            h[6] = (h[6] & 0x0f) | 0x50;
            h[8] = (h[8] & 0x3f) | 0x80;
            Ok(Value::string(uuid_text(&h)))
        },
    });
    r.add(Function {
        name: "bcrypt",
        params: vec![Param::new("str", Type::String)],
        variadic: Some(Param::new("cost", Type::Number)),
        returns: Returns::Type(Type::String),
        imp: |ctx, a, _| {
            // Impure: unknown while planning, before anything else is looked at.
            if ctx.planning {
                return Ok(Value::unknown(Type::String));
            }
            let mut cost = 10;
            if a.len() > 1 {
                cost = go_int(&a[1]).map_err(FuncError::Other)?;
            }
            if a.len() > 2 {
                return Err(FuncError::Other("bcrypt() takes no more than two arguments".into()));
            }
            let fail = |m: String| FuncError::Other(format!("error occured generating password {m}"));
            let password = s(&a[0]);
            if password.len() > 72 {
                return Err(fail("bcrypt: password length exceeds 72 bytes".into()));
            }
            if cost < 4 {
                cost = 10;
            }
            if cost > 31 {
                return Err(fail(format!("crypto/bcrypt: cost {cost} is outside allowed range (4,31)")));
            }
            if cost > MAX_BCRYPT_COST {
                return Err(FuncError::Other(format!(
                    "bcrypt cost {cost} would take 2^{cost} rounds; tfgraph computes costs up to {MAX_BCRYPT_COST}"
                )));
            }
            let salt = platform::random(16).map_err(FuncError::Other)?;
            Ok(Value::string(bcrypt(password, cost as u32, &salt)))
        },
    });
}

/// 16 bytes as `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`.
fn uuid_text(b: &[u8]) -> String {
    format!("{}-{}-{}-{}-{}", hex(&b[0..4]), hex(&b[4..6]), hex(&b[6..8]), hex(&b[8..10]), hex(&b[10..16]))
}

/// google/uuid's `Parse`, with its error texts.
fn parse_uuid(text: &str) -> Result<[u8; 16], String> {
    let xtob = |a: u8, b: u8| -> Option<u8> {
        let h = (a as char).to_digit(16)?;
        let l = (b as char).to_digit(16)?;
        Some((h * 16 + l) as u8)
    };
    let bad = || "invalid UUID format".to_string();
    let mut s = text.as_bytes();
    let mut out = [0u8; 16];
    match s.len() {
        36 => {}
        45 => {
            if !s[..9].eq_ignore_ascii_case(b"urn:uuid:") {
                return Err(format!("invalid urn prefix: {}", crate::dag::go_quote(&String::from_utf8_lossy(&s[..9]))));
            }
            s = &s[9..];
        }
        38 => s = &s[1..],
        32 => {
            for (i, o) in out.iter_mut().enumerate() {
                *o = xtob(s[i * 2], s[i * 2 + 1]).ok_or_else(bad)?;
            }
            return Ok(out);
        }
        n => return Err(format!("invalid UUID length: {n}")),
    }
    if s[8] != b'-' || s[13] != b'-' || s[18] != b'-' || s[23] != b'-' {
        return Err(bad());
    }
    for (i, x) in [0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34].into_iter().enumerate() {
        out[i] = xtob(s[x], s[x + 1]).ok_or_else(bad)?;
    }
    Ok(out)
}

/// bcrypt's own base64 alphabet, unpadded.
fn bcrypt_b64(bytes: &[u8]) -> String {
    const A: &[u8; 64] = b"./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk.iter().enumerate().fold(0u32, |acc, (i, &b)| acc | (b as u32) << (16 - 8 * i));
        for i in 0..=chunk.len() {
            out.push(A[((n >> (18 - 6 * i)) & 63) as usize] as char);
        }
    }
    out
}

/// Go's `bcrypt.GenerateFromPassword` with a given salt: `$2a$COST$SALT(22)HASH(31)`.
pub fn bcrypt(password: &[u8], cost: u32, salt: &[u8]) -> String {
    use blowfish::Blowfish;
    let mut key = password.to_vec();
    key.push(0);
    let mut c = Blowfish::bc_init_state();
    c.salted_expand_key(salt, &key);
    for _ in 0..(1u64 << cost) {
        c.bc_expand_key(&key);
        c.bc_expand_key(salt);
    }
    let magic = b"OrpheanBeholderScryDoubt";
    let mut words: Vec<u32> = magic.chunks(4).map(|w| u32::from_be_bytes([w[0], w[1], w[2], w[3]])).collect();
    for pair in words.chunks_mut(2) {
        let mut lr = [pair[0], pair[1]];
        for _ in 0..64 {
            lr = c.bc_encrypt(lr);
        }
        pair.copy_from_slice(&lr);
    }
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_be_bytes()).collect();
    format!("$2a${cost:02}${}{}", bcrypt_b64(salt), bcrypt_b64(&bytes[..23]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bcrypt_matches_known_hashes() {
        // OpenBSD's test vector: "U*U" with salt "CCCCCCCCCCCCCCCCCCCCC." at cost 5.
        const A: &[u8] = b"./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
        let bits: Vec<u8> =
            "CCCCCCCCCCCCCCCCCCCCC.".bytes().map(|c| A.iter().position(|&x| x == c).unwrap() as u8).collect();
        let mut salt = Vec::new();
        for q in bits.chunks(4) {
            let n = q.iter().enumerate().fold(0u32, |acc, (i, &v)| acc | (v as u32) << (18 - 6 * i));
            for i in 0..q.len() - 1 {
                salt.push((n >> (16 - 8 * i)) as u8);
            }
        }
        assert_eq!(salt.len(), 16);
        assert_eq!(bcrypt(b"U*U", 5, &salt), "$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW");
    }

    #[test]
    fn uuids_parse_as_google_uuid_does() {
        assert!(parse_uuid("6ba7b810-9dad-11d1-80b4-00c04fd430c8").is_ok());
        assert_eq!(parse_uuid("x").unwrap_err(), "invalid UUID length: 1");
    }
}
