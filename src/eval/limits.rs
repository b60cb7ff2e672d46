//! Limits before exhaustion (issue #26): how much a plan may expand, checked where it expands,
//! as diagnostics with the source range; and the last words a module instance leaves in its
//! memory for the package when it stops anyway (`src/bindings/heap.rs`, `pkg/api.js`).
//!
//! A wasm32 module has 4 GiB of memory. A plan costs about 4 KiB per resource instance of the
//! mock provider's one-attribute resource (bench/limits: 1,000,000 instances in 3.8 GiB, the
//! most that plans); an apply holds the plan, the working state and the new state, several
//! times that per change. The default [`Limits::instances`] (500,000) plans five times what
//! Terraform plans in practice (the corpus, bench/engine's 100,000-resource configurations),
//! leaves half the memory for resources with more attributes than the bench's, and stops a typo
//! such as `count = 100000000` (or `1000000`, which planned in minutes at the edge of memory)
//! with an error naming the argument, within a second, instead of running out of memory.
//! Callers who know their configuration raise it (`plan(files, { limits: { instances } })`;
//! on wasm32 a limit past `u32::MAX` counts as that, more than memory holds anyway).
//!
//! The other sizes are bounded where they are made: the parser's nesting depth
//! (`hcl::parser`, "Expression too deeply nested", 256 levels), the evaluator's (256 levels
//! in one expression, [`MAX_FRAMES`] with those it runs inside), a value's
//! ([`MAX_VALUE_DEPTH`]), one string's length ([`MAX_STRING`]: templates, `join`, `replace`,
//! `indent`, `formatlist`), `format`'s widths (Go's 1,000,000) and `range`'s 1024 values (both
//! Terraform's own limits). Terraform has no other limit (`setproduct` of 4,194,304 tuples
//! plans in `terraform console`): what one expression builds is bounded by a budget instead,
//! [`Limits::elements`] and [`Limits::bytes`], spent by everything that makes values (each
//! `for` item, tuple and object item, function result and template) from the outermost
//! evaluation down and checked before the growing functions build (`setproduct`, `join`,
//! `replace`, ...). A value in wasm32 is about 32 bytes (a 64-bit one about 56), so the
//! default 16,777,216 elements are about 512 MiB of values in the module, 256 MiB of string
//! bytes beside them: an eighth of the memory each, so what the plan copies from them still
//! fits, and the module spends them in seconds (twice the default took 15 s on a loaded
//! machine). Nested values are counted once at each level that makes them (a list of lists
//! twice), which the budget's size allows for: a million `for_each` keys made from
//! `setproduct(range(1000), range(1000))` (about 6 million counted) stay within it;
//! Terraform's 4,194,304-tuple `setproduct` of three ranges (16.8 million) needs
//! `limits.elements` raised. There is no budget for a whole call: what expressions spend is work,
//! not memory held (100,000 resources each with a `for` of 200 items spend 20 million elements
//! and keep little), so a sum over the call would refuse plans that fit. Many expressions each
//! within their budget can still pass memory together (locals read by different resources):
//! that ends as a trap, which the package answers with the block being worked on ([`site`],
//! `pkg/api.js`), replacing the module instance.

use crate::diag::{Diagnostic, SourceRange};
use std::cell::Cell;

/// How far a plan may expand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Resource and data source instances in one plan, all modules together.
    pub instances: usize,
    /// Instances of expanded module calls (count / for_each) in one plan, all levels together.
    pub module_instances: usize,
    /// Collection elements one expression makes, nested ones included (see the module's text).
    pub elements: usize,
    /// String bytes one expression makes.
    pub bytes: usize,
}

