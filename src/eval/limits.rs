//! Limits before exhaustion (issue #26): how much a plan may expand, checked where it expands,
//! as diagnostics with the source range; and the last words a module instance leaves in its
//! memory for the package when it stops anyway (`src/bindings/heap.rs`, `pkg/api.js`).
//!
//! A wasm32 module has 4 GiB of memory. A plan costs about 3 KB per resource instance of the
//! mock provider (bench/limits: 100,000 instances in 320 MB), so about 1.3 million fit; an
//! apply holds the plan, the working state and the new state, about 14 KB per change. The
//! default [`Limits::instances`] (1,000,000) plans what Terraform plans in practice (the
//! corpus, bench/engine's 100,000-resource configurations) and stops a typo such as
//! `count = 100000000` with an error naming the argument instead of running out of memory.
//! Callers who know their configuration raise it (`plan(files, { limits: { instances } })`).
//!
//! The other sizes are bounded where they are made: the parser's nesting depth
//! (`hcl::parser`, "Expression too deeply nested"), templates' result length ("Template
//! result too long"), `format`'s widths, `range`'s 1024 values (Terraform's own limit) and
//! `setproduct`'s product.

use crate::diag::{Diagnostic, SourceRange};
use std::cell::Cell;

/// How far a plan may expand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Resource and data source instances in one plan, all modules together.
    pub instances: usize,
    /// Instances of expanded module calls (count / for_each) in one plan, all levels together.
    pub module_instances: usize,
}

impl Limits {
    pub const DEFAULT: Limits = Limits { instances: 1_000_000, module_instances: 100_000 };
}

impl Default for Limits {
    fn default() -> Self {
        Limits::DEFAULT
    }
}

/// The longest string a function builds (as templates, `expr.rs`): 64 MiB.
pub const MAX_STRING: usize = 64 << 20;

thread_local! {
    static CURRENT: Cell<Limits> = const { Cell::new(Limits::DEFAULT) };
}

/// The limits of the plan running now.
pub fn current() -> Limits {
    CURRENT.with(Cell::get)
}

/// Runs `f` under `limits`.
pub fn with<R>(limits: Limits, f: impl FnOnce() -> R) -> R {
    let was = CURRENT.with(|c| c.replace(limits));
    let out = f();
    CURRENT.with(|c| c.set(was));
    out
}

/// `1,000,000`.
fn grouped(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The error for an expansion of `n` more instances of `address` (its `argument`, `count` or
/// `for_each`, at `range`) when `so_far` are planned already, or `None` within the limit.
pub fn check_instances(
    n: usize,
    so_far: usize,
    address: &str,
    argument: &str,
    range: &SourceRange,
) -> Option<Diagnostic> {
    let limit = current().instances;
    if n.saturating_add(so_far) <= limit {
        return None;
    }
    let before = if so_far > 0 { format!(" after the {} planned before it", grouped(so_far)) } else { String::new() };
    Some(
        Diagnostic::error(
            "Too many instances",
            format!(
                "The \"{argument}\" argument makes {} instances of {address}{before}, more than the {} resource instances one plan may hold (limits.instances). tfgraph runs in a WebAssembly module whose memory ends at 4 GiB, about 1.3 million planned instances; a plan that large is likely a mistake. To plan it anyway, raise limits.instances in the plan options.",
                grouped(n),
                grouped(limit)
            ),
        )
        .with_range(range.clone()),
    )
}

/// The error for module call `address`'s expansion (`argument` at `range`) once `total`
/// module instances are made, or `None` within the limit.
pub fn check_module_instances(total: usize, address: &str, argument: &str, range: &SourceRange) -> Option<Diagnostic> {
    let limit = current().module_instances;
    if total <= limit {
        return None;
    }
    Some(
        Diagnostic::error(
            "Too many module instances",
            format!(
                "The \"{argument}\" argument of {address} makes the module calls' instances more than the {} one plan may hold (limits.moduleInstances): nested count and for_each multiply. To plan it anyway, raise limits.moduleInstances in the plan options.",
                grouped(limit)
            ),
        )
        .with_range(range.clone()),
    )
}

/// [`check_module_instances`] for call `call` of the module at `path` (call names from the
/// root), with the range of its `count` or `for_each`.
pub fn check_module_call(
    config: &crate::config::Config,
    path: &[String],
    call: &str,
    total: usize,
) -> Option<Diagnostic> {
    if total <= current().module_instances {
        return None;
    }
    let mut m = &config.root;
    for name in path {
        m = m.module_calls.iter().find(|c| &c.name == name)?.module.as_deref()?;
    }
    let c = m.module_calls.iter().find(|c| c.name == call)?;
    let (argument, e) = match (&c.count, &c.for_each) {
        (Some(e), _) => ("count", e),
        (None, Some(e)) => ("for_each", e),
        _ => return None,
    };
    let mut address: Vec<String> = path.iter().map(|n| format!("module.{n}")).collect();
    address.push(format!("module.{call}"));
    check_module_instances(total, &address.join("."), argument, &e.range)
}

/// How many keys a module call's `count` makes at most before the plan stops it: one more
/// than the limit, so the plan sees it passed.
pub fn module_count_cap() -> i64 {
    i64::try_from(current().module_instances).unwrap_or(i64::MAX).saturating_add(1)
}

// ---- Last words ---------------------------------------------------------------------------

/// The size of each text of [`LastWords`] (pkg/api.js reads it at the same offsets).
pub const WORDS: usize = 508;

/// What a module instance leaves in its memory for the package to read when it stops:
/// `what` (what ran out, or a panic's message) and `site` (the block being worked on:
/// `file\tline\tcolumn\tbyte\tend line\tend column\tend byte\taddress`). Each a length and
/// UTF-8 bytes, truncated to [`WORDS`].
#[repr(C)]
pub struct LastWords {
    pub what_len: u32,
    pub what: [u8; WORDS],
    pub site_len: u32,
    pub site: [u8; WORDS],
}

/// A fixed buffer `core::fmt` writes into without allocating (the allocator may have just failed).
pub struct Fixed<'a> {
    pub buf: &'a mut [u8],
    pub len: usize,
}

impl std::fmt::Write for Fixed<'_> {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        let room = self.buf.len() - self.len;
        let n = s.len().min(room);
        self.buf[self.len..self.len + n].copy_from_slice(&s.as_bytes()[..n]);
        self.len += n;
        Ok(())
    }
}

