//! The scanner: bytes → a flat token list, as hclsyntax's `scan_tokens.rl` cuts them.
//!
//! One pass, no regex, no allocation per token (a token is a kind and two offsets). The scanner
//! is modal like HCL's: code, quoted-template, heredoc and bare-template modes, with an explicit
//! stack (never recursion) for `${ … }` inside strings inside `${ … }`. Comments are dropped,
//! except that a `#` or `//` comment ending in a newline becomes a newline token spanning the
//! comment, which is what HCL's token peeker hands its parser.

use super::unicode;

/// A token kind (hclsyntax's `TokenType`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tk {
    OBrace,
    CBrace,
    OBrack,
    CBrack,
    OParen,
    CParen,
    OQuote,
    CQuote,
    OHeredoc,
    CHeredoc,
    Star,
    Slash,
    Plus,
    Minus,
    Percent,
    Equal,
    EqualOp,
    NotEqual,
    Lt,
    LtEq,
    Gt,
    GtEq,
    And,
    Or,
    Bang,
    Dot,
    Comma,
    DoubleColon,
    Ellipsis,
    FatArrow,
    Question,
    Colon,
    TemplateInterp,
    TemplateControl,
    TemplateSeqEnd,
    /// Quoted-string text, which may hold backslash escapes.
    QuotedLit,
    /// Heredoc or bare-template text (no backslash escapes).
    StringLit,
    NumberLit,
    Ident,
    Newline,
    Eof,
    BitAnd,
    BitOr,
    BitNot,
    BitXor,
    Apostrophe,
    Backtick,
    Semicolon,
    Invalid,
    QuotedNewline,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    pub kind: Tk,
    pub start: u32,
    pub end: u32,
}

impl Token {
    #[inline]
    pub fn span(&self) -> std::ops::Range<usize> {
        self.start as usize..self.end as usize
    }
}

/// What the text starts as: configuration/expression code, or a bare template.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Start {
    Code,
    Template,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Code,
    Quoted,
    Heredoc,
    Bare,
}

struct HeredocState {
    marker: (usize, usize),
    start_of_line: bool,
}

/// Scan `src` into tokens, ending with one `Eof` token. `src` must be shorter than 4 GiB (the
/// caller checks). Returns whether any token calls for a scanner error (an invalid character,
/// a newline in a quoted string, …), so that clean input skips that check.
pub fn scan(src: &str, start: Start, out: &mut Vec<Token>) -> bool {
    let b = src.as_bytes();
    let mut s = Scanner {
        src,
        b,
        pos: 0,
        out,
        modes: Vec::new(),
        braces: 0,
        ret_braces: Vec::new(),
        heredocs: Vec::new(),
        flagged: false,
    };
    // hclsyntax strips a leading byte order mark.
    if b.starts_with(&[0xEF, 0xBB, 0xBF]) {
        s.pos = 3;
    }
    s.modes.push(match start {
        Start::Code => Mode::Code,
        Start::Template => Mode::Bare,
    });
    s.run();
    let n = b.len() as u32;
    s.out.push(Token { kind: Tk::Eof, start: n, end: n });
    s.flagged
}

struct Scanner<'s, 'o> {
    src: &'s str,
    b: &'s [u8],
    pos: usize,
    out: &'o mut Vec<Token>,
    modes: Vec<Mode>,
    braces: i64,
    ret_braces: Vec<i64>,
    heredocs: Vec<HeredocState>,
    flagged: bool,
}

/// ASCII bytes that continue an identifier: letters, digits, `_` and `-`.
static IDENT_CONTINUE: [bool; 256] = {
    let mut t = [false; 256];
    let mut c = 0;
    while c < 128 {
        let b = c as u8;
        t[c] = b.is_ascii_alphanumeric() || b == b'_' || b == b'-';
        c += 1;
    }
    t
};

#[inline]
fn is_ident_ascii(c: u8) -> bool {
    IDENT_CONTINUE[c as usize]
}