impl Limits {
    pub const DEFAULT: Limits =
        Limits { instances: 500_000, module_instances: 100_000, elements: 1 << 24, bytes: 256 << 20 };
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

/// `f` run under `limits` each time it is polled (an apply's walk awaits its provider between
/// evaluations, and other calls may run meanwhile with their own limits).
pub fn scoped<F: std::future::Future>(limits: Limits, f: F) -> Scoped<F> {
    Scoped { limits, inner: Box::pin(f) }
}

/// What [`scoped`] returns.
pub struct Scoped<F> {
    limits: Limits,
    inner: std::pin::Pin<Box<F>>,
}

impl<F: std::future::Future> std::future::Future for Scoped<F> {
    type Output = F::Output;
    fn poll(mut self: std::pin::Pin<&mut Self>, cx: &mut std::task::Context<'_>) -> std::task::Poll<F::Output> {
        let limits = self.limits;
        with(limits, || self.inner.as_mut().poll(cx))
    }
}

// ---- What one expression makes -------------------------------------------------------------

thread_local! {
    /// Evaluations open (nested ones share the outermost's budget), elements and bytes spent.
    static SPENT: Cell<(usize, usize, usize)> = const { Cell::new((0, 0, 0)) };
}

/// How many evaluations may run inside each other: a local value read by a local value read by
/// ... evaluates each on demand, on the stack. Each level takes about 18 KB of a native debug
/// build's stack through `evaluate`, more through a plan, and 16-32 KB of the release wasm
/// module's: the module has 8 MiB of stack and native tests 16 MiB (.cargo/config.toml), so 128
/// levels fit both with room. Chains through nested module calls (a label module's context
/// passed down three or four modules, each with its own chain of locals) reach a few dozen.
/// Terraform walks them as graph nodes and has no such limit: evaluating locals in the order of
/// their references (the plan walking graph/'s plan graph, #24) would lift it.
pub const MAX_NESTED: usize = 128;

/// How many levels of evaluation may be on the stack at once, those of nested evaluations
/// included: each expression may nest 256 levels (`expr.rs`), and each local value a chain reads
/// is evaluated inside the reader's levels, so 128 of them 200 levels deep each were 25,600
/// levels, past any stack. The stack that runs out first in the package is the engine's own
/// (V8's, about 1 MB, where the wasm functions' frames live; the 8 MiB in the module's memory
/// holds only what they borrow): a plan ran out between 300 and 500 levels of nested brackets,
/// and at 512 after another plan had changed which functions were compiled how. 256: one
/// expression as deep as the parser allows, or a chain of 128 locals each reading the one
/// before (two levels each).
pub const MAX_FRAMES: usize = 256;

thread_local! {
    static FRAMES: Cell<usize> = const { Cell::new(0) };
}

/// Enters a level of evaluation: how many are on the stack now. Pair with [`leave`].
pub fn enter() -> usize {
    FRAMES.with(|c| {
        c.set(c.get() + 1);
        c.get()
    })
}

/// How many levels of evaluation are on the stack now.
pub fn frames() -> usize {
    FRAMES.with(|c| c.get())
}

/// Leaves what [`enter`] entered.
pub fn leave() {
    FRAMES.with(|c| c.set(c.get().saturating_sub(1)));
}

/// Opens an evaluation: the outermost one starts a fresh budget. Returns how many are open
/// (this one included). Pair with [`close`].
pub fn open() -> usize {
    SPENT.with(|c| {
        let (n, e, b) = c.get();
        c.set(if n == 0 { (1, 0, 0) } else { (n + 1, e, b) });
        n + 1
    })
}

/// Closes what [`open`] opened.
pub fn close() {
    SPENT.with(|c| {
        let (n, e, b) = c.get();
        c.set((n.saturating_sub(1), e, b));
    });
}

/// Spends `elements` and `bytes` of the open evaluation's budget; the error text (for a
/// function's error or a diagnostic's detail) once it is spent. Outside an evaluation nothing
/// is counted.
pub fn spend(elements: usize, bytes: usize) -> Result<(), String> {
    let r = fits(elements, bytes);
    SPENT.with(|c| {
        let (n, e, b) = c.get();
        if n > 0 {
            c.set((n, e.saturating_add(elements), b.saturating_add(bytes)));
        }
    });
    r
}

/// Whether `elements` and `bytes` more would fit in the open evaluation's budget, spending
/// nothing: the check a function makes before it builds (what it returns is then spent as it
/// is, by the call).
pub fn fits(elements: usize, bytes: usize) -> Result<(), String> {
    SPENT.with(|c| {
        let (n, e, b) = c.get();
        if n == 0 {
            return Ok(());
        }
        let (e, b) = (e.saturating_add(elements), b.saturating_add(bytes));
        let limits = current();
        if e > limits.elements {
            Err(format!(
                "this expression makes more than {} collection elements (limits.elements), more than a WebAssembly module's 4 GiB should hold; to evaluate it anyway, raise limits.elements in the plan options",
                grouped(limits.elements)
            ))
        } else if b > limits.bytes {
            Err(format!(
                "this expression makes more than {} of strings (limits.bytes), more than a WebAssembly module's 4 GiB should hold; to evaluate it anyway, raise limits.bytes in the plan options",
                if limits.bytes % (1 << 20) == 0 { format!("{} MiB", limits.bytes >> 20) } else { format!("{} bytes", grouped(limits.bytes)) }
            ))
        } else {
            Ok(())
        }
    })
}

/// [`spend`] of what `v` holds: one element for each value in it (itself included when it is
/// a collection's element) and the bytes of its strings and keys; or the error for a value
/// nested past [`MAX_VALUE_DEPTH`].
pub fn spend_value(v: &crate::eval::value::Value) -> Result<(), String> {
    let mut w = Weight::default();
    weigh(v, 1, &mut w);
    if w.depth > MAX_VALUE_DEPTH {
        return Err(format!(
            "this expression makes a value nested more than {MAX_VALUE_DEPTH} levels deep, more than this tool holds"
        ));
    }
    spend(w.elements, w.bytes)
}

/// How deep a value may nest. Rendering, comparing, converting and dropping a value each
/// recurse once per level: the release module's plan ran out of its 8 MiB stack between 300 and
/// 500 levels, and local values each wrapping the one before in brackets made values 24,000
/// deep. 60, so that what an apply writes is read back: a state is read with serde_json's limit
/// of 128 levels, and an output's type there takes two levels for each of its value's
/// (`["tuple",[...]]`), below three of its own. Terraform has no such bound (Go's JSON reads
/// 10,000 levels); configurations do not come near it.
pub const MAX_VALUE_DEPTH: usize = 60;

#[derive(Default)]
struct Weight {
    elements: usize,
    bytes: usize,
    depth: usize,
}

/// Elements and string bytes in `v`, and how deep it nests, at `depth`; not deeper than one
/// level past [`MAX_VALUE_DEPTH`], so that the count itself stays within the stack.
fn weigh(v: &crate::eval::value::Value, depth: usize, w: &mut Weight) {
    use crate::eval::value::Kind;
    w.depth = w.depth.max(depth);
    w.elements = w.elements.saturating_add(1);
    if depth > MAX_VALUE_DEPTH {
        return;
    }
    match &v.kind {
        Kind::String(s) => w.bytes = w.bytes.saturating_add(s.len()),
        Kind::List(_, xs) | Kind::Set(_, xs) | Kind::Tuple(xs) => xs.iter().for_each(|x| weigh(x, depth + 1, w)),
        Kind::Map(_, m) | Kind::Object(m) => m.iter().for_each(|(k, x)| {
            w.bytes = w.bytes.saturating_add(k.len());
            weigh(x, depth + 1, w)
        }),
        _ => {}
    }
}

/// Elements and string bytes in `v`.
pub fn weight(v: &crate::eval::value::Value) -> (usize, usize) {
    let mut w = Weight::default();
    weigh(v, 1, &mut w);
    (w.elements, w.bytes)
}

/// The error for one string past [`MAX_STRING`].
pub fn string_too_long() -> String {
    format!("the result would be longer than the {} MiB strings this tool builds", MAX_STRING >> 20)
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
        assert!(check_instances(500_000, 0, "a.b", "count", &range()).is_none());
        let d = check_instances(100_000_000, 0, "mock_resource.a", "count", &range()).unwrap();
        assert_eq!(d.summary, "Too many instances");
        assert!(
            d.detail.contains("makes 100,000,000 instances of mock_resource.a, more than the 500,000"),
            "{}",
            d.detail
        );
        assert_eq!(d.range, Some(range()));
        let d = check_instances(2, 499_999, "x.y", "for_each", &range()).unwrap();
        assert!(d.detail.contains("after the 499,999 planned before it"), "{}", d.detail);
        with(Limits { instances: 5, module_instances: 1, ..Limits::DEFAULT }, || {
            assert!(check_instances(5, 0, "a.b", "count", &range()).is_none());
            assert!(check_instances(6, 0, "a.b", "count", &range()).is_some());
            assert_eq!(module_count_cap(), 2);
        });
        assert_eq!(current(), Limits::DEFAULT);
    }

    #[test]
    fn budgets_are_per_outermost_evaluation() {
        use crate::eval::value::Value;
        // Outside an evaluation nothing counts.
        assert!(spend(usize::MAX, usize::MAX).is_ok());
        with(Limits { elements: 10, bytes: 8, ..Limits::DEFAULT }, || {
            open();
            assert!(spend(4, 3).is_ok());
            open(); // nested: the same budget
            let list = Value::tuple(vec![Value::string("abcd"), Value::string("e")]);
            assert_eq!(weight(&list), (3, 5));
            assert!(spend_value(&list).is_ok()); // 7 elements, 8 bytes
            close();
            assert!(spend(3, 0).is_ok());
            assert!(spend(1, 0).unwrap_err().contains("more than 10 collection elements (limits.elements)"));
            close();
            open(); // a fresh one
            assert!(spend(10, 8).is_ok());
            assert!(spend(0, 1).unwrap_err().contains("(limits.bytes)"));
            close();
        });
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
