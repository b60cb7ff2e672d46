//! Shared immutable strings and lists, and the interner a build makes them with.
//!
//! A graph repeats the same few strings many times: every edge of a reference carries its file
//! name and context (`ami`, `depends_on`), every instance of a resource its address, every
//! node of a module its module path, every consumer of a provider that provider's address.
//! Owned `String`s made each repetition an allocation (about half of a build's allocations at
//! 100,000 resources, and as much again to free them). Here they are reference-counted: the
//! [`Interner`] of a build hands out one copy per distinct text, and cloning is a counter
//! increment. They read, compare, print and serialize exactly as the strings they stand for.

use crate::addrs::ModulePath;
use crate::diag::{Pos, SourceRange};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::borrow::Borrow;
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::fmt;
use std::hash::{BuildHasherDefault, Hash, Hasher};
use std::ops::Deref;
use std::sync::Arc;

/// An immutable, reference-counted string (`Arc<str>`): clones share one copy.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SharedStr(Arc<str>);

impl SharedStr {
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Whether both are the same copy (a cheaper test than comparing the text).
    pub fn ptr_eq(&self, other: &SharedStr) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }

    /// The address of the shared copy: equal for clones, so usable as a cheap identity key
    /// where equal texts from different copies are told apart some other way.
    pub fn as_ptr(&self) -> *const u8 {
        Arc::as_ptr(&self.0) as *const u8
    }
}

impl Default for SharedStr {
    fn default() -> Self {
        SharedStr(Arc::from(""))
    }
}

impl Deref for SharedStr {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for SharedStr {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl Borrow<str> for SharedStr {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl From<&str> for SharedStr {
    fn from(s: &str) -> Self {
        SharedStr(Arc::from(s))
    }
}

impl From<String> for SharedStr {
    fn from(s: String) -> Self {
        SharedStr(Arc::from(s))
    }
}

impl From<&String> for SharedStr {
    fn from(s: &String) -> Self {
        SharedStr(Arc::from(s.as_str()))
    }
}

impl From<SharedStr> for String {
    fn from(s: SharedStr) -> Self {
        s.0.to_string()
    }
}

impl PartialEq<str> for SharedStr {
    fn eq(&self, other: &str) -> bool {
        &*self.0 == other
    }
}

impl PartialEq<&str> for SharedStr {
    fn eq(&self, other: &&str) -> bool {
        &*self.0 == *other
    }
}

impl PartialEq<String> for SharedStr {
    fn eq(&self, other: &String) -> bool {
        &*self.0 == other.as_str()
    }
}

impl PartialEq<SharedStr> for str {
    fn eq(&self, other: &SharedStr) -> bool {
        self == &*other.0
    }
}

impl PartialEq<SharedStr> for &str {
    fn eq(&self, other: &SharedStr) -> bool {
        *self == &*other.0
    }
}

impl PartialEq<SharedStr> for String {
    fn eq(&self, other: &SharedStr) -> bool {
        self.as_str() == &*other.0
    }
}

impl fmt::Display for SharedStr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&*self.0, f)
    }
}

impl fmt::Debug for SharedStr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.0, f)
    }
}

impl Serialize for SharedStr {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for SharedStr {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(String::deserialize(d)?.into())
    }
}

/// An immutable, reference-counted list (`Arc<[T]>`): clones share one copy. Reads as a slice.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct SharedVec<T>(Arc<[T]>);

impl<T> SharedVec<T> {
    pub fn as_slice(&self) -> &[T] {
        &self.0
    }
}

impl<T> Default for SharedVec<T> {
    fn default() -> Self {
        SharedVec(Arc::from(Vec::new()))
    }
}

impl<T> Deref for SharedVec<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        &self.0
    }
}

impl<T> From<Vec<T>> for SharedVec<T> {
    fn from(v: Vec<T>) -> Self {
        SharedVec(Arc::from(v))
    }
}

impl<T> FromIterator<T> for SharedVec<T> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        SharedVec(iter.into_iter().collect())
    }
}

impl<T: PartialEq<U>, U> PartialEq<[U]> for SharedVec<T> {
    fn eq(&self, other: &[U]) -> bool {
        self.0.len() == other.len() && self.0.iter().zip(other).all(|(a, b)| a == b)
    }
}

impl<T: PartialEq<U>, U, const N: usize> PartialEq<[U; N]> for SharedVec<T> {
    fn eq(&self, other: &[U; N]) -> bool {
        *self == other[..]
    }
}

impl<T: PartialEq<U>, U> PartialEq<Vec<U>> for SharedVec<T> {
    fn eq(&self, other: &Vec<U>) -> bool {
        *self == other[..]
    }
}

impl<T: fmt::Debug> fmt::Debug for SharedVec<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.0, f)
    }
}

impl<T: Serialize> Serialize for SharedVec<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for SharedVec<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(Vec::<T>::deserialize(d)?.into())
    }
}

