//! `textencodebase64` / `textdecodebase64` (Terraform's `internal/lang/funcs/encoding.go` over
//! Go's x/text `ianaindex`): encoding names are matched as IANA names and aliases, without
//! regard to case, and errors name the encoding by its IANA name (`ISO_8859-1:1987`).
//!
//! The encodings here: UTF-8, UTF-16 (big-endian with a byte-order mark, honoured when
//! decoding), UTF-16BE, UTF-16LE, US-ASCII, ISO-8859-1 and windows-1252. x/text knows many more
//! (Shift_JIS, EUC-KR, GBK, KOI8-R, the other ISO-8859 and windows code pages, ...): for those
//! names we say that tfgraph lacks the encoding rather than pretend it does not exist.

use super::encoding::{base64_decode_go, base64_encode};
use super::{FuncError, Function, Param, Registry, Returns};
use crate::dag::go_quote;
use crate::eval::types::Type;
use crate::eval::value::Value;

#[derive(Clone, Copy, PartialEq)]
enum Enc {
    Utf8,
    Utf16Bom,
    Utf16Be,
    Utf16Le,
    Latin1,
    Win1252,
    Ascii,
}

/// (IANA name, aliases, encoding).
const KNOWN: &[(&str, &[&str], Enc)] = &[
    ("UTF-8", &["csUTF8"], Enc::Utf8),
    ("UTF-16", &["csUTF16"], Enc::Utf16Bom),
    ("UTF-16BE", &["csUTF16BE"], Enc::Utf16Be),
    ("UTF-16LE", &["csUTF16LE"], Enc::Utf16Le),
    (
        "ISO_8859-1:1987",
        &["iso-ir-100", "ISO_8859-1", "ISO-8859-1", "latin1", "l1", "IBM819", "CP819", "csISOLatin1"],
        Enc::Latin1,
    ),
    ("windows-1252", &["cswindows1252"], Enc::Win1252),
    (
        "US-ASCII",
        &[
            "iso-ir-6",
            "ANSI_X3.4-1968",
            "ANSI_X3.4-1986",
            "ISO_646.irv:1991",
            "ISO646-US",
            "us",
            "IBM367",
            "cp367",
            "csASCII",
        ],
        Enc::Ascii,
    ),
];

/// IANA names (and common aliases) of encodings Go's x/text has and tfgraph does not.
const MISSING: &[&str] = &[
    "Shift_JIS",
    "MS_Kanji",
    "csShiftJIS",
    "EUC-JP",
    "csEUCPkdFmtJapanese",
    "ISO-2022-JP",
    "csISO2022JP",
    "EUC-KR",
    "csEUCKR",
    "GBK",
    "CP936",
    "MS936",
    "windows-936",
    "GB18030",
    "csGB18030",
    "Big5",
    "csBig5",
    "HZ-GB-2312",
    "KOI8-R",
    "csKOI8R",
    "KOI8-U",
    "ISO-8859-2",
    "ISO-8859-3",
    "ISO-8859-4",
    "ISO-8859-5",
    "ISO-8859-6",
    "ISO-8859-7",
    "ISO-8859-8",
    "ISO-8859-9",
    "ISO-8859-10",
    "ISO-8859-13",
    "ISO-8859-14",
    "ISO-8859-15",
    "ISO-8859-16",
    "windows-874",
    "windows-1250",
    "windows-1251",
    "windows-1253",
    "windows-1254",
    "windows-1255",
    "windows-1256",
    "windows-1257",
    "windows-1258",
    "IBM037",
    "IBM437",
    "IBM850",
    "IBM852",
    "IBM855",
    "IBM858",
    "IBM860",
    "IBM862",
    "IBM863",
    "IBM865",
    "IBM866",
    "IBM1047",
    "IBM01140",
    "macintosh",
    "x-mac-cyrillic",
];

/// Terraform's error for a name x/text does not know.
fn unsupported(name: &str) -> FuncError {
    FuncError::Arg(
        1,
        format!("{} is not a supported IANA encoding name or alias in this Terraform version", go_quote(name)),
    )
}

fn lookup(name: &str) -> Result<(Enc, &'static str), FuncError> {
    for (iana, aliases, enc) in KNOWN {
        if iana.eq_ignore_ascii_case(name) || aliases.iter().any(|a| a.eq_ignore_ascii_case(name)) {
            return Ok((*enc, iana));
        }
    }
    if MISSING.iter().any(|m| m.eq_ignore_ascii_case(name)) {
        return Err(FuncError::Arg(1, format!("the {name} encoding is not available in tfgraph (Terraform has it)")));
    }
    Err(unsupported(name))
}

