//! `rsadecrypt`: RSA PKCS #1 v1.5 decryption with a PEM private key, as Terraform does it with
//! Go's `ssh.ParseRawPrivateKey` and `rsa.DecryptPKCS1v15` — written over num-bigint (already
//! linked for numbers) instead of an RSA crate: PEM, the few DER shapes of a private key, and
//! one modular exponentiation.
//!
//! Keys: `RSA PRIVATE KEY` (PKCS #1) and `PRIVATE KEY` (PKCS #8 holding an RSA key). Other
//! kinds Go parses (`EC PRIVATE KEY`, `OPENSSH PRIVATE KEY`, PKCS #8 EC/Ed25519 keys) are not
//! RSA keys for Terraform either; their error says so in our words (Go prints the parsed key
//! with `%t`, which is noise). DER errors follow Go's texts for truncation; other malformed
//! DER gets Go's x509 wording where it is fixed text.

use super::encoding::{base64_decode, base64_decode_go};
use super::FuncError;
use num_bigint::BigUint;

/// Go's `pem.Decode`: the first well-formed block, as (type, bytes).
fn pem_decode(text: &str) -> Option<(String, Vec<u8>)> {
    let mut rest = text;
    loop {
        let start = if rest.starts_with("-----BEGIN ") { 0 } else { rest.find("\n-----BEGIN ")? + 1 };
        let after = &rest[start + 11..];
        let end_type = after.find("-----")?;
        let ty = &after[..end_type];
        let body_start = &after[end_type + 5..];
        // The type line must end here.
        let body_start = body_start.strip_prefix("\r\n").or_else(|| body_start.strip_prefix('\n'));
        let end_marker = format!("\n-----END {ty}-----");
        if let Some(body) = body_start {
            if let Some(e) = body.find(&end_marker) {
                let b64: String = body[..e].chars().filter(|c| !c.is_whitespace()).collect();
                if !body[..e].contains(':') {
                    if let Some(bytes) = base64_decode(&b64) {
                        return Some((ty.to_string(), bytes));
                    }
                }
            }
        }
        rest = &rest[start + 11..];
    }
}

/// One DER element: (tag, contents, rest).
fn der(b: &[u8]) -> Result<(u8, &[u8], &[u8]), String> {
    if b.len() < 2 {
        return Err("truncated tag or length".into());
    }
    let tag = b[0];
    let (len, hdr) = if b[1] < 0x80 {
        (b[1] as usize, 2)
    } else {
        let n = (b[1] & 0x7f) as usize;
        if n == 0 || n > 4 || b.len() < 2 + n {
            return Err("truncated tag or length".into());
        }
        (b[2..2 + n].iter().fold(0usize, |a, &x| a << 8 | x as usize), 2 + n)
    };
    if b.len() < hdr + len {
        return Err("data truncated".into());
    }
    Ok((tag, &b[hdr..hdr + len], &b[hdr + len..]))
}

struct RsaKey {
    n: BigUint,
    d: BigUint,
}

const MALFORMED: &str = "x509: failed to parse private key";

fn parse_pkcs1(b: &[u8]) -> Result<RsaKey, String> {
    let (tag, seq, _) = der(b)?;
    if tag != 0x30 {
        return Err(MALFORMED.into());
    }
    let mut ints = Vec::new();
    let mut rest = seq;
    while !rest.is_empty() && ints.len() < 9 {
        let (t, v, r) = der(rest)?;
        if t != 0x02 {
            return Err(MALFORMED.into());
        }
        ints.push(BigUint::from_bytes_be(v));
        rest = r;
    }
    if ints.len() < 9 {
        return Err(MALFORMED.into());
    }
    if ints[0] > BigUint::from(1u32) {
        return Err("x509: unsupported private key version".into());
    }
    if ints[1..4].iter().any(|x| x.bits() == 0) {
        return Err("x509: private key contains zero or negative value".into());
    }
    Ok(RsaKey { n: ints[1].clone(), d: ints[3].clone() })
}

fn parse_pkcs8(b: &[u8]) -> Result<Option<RsaKey>, String> {
    let (tag, seq, _) = der(b)?;
    if tag != 0x30 {
        return Err(MALFORMED.into());
    }
    let (_, _, rest) = der(seq)?; // version
    let (_, alg, rest) = der(rest)?;
    let (_, oid, _) = der(alg)?;
    let (_, key, _) = der(rest)?;
    // rsaEncryption, 1.2.840.113549.1.1.1
    if oid != [0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01] {
        return Ok(None);
    }
    parse_pkcs1(key).map(Some)
}

/// PKCS #1 v1.5 decryption; any failure is Go's single "decryption error".
fn decrypt(key: &RsaKey, c: &[u8]) -> Option<Vec<u8>> {
    let k = key.n.bits().div_ceil(8) as usize;
    if k < 11 || c.len() > k {
        return None;
    }
    let cn = BigUint::from_bytes_be(c);
    if cn >= key.n {
        return None;
    }
    let m = cn.modpow(&key.d, &key.n).to_bytes_be();
    let mut em = vec![0u8; k - m.len().min(k)];
    em.extend_from_slice(&m);
    if em[0] != 0 || em[1] != 2 {
        return None;
    }
    let sep = em[2..].iter().position(|&x| x == 0)? + 2;
    if sep < 10 {
        return None;
    }
    Some(em[sep + 1..].to_vec())
}

/// Terraform's `rsadecrypt(ciphertext, privatekey)`.
pub(super) fn rsadecrypt(ciphertext: &str, pem: &str) -> Result<String, FuncError> {
    let c = base64_decode_go(ciphertext.as_bytes()).map_err(|_| {
        FuncError::Arg(
            0,
            format!("failed to decode input {}: cipher text must be base64-encoded", crate::dag::go_quote(ciphertext)),
        )
    })?;
    let invalid = |m: String| FuncError::Arg(1, format!("invalid private key: {m}"));
    let asn1 = |m: String| {
        if m == "data truncated" || m == "truncated tag or length" {
            FuncError::Arg(1, format!("invalid ASN1 data in the given private key: {m}"))
        } else {
            invalid(m)
        }
    };
    let (ty, der_bytes) = pem_decode(pem).ok_or_else(|| invalid("ssh: no key found".into()))?;
    let key = match ty.as_str() {
        "RSA PRIVATE KEY" => parse_pkcs1(&der_bytes).map_err(asn1)?,
        "PRIVATE KEY" => match parse_pkcs8(&der_bytes).map_err(asn1)? {
            Some(k) => k,
            None => return Err(FuncError::Arg(1, "invalid private key type: not an RSA key".into())),
        },
        "EC PRIVATE KEY" | "DSA PRIVATE KEY" | "OPENSSH PRIVATE KEY" => {
            return Err(FuncError::Arg(1, format!("invalid private key type: {ty} is not an RSA key (tfgraph reads RSA keys in PKCS #1 or PKCS #8 form)")));
        }
        other => return Err(invalid(format!("ssh: unsupported key type {}", crate::dag::go_quote(other)))),
    };
    let plain =
        decrypt(&key, &c).ok_or_else(|| FuncError::Other("failed to decrypt: crypto/rsa: decryption error".into()))?;
    Ok(String::from_utf8_lossy(&plain).into_owned())
}
