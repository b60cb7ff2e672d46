//! A compact encoding of a serializable value for JavaScript, decoded by `pkg/index.js`.
//!
//! `loadConfig` used to return its result as JSON text for `JSON.parse`. For the generated
//! 10k-resource configuration that is 20.6 MB, and `JSON.parse` alone took more time than the
//! JSON writer: it scans every byte and makes a new string for each of ~400k string values,
//! of which ~40k differ. The tape carries the same value as
//!
//! - `words`: one `u32` per scalar, array, object or string: a 4-bit tag and a 28-bit payload
//!   (a larger payload is all ones, followed by a word holding it);
//! - `text`: the characters of every string written inline, one after the other (the decoder
//!   slices them off in order, so lengths are counted in UTF-16 code units);
//! - `shapes`: the key lists of the objects, as JSON (`[["line","column","byte"], ...]`): an
//!   object is its shape's index followed by its values, in key order.
//!
//! Short strings are written once and then referred to by index, so the decoder makes each
//! distinct filename, kind or subject once. The tape is produced through `serde` from the same
//! derived `Serialize` as the JSON, so it carries exactly the JSON's keys, renames and skipped
//! fields; `tests/js/tape.test.mjs` checks that decoding it gives what `JSON.parse` of the JSON
//! gives. One exception, for speed: the encoder is not human-readable, and `diag::SourceRange`
//! comes to it as a tuple struct (`diag::RANGE_TUPLE`) that it writes as the range's objects.

use serde::ser::{self, Serialize};
use std::fmt;

/// Tags: the high four bits of a word. Keep in step with `decodeTape` in `pkg/index.js`.
const NUM: u32 = 0; // a non-negative integer below 2^32: the payload
const STR: u32 = 1; // a string of `payload` UTF-16 code units from `text`
const ARR: u32 = 2; // an array of `payload` values
const OBJ: u32 = 3; // an object of shape `payload`, then its values
const NULL: u32 = 4;
const FALSE: u32 = 5;
const TRUE: u32 = 6;
const STR_AGAIN: u32 = 7; // the `payload`-th string written with STR_KEEP
const STR_KEEP: u32 = 8; // as STR, and numbered for STR_AGAIN
const MAP: u32 = 9; // an object with keys known only at run time: `payload` (key, value) pairs
const F64: u32 = 10; // any other number: the next two words, low then high, of its f64 bits

const PAYLOAD: u32 = (1 << 28) - 1;

/// Strings up to this many bytes are numbered and written once (filenames, kinds, subjects,
/// attribute names); longer ones (expression sources) rarely repeat.
const KEEP_MAX: usize = 48;

/// The encoded value: see the module documentation.
pub struct Tape {
    pub words: Vec<u32>,
    pub text: String,
    pub shapes: String,
    /// `shapes` before it became JSON, for [`to_json`].
    keys: Vec<Vec<&'static str>>,
}

/// Encode `value`. Fails only for what JSON cannot hold either (a non-string map key).
pub fn encode<T: Serialize + ?Sized>(value: &T) -> Result<Tape, Error> {
    let mut e = Encoder::default();
    e.kept.slots = vec![0; 1 << 12];
    value.serialize(&mut e)?;
    let shapes = serde_json::to_string(&e.shapes).map_err(|err| Error(err.to_string()))?;
    Ok(Tape { words: e.words, text: e.text, shapes, keys: e.shapes })
}

/// The tape as the JSON text `serde_json::to_string` writes for the encoded value (numbers
/// aside: an integral one is written without a fraction, as JavaScript prints it). It is what
/// `loadConfigRaw` returns, so that the package carries one serialization of the configuration
/// model, the tape's, instead of a second serde_json one (16 KB of code before wasm-opt:
/// bench/RESULTS.md, `loadspeed`); `tests/corpus.rs` checks this text against serde_json's
/// natively, and `tests/js/tape.test.mjs` the JavaScript decoder against this text.
pub fn to_json(tape: &Tape) -> String {
    let mut w = JsonWriter { tape, at: 0, text: &tape.text, kept: Vec::new(), out: Vec::new() };
    w.value();
    String::from_utf8(w.out).unwrap_or_default()
}

/// [`to_json`]'s reader: the decoder of `pkg/index.js`, writing JSON instead of objects.
struct JsonWriter<'t> {
    tape: &'t Tape,
    at: usize,
    /// The text not read yet.
    text: &'t str,
    kept: Vec<&'t str>,
    out: Vec<u8>,
}

impl<'t> JsonWriter<'t> {
    fn next(&mut self) -> u32 {
        let word = self.tape.words.get(self.at).copied().unwrap_or(NULL << 28);
        self.at += 1;
        word
    }