impl Scanner<'_, '_> {
    #[inline]
    fn emit(&mut self, kind: Tk, start: usize, end: usize) {
        if matches!(
            kind,
            Tk::Invalid
                | Tk::QuotedNewline
                | Tk::BitAnd
                | Tk::BitOr
                | Tk::BitNot
                | Tk::BitXor
                | Tk::Apostrophe
                | Tk::Backtick
                | Tk::Semicolon
        ) {
            self.flagged = true;
        }
        self.out.push(Token { kind, start: start as u32, end: end as u32 });
    }

    #[inline]
    fn at(&self, i: usize) -> u8 {
        // 0 is never a meaningful lookahead byte for the scanner's decisions.
        self.b.get(i).copied().unwrap_or(0)
    }

    /// Length of the UTF-8 character at `i`.
    #[inline]
    fn char_len(&self, i: usize) -> usize {
        match self.b[i] {
            0x00..=0x7F => 1,
            0xC0..=0xDF => 2,
            0xE0..=0xEF => 3,
            _ => 4,
        }
    }

    fn char_at(&self, i: usize) -> char {
        self.src[i..].chars().next().unwrap_or('\0')
    }

    fn run(&mut self) {
        while self.pos < self.b.len() {
            let mode = *self.modes.last().unwrap_or(&Mode::Code);
            let ok = match mode {
                Mode::Code => {
                    // Stay in this loop while the mode does not change (most of a file).
                    let depth = self.modes.len();
                    loop {
                        self.code();
                        if self.pos >= self.b.len() || self.modes.len() != depth {
                            break;
                        }
                    }
                    true
                }
                Mode::Quoted => {
                    self.quoted();
                    true
                }
                Mode::Heredoc => self.heredoc(),
                Mode::Bare => self.bare(),
            };
            if !ok {
                return;
            }
        }
    }

    /// `${` or `%{` (with an optional `~`) at `pos`: enter code until the matching `}`.
    fn template_open(&mut self, kind: Tk) {
        let start = self.pos;
        let mut end = start + 2;
        if self.at(end) == b'~' {
            end += 1;
        }
        self.emit(kind, start, end);
        self.pos = end;
        self.braces += 1;
        self.ret_braces.push(self.braces);
        if let Some(h) = self.heredocs.last_mut() {
            h.start_of_line = false;
        }
        self.modes.push(Mode::Code);
    }

    /// An identifier's end, from its first character at `i` (already known to start one).
    fn ident_end(&self, mut i: usize) -> usize {
        i += self.char_len(i);
        loop {
            let c = self.at(i);
            if c < 0x80 {
                if i < self.b.len() && is_ident_ascii(c) {
                    i += 1;
                    continue;
                }
                return i;
            }
            if unicode::is_id_continue(self.char_at(i)) {
                i += self.char_len(i);
            } else {
                return i;
            }
        }
    }

    fn ident_starts_at(&self, i: usize) -> bool {
        match self.b.get(i) {
            Some(&c) if c < 0x80 => c.is_ascii_alphabetic() || c == b'_',
            Some(_) => unicode::is_id_start(self.char_at(i)),
            None => false,
        }
    }