#[cfg(target_arch = "wasm32")]
mod words {
    use super::{LastWords, WORDS};
    use std::cell::UnsafeCell;

    pub struct Cell(pub UnsafeCell<LastWords>);
    // SAFETY: wasm32 without threads: one thread touches it.
    unsafe impl Sync for Cell {}

    pub static LAST_WORDS: Cell =
        Cell(UnsafeCell::new(LastWords { what_len: 0, what: [0; WORDS], site_len: 0, site: [0; WORDS] }));
}

#[cfg(target_arch = "wasm32")]
pub use words::LAST_WORDS;

/// Notes the block being worked on (a resource being expanded or planned), for the diagnostic
/// of a module that stops there. Natively nothing reads it, and nothing is kept.
pub fn site(range: &SourceRange, address: &str) {
    #[cfg(target_arch = "wasm32")]
    {
        use std::fmt::Write;
        // SAFETY: one thread; nothing else holds a reference into it while this runs.
        let w = unsafe { &mut *LAST_WORDS.0.get() };
        let mut out = Fixed { buf: &mut w.site, len: 0 };
        let (s, e) = (&range.start, &range.end);
        let _ = write!(
            out,
            "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{address}",
            range.filename, s.line, s.column, s.byte, e.line, e.column, e.byte
        );
        w.site_len = out.len as u32;
    }
    #[cfg(not(target_arch = "wasm32"))]
    let _ = (range, address);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Pos;

    fn range() -> SourceRange {
        SourceRange {
            filename: "main.tf".into(),
            start: Pos { line: 2, column: 11, byte: 40 },
            end: Pos { line: 2, column: 20, byte: 49 },
        }
    }

    #[test]
    fn instances_within_and_past_the_limit() {
        assert!(check_instances(1_000_000, 0, "a.b", "count", &range()).is_none());
        let d = check_instances(100_000_000, 0, "mock_resource.a", "count", &range()).unwrap();
        assert_eq!(d.summary, "Too many instances");
        assert!(
            d.detail.contains("makes 100,000,000 instances of mock_resource.a, more than the 1,000,000"),
            "{}",
            d.detail
        );
        assert_eq!(d.range, Some(range()));
        let d = check_instances(2, 999_999, "x.y", "for_each", &range()).unwrap();
        assert!(d.detail.contains("after the 999,999 planned before it"), "{}", d.detail);
        with(Limits { instances: 5, module_instances: 1 }, || {
            assert!(check_instances(5, 0, "a.b", "count", &range()).is_none());
            assert!(check_instances(6, 0, "a.b", "count", &range()).is_some());
            assert_eq!(module_count_cap(), 2);
        });
        assert_eq!(current(), Limits::DEFAULT);
    }

    #[test]
    fn fixed_buffers_truncate() {
        use std::fmt::Write;
        let mut buf = [0u8; 4];
        let mut f = Fixed { buf: &mut buf, len: 0 };
        write!(f, "abcdef").unwrap();
        assert_eq!(f.len, 4);
        assert_eq!(&buf, b"abcd");
        assert_eq!(grouped(1234567), "1,234,567");
        assert_eq!(grouped(12), "12");
    }
}