    /// The next `units` UTF-16 code units of the text.
    fn take(&mut self, units: usize) -> &'t str {
        let (mut counted, mut bytes) = (0, 0);
        for c in self.text.chars() {
            if counted >= units {
                break;
            }
            counted += c.len_utf16();
            bytes += c.len_utf8();
        }
        let (s, rest) = self.text.split_at(bytes);
        self.text = rest;
        s
    }

    fn string(&mut self, s: &str) {
        let _ = serde_json::to_writer(&mut self.out, s);
    }

    fn list(&mut self, open: u8, close: u8, n: usize, mut item: impl FnMut(&mut Self, usize)) {
        self.out.push(open);
        for i in 0..n {
            if i > 0 {
                self.out.push(b',');
            }
            item(self, i);
        }
        self.out.push(close);
    }

    fn value(&mut self) {
        let word = self.next();
        let mut p = (word & PAYLOAD) as usize;
        if p == PAYLOAD as usize {
            p = self.next() as usize;
        }
        match word >> 28 {
            NUM => self.out.extend_from_slice(p.to_string().as_bytes()),
            STR | STR_KEEP => {
                let s = self.take(p);
                if word >> 28 == STR_KEEP {
                    self.kept.push(s);
                }
                self.string(s);
            }
            STR_AGAIN => self.string(self.kept.get(p).copied().unwrap_or_default()),
            ARR => self.list(b'[', b']', p, |w, _| w.value()),
            OBJ => {
                let keys = self.tape.keys.get(p).map_or(&[][..], Vec::as_slice);
                self.list(b'{', b'}', keys.len(), |w, i| {
                    w.string(keys[i]);
                    w.out.push(b':');
                    w.value();
                });
            }
            MAP => self.list(b'{', b'}', p, |w, _| {
                w.value();
                w.out.push(b':');
                w.value();
            }),
            FALSE => self.out.extend_from_slice(b"false"),
            TRUE => self.out.extend_from_slice(b"true"),
            F64 => {
                let (lo, hi) = (self.next(), self.next());
                let n = f64::from_bits(u64::from(hi) << 32 | u64::from(lo));
                if n.fract() == 0.0 && n.abs() < 9.0e15 {
                    self.out.extend_from_slice((n as i64).to_string().as_bytes());
                } else {
                    let _ = serde_json::to_writer(&mut self.out, &n);
                }
            }
            _ => self.out.extend_from_slice(b"null"),
        }
    }
}

/// The crate's fast hasher: the strings hashed here are short and come from the caller's own files.
type FxMap<K, V> = crate::util::FastMap<K, V>;

struct Encoder {
    words: Vec<u32>,
    text: String,
    /// Every shape: the keys of one kind of object, in order.
    shapes: Vec<Vec<&'static str>>,
    /// Shapes already seen for a struct name (by its address): usually one.
    shapes_of: FxMap<usize, Vec<u32>>,
    /// Keys of the objects being written, innermost last.
    keys: Vec<&'static str>,
    /// Numbered strings: text → number.
    kept: Kept,
    /// The shape last used per struct name, by the name's address (a small direct-mapped cache
    /// in front of `shapes_of`: `(address, shape)`).
    last_shape: [(usize, u32); 64],
    /// The shapes of `Pos` and `SourceRange` once a range was written (`range_shapes`).
    range_shapes: Option<(u32, u32)>,
    /// The next string is a `serde_json::Number`'s text, to be written as the number.
    number_text: bool,
}

impl Default for Encoder {
    fn default() -> Self {
        Encoder {
            words: Vec::new(),
            text: String::new(),
            shapes: Vec::new(),
            shapes_of: FxMap::default(),
            keys: Vec::new(),
            kept: Kept::default(),
            last_shape: [(0, 0); 64],
            range_shapes: None,
            number_text: false,
        }
    }
}

/// The numbered strings, looked up by content without a copy of each: an open-addressing table
/// of numbers whose strings are spans of the encoder's `text`, where they were written.
/// (A `HashMap<Box<str>, u32>` allocated a box per new string and hashed each new one twice.)
#[derive(Default)]
struct Kept {
    /// Number + 1 per slot, 0 for empty; the length is a power of two, at most half full.
    slots: Vec<u32>,
    /// Per number: start and length in `text`, bytes, and the full hash.
    spans: Vec<(u32, u32, u32)>,
}