    fn code(&mut self) {
        let b = self.b;
        let start = self.pos;
        let c = b[start];
        let next = self.at(start + 1);
        let one = |s: &mut Self, k: Tk| {
            s.emit(k, start, start + 1);
            s.pos = start + 1;
        };
        let two = |s: &mut Self, k: Tk| {
            s.emit(k, start, start + 2);
            s.pos = start + 2;
        };
        match c {
            b' ' | b'\t' => {
                let mut i = start + 1;
                while i < b.len() && (b[i] == b' ' || b[i] == b'\t') {
                    i += 1;
                }
                self.pos = i;
            }
            b'\n' => one(self, Tk::Newline),
            b'\r' if next == b'\n' => two(self, Tk::Newline),
            b'0'..=b'9' => {
                let end = self.number_end(start);
                self.emit(Tk::NumberLit, start, end);
                self.pos = end;
            }
            b'a'..=b'z' | b'A'..=b'Z' | b'_' => {
                let mut i = start + 1;
                while i < b.len() && is_ident_ascii(b[i]) {
                    i += 1;
                }
                if i < b.len() && b[i] >= 0x80 {
                    i = self.ident_end(i - 1);
                }
                self.emit(Tk::Ident, start, i);
                self.pos = i;
            }
            b'#' => self.line_comment(start),
            b'/' if next == b'/' => self.line_comment(start),
            b'/' if next == b'*' => match find(b, start + 2, b"*/") {
                Some(j) => self.pos = j + 2,
                // An unterminated block comment is no comment: HCL's scanner falls back to `/`.
                None => one(self, Tk::Slash),
            },
            b'/' => one(self, Tk::Slash),
            b'=' if next == b'=' => two(self, Tk::EqualOp),
            b'=' if next == b'>' => two(self, Tk::FatArrow),
            b'=' => one(self, Tk::Equal),
            b'!' if next == b'=' => two(self, Tk::NotEqual),
            b'!' => one(self, Tk::Bang),
            b'>' if next == b'=' => two(self, Tk::GtEq),
            b'>' => one(self, Tk::Gt),
            b'<' if next == b'=' => two(self, Tk::LtEq),
            b'<' if next == b'<' => {
                if !self.heredoc_open(start) {
                    one(self, Tk::Lt);
                }
            }
            b'<' => one(self, Tk::Lt),
            b'&' if next == b'&' => two(self, Tk::And),
            b'&' => one(self, Tk::BitAnd),
            b'|' if next == b'|' => two(self, Tk::Or),
            b'|' => one(self, Tk::BitOr),
            b':' if next == b':' => two(self, Tk::DoubleColon),
            b':' => one(self, Tk::Colon),
            b'.' if next == b'.' && self.at(start + 2) == b'.' => {
                self.emit(Tk::Ellipsis, start, start + 3);
                self.pos = start + 3;
            }
            b'.' => one(self, Tk::Dot),
            b'[' => one(self, Tk::OBrack),
            b']' => one(self, Tk::CBrack),
            b'(' => one(self, Tk::OParen),
            b')' => one(self, Tk::CParen),
            b',' => one(self, Tk::Comma),
            b'*' => one(self, Tk::Star),
            b'+' => one(self, Tk::Plus),
            b'-' => one(self, Tk::Minus),
            b'%' => one(self, Tk::Percent),
            b'?' => one(self, Tk::Question),
            b'^' => one(self, Tk::BitXor),
            b';' => one(self, Tk::Semicolon),
            b'`' => one(self, Tk::Backtick),
            b'\'' => one(self, Tk::Apostrophe),
            b'~' if next == b'}' => {
                // Always a sequence end, even when it closes no template sequence: the parser
                // then reports the misuse.
                self.emit(Tk::TemplateSeqEnd, start, start + 2);
                self.pos = start + 2;
                self.close_brace();
            }
            b'~' => one(self, Tk::BitNot),
            b'{' => {
                one(self, Tk::OBrace);
                self.braces += 1;
            }
            b'}' => {
                if self.ret_braces.last() == Some(&self.braces) {
                    one(self, Tk::TemplateSeqEnd);
                } else {
                    one(self, Tk::CBrace);
                }
                self.close_brace();
            }
            b'"' => {
                one(self, Tk::OQuote);
                self.modes.push(Mode::Quoted);
            }
            _ if c >= 0x80 && unicode::is_id_start(self.char_at(start)) => {
                let end = self.ident_end(start);
                self.emit(Tk::Ident, start, end);
                self.pos = end;
            }
            _ => {
                let end = start + self.char_len(start);
                self.emit(Tk::Invalid, start, end);
                self.pos = end;
            }
        }
    }

    /// After a `}` or `~}`: leave the template sequence it closes, if it closes one.
    fn close_brace(&mut self) {
        if self.ret_braces.last() == Some(&self.braces) {
            self.ret_braces.pop();
            self.braces -= 1;
            self.modes.pop();
        } else {
            self.braces -= 1;
        }
    }

    fn line_comment(&mut self, start: usize) {
        match memchr(b'\n', &self.b[start..]) {
            Some(k) => {
                let end = start + k + 1;
                // The comment ends the line: HCL's peeker turns it into a newline.
                self.emit(Tk::Newline, start, end);
                self.pos = end;
            }
            None => self.pos = self.b.len(),
        }
    }

