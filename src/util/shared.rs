//! Shared immutable strings and lists.
//!
//! A graph repeats the same few strings many times: every edge of a reference carries its file
//! name and context (`ami`, `depends_on`), every instance of a resource its address, every
//! node of a module its module path, every consumer of a provider that provider's address; a
//! state repeats its module and provider addresses for every object. Owned `String`s made each
//! repetition an allocation (about half of a build's allocations at 100,000 resources, and as
//! much again to free them). Here they are reference-counted: an interner (the graph build's)
//! hands out one copy per distinct text, and cloning is a counter increment. They read,
//! compare, print and serialize exactly as the strings they stand for.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::borrow::Borrow;
use std::fmt;
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

/// One shared copy of every distinct string handed to it (interior mutability, so readers
/// holding it by shared reference can intern).
#[derive(Default)]
pub struct StrInterner(std::cell::RefCell<crate::util::FastSet<SharedStr>>);

impl StrInterner {
    /// The shared copy of `s`.
    pub fn str(&self, s: &str) -> SharedStr {
        let mut set = self.0.borrow_mut();
        if let Some(x) = set.get(s) {
            return x.clone();
        }
        let x = SharedStr::from(s);
        set.insert(x.clone());
        x
    }
}
