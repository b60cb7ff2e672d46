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

use std::sync::OnceLock;

/// How the host supplies the data file: its bytes, or why they cannot be read.
pub type Loader = fn() -> Result<Vec<u8>, String>;

static LOADER: OnceLock<Loader> = OnceLock::new();
static FILE: OnceLock<File> = OnceLock::new();
/// Each encoding's codec, built the first time it is used.
static CODECS: [OnceLock<Codec>; 64] = [const { OnceLock::new() }; 64];

/// Sets how the data file is read (the package's bindings do, as each instance starts).
pub fn set_loader(loader: Loader) {
    let _ = LOADER.set(loader);
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

/// The codec of data-file encoding `index`, reading the file the first time.
pub(super) fn codec(index: usize) -> Result<&'static Codec, String> {
    if FILE.get().is_none() {
        let bytes = LOADER.get().copied().unwrap_or(default_load)()?;
        let _ = FILE.set(File::index(bytes).ok_or("the file is damaged")?);
    }
    let file = FILE.get().ok_or("not loaded")?;
    let slot = CODECS.get(index).ok_or("no such encoding")?;
    if slot.get().is_none() {
        let _ = slot.set(file.codec(index).ok_or("the file is damaged")?);
    }
    slot.get().ok_or_else(|| "not loaded".into())
}

/// The file, and where each part of it starts.
struct File {
    bytes: Vec<u8>,
    /// Per encoding: the inverse's rule, each state's table (by its offset), the exceptions' offset.
    encodings: Vec<(bool, Vec<usize>, usize)>,
    ranges: Vec<(u32, u32)>,
}

/// Where a decode table keeps a sequence: bytes, pairs after them, EUC-JP's 0x8F triples last.
fn slot(seq: u64) -> usize {
    match seq >> 24 {
        1 => (seq & 0xFF) as usize,
        2 => 0x100 + (seq & 0xFFFF) as usize,
        _ => 0x10100 + (seq & 0xFFFF) as usize,
    }
}
const DECODE_SLOTS: usize = 0x20100;
/// Characters an encode table covers (Big5's reach U+2F8xx; GB18030 computes the others).
const ENCODE_CHARS: usize = 0x30000;

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
    /// One table entry: (sequence difference, second character follows, character difference, second).
    fn entry(&mut self) -> Option<(u64, i64, Option<u64>)> {
        let d = self.u()?;
        let ch = self.i()?;
        Some((d >> 1, ch, if d & 1 == 1 { Some(self.u()?) } else { None }))
    }
}

impl File {
    /// Reads the file's layout (the tables are built per encoding, when used).
    fn index(bytes: Vec<u8>) -> Option<File> {
        let body = bytes.strip_prefix(b"TFENC1\n")?;
        let mut r = Reader(body);
        let at = |r: &Reader| bytes.len() - r.0.len();
        let mut tables = Vec::new();
        let mut encodings = Vec::new();
        for _ in 0..r.u()? {
            let states = r.u()?;
            let last_wins = r.u()? == 1;
            let mut own = Vec::new();
            for _ in 0..states {
                match r.u()? as usize {
                    0 => {
                        tables.push(at(&r));
                        own.push(at(&r));
                        for _ in 0..r.u()? {
                            r.entry()?;
                        }
                    }
                    reference => own.push(*tables.get(reference - 1)?),
                }
            }
            encodings.push((last_wins, own, at(&r)));
            for _ in 0..r.u()? {
                r.u()?;
                let len = r.u()? as usize;
                r.0 = r.0.get(len..)?;
            }
        }
        let mut ranges = Vec::new();
        for _ in 0..r.u()? {
            ranges.push((r.u()? as u32, r.u()? as u32));
        }
        Some(File { bytes, encodings, ranges })
    }