impl Kept {
    #[inline]
    fn hash(s: &[u8]) -> u32 {
        let word = |b: &[u8]| u64::from_le_bytes(b.try_into().expect("8 bytes"));
        let half = |b: &[u8]| u64::from(u32::from_le_bytes(b.try_into().expect("4 bytes")));
        let mut h: u64 = s.len() as u64;
        let n = s.len();
        // The tail as one word: the last 8 bytes (overlapping the chunks before), or two
        // overlapping halves, instead of a byte loop (most numbered strings are short).
        let last = if n >= 8 {
            let mut chunks = s[..n - 1].chunks_exact(8);
            for c in &mut chunks {
                h = (h ^ word(c)).wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(26);
            }
            word(&s[n - 8..])
        } else if n >= 4 {
            half(&s[..4]) | half(&s[n - 4..]) << 32
        } else {
            s.iter().enumerate().fold(0, |a, (i, &b)| a | u64::from(b) << (8 * i))
        };
        h = (h ^ last).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (h ^ (h >> 29) ^ (h >> 47)) as u32
    }

    /// The number of `s`, or where it goes: `Err((hash, slot))`.
    #[inline]
    fn find(&self, text: &str, s: &str) -> Result<u32, (u32, usize)> {
        let hash = Kept::hash(s.as_bytes());
        let mask = self.slots.len() - 1;
        let mut i = hash as usize & mask;
        loop {
            let n = self.slots[i];
            if n == 0 {
                return Err((hash, i));
            }
            let (start, len, h) = self.spans[n as usize - 1];
            if h == hash
                && len as usize == s.len()
                && &text.as_bytes()[start as usize..(start + len) as usize] == s.as_bytes()
            {
                return Ok(n - 1);
            }
            i = (i + 1) & mask;
        }
    }

    /// Numbers the string just written at `text[start..start + len]`, whose slot `find` gave.
    fn add(&mut self, (hash, slot): (u32, usize), start: usize, len: usize) -> u32 {
        let n = self.spans.len() as u32;
        self.spans.push((start as u32, len as u32, hash));
        self.slots[slot] = n + 1;
        if self.spans.len() * 2 > self.slots.len() {
            let size = self.slots.len() * 2;
            let mask = size - 1;
            let mut slots = vec![0u32; size];
            for (k, &(_, _, h)) in self.spans.iter().enumerate() {
                let mut i = h as usize & mask;
                while slots[i] != 0 {
                    i = (i + 1) & mask;
                }
                slots[i] = k as u32 + 1;
            }
            self.slots = slots;
        }
        n
    }
}

impl Encoder {
    #[inline]
    fn word(&mut self, tag: u32, payload: usize) {
        if payload < PAYLOAD as usize {
            self.words.push(tag << 28 | payload as u32);
        } else {
            self.words.push(tag << 28 | PAYLOAD);
            self.words.push(payload as u32);
        }
    }

    fn string(&mut self, s: &str) {
        if s.len() <= KEEP_MAX {
            match self.kept.find(&self.text, s) {
                Ok(n) => self.word(STR_AGAIN, n as usize),
                Err(at) => {
                    self.kept.add(at, self.text.len(), s.len());
                    self.text.push_str(s);
                    self.word(STR_KEEP, utf16_len(s));
                }
            }
        } else {
            self.text.push_str(s);
            self.word(STR, utf16_len(s));
        }
    }

    fn number(&mut self, n: f64) {
        if n >= 0.0 && n <= f64::from(u32::MAX) && n.fract() == 0.0 {
            self.word(NUM, n as usize);
        } else {
            let bits = n.to_bits();
            self.words.push(F64 << 28);
            self.words.extend([bits as u32, (bits >> 32) as u32]);
        }
    }

    /// Start an object: its shape's word is written when its keys are known, at `end`.
    fn begin_object(&mut self) -> (usize, usize) {
        self.words.push(OBJ << 28);
        (self.words.len() - 1, self.keys.len())
    }

    fn end_object(&mut self, name: &'static str, (at, first_key): (usize, usize)) {
        let id = self.shape_of(name, first_key);
        // Shapes are few (one or two per struct), far below the payload's limit.
        self.words[at] = OBJ << 28 | id.min(PAYLOAD - 1);
        self.keys.truncate(first_key);
    }

