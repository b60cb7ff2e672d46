//! `textencodebase64` / `textdecodebase64` (Terraform's `internal/lang/funcs/encoding.go` over
//! Go's x/text `ianaindex`): encoding names are matched as IANA names and aliases, without
//! regard to case, and errors name the encoding by its IANA name (`ISO_8859-1:1987`).
//!
//! The encodings here: UTF-8, UTF-16 (big-endian with a byte-order mark, honoured when
//! decoding), UTF-16BE, UTF-16LE, US-ASCII, ISO-8859-1, ISO-8859-9 and windows-1252. x/text
//! knows 49 more (Shift_JIS, EUC-KR, GBK, KOI8-R, the other ISO-8859, IBM and windows code
//! pages, ...): for every name of those we say that tfgraph lacks the encoding rather than
//! pretend it does not exist. Their tables cannot come from the JS engine: Node's ICU-backed
//! `TextDecoder` decodes EUC-KR, Big5 and several single-byte encodings otherwise than the
//! WHATWG indexes x/text was generated from (nodejs/node#40091), and x/text's IBM code pages
//! and ISO-8859-1/-9 are not WHATWG encodings at all (bench/RESULTS.md, "text encodings").

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
    Latin5,
    Win1252,
    Ascii,
}

/// (IANA name, lower-case aliases, encoding): x/text's ianaindex for these encodings.
const KNOWN: &[(&str, &[&str], Enc)] = &[
    ("UTF-8", &["csutf8"], Enc::Utf8),
    ("UTF-16", &["csutf16"], Enc::Utf16Bom),
    ("UTF-16BE", &["csutf16be"], Enc::Utf16Be),
    ("UTF-16LE", &["csutf16le"], Enc::Utf16Le),
    (
        "ISO_8859-1:1987",
        &["cp819", "csisolatin1", "ibm819", "iso-8859-1", "iso-ir-100", "iso_8859-1", "l1", "latin1"],
        Enc::Latin1,
    ),
    ("ISO_8859-9:1989", &["csisolatin5", "iso-8859-9", "iso-ir-148", "iso_8859-9", "l5", "latin5"], Enc::Latin5),
    ("windows-1252", &["cswindows1252"], Enc::Win1252),
    (
        "US-ASCII",
        &[
            "ansi_x3.4-1968",
            "ansi_x3.4-1986",
            "cp367",
            "csascii",
            "ibm367",
            "iso-ir-6",
            "iso646-us",
            "iso_646.irv:1991",
            "us",
        ],
        Enc::Ascii,
    ),
];

