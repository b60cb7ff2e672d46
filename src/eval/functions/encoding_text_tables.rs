//! The encodings of x/text that need tables (49 of the 57 Terraform accepts: the ISO-8859, IBM,
//! windows, KOI8 and macintosh code pages, Shift_JIS, EUC-JP, ISO-2022-JP, EUC-KR, GBK, GB18030,
//! HZ-GB-2312, Big5), read from the package's data file `tfgraph_encodings.bin` rather than
//! compiled into the module: the tables are about 125 KB gzipped, the module's ceiling has 15 KB
//! of room. The file is loaded the first time one of these encodings is used, through the host's
//! [`set_loader`] (the package reads it beside the module; natively it is read from `pkg/`).
//!
//! The file is what x/text itself answers (scripts/gen-encodings runs it over every byte sequence
//! and code point), so the codecs here are generic: each state of a decoder is a table from byte
//! sequences (1 to 3 bytes) to characters; the encoder is the inverse of those tables (the first
//! or the last sequence of a character, as the file says) with the file's exceptions. Code is
//! needed only for ISO-2022-JP's and HZ-GB-2312's shifts and GB18030's four-byte ranges.
//!
//! Layout (LEB128 varints): `TFENC1\n`, the encoding count, then per encoding (in the order of
//! `NAMES` without the built-in ones): the state count, the inverse's rule (0 first, 1 last), per
//! state a reference to an earlier table (1-based) or 0 and the table (entry count; per entry
//! the sequence's difference from the last, doubled, plus one when a second character follows;
//! the character's zig-zag difference from the last; the second character), then the exceptions
//! (count; per character its difference from the last, the length of state and bytes, the state
//! and bytes: none for a character the encoder refuses). Last, GB18030's ranges (count; index and
//! code point of each).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// How the host supplies the data file: its bytes, or why they cannot be read.
pub type Loader = fn() -> Result<Vec<u8>, String>;

static LOADER: Mutex<Option<Loader>> = Mutex::new(None);
static TABLES: OnceLock<Tables> = OnceLock::new();

/// Sets how the data file is read (the package's bindings do, at start).
pub fn set_loader(loader: Loader) {
    *LOADER.lock().unwrap_or_else(|e| e.into_inner()) = Some(loader);
}

#[cfg(not(target_arch = "wasm32"))]
fn default_load() -> Result<Vec<u8>, String> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/pkg/tfgraph_encodings.bin");
    std::fs::read(path).map_err(|e| format!("{path}: {e}"))
}

#[cfg(target_arch = "wasm32")]
fn default_load() -> Result<Vec<u8>, String> {
    Err("no loader was set".into())
}

/// The codec of data-file encoding `index`, loading the file the first time.
pub(super) fn codec(index: usize) -> Result<&'static Codec, String> {
    if TABLES.get().is_none() {
        let load = LOADER.lock().unwrap_or_else(|e| e.into_inner()).unwrap_or(default_load);
        let bytes = load()?;
        let tables = parse(&bytes).ok_or("the file is damaged")?;
        let _ = TABLES.set(tables);
    }
    let tables = TABLES.get().ok_or("not loaded")?;
    tables.codecs.get(index).ok_or_else(|| "the file lacks this encoding".into())
}

struct Tables {
    codecs: Vec<Codec>,
}

/// A sequence of 1 to 3 bytes as a key: its length above its bytes.
fn key(seq: &[u8]) -> u32 {
    seq.iter().fold((seq.len() as u32) << 24, |k, &b| (k & 0xFF00_0000) | ((k & 0xFF_FFFF) << 8) | b as u32)
}

type Table = HashMap<u32, (char, Option<char>)>;

pub(super) struct Codec {
    states: Vec<Arc<Table>>,
    /// Each character's state and bytes.
    encode: HashMap<char, (u8, Vec<u8>)>,
    /// GB18030's four-byte ranges (index, code point), shared by GB18030 only.
    ranges: Option<Arc<Vec<(u32, u32)>>>,
    shift: Shift,
}

#[derive(Clone, Copy, PartialEq)]
enum Shift {
    None,
    Iso2022Jp,
    Hz,
}

struct Reader<'a>(&'a [u8]);