    /// The shape of struct `name` whose keys are `keys[first_key..]`, numbered when new.
    fn shape_of(&mut self, name: &'static str, first_key: usize) -> u32 {
        let keys = &self.keys[first_key..];
        let same = |shape: &Vec<&'static str>| {
            shape.len() == keys.len() && shape.iter().zip(keys).all(|(a, b)| std::ptr::eq(*a, *b) || a == b)
        };
        let addr = name.as_ptr() as usize;
        let cache = (addr >> 3) % self.last_shape.len();
        let (cached_addr, cached) = self.last_shape[cache];
        let known = if cached_addr == addr && same(&self.shapes[cached as usize]) {
            Some(cached)
        } else {
            self.shapes_of.get(&addr).and_then(|ids| ids.iter().copied().find(|&id| same(&self.shapes[id as usize])))
        };
        let id = match known {
            Some(id) => id,
            None => {
                let id = self.shapes.len() as u32;
                self.shapes.push(keys.to_vec());
                self.shapes_of.entry(name.as_ptr() as usize).or_default().push(id);
                id
            }
        };
        self.last_shape[cache] = (addr, id);
        id
    }

    /// The shapes of `Pos` and `SourceRange` (`diag::RANGE_TUPLE`), numbered at the first range
    /// as serde's field by field order numbers them: the start's `Pos`, then the range.
    fn range_shapes(&mut self) -> (u32, u32) {
        if let Some(ids) = self.range_shapes {
            return ids;
        }
        let first = self.keys.len();
        self.keys.extend(["line", "column", "byte"]);
        let pos = self.shape_of(crate::diag::POS_NAME, first);
        self.keys.truncate(first);
        self.keys.extend(["filename", "start", "end"]);
        let range = self.shape_of(crate::diag::RANGE_NAME, first);
        self.keys.truncate(first);
        let ids = (pos.min(PAYLOAD - 1), range.min(PAYLOAD - 1));
        self.range_shapes = Some(ids);
        ids
    }
}

/// The length of `s` in UTF-16 code units, as JavaScript counts string lengths.
fn utf16_len(s: &str) -> usize {
    if s.is_ascii() {
        s.len()
    } else {
        s.chars().map(char::len_utf16).sum()
    }
}

/// Why a value could not be encoded.
#[derive(Debug)]
pub struct Error(String);

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

impl ser::Error for Error {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Error(msg.to_string())
    }
}

/// A sequence whose length was not given up front: its word is patched at the end.
pub struct Seq<'a> {
    e: &'a mut Encoder,
    at: usize,
    count: usize,
    /// A `SourceRange` (`diag::RANGE_TUPLE`): the shape of its two `Pos` objects, whose words
    /// go before the second and fifth fields.
    range_pos: Option<u32>,
}

pub struct Struct<'a> {
    e: &'a mut Encoder,
    name: &'static str,
    start: (usize, usize),
    /// The shape this struct had last time (`NO_SHAPE` if none, or once a key differed), and
    /// how many of its keys the fields so far matched: while they match, no key is pushed and
    /// `end` compares nothing. Most objects of a struct have the same keys as the one before.
    predicted: u32,
    matched: u32,
}

const NO_SHAPE: u32 = u32::MAX;

impl Struct<'_> {
    /// The next field's key. Not generic and not inlined: `serialize_field` has a copy per field
    /// type, and this body in each was 3 KB of the gzipped module.
    #[inline(never)]
    fn key(&mut self, key: &'static str) {
        if self.predicted == NO_SHAPE {
            self.e.keys.push(key);
            return;
        }
        let e = &mut *self.e;
        let shape = &e.shapes[self.predicted as usize];
        match shape.get(self.matched as usize) {
            Some(k) if std::ptr::eq(*k, key) || *k == key => self.matched += 1,
            _ => {
                // Another shape: the keys so far become real, and end_object finds it.
                e.keys.extend_from_slice(&shape[..self.matched as usize]);
                e.keys.push(key);
                self.predicted = NO_SHAPE;
            }
        }
    }
}

/// A map: (key, value) pairs, counted and patched at the end.
pub struct Map<'a> {
    seq: Seq<'a>,
}

impl<'a> Seq<'a> {
    fn new(e: &'a mut Encoder, tag: u32) -> Self {
        // Always the two-word form, so any count fits when patched.
        e.words.extend([tag << 28 | PAYLOAD, 0]);
        let at = e.words.len() - 1;
        Seq { e, at, count: 0, range_pos: None }
    }

    fn finish(self) {
        self.e.words[self.at] = self.count as u32;
    }
}

impl<'a> ser::Serializer for &'a mut Encoder {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Seq<'a>;
    type SerializeTuple = Seq<'a>;
    type SerializeTupleStruct = Seq<'a>;
    type SerializeTupleVariant = Seq<'a>;
    type SerializeMap = Map<'a>;
    type SerializeStruct = Struct<'a>;
    type SerializeStructVariant = Struct<'a>;

    fn serialize_bool(self, v: bool) -> Result<(), Error> {
        self.words.push(if v { TRUE } else { FALSE } << 28);
        Ok(())
    }

    fn serialize_i8(self, v: i8) -> Result<(), Error> {
        self.serialize_i64(i64::from(v))
    }