    /// `NumberLit = digit (digit | "." | [eE] [+-]? digit)*`, not ending in ".".
    fn number_end(&self, start: usize) -> usize {
        let b = self.b;
        let mut i = start + 1;
        let mut end = i;
        while i < b.len() {
            match b[i] {
                b'0'..=b'9' => {
                    i += 1;
                    end = i;
                }
                b'.' => i += 1,
                b'e' | b'E' => {
                    let mut j = i + 1;
                    if matches!(self.at(j), b'+' | b'-') {
                        j += 1;
                    }
                    if self.at(j).is_ascii_digit() {
                        i = j + 1;
                        end = i;
                    } else {
                        break;
                    }
                }
                _ => break,
            }
        }
        end
    }

    /// `<<` or `<<-`, an identifier and a newline open a heredoc.
    fn heredoc_open(&mut self, start: usize) -> bool {
        let mut i = start + 2;
        if self.at(i) == b'-' {
            i += 1;
        }
        if !self.ident_starts_at(i) {
            return false;
        }
        let m_start = i;
        let m_end = self.ident_end(i);
        let end = match (self.at(m_end), self.at(m_end + 1)) {
            (b'\n', _) => m_end + 1,
            (b'\r', b'\n') => m_end + 2,
            _ => return false,
        };
        self.emit(Tk::OHeredoc, start, end);
        self.pos = end;
        self.heredocs.push(HeredocState { marker: (m_start, m_end), start_of_line: true });
        self.modes.push(Mode::Heredoc);
        true
    }

    /// `$${` / `%%{` (an escape, with the `~` of a would-be strip marker), or a lone `$` / `%`
    /// before anything but `{`: literal text. `None` when nothing follows the sign.
    fn sign_literal(&self, start: usize) -> Option<usize> {
        let c = self.b[start];
        if start + 1 >= self.b.len() {
            return None;
        }
        if self.at(start + 1) == c && self.at(start + 2) == b'{' {
            let mut end = start + 3;
            if self.at(end) == b'~' {
                end += 1;
            }
            return Some(end);
        }
        Some(start + 1)
    }

    fn quoted(&mut self) {
        let b = self.b;
        let start = self.pos;
        let c = b[start];
        let next = self.at(start + 1);
        match c {
            b'$' if next == b'{' => self.template_open(Tk::TemplateInterp),
            b'%' if next == b'{' => self.template_open(Tk::TemplateControl),
            b'"' => {
                self.emit(Tk::CQuote, start, start + 1);
                self.pos = start + 1;
                self.modes.pop();
            }
            b'\n' | b'\r' => {
                let mut i = start + 1;
                while i < b.len() && (b[i] == b'\n' || b[i] == b'\r') {
                    i += 1;
                }
                self.emit(Tk::QuotedNewline, start, i);
                self.pos = i;
            }
            b'$' | b'%' => match self.sign_literal(start) {
                Some(end) => {
                    self.emit(Tk::QuotedLit, start, end);
                    self.pos = end;
                }
                None => {
                    self.emit(Tk::Invalid, start, start + 1);
                    self.pos = start + 1;
                }
            },
            _ => {
                let mut i = start;
                while i < b.len() {
                    match b[i] {
                        b'$' | b'%' | b'"' | b'\n' | b'\r' => break,
                        b'\\' => {
                            if i + 1 < b.len() && b[i + 1] != b'\n' && b[i + 1] != b'\r' {
                                i += 1 + self.char_len(i + 1);
                            } else {
                                break;
                            }
                        }
                        _ => i += 1,
                    }
                }
                if i == start {
                    // A backslash before a newline or the end: not valid in a string.
                    self.emit(Tk::Invalid, start, start + 1);
                    self.pos = start + 1;
                } else {
                    self.emit(Tk::QuotedLit, start, i);
                    self.pos = i;
                }
            }
        }
    }