impl Reader<'_> {
    fn u(&mut self) -> Option<u64> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let (&b, rest) = self.0.split_first()?;
            self.0 = rest;
            v |= u64::from(b & 0x7F) << shift;
            if b < 0x80 {
                return Some(v);
            }
        }
        None
    }
    fn i(&mut self) -> Option<i64> {
        let u = self.u()?;
        Some((u >> 1) as i64 ^ -((u & 1) as i64))
    }
    fn bytes(&mut self, n: usize) -> Option<&[u8]> {
        (self.0.len() >= n).then(|| {
            let (a, b) = self.0.split_at(n);
            self.0 = b;
            a
        })
    }
}

fn parse(bytes: &[u8]) -> Option<Tables> {
    let mut r = Reader(bytes.strip_prefix(b"TFENC1\n")?);
    let count = r.u()? as usize;
    let mut seen: Vec<Arc<Table>> = Vec::new();
    let mut codecs = Vec::with_capacity(count);
    let mut gb18030 = None;
    for index in 0..count {
        let n_states = r.u()? as usize;
        let last_wins = r.u()? == 1;
        let mut states = Vec::with_capacity(n_states);
        for _ in 0..n_states {
            let reference = r.u()? as usize;
            if reference > 0 {
                states.push(seen.get(reference - 1)?.clone());
                continue;
            }
            let n = r.u()? as usize;
            let mut table = Table::with_capacity(n);
            let (mut seq, mut ch) = (0u64, 0i64);
            for _ in 0..n {
                let d = r.u()?;
                seq += d >> 1;
                ch += r.i()?;
                let second = if d & 1 == 1 { Some(char::from_u32(r.u()? as u32)?) } else { None };
                table.insert(seq as u32, (char::from_u32(ch as u32)?, second));
            }
            let table = Arc::new(table);
            seen.push(table.clone());
            states.push(table);
        }
        // The inverse, in the order the file wrote the tables (by state, then by sequence).
        let mut encode = HashMap::new();
        for (s, table) in states.iter().enumerate() {
            let mut entries: Vec<_> = table.iter().filter(|(_, v)| v.1.is_none()).collect();
            entries.sort_by_key(|(k, _)| **k);
            for (&k, &(c, _)) in entries {
                if last_wins || !encode.contains_key(&c) {
                    encode.insert(c, (s as u8, seq_bytes(k)));
                }
            }
        }
        let mut ch = 0u64;
        for _ in 0..r.u()? {
            ch += r.u()?;
            let c = char::from_u32(ch as u32)?;
            match r.u()? as usize {
                0 => {
                    encode.remove(&c);
                }
                len => {
                    let b = r.bytes(len)?;
                    encode.insert(c, (b[0], b[1..].to_vec()));
                }
            }
        }
        let shift = match super::encoding_text::table_name(index) {
            "ISO-2022-JP" => Shift::Iso2022Jp,
            "HZ-GB-2312" => Shift::Hz,
            "GB18030" => {
                gb18030 = Some(index);
                Shift::None
            }
            _ => Shift::None,
        };
        codecs.push(Codec { states, encode, ranges: None, shift });
    }
    let mut ranges = Vec::new();
    for _ in 0..r.u()? {
        ranges.push((r.u()? as u32, r.u()? as u32));
    }
    if let Some(i) = gb18030 {
        codecs[i].ranges = Some(Arc::new(ranges));
    }
    Some(Tables { codecs })
}

fn seq_bytes(k: u32) -> Vec<u8> {
    let len = (k >> 24) as usize;
    (0..len).map(|i| (k >> (8 * (len - 1 - i))) as u8).collect()
}

/// GB18030's four-byte index 189000 is U+10000; the supplementary planes follow linearly.
const GB18030_SUPPLEMENTARY: u32 = 189000;
/// Indexes below this go through the ranges.
const GB18030_BMP_END: u32 = 39420;

impl Codec {
    /// x/text's encoder over the whole text: `None` when a character has no bytes here.
    pub(super) fn encode(&self, s: &str) -> Option<Vec<u8>> {
        let mut out = Vec::with_capacity(s.len());
        let mut state = 0u8;
        for c in s.chars() {
            if self.shift == Shift::Hz && c == '~' {
                out.extend_from_slice(b"~~"); // in either state, and the state stays
                continue;
            }
            let Some((s, bytes)) = self.encode.get(&c) else {
                out.extend_from_slice(&self.four_bytes(c)?);
                continue;
            };
            if *s != state {
                out.extend_from_slice(match (self.shift, *s) {
                    (Shift::Hz, 0) => b"~}",
                    (Shift::Hz, _) => b"~{",
                    (_, 0) => b"\x1b(B",
                    (_, 1) => b"\x1b(I",
                    _ => b"\x1b$B",
                });
                state = *s;
            }
            out.extend_from_slice(bytes);
        }
        if self.shift == Shift::Iso2022Jp && state != 0 {
            out.extend_from_slice(b"\x1b(B");
        }
        Some(out)
    }