    fn serialize_i16(self, v: i16) -> Result<(), Error> {
        self.serialize_i64(i64::from(v))
    }

    fn serialize_i32(self, v: i32) -> Result<(), Error> {
        self.serialize_i64(i64::from(v))
    }

    fn serialize_i64(self, v: i64) -> Result<(), Error> {
        self.number(v as f64);
        Ok(())
    }

    fn serialize_u8(self, v: u8) -> Result<(), Error> {
        self.serialize_u32(u32::from(v))
    }

    fn serialize_u16(self, v: u16) -> Result<(), Error> {
        self.serialize_u32(u32::from(v))
    }

    fn serialize_u32(self, v: u32) -> Result<(), Error> {
        self.word(NUM, v as usize);
        Ok(())
    }

    fn serialize_u64(self, v: u64) -> Result<(), Error> {
        self.number(v as f64);
        Ok(())
    }

    fn serialize_f32(self, v: f32) -> Result<(), Error> {
        self.serialize_f64(f64::from(v))
    }

    fn serialize_f64(self, v: f64) -> Result<(), Error> {
        // JSON has no NaN or infinities: serde_json writes null.
        if v.is_finite() {
            self.number(v);
        } else {
            self.words.push(NULL << 28);
        }
        Ok(())
    }

    fn serialize_char(self, v: char) -> Result<(), Error> {
        self.string(v.encode_utf8(&mut [0; 4]));
        Ok(())
    }

    fn serialize_str(self, v: &str) -> Result<(), Error> {
        if self.number_text {
            self.number_text = false;
            return ser::Serializer::serialize_f64(self, v.parse::<f64>().unwrap_or(f64::NAN));
        }
        self.string(v);
        Ok(())
    }

    /// `Display` values (subjects): written straight into `text`, then numbered like any string.
    fn collect_str<T: fmt::Display + ?Sized>(self, value: &T) -> Result<(), Error> {
        let start = self.text.len();
        fmt::write(&mut self.text, format_args!("{value}")).map_err(|e| Error(e.to_string()))?;
        if self.text.len() - start <= KEEP_MAX {
            let (written, s) = self.text.split_at(start);
            match self.kept.find(written, s) {
                Ok(n) => {
                    self.text.truncate(start);
                    self.word(STR_AGAIN, n as usize);
                }
                Err(at) => {
                    let len = utf16_len(s);
                    let bytes = s.len();
                    self.kept.add(at, start, bytes);
                    self.word(STR_KEEP, len);
                }
            }
        } else {
            let len = utf16_len(&self.text[start..]);
            self.word(STR, len);
        }
        Ok(())
    }

    fn serialize_bytes(self, v: &[u8]) -> Result<(), Error> {
        use ser::SerializeSeq;
        let mut seq = self.serialize_seq(Some(v.len()))?;
        for b in v {
            seq.serialize_element(b)?;
        }
        seq.end()
    }

    fn serialize_none(self) -> Result<(), Error> {
        self.words.push(NULL << 28);
        Ok(())
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), Error> {
        value.serialize(self)
    }

    fn serialize_unit(self) -> Result<(), Error> {
        self.serialize_none()
    }

    fn serialize_unit_struct(self, _: &'static str) -> Result<(), Error> {
        self.serialize_none()
    }

    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> Result<(), Error> {
        self.serialize_str(variant)
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, value: &T) -> Result<(), Error> {
        value.serialize(self)
    }