/// A source range whose file name is shared: the [`SourceRange`] of graph nodes and edge
/// reasons. Serializes, prints (`Debug`) and compares as the [`SourceRange`] it stands for.
#[derive(Clone, PartialEq, Eq, Serialize)]
pub struct Span {
    pub filename: SharedStr,
    pub start: Pos,
    pub end: Pos,
}

impl Span {
    /// The range as diagnostics and the query API carry it.
    pub fn to_source_range(&self) -> SourceRange {
        SourceRange { filename: self.filename.to_string(), start: self.start, end: self.end }
    }
}

impl From<&SourceRange> for Span {
    fn from(r: &SourceRange) -> Self {
        Span { filename: r.filename.as_str().into(), start: r.start, end: r.end }
    }
}

impl From<SourceRange> for Span {
    fn from(r: SourceRange) -> Self {
        Span::from(&r)
    }
}

impl fmt::Debug for Span {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.to_source_range(), f)
    }
}

impl fmt::Display for Span {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.to_source_range(), f)
    }
}

/// FNV-style multiply-xor hashing for the build's own string and id maps: their keys come
/// from the configuration and state being built, not from an adversary, and SipHash costs
/// several times more per key.
#[derive(Default, Clone, Copy)]
pub struct FastHasher(u64);

impl Hasher for FastHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut h = self.0;
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            h = (h ^ u64::from_le_bytes(c.try_into().expect("8 bytes"))).wrapping_mul(0x100_0000_01b3).rotate_left(29);
        }
        for &b in chunks.remainder() {
            h = (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
        }
        self.0 = h;
    }
    fn write_u8(&mut self, i: u8) {
        self.0 = (self.0 ^ u64::from(i)).wrapping_mul(0x100_0000_01b3);
    }
    fn write_u32(&mut self, i: u32) {
        self.0 = (self.0 ^ u64::from(i)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
    fn write_u64(&mut self, i: u64) {
        self.0 = (self.0 ^ i).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
    fn write_usize(&mut self, i: usize) {
        self.write_u64(i as u64);
    }
    fn finish(&self) -> u64 {
        // Fold the high bits down: hash tables index by the low ones.
        self.0 ^ (self.0 >> 32)
    }
}

pub type FastBuild = BuildHasherDefault<FastHasher>;
/// A `HashMap` with [`FastHasher`].
pub type FastMap<K, V> = HashMap<K, V, FastBuild>;
/// A `HashSet` with [`FastHasher`].
pub type FastSet<K> = HashSet<K, FastBuild>;

/// One copy of every distinct string and module path a build hands to nodes and edges.
/// Interior mutability, so transformers can intern through the shared
/// [`BuildContext`](super::transform::BuildContext).
#[derive(Default)]
pub struct Interner {
    strings: RefCell<FastSet<SharedStr>>,
    paths: RefCell<FastMap<ModulePath, Arc<ModulePath>>>,
}

impl Interner {
    /// The shared copy of `s`.
    pub fn str(&self, s: &str) -> SharedStr {
        let mut set = self.strings.borrow_mut();
        if let Some(x) = set.get(s) {
            return x.clone();
        }
        let x = SharedStr::from(s);
        set.insert(x.clone());
        x
    }

    /// The shared copy of `r` with its file name interned.
    pub fn span(&self, r: &SourceRange) -> Span {
        Span { filename: self.str(&r.filename), start: r.start, end: r.end }
    }

    /// The shared copy of a module path.
    pub fn path(&self, p: &ModulePath) -> Arc<ModulePath> {
        let mut map = self.paths.borrow_mut();
        if let Some(x) = map.get(p) {
            return Arc::clone(x);
        }
        let x = Arc::new(p.clone());
        map.insert(p.clone(), Arc::clone(&x));
        x
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shared_strings_read_and_serialize_as_strings() {
        let i = Interner::default();
        let a = i.str("main.tf");
        let b = i.str("main.tf");
        assert!(a.ptr_eq(&b));
        assert_eq!(a, "main.tf");
        assert_eq!(format!("{a:?} {a}"), "\"main.tf\" main.tf");
        assert_eq!(serde_json::to_string(&a).unwrap(), "\"main.tf\"");
        let v: SharedVec<SharedStr> = vec![a.clone(), "x".into()].into();
        assert_eq!(format!("{v:?}"), "[\"main.tf\", \"x\"]");
        assert_eq!(v, ["main.tf", "x"]);
        let p = ModulePath(vec!["a".into()]);
        assert!(Arc::ptr_eq(&i.path(&p), &i.path(&p)));
    }

    #[test]
    fn spans_print_as_source_ranges() {
        let r = SourceRange {
            filename: "main.tf".into(),
            start: Pos { line: 1, column: 2, byte: 1 },
            end: Pos { line: 1, column: 5, byte: 4 },
        };
        let s = Span::from(&r);
        assert_eq!(format!("{s:?}"), format!("{r:?}"));
        assert_eq!(serde_json::to_value(&s).unwrap(), serde_json::to_value(&r).unwrap());
        assert_eq!(s.to_source_range(), r);
    }
}