    fn four_bytes(&self, c: char) -> Option<[u8; 4]> {
        let ranges = self.ranges.as_ref()?;
        let c = c as u32;
        let mut i = if c < 0x10000 {
            let at = ranges.partition_point(|&(_, cp)| cp <= c).checked_sub(1)?;
            c - ranges[at].1 + ranges[at].0
        } else {
            c - 0x10000 + GB18030_SUPPLEMENTARY
        };
        let mut b = [0u8; 4];
        b[3] = (i % 10) as u8 + 0x30;
        i /= 10;
        b[2] = (i % 126) as u8 + 0x81;
        i /= 126;
        b[1] = (i % 10) as u8 + 0x30;
        b[0] = (i / 10) as u8 + 0x81;
        Some(b)
    }

    /// x/text's decoder: `None` where it would write U+FFFD.
    pub(super) fn decode(&self, b: &[u8]) -> Option<String> {
        let mut out = String::with_capacity(b.len());
        let mut state = 0usize;
        let mut i = 0;
        let look = |state: usize, seq: &[u8], out: &mut String| -> bool {
            match self.states[state].get(&key(seq)) {
                Some(&(c, second)) => {
                    out.push(c);
                    out.extend(second);
                    true
                }
                None => false,
            }
        };
        while i < b.len() {
            let c0 = b[i];
            match self.shift {
                Shift::Iso2022Jp => {
                    if c0 == 0x1b {
                        let next = b.get(i + 1..i + 3)?;
                        let (to, len) = match next {
                            b"$@" | b"$B" => (2, 3),
                            b"$(" if b.get(i + 3)? == &b'D' => (3, 4),
                            b"(B" | b"(J" => (0, 3),
                            b"(I" => (1, 3),
                            _ => return None,
                        };
                        state = to;
                        i += len;
                        continue;
                    }
                    if c0 >= 0x80 {
                        return None;
                    }
                    if state >= 2 && c0 == b'\n' {
                        state = 0;
                    } else if state >= 2 {
                        let seq = b.get(i..i + 2)?;
                        if !look(state, seq, &mut out) {
                            return None;
                        }
                        i += 2;
                        continue;
                    }
                    if !look(state, &[c0], &mut out) {
                        return None;
                    }
                    i += 1;
                }
                Shift::Hz => {
                    if c0 == b'~' {
                        match b.get(i + 1)? {
                            b'{' => state = 1,
                            b'}' => state = 0,
                            b'~' => out.push('~'),
                            b'\n' => {}
                            _ => return None,
                        }
                        i += 2;
                    } else if c0 >= 0x80 {
                        return None;
                    } else if state == 0 {
                        out.push(c0 as char);
                        i += 1;
                    } else {
                        if !look(1, b.get(i..i + 2)?, &mut out) {
                            return None;
                        }
                        i += 2;
                    }
                }
                Shift::None => {
                    let len = (1..=3).find(|&n| b.get(i..i + n).is_some_and(|seq| look(0, seq, &mut out)));
                    match len {
                        Some(n) => i += n,
                        None => {
                            out.push(self.four_byte_char(b.get(i..i + 4)?)?);
                            i += 4;
                        }
                    }
                }
            }
        }
        Some(out)
    }

    fn four_byte_char(&self, b: &[u8]) -> Option<char> {
        let ranges = self.ranges.as_ref()?;
        let ok = (0x81..0xFF).contains(&b[0])
            && (0x30..0x3A).contains(&b[1])
            && (0x81..0xFF).contains(&b[2])
            && (0x30..0x3A).contains(&b[3]);
        if !ok {
            return None;
        }
        let i = ((u32::from(b[0] - 0x81) * 10 + u32::from(b[1] - 0x30)) * 126 + u32::from(b[2] - 0x81)) * 10
            + u32::from(b[3] - 0x30);
        let c = if i < GB18030_BMP_END {
            let at = ranges.partition_point(|&(idx, _)| idx <= i).checked_sub(1)?;
            i - ranges[at].0 + ranges[at].1
        } else {
            i.checked_sub(GB18030_SUPPLEMENTARY)? + 0x10000
        };
        char::from_u32(c).filter(|&c| c != '\u{fffd}')
    }
}