    /// `{"variant": value}`, as serde_json writes an externally tagged variant.
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        let start = self.begin_object();
        self.keys.push(variant);
        value.serialize(&mut *self)?;
        self.end_object(variant, start);
        Ok(())
    }

    fn serialize_seq(self, len: Option<usize>) -> Result<Seq<'a>, Error> {
        match len {
            Some(n) => {
                self.word(ARR, n);
                // A known length needs no patching: `at` points at a scratch word.
                Ok(Seq { at: usize::MAX, e: self, count: 0, range_pos: None })
            }
            None => Ok(Seq::new(self, ARR)),
        }
    }

    fn serialize_tuple(self, len: usize) -> Result<Seq<'a>, Error> {
        self.serialize_seq(Some(len))
    }

    fn serialize_tuple_struct(self, name: &'static str, len: usize) -> Result<Seq<'a>, Error> {
        if name == crate::diag::RANGE_TUPLE {
            let (pos, range) = self.range_shapes();
            self.words.push(OBJ << 28 | range);
            return Ok(Seq { at: usize::MAX, e: self, count: 0, range_pos: Some(pos) });
        }
        self.serialize_seq(Some(len))
    }

    /// Not human-readable: `SourceRange` comes as a tuple struct (`diag::RANGE_TUPLE`).
    fn is_human_readable(&self) -> bool {
        false
    }

    fn serialize_tuple_variant(self, _: &'static str, _: u32, _: &'static str, _: usize) -> Result<Seq<'a>, Error> {
        Err(Error("tuple variants are not encoded".into()))
    }

    fn serialize_map(self, _: Option<usize>) -> Result<Map<'a>, Error> {
        Ok(Map { seq: Seq::new(self, MAP) })
    }

    fn serialize_struct(self, name: &'static str, _: usize) -> Result<Struct<'a>, Error> {
        // A `serde_json::Number` (kept as its text: the crate's `arbitrary_precision`) comes as
        // a one-field struct of this name; it is a number, not an object.
        if name == JSON_NUMBER {
            return Ok(Struct { e: self, name, start: (0, 0), predicted: NO_SHAPE, matched: 0 });
        }
        let start = self.begin_object();
        let addr = name.as_ptr() as usize;
        let (cached_addr, cached) = self.last_shape[(addr >> 3) % self.last_shape.len()];
        let predicted = if cached_addr == addr { cached } else { NO_SHAPE };
        Ok(Struct { e: self, name, start, predicted, matched: 0 })
    }

    fn serialize_struct_variant(self, _: &'static str, _: u32, _: &'static str, _: usize) -> Result<Struct<'a>, Error> {
        Err(Error("struct variants are not encoded".into()))
    }
}

impl Seq<'_> {
    fn element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        if let Some(pos) = self.range_pos {
            // filename, then start's and end's line, column, byte: each Pos opens an object.
            if self.count == 1 || self.count == 4 {
                self.e.words.push(OBJ << 28 | pos);
            }
        }
        self.count += 1;
        value.serialize(&mut *self.e)
    }

    fn close(self) -> Result<(), Error> {
        if self.at != usize::MAX {
            self.finish();
        }
        Ok(())
    }
}

impl ser::SerializeSeq for Seq<'_> {
    type Ok = ();
    type Error = Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.element(value)
    }
    fn end(self) -> Result<(), Error> {
        self.close()
    }
}

impl ser::SerializeTuple for Seq<'_> {
    type Ok = ();
    type Error = Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.element(value)
    }
    fn end(self) -> Result<(), Error> {
        self.close()
    }
}

impl ser::SerializeTupleStruct for Seq<'_> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.element(value)
    }
    fn end(self) -> Result<(), Error> {
        self.close()
    }
}

impl ser::SerializeTupleVariant for Seq<'_> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.element(value)
    }
    fn end(self) -> Result<(), Error> {
        self.close()
    }
}

impl ser::SerializeMap for Map<'_> {
    type Ok = ();
    type Error = Error;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Error> {
        self.seq.count += 1;
        key.serialize(MapKey(&mut *self.seq.e))
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        value.serialize(&mut *self.seq.e)
    }
    fn end(self) -> Result<(), Error> {
        self.seq.finish();
        Ok(())
    }
}

/// The struct name serde_json gives a number's text with `arbitrary_precision`.
const JSON_NUMBER: &str = "$serde_json::private::Number";

impl ser::SerializeStruct for Struct<'_> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result<(), Error> {
        if self.name == JSON_NUMBER {
            // JavaScript reads every number as an f64, as JSON.parse would. The field is the
            // number's text, which `serialize_str` writes as that number while `number_text` is
            // set: through the encoder itself, since any other serializer called here (it was
            // `serde_json::to_value`) is instantiated for every field type of every struct, the
            // whole configuration model included (bench/RESULTS.md, `loadspeed`).
            self.e.number_text = true;
            let written = value.serialize(&mut *self.e);
            self.e.number_text = false;
            return written;
        }
        self.key(key);
        value.serialize(&mut *self.e)
    }
    fn end(self) -> Result<(), Error> {
        if self.name == JSON_NUMBER {
            return Ok(());
        }
        if self.predicted != NO_SHAPE {
            let shape = &self.e.shapes[self.predicted as usize];
            if shape.len() == self.matched as usize {
                // The cache already holds this shape for the name.
                self.e.words[self.start.0] = OBJ << 28 | self.predicted.min(PAYLOAD - 1);
                return Ok(());
            }
            self.e.keys.extend_from_slice(&shape[..self.matched as usize]);
        }
        self.e.end_object(self.name, self.start);
        Ok(())
    }
}

impl ser::SerializeStructVariant for Struct<'_> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result<(), Error> {
        self.e.keys.push(key);
        value.serialize(&mut *self.e)
    }
    fn end(self) -> Result<(), Error> {
        self.e.end_object(self.name, self.start);
        Ok(())
    }
}