    fn codec(&self, index: usize) -> Option<Codec> {
        let (last_wins, states, exceptions) = self.encodings.get(index)?;
        let mut c = Codec {
            decode: Vec::with_capacity(states.len()),
            seconds: Vec::new(),
            encode: vec![0; ENCODE_CHARS],
            ranges: Vec::new(),
            shift: Shift::None,
        };
        for (state, &offset) in states.iter().enumerate() {
            let mut table = vec![0u32; DECODE_SLOTS];
            let mut r = Reader(self.bytes.get(offset..)?);
            let (mut seq, mut ch) = (0u64, 0i64);
            for _ in 0..r.u()? {
                let (d, dc, second) = r.entry()?;
                seq += d;
                ch += dc;
                let first = u32::try_from(ch).ok().filter(|&x| x < 0x110000)?;
                let mut v = first + 1;
                if let Some(s) = second {
                    c.seconds.push(char::from_u32(s as u32)?);
                    v |= (c.seconds.len() as u32) << 21;
                } else if let Some(e) = c.encode.get_mut(first as usize) {
                    // The inverse: the first or the last sequence of each character.
                    if *last_wins || *e == 0 {
                        *e = pack(state as u32, seq);
                    }
                }
                *table.get_mut(slot(seq))? = v;
            }
            c.decode.push(table);
        }
        let mut r = Reader(self.bytes.get(*exceptions..)?);
        let mut ch = 0usize;
        for _ in 0..r.u()? {
            ch += r.u()? as usize;
            let len = r.u()? as usize;
            let b = r.0.get(..len)?;
            r.0 = &r.0[len..];
            let v = match b {
                [] => 0,
                [state, bytes @ ..] => {
                    let seq = bytes.iter().fold(0u64, |s, &x| s << 8 | u64::from(x)) | (bytes.len() as u64) << 24;
                    pack(u32::from(*state), seq)
                }
            };
            if let Some(e) = c.encode.get_mut(ch) {
                *e = v;
            }
        }
        c.shift = match super::encoding_text::table_name(index) {
            "ISO-2022-JP" => Shift::Iso2022Jp,
            "HZ-GB-2312" => Shift::Hz,
            "GB18030" => {
                c.ranges = self.ranges.clone();
                Shift::None
            }
            _ => Shift::None,
        };
        Some(c)
    }
}

/// An encode table's entry: the state (bits 26..28), the length (24..26) and the bytes.
fn pack(state: u32, seq: u64) -> u32 {
    state << 26 | seq as u32
}

pub(super) struct Codec {
    /// Per state: each sequence's character plus one (bits 0..21), and its second character's
    /// index in `seconds` plus one (bits 21..); 0: not a sequence of the encoding.
    decode: Vec<Vec<u32>>,
    seconds: Vec<char>,
    /// Per character: [`pack`]ed state and bytes; 0: the encoder refuses it.
    encode: Vec<u32>,
    /// GB18030's four-byte ranges (index, code point).
    ranges: Vec<(u32, u32)>,
    shift: Shift,
}

#[derive(Clone, Copy, PartialEq)]
enum Shift {
    None,
    Iso2022Jp,
    Hz,
}

/// GB18030's four-byte index 189000 is U+10000; the supplementary planes follow linearly.
const GB18030_SUPPLEMENTARY: u32 = 189000;
/// Indexes below this go through the ranges.
const GB18030_BMP_END: u32 = 39420;

impl Codec {
    /// x/text's encoder over the whole text: `None` when a character has no bytes here.
    pub(super) fn encode(&self, s: &str) -> Option<Vec<u8>> {
        let mut out = Vec::with_capacity(s.len());
        let mut state = 0u32;
        for c in s.chars() {
            if self.shift == Shift::Hz && c == '~' {
                out.extend_from_slice(b"~~"); // in either state, and the state stays
                continue;
            }
            let v = self.encode.get(c as usize).copied().unwrap_or(0);
            if v == 0 {
                out.extend_from_slice(&self.four_bytes(c)?);
                continue;
            }
            let (s, len) = (v >> 26, (v >> 24 & 3) as usize);
            if s != state {
                out.extend_from_slice(match (self.shift, s) {
                    (Shift::Hz, 0) => b"~}",
                    (Shift::Hz, _) => b"~{",
                    (_, 0) => b"\x1b(B",
                    (_, 1) => b"\x1b(I",
                    _ => b"\x1b$B",
                });
                state = s;
            }
            out.extend_from_slice(&v.to_be_bytes()[4 - len..]);
        }
        if self.shift == Shift::Iso2022Jp && state != 0 {
            out.extend_from_slice(b"\x1b(B");
        }
        Some(out)
    }

    /// The sequence's characters, pushed onto `out`; false when it is not one of the encoding's.
    fn lookup(&self, state: usize, seq: &[u8], out: &mut String) -> bool {
        let at = match *seq {
            [a] => usize::from(a),
            [a, b] => 0x100 + (usize::from(a) << 8 | usize::from(b)),
            [0x8F, b, c] => 0x10100 + (usize::from(b) << 8 | usize::from(c)),
            _ => return false,
        };
        let v = self.decode[state][at];
        let Some(first) = (v & 0x1F_FFFF).checked_sub(1).and_then(char::from_u32) else { return false };
        out.push(first);
        if let Some(&second) = (v >> 21).checked_sub(1).and_then(|i| self.seconds.get(i as usize)) {
            out.push(second);
        }
        true
    }

    /// GB18030's four bytes for a character outside its two-byte table (None elsewhere).
    fn four_bytes(&self, c: char) -> Option<[u8; 4]> {
        let ranges = &self.ranges;
        if ranges.is_empty() {
            return None;
        }
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
        let look = |state: usize, seq: &[u8], out: &mut String| self.lookup(state, seq, out);
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
        let ranges = &self.ranges;
        let ok = !ranges.is_empty()
            && (0x81..0xFF).contains(&b[0])
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