/// Every other name and alias, lower case, that x/text's ianaindex gives an encoding for
/// (x/text 0.22 to 0.41, Terraform 1.11 to 1.15; generated from its tables.go): the IBM and
/// other ISO-8859 and windows code pages, KOI8, macintosh, and the CJK encodings. Their tables
/// are not in tfgraph (see `lookup`).
const MISSING: &str = concat!(
    "437 850 852 855 860 862 863 865 866 arabic asmo-708 big5 ccsid00858 ccsid01140 cp00858 cp01140 ",
    "cp037 cp437 cp850 cp852 cp855 cp860 cp862 cp863 cp865 cp866 cp936 csbig5 cseuckr ",
    "cseucpkdfmtjapanese csgb18030 csgbk csibm00858 csibm01140 csibm037 csibm1047 csibm855 csibm860 ",
    "csibm863 csibm865 csibm866 csiso2022jp csiso885913 csiso885914 csiso885915 csiso885916 ",
    "csiso88596e csiso88596i csiso88598e csiso88598i csisolatin2 csisolatin3 csisolatin4 csisolatin6 ",
    "csisolatinarabic csisolatincyrillic csisolatingreek csisolatinhebrew cskoi8r cskoi8u ",
    "csmacintosh cspc850multilingual cspc862latinhebrew cspc8codepage437 cspcp852 csshiftjis ",
    "cswindows1250 cswindows1251 cswindows1253 cswindows1254 cswindows1255 cswindows1256 ",
    "cswindows1257 cswindows1258 cswindows874 cyrillic ebcdic-cp-ca ebcdic-cp-nl ebcdic-cp-us ",
    "ebcdic-cp-wt ebcdic-us-37+euro ecma-114 ecma-118 elot_928 euc-jp euc-kr ",
    "extended_unix_code_packed_format_for_japanese gb18030 gbk greek greek8 hebrew hz-gb-2312 ",
    "ibm-1047 ibm00858 ibm01140 ibm037 ibm1047 ibm437 ibm850 ibm852 ibm855 ibm860 ibm862 ibm863 ",
    "ibm865 ibm866 iso-2022-jp iso-8859-10 iso-8859-13 iso-8859-14 iso-8859-15 iso-8859-16 ",
    "iso-8859-2 iso-8859-3 iso-8859-4 iso-8859-5 iso-8859-6 iso-8859-6-e iso-8859-6-i iso-8859-7 ",
    "iso-8859-8 iso-8859-8-e iso-8859-8-i iso-celtic iso-ir-101 iso-ir-109 iso-ir-110 iso-ir-126 ",
    "iso-ir-127 iso-ir-138 iso-ir-144 iso-ir-157 iso-ir-199 iso-ir-226 iso_8859-10:1992 iso_8859-14 ",
    "iso_8859-14:1998 iso_8859-15 iso_8859-16 iso_8859-16:2001 iso_8859-2 iso_8859-2:1987 iso_8859-3 ",
    "iso_8859-3:1988 iso_8859-4 iso_8859-4:1988 iso_8859-5 iso_8859-5:1988 iso_8859-6 iso_8859-6-e ",
    "iso_8859-6-i iso_8859-6:1987 iso_8859-7 iso_8859-7:1987 iso_8859-8 iso_8859-8-e iso_8859-8-i ",
    "iso_8859-8:1988 koi8-r koi8-u l10 l2 l3 l4 l6 l8 latin-9 latin10 latin2 latin3 latin4 latin6 ",
    "latin8 mac macintosh ms936 ms_kanji pc-multilingual-850+euro shift_jis windows-1250 ",
    "windows-1251 windows-1253 windows-1254 windows-1255 windows-1256 windows-1257 windows-1258 ",
    "windows-874 windows-936"
);

/// Terraform's error for a name x/text does not know.
fn unsupported(name: &str) -> FuncError {
    FuncError::Arg(
        1,
        format!("{} is not a supported IANA encoding name or alias in this Terraform version", go_quote(name)),
    )
}

fn lookup(name: &str) -> Result<(Enc, &'static str), FuncError> {
    // ianaindex trims spaces and lower-cases (Go's Unicode ToLower).
    let key = name.trim().to_lowercase();
    for (iana, aliases, enc) in KNOWN {
        if iana.eq_ignore_ascii_case(&key) || aliases.contains(&key.as_str()) {
            return Ok((*enc, iana));
        }
    }
    if MISSING.split(' ').any(|m| m == key) {
        return Err(FuncError::Arg(
            1,
            format!("the {} encoding is not available in tfgraph (Terraform has it)", name.trim()),
        ));
    }
    Err(unsupported(name))
}

/// ISO-8859-9 (ICU's iso-8859_9-1999, as x/text has it): ISO-8859-1 but for these six bytes.
const LATIN5: [(u8, char); 6] = [(0xD0, 'Ğ'), (0xDD, 'İ'), (0xDE, 'Ş'), (0xF0, 'ğ'), (0xFD, 'ı'), (0xFE, 'ş')];

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
        Enc::Latin5 => s
            .chars()
            .map(|c| match LATIN5.iter().find(|&&(_, t)| t == c) {
                Some(&(b, _)) => Some(b),
                None if LATIN5.iter().any(|&(b, _)| b as u32 == c as u32) => None,
                None => u8::try_from(c as u32).ok(),
            })
            .collect(),
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
        Enc::Latin5 => {
            Some(b.iter().map(|&x| LATIN5.iter().find(|&&(y, _)| y == x).map_or(x as char, |&(_, c)| c)).collect())
        }
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