/// A map key: JSON keys are strings, so strings (and `Display` values) only.
struct MapKey<'a>(&'a mut Encoder);

macro_rules! not_a_key {
    ($($method:ident($($t:ty),*) -> $ret:ty;)*) => {
        $(fn $method(self, $(_: $t),*) -> Result<$ret, Error> {
            Err(Error("map keys must be strings".into()))
        })*
    };
}

impl ser::Serializer for MapKey<'_> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = ser::Impossible<(), Error>;
    type SerializeTuple = ser::Impossible<(), Error>;
    type SerializeTupleStruct = ser::Impossible<(), Error>;
    type SerializeTupleVariant = ser::Impossible<(), Error>;
    type SerializeMap = ser::Impossible<(), Error>;
    type SerializeStruct = ser::Impossible<(), Error>;
    type SerializeStructVariant = ser::Impossible<(), Error>;

    fn serialize_str(self, v: &str) -> Result<(), Error> {
        self.0.string(v);
        Ok(())
    }

    fn collect_str<T: fmt::Display + ?Sized>(self, value: &T) -> Result<(), Error> {
        self.0.string(&value.to_string());
        Ok(())
    }

    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> Result<(), Error> {
        self.serialize_str(variant)
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, value: &T) -> Result<(), Error> {
        value.serialize(self)
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), Error> {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<(), Error> {
        Err(Error("map keys must be strings".into()))
    }

    not_a_key! {
        serialize_bool(bool) -> ();
        serialize_i8(i8) -> ();
        serialize_i16(i16) -> ();
        serialize_i32(i32) -> ();
        serialize_i64(i64) -> ();
        serialize_u8(u8) -> ();
        serialize_u16(u16) -> ();
        serialize_u32(u32) -> ();
        serialize_u64(u64) -> ();
        serialize_f32(f32) -> ();
        serialize_f64(f64) -> ();
        serialize_char(char) -> ();
        serialize_bytes(&[u8]) -> ();
        serialize_none() -> ();
        serialize_unit() -> ();
        serialize_unit_struct(&'static str) -> ();
        serialize_seq(Option<usize>) -> Self::SerializeSeq;
        serialize_tuple(usize) -> Self::SerializeTuple;
        serialize_tuple_struct(&'static str, usize) -> Self::SerializeTupleStruct;
        serialize_tuple_variant(&'static str, u32, &'static str, usize) -> Self::SerializeTupleVariant;
        serialize_map(Option<usize>) -> Self::SerializeMap;
        serialize_struct(&'static str, usize) -> Self::SerializeStruct;
        serialize_struct_variant(&'static str, u32, &'static str, usize) -> Self::SerializeStructVariant;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    /// The decoder of `pkg/index.js`, in Rust, for these tests.
    fn decode(tape: &Tape) -> Value {
        let shapes: Vec<Vec<String>> = serde_json::from_str(&tape.shapes).unwrap();
        let text: Vec<u16> = tape.text.encode_utf16().collect();
        let (mut w, mut t, mut kept) = (0, 0, Vec::<String>::new());
        fn value(
            tape: &Tape,
            shapes: &[Vec<String>],
            text: &[u16],
            w: &mut usize,
            t: &mut usize,
            kept: &mut Vec<String>,
        ) -> Value {
            let word = tape.words[*w];
            *w += 1;
            let mut p = (word & PAYLOAD) as usize;
            if p == PAYLOAD as usize {
                p = tape.words[*w] as usize;
                *w += 1;
            }
            let slice = |t: &mut usize| {
                let s = String::from_utf16(&text[*t..*t + p]).unwrap();
                *t += p;
                s
            };
            match word >> 28 {
                NUM => json!(p),
                STR => Value::String(slice(t)),
                STR_KEEP => {
                    let s = slice(t);
                    kept.push(s.clone());
                    Value::String(s)
                }
                STR_AGAIN => Value::String(kept[p].clone()),
                ARR => Value::Array((0..p).map(|_| value(tape, shapes, text, w, t, kept)).collect()),
                OBJ => Value::Object(
                    shapes[p].iter().map(|k| (k.clone(), value(tape, shapes, text, w, t, kept))).collect(),
                ),
                MAP => Value::Object(
                    (0..p)
                        .map(|_| {
                            let Value::String(k) = value(tape, shapes, text, w, t, kept) else { panic!("map key") };
                            (k, value(tape, shapes, text, w, t, kept))
                        })
                        .collect(),
                ),
                NULL => Value::Null,
                FALSE => json!(false),
                TRUE => json!(true),
                F64 => {
                    let bits = u64::from(tape.words[*w]) | u64::from(tape.words[*w + 1]) << 32;
                    *w += 2;
                    json!(f64::from_bits(bits))
                }
                tag => panic!("bad tag {tag}"),
            }
        }
        let v = value(tape, &shapes, &text, &mut w, &mut t, &mut kept);
        assert_eq!((w, t), (tape.words.len(), text.len()), "the whole tape is read");
        v
    }

    /// `diag::SourceRange`'s tape path writes what serde's derive wrote field by field: the
    /// same words, text and shapes as this twin of it (the derive the type had before).
    #[test]
    fn ranges_are_written_as_the_derive_wrote_them() {
        use crate::diag::{Pos as P, SourceRange};
        #[derive(serde::Serialize)]
        struct TwinPos {
            line: u32,
            column: u32,
            byte: u32,
        }
        #[derive(serde::Serialize)]
        struct Twin<'a> {
            filename: &'a str,
            start: TwinPos,
            end: TwinPos,
        }
        fn twin(r: &SourceRange) -> Twin<'_> {
            Twin {
                filename: &r.filename,
                start: TwinPos { line: r.start.line, column: r.start.column, byte: r.start.byte },
                end: TwinPos { line: r.end.line, column: r.end.column, byte: r.end.byte },
            }
        }
        let at = |line, column, byte| P { line, column, byte };
        let ranges = vec![
            SourceRange { filename: "main.tf".into(), start: at(1, 2, 1), end: at(1, 9, 8) },
            SourceRange { filename: "é/main.tf".into(), start: at(3, 1, 40), end: at(u32::MAX, PAYLOAD, 7) },
            SourceRange { filename: "main.tf".into(), start: at(0, 0, 0), end: at(0, 0, 0) },
        ];
        let with_ranges = (&ranges, Some(&ranges[1]), "main.tf");
        let with_twins = (ranges.iter().map(twin).collect::<Vec<_>>(), Some(twin(&ranges[1])), "main.tf");
        let (a, b) = (encode(&with_ranges).unwrap(), encode(&with_twins).unwrap());
        assert_eq!((&a.words, &a.text, &a.shapes), (&b.words, &b.text, &b.shapes));
        assert_eq!(decode(&a), serde_json::to_value(with_ranges).unwrap());
    }

    #[derive(serde::Serialize)]
    struct Pos {
        line: u32,
        column: u32,
        #[serde(skip_serializing_if = "Option::is_none")]
        note: Option<&'static str>,
    }

    #[derive(serde::Serialize)]
    #[serde(rename_all = "lowercase")]
    enum Mode {
        Managed,
    }

    #[derive(serde::Serialize)]
    struct Sample {
        #[serde(rename = "in")]
        context: &'static str,
        mode: Mode,
        positions: Vec<Pos>,
        json: Value,
        big: u64,
        neg: i64,
        float: f64,
        nan: f64,
        empty: Vec<u8>,
        unit: (),
    }

    #[test]
    fn values_round_trip_as_json() {
        let long = "é🦀".repeat(40);
        let sample = Sample {
            context: "ami",
            mode: Mode::Managed,
            positions: vec![
                Pos { line: 1, column: 2, note: None },
                Pos { line: 3, column: 4, note: Some("ami") },
                Pos { line: u32::MAX, column: PAYLOAD, note: None },
            ],
            json: json!({ "a": [1, "x", null, true, {"b": long, "ami": "ami"}], "__proto__": {}, "ünï": "🦀" }),
            big: u64::MAX,
            neg: -3,
            float: 1.5,
            nan: f64::NAN,
            empty: Vec::new(),
            unit: (),
        };
        let tape = encode(&sample).unwrap();
        // JavaScript has one number type: compare numbers as f64, as JSON.parse would read them.
        fn as_js(v: Value) -> Value {
            match v {
                Value::Number(n) => json!(n.as_f64()),
                Value::Array(a) => Value::Array(a.into_iter().map(as_js).collect()),
                Value::Object(o) => Value::Object(o.into_iter().map(|(k, v)| (k, as_js(v))).collect()),
                other => other,
            }
        }
        assert_eq!(as_js(decode(&tape)), as_js(serde_json::to_value(&sample).unwrap()));
        // Skipping a field makes a second shape for the struct; repeated short strings are kept once.
        assert_eq!(tape.shapes.matches("\"line\"").count(), 2);
        assert_eq!(tape.text.matches("ami").count(), 1);
    }

    #[test]
    fn map_keys_must_be_strings() {
        let m: std::collections::BTreeMap<u8, u8> = [(1, 2)].into();
        assert!(encode(&m).is_err());
    }
}