    /// One heredoc token; `false` when the scanner cannot go on (HCL's scanner then gives up
    /// on the rest of the input as one invalid token).
    fn heredoc(&mut self) -> bool {
        let b = self.b;
        let start = self.pos;
        let c = b[start];
        let next = self.at(start + 1);
        match c {
            b'$' if next == b'{' => self.template_open(Tk::TemplateInterp),
            b'%' if next == b'{' => self.template_open(Tk::TemplateControl),
            b'$' | b'%' => match self.sign_literal(start) {
                Some(end) => {
                    self.emit(Tk::StringLit, start, end);
                    self.pos = end;
                    if let Some(h) = self.heredocs.last_mut() {
                        h.start_of_line = false;
                    }
                }
                None => return self.give_up(start),
            },
            _ => {
                let mut i = start;
                while i < b.len() && !matches!(b[i], b'$' | b'%' | b'\n' | b'\r') {
                    i += 1;
                }
                let eol = match (self.at(i), self.at(i + 1)) {
                    (b'\n', _) if i < b.len() => Some(i + 1),
                    (b'\r', b'\n') => Some(i + 2),
                    (b'\r', _) => {
                        if i > start {
                            self.emit(Tk::StringLit, start, i);
                        }
                        return self.give_up(i);
                    }
                    _ => None,
                };
                let Some(end) = eol else {
                    // Text before `$`, `%` or the end of the input: mid-line.
                    self.emit(Tk::StringLit, start, i);
                    self.pos = i;
                    if let Some(h) = self.heredocs.last_mut() {
                        h.start_of_line = false;
                    }
                    return true;
                };
                let Some(h) = self.heredocs.last_mut() else { return self.give_up(start) };
                if h.start_of_line {
                    let (ms, me) = h.marker;
                    if trim_space(&self.src[start..end]) == &self.src[ms..me] {
                        // The closing marker, then the newline after it as its own token (it
                        // may end an attribute).
                        self.emit(Tk::CHeredoc, start, i);
                        self.emit(Tk::Newline, i, end);
                        self.pos = end;
                        self.heredocs.pop();
                        self.modes.pop();
                        return true;
                    }
                }
                h.start_of_line = true;
                self.emit(Tk::StringLit, start, end);
                self.pos = end;
            }
        }
        true
    }

    fn bare(&mut self) -> bool {
        let b = self.b;
        let start = self.pos;
        let c = b[start];
        let next = self.at(start + 1);
        match c {
            b'$' if next == b'{' => self.template_open(Tk::TemplateInterp),
            b'%' if next == b'{' => self.template_open(Tk::TemplateControl),
            b'$' | b'%' => match self.sign_literal(start) {
                Some(end) => {
                    self.emit(Tk::StringLit, start, end);
                    self.pos = end;
                }
                None => return self.give_up(start),
            },
            _ => {
                let mut i = start;
                while i < b.len() && !matches!(b[i], b'$' | b'%' | b'\n' | b'\r') {
                    i += 1;
                }
                match (self.at(i), self.at(i + 1)) {
                    (b'\n', _) if i < b.len() => i += 1,
                    (b'\r', b'\n') => i += 2,
                    (b'\r', _) => {
                        if i > start {
                            self.emit(Tk::StringLit, start, i);
                        }
                        return self.give_up(i);
                    }
                    _ => {}
                }
                self.emit(Tk::StringLit, start, i);
                self.pos = i;
            }
        }
        true
    }

    /// HCL's scanner found no match at `at`: the rest is one token, literal text at the top of
    /// a bare template, else invalid.
    fn give_up(&mut self, at: usize) -> bool {
        let kind = if self.modes.len() == 1 && self.modes[0] == Mode::Bare { Tk::StringLit } else { Tk::Invalid };
        self.emit(kind, at, self.b.len());
        self.pos = self.b.len();
        false
    }
}

/// Go's `bytes.TrimSpace` on text (Unicode white space).
fn trim_space(s: &str) -> &str {
    s.trim_matches(|c: char| c.is_whitespace())
}

#[inline]
fn memchr(needle: u8, hay: &[u8]) -> Option<usize> {
    hay.iter().position(|&c| c == needle)
}

fn find(hay: &[u8], from: usize, needle: &[u8; 2]) -> Option<usize> {
    let mut i = from;
    while i + 1 < hay.len() {
        match memchr(needle[0], &hay[i..hay.len() - 1]) {
            Some(k) => {
                if hay[i + k + 1] == needle[1] {
                    return Some(i + k);
                }
                i += k + 1;
            }
            None => return None,
        }
    }
    None
}