/// windows-1252's 0x80..=0x9F (None: undefined).
const WIN1252_HIGH: [Option<char>; 32] = [
    Some('€'),
    None,
    Some('‚'),
    Some('ƒ'),
    Some('„'),
    Some('…'),
    Some('†'),
    Some('‡'),
    Some('ˆ'),
    Some('‰'),
    Some('Š'),
    Some('‹'),
    Some('Œ'),
    None,
    Some('Ž'),
    None,
    None,
    Some('‘'),
    Some('’'),
    Some('“'),
    Some('”'),
    Some('•'),
    Some('–'),
    Some('—'),
    Some('˜'),
    Some('™'),
    Some('š'),
    Some('›'),
    Some('œ'),
    None,
    Some('ž'),
    Some('Ÿ'),
];

fn encode(enc: Enc, s: &str) -> Option<Vec<u8>> {
    match enc {
        Enc::Utf8 => Some(s.as_bytes().to_vec()),
        Enc::Utf16Bom | Enc::Utf16Be | Enc::Utf16Le => {
            let mut out = Vec::new();
            if enc == Enc::Utf16Bom {
                out.extend_from_slice(&[0xFE, 0xFF]);
            }
            for u in s.encode_utf16() {
                let b = if enc == Enc::Utf16Le { u.to_le_bytes() } else { u.to_be_bytes() };
                out.extend_from_slice(&b);
            }
            Some(out)
        }
        Enc::Latin1 => s.chars().map(|c| u8::try_from(c as u32).ok()).collect(),
        Enc::Ascii => s.is_ascii().then(|| s.as_bytes().to_vec()),
        Enc::Win1252 => s
            .chars()
            .map(|c| match c as u32 {
                0..=0x7F | 0xA0..=0xFF => Some(c as u8),
                _ => WIN1252_HIGH.iter().position(|&x| x == Some(c)).map(|i| 0x80 + i as u8),
            })
            .collect(),
    }
}

fn decode(enc: Enc, b: &[u8]) -> Option<String> {
    match enc {
        Enc::Utf8 => String::from_utf8(b.to_vec()).ok(),
        Enc::Utf16Bom | Enc::Utf16Be | Enc::Utf16Le => {
            let (mut le, mut body) = (enc == Enc::Utf16Le, b);
            if enc == Enc::Utf16Bom {
                if b.starts_with(&[0xFF, 0xFE]) {
                    le = true;
                    body = &b[2..];
                } else if b.starts_with(&[0xFE, 0xFF]) {
                    body = &b[2..];
                }
            }
            if body.len() % 2 != 0 {
                return None;
            }
            let units: Vec<u16> = body
                .chunks(2)
                .map(|c| if le { u16::from_le_bytes([c[0], c[1]]) } else { u16::from_be_bytes([c[0], c[1]]) })
                .collect();
            String::from_utf16(&units).ok()
        }
        Enc::Latin1 => Some(b.iter().map(|&x| x as char).collect()),
        Enc::Ascii => b.is_ascii().then(|| b.iter().map(|&x| x as char).collect()),
        Enc::Win1252 => b
            .iter()
            .map(|&x| if (0x80..0xA0).contains(&x) { WIN1252_HIGH[(x - 0x80) as usize] } else { Some(x as char) })
            .collect(),
    }
}

pub(super) fn register(r: &mut Registry) {
    r.add(Function {
        name: "textencodebase64",
        params: vec![Param::new("string", Type::String), Param::new("encoding", Type::String)],
        variadic: None,
        returns: Returns::Type(Type::String),
        imp: |_, a, _| {
            let (enc, iana) = lookup(a[1].as_str().unwrap_or_default())?;
            let bytes = encode(enc, a[0].as_str().unwrap_or_default()).ok_or_else(|| {
                FuncError::Arg(0, format!("the given string contains characters that cannot be represented in {iana}"))
            })?;
            Ok(Value::string(base64_encode(&bytes)))
        },
    });
    r.add(Function {
        name: "textdecodebase64",
        params: vec![Param::new("source", Type::String), Param::new("encoding", Type::String)],
        variadic: None,
        returns: Returns::Type(Type::String),
        imp: |_, a, _| {
            let (enc, iana) = lookup(a[1].as_str().unwrap_or_default())?;
            // "is has" is Terraform's text through 1.15.x; 1.16.0 fixes it (#38289).
            let bytes = base64_decode_go(a[0].as_str().unwrap_or_default().as_bytes()).map_err(|at| {
                FuncError::Arg(0, format!("the given value is has an invalid base64 symbol at offset {at}"))
            })?;
            match decode(enc, &bytes) {
                Some(s) if !s.contains('\u{fffd}') => Ok(Value::string(s)),
                _ => {
                    Err(FuncError::Arg(0, format!("the given string contains symbols that are not defined for {iana}")))
                }
            }
        },
    });
}
