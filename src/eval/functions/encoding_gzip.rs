//! `base64gzip`: Go's `compress/gzip` at the default level, byte for byte, because Terraform's
//! output is what users compare in plans. Terraform writes the whole string, calls `Flush` (an
//! empty non-final stored block) and then `Close` (an empty final stored block).
//!
//! The deflate stream is Go's `compress/flate` level 6 as its compressor behaves: a 32 KiB window
//! filled in 64 KiB halves, a 17-bit multiplicative hash over 4 bytes with hash chains, lazy
//! matching (good 8, lazy 16, nice 128, chain 128; matches of length 4 only within 4096 bytes),
//! blocks cut at 16384 tokens or at the end, and for each block the smallest of a stored, a
//! fixed-Huffman and a dynamic-Huffman encoding, the dynamic codes built with Go's
//! length-limited package-merge variant and its tie-breaking.

const WINDOW_SIZE: usize = 1 << 15;
const WINDOW_MASK: usize = WINDOW_SIZE - 1;
const MIN_MATCH: usize = 4;
const MAX_MATCH: usize = 258;
const MAX_BLOCK_TOKENS: usize = 1 << 14;
const MAX_STORED: usize = 65535;
const HASH_BITS: u32 = 17;
const HASH_SIZE: usize = 1 << HASH_BITS;
const MAX_HASH_OFFSET: i64 = 1 << 24;
// Go's levels[6]: {6, good 8, lazy 16, nice 128, chain 128, skipNever}.
const GOOD: usize = 8;
const LAZY: usize = 16;
const NICE: usize = 128;
const CHAIN: usize = 128;

// A token is a literal byte (or the end-of-block marker 256) below MATCH, or MATCH + (length - 3)
// << 22 + (offset - 1), as Go packs them.
const MATCH: u32 = 1 << 30;
const LENGTH_SHIFT: u32 = 22;
const OFFSET_MASK: u32 = (1 << LENGTH_SHIFT) - 1;
const END_BLOCK: u32 = 256;
const LENGTH_CODES_START: usize = 257;
const NUM_LIT: usize = 286;
const NUM_OFFSETS: usize = 30;
const NUM_CODEGEN: usize = 19;
const BAD_CODE: u8 = 255;

const LENGTH_EXTRA: [u8; 29] = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0];
const LENGTH_BASE: [u32; 29] =
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 16, 20, 24, 28, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 255];
const OFFSET_EXTRA: [u8; 30] =
    [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13];
const CODEGEN_ORDER: [usize; 19] = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];

/// The code of a length or offset (less its base 3 or 1): the last code whose base is not above it.
fn code_of(bases: &[u32], x: u32) -> usize {
    bases.partition_point(|&b| b <= x) - 1
}

fn offset_base(code: usize) -> u32 {
    // 1, 2, 3, 4, 5, 7, 9, 13, ... less one: two codes per extra bit from code 4 on.
    if code < 4 {
        code as u32
    } else {
        let e = (code as u32 - 2) / 2;
        (2 + (code as u32 & 1)) << e
    }
}

fn offset_code(x: u32) -> usize {
    let bases: [u32; 30] = std::array::from_fn(offset_base);
    code_of(&bases, x)
}

/// `base64gzip`'s bytes before the base64: Go's gzip header, the deflate stream, CRC-32 and size.
pub fn gzip(data: &[u8]) -> Vec<u8> {
    // No name, no modification time, XFL 0 (neither best speed nor best compression), OS 255.
    let mut out = vec![0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255];
    let mut c = Compressor::new();
    c.write(data);
    // Flush: everything pending as blocks, then an empty non-final stored block; Close: the
    // same with nothing left, its empty stored block final.
    c.sync = true;
    for last in [false, true] {
        c.deflate();
        c.w.stored_header(0, last);
        c.w.flush();
    }
    out.extend_from_slice(&c.w.out);
    out.extend_from_slice(&crc32(data).to_le_bytes());
    out.extend_from_slice(&(data.len() as u32).to_le_bytes());
    out
}

fn crc32(data: &[u8]) -> u32 {
    let mut table = [0u32; 256];
    for (i, t) in table.iter_mut().enumerate() {
        let mut c = i as u32;
        for _ in 0..8 {
            c = if c & 1 != 0 { 0xedb8_8320 ^ (c >> 1) } else { c >> 1 };
        }
        *t = c;
    }
    !data.iter().fold(!0u32, |c, &b| table[((c ^ b as u32) & 0xff) as usize] ^ (c >> 8))
}

fn hash4(b: &[u8]) -> usize {
    let v = u32::from_be_bytes([b[0], b[1], b[2], b[3]]);
    (v.wrapping_mul(0x1e35_a7bd) >> (32 - HASH_BITS)) as usize
}

struct Compressor {
    w: BitWriter,
    sync: bool,
    chain_head: i64,
    hash_head: Vec<u32>,
    hash_prev: Vec<u32>,
    hash_offset: i64,
    index: usize,
    window: Vec<u8>,
    window_end: usize,
    /// `None` once the block's start has left the window (Go's MaxInt32).
    block_start: Option<usize>,
    byte_available: bool,
    tokens: Vec<u32>,
    length: usize,
    offset: usize,
    max_insert_index: isize,
}

impl Compressor {
    fn new() -> Compressor {
        Compressor {
            w: BitWriter::new(),
            sync: false,
            chain_head: -1,
            hash_head: vec![0; HASH_SIZE],
            hash_prev: vec![0; WINDOW_SIZE],
            hash_offset: 1,
            index: 0,
            window: vec![0; 2 * WINDOW_SIZE],
            window_end: 0,
            block_start: Some(0),
            byte_available: false,
            tokens: Vec::with_capacity(MAX_BLOCK_TOKENS + 1),
            length: MIN_MATCH - 1,
            offset: 0,
            max_insert_index: 0,
        }
    }

    fn write(&mut self, mut b: &[u8]) {
        while !b.is_empty() {
            self.deflate();
            let n = self.fill(b);
            b = &b[n..];
        }
    }

    fn fill(&mut self, b: &[u8]) -> usize {
        if self.index >= 2 * WINDOW_SIZE - (MIN_MATCH + MAX_MATCH) {
            self.window.copy_within(WINDOW_SIZE..2 * WINDOW_SIZE, 0);
            self.index -= WINDOW_SIZE;
            self.window_end -= WINDOW_SIZE;
            self.block_start = self.block_start.and_then(|s| s.checked_sub(WINDOW_SIZE));
            self.hash_offset += WINDOW_SIZE as i64;
            if self.hash_offset > MAX_HASH_OFFSET {
                let delta = self.hash_offset - 1;
                self.hash_offset -= delta;
                self.chain_head -= delta;
                for v in self.hash_prev.iter_mut().chain(self.hash_head.iter_mut()) {
                    *v = if *v as i64 > delta { (*v as i64 - delta) as u32 } else { 0 };
                }
            }
        }
        let n = b.len().min(self.window.len() - self.window_end);
        self.window[self.window_end..self.window_end + n].copy_from_slice(&b[..n]);
        self.window_end += n;
        n
    }

    fn write_block(&mut self, index: usize) {
        if index > 0 {
            let input = match self.block_start {
                Some(s) if s <= index => Some(&self.window[s..index]),
                _ => None,
            };
            self.w.write_block(&mut self.tokens, input);
            self.block_start = Some(index);
        }
        self.tokens.clear();
    }

    fn insert(&mut self, at: usize) -> u32 {
        let h = hash4(&self.window[at..at + MIN_MATCH]);
        let prev = self.hash_head[h];
        self.hash_prev[at & WINDOW_MASK] = prev;
        self.hash_head[h] = (at as i64 + self.hash_offset) as u32;
        prev
    }

    /// Go's `deflate` step for the lazy-matching levels.
    fn deflate(&mut self) {
        if self.window_end - self.index < MIN_MATCH + MAX_MATCH && !self.sync {
            return;
        }
        self.max_insert_index = self.window_end as isize - (MIN_MATCH as isize - 1);
        loop {
            let lookahead = self.window_end - self.index;
            if lookahead < MIN_MATCH + MAX_MATCH {
                if !self.sync {
                    return;
                }
                if lookahead == 0 {
                    if self.byte_available {
                        self.tokens.push(self.window[self.index - 1] as u32);
                        self.byte_available = false;
                    }
                    if !self.tokens.is_empty() {
                        self.write_block(self.index);
                    }
                    return;
                }
            }
            if (self.index as isize) < self.max_insert_index {
                self.chain_head = self.insert(self.index) as i64;
            }
            let (prev_length, prev_offset) = (self.length, self.offset);
            self.length = MIN_MATCH - 1;
            self.offset = 0;
            let min_index = self.index.saturating_sub(WINDOW_SIZE) as i64;
            let head = self.chain_head - self.hash_offset;
            if head >= min_index && lookahead > prev_length && prev_length < LAZY {
                if let Some((l, o)) = self.find_match(self.index, head as usize, MIN_MATCH - 1, lookahead) {
                    self.length = l;
                    self.offset = o;
                }
            }
            if prev_length >= MIN_MATCH && self.length <= prev_length {
                // The previous match is at least as good: emit it, hash what it covers.
                self.tokens.push(MATCH + (((prev_length - 3) as u32) << LENGTH_SHIFT) + (prev_offset - 1) as u32);
                let new_index = self.index + prev_length - 1;
                self.index += 1;
                while self.index < new_index {
                    if (self.index as isize) < self.max_insert_index {
                        self.insert(self.index);
                    }
                    self.index += 1;
                }
                self.byte_available = false;
                self.length = MIN_MATCH - 1;
                if self.tokens.len() == MAX_BLOCK_TOKENS {
                    self.write_block(self.index);
                }
            } else {
                if self.byte_available {
                    let i = self.index - 1;
                    self.tokens.push(self.window[i] as u32);
                    if self.tokens.len() == MAX_BLOCK_TOKENS {
                        self.write_block(i + 1);
                    }
                }
                self.index += 1;
                self.byte_available = true;
            }
        }
    }

    /// A match at `pos` longer than `prev_length` along the hash chain from `prev_head`.
    fn find_match(&self, pos: usize, prev_head: usize, prev_length: usize, lookahead: usize) -> Option<(usize, usize)> {
        let look = MAX_MATCH.min(lookahead);
        let win = &self.window[..pos + look];
        let nice = (win.len() - pos).min(NICE);
        let mut tries = CHAIN;
        let mut length = prev_length;
        if length >= GOOD {
            tries >>= 2;
        }
        let mut found = None;
        let mut w_end = win[pos + length];
        let min_index = pos as i64 - WINDOW_SIZE as i64;
        let mut i = prev_head as i64;
        while tries > 0 {
            let iu = i as usize;
            if w_end == win[iu + length] {
                let n = win[iu..iu + look].iter().zip(&win[pos..]).take_while(|(a, b)| a == b).count();
                if n > length && (n > MIN_MATCH || pos - iu <= 4096) {
                    length = n;
                    found = Some((n, pos - iu));
                    if n >= nice {
                        break;
                    }
                    w_end = win[pos + n];
                }
            }
            if i == min_index {
                break;
            }
            i = self.hash_prev[iu & WINDOW_MASK] as i64 - self.hash_offset;
            if i < min_index || i < 0 {
                break;
            }
            tries -= 1;
        }
        found
    }
}

/// Codes and lengths of one Huffman code, indexed by symbol.
#[derive(Clone)]
struct Code {
    code: Vec<u16>,
    len: Vec<u16>,
}

impl Code {
    fn new(n: usize) -> Code {
        Code { code: vec![0; n], len: vec![0; n] }
    }

    fn fixed_literals() -> Code {
        let mut c = Code::new(NUM_LIT);
        for ch in 0..NUM_LIT as u16 {
            let (bits, size) = match ch {
                0..=143 => (ch + 48, 8),
                144..=255 => (ch + 400 - 144, 9),
                256..=279 => (ch - 256, 7),
                _ => (ch + 192 - 280, 8),
            };
            c.code[ch as usize] = reverse(bits, size);
            c.len[ch as usize] = size;
        }
        c
    }

    fn fixed_offsets() -> Code {
        Code { code: (0..NUM_OFFSETS as u16).map(|i| reverse(i, 5)).collect(), len: vec![5; NUM_OFFSETS] }
    }

    fn bit_length(&self, freq: &[i32]) -> usize {
        freq.iter().zip(&self.len).map(|(&f, &l)| f as usize * l as usize).sum()
    }

    /// Go's `huffmanEncoder.generate`: lengths limited to `max_bits`, codes in literal order
    /// within each length.
    fn generate(&mut self, freq: &[i32], max_bits: i32) {
        let mut list: Vec<(u16, i32)> = Vec::with_capacity(freq.len() + 1);
        for (i, &f) in freq.iter().enumerate() {
            if f != 0 {
                list.push((i as u16, f));
            } else {
                self.len[i] = 0;
            }
        }
        if list.len() <= 2 {
            for (i, &(lit, _)) in list.iter().enumerate() {
                self.code[lit as usize] = i as u16;
                self.len[lit as usize] = 1;
            }
            return;
        }
        // (frequency, literal) and literal are total orders: any sort gives Go's order.
        insertion_sort(&mut list, |&(lit, f)| ((f as u64) << 16) | lit as u64);
        let bit_count = bit_counts(&list, max_bits);
        let mut code: u16 = 0;
        let mut rest = list.len();
        for (n, &bits) in bit_count.iter().enumerate() {
            code <<= 1;
            if n == 0 || bits == 0 {
                continue;
            }
            let chunk = &mut list[rest - bits as usize..rest];
            insertion_sort(chunk, |&(lit, _)| lit as u64);
            for &(lit, _) in chunk.iter() {
                self.code[lit as usize] = reverse(code, n as u16);
                self.len[lit as usize] = n as u16;
                code += 1;
            }
            rest -= bits as usize;
        }
    }
}

/// At most 286 symbols: a plain insertion sort is quick enough and much smaller in the module
/// than the standard library's sorts.
fn insertion_sort(list: &mut [(u16, i32)], key: fn(&(u16, i32)) -> u64) {
    for i in 1..list.len() {
        let mut j = i;
        while j > 0 && key(&list[j - 1]) > key(&list[j]) {
            list.swap(j - 1, j);
            j -= 1;
        }
    }
}

fn reverse(v: u16, bits: u16) -> u16 {
    (v << (16 - bits)).reverse_bits()
}

/// Go's `bitCounts`: how many symbols get each length, for a list sorted by frequency (at least
/// three symbols).
fn bit_counts(list: &[(u16, i32)], mut max_bits: i32) -> Vec<i32> {
    const NONE: i32 = i32::MAX;
    let n = list.len() as i32;
    let freq = |i: i32| if i < n { list[i as usize].1 } else { NONE };
    max_bits = max_bits.min(n - 1);
    #[derive(Clone, Copy, Default)]
    struct Level {
        last_freq: i32,
        next_char_freq: i32,
        next_pair_freq: i32,
        needed: i32,
    }
    let mb = max_bits as usize;
    let mut levels = [Level::default(); 17];
    let mut leaf_counts = [[0i32; 17]; 17];
    for level in 1..=mb {
        levels[level] =
            Level { last_freq: freq(1), next_char_freq: freq(2), next_pair_freq: freq(0) + freq(1), needed: 0 };
        leaf_counts[level][level] = 2;
        if level == 1 {
            levels[level].next_pair_freq = NONE;
        }
    }
    levels[mb].needed = 2 * n - 4;
    let mut level = mb;
    loop {
        let l = levels[level];
        if l.next_pair_freq == NONE && l.next_char_freq == NONE {
            levels[level].needed = 0;
            levels[level + 1].next_pair_freq = NONE;
            level += 1;
            continue;
        }
        let prev_freq = l.last_freq;
        if l.next_char_freq < l.next_pair_freq {
            let k = leaf_counts[level][level] + 1;
            levels[level].last_freq = l.next_char_freq;
            leaf_counts[level][level] = k;
            levels[level].next_char_freq = freq(k);
        } else {
            levels[level].last_freq = l.next_pair_freq;
            let below = leaf_counts[level - 1];
            leaf_counts[level][..level].copy_from_slice(&below[..level]);
            levels[level - 1].needed = 2;
        }
        levels[level].needed -= 1;
        if levels[level].needed == 0 {
            if level == mb {
                break;
            }
            levels[level + 1].next_pair_freq = prev_freq + levels[level].last_freq;
            level += 1;
        } else {
            while levels[level - 1].needed > 0 {
                level -= 1;
            }
        }
    }
    let mut bit_count = vec![0i32; mb + 1];
    let counts = leaf_counts[mb];
    for (bits, level) in (1..=mb).zip((1..=mb).rev()) {
        bit_count[bits] = counts[level] - counts[level - 1];
    }
    bit_count
}

struct BitWriter {
    out: Vec<u8>,
    bits: u64,
    nbits: u32,
    literal_freq: Vec<i32>,
    offset_freq: Vec<i32>,
    codegen: Vec<u8>,
    codegen_freq: [i32; NUM_CODEGEN],
    literals: Code,
    offsets: Code,
    codegen_code: Code,
    fixed_literals: Code,
    fixed_offsets: Code,
}

impl BitWriter {
    fn new() -> BitWriter {
        BitWriter {
            out: Vec::new(),
            bits: 0,
            nbits: 0,
            literal_freq: vec![0; NUM_LIT],
            offset_freq: vec![0; NUM_OFFSETS],
            codegen: vec![0; NUM_LIT + NUM_OFFSETS + 1],
            codegen_freq: [0; NUM_CODEGEN],
            literals: Code::new(NUM_LIT),
            offsets: Code::new(NUM_OFFSETS),
            codegen_code: Code::new(NUM_CODEGEN),
            fixed_literals: Code::fixed_literals(),
            fixed_offsets: Code::fixed_offsets(),
        }
    }

    fn bits(&mut self, b: u32, nb: u32) {
        self.bits |= (b as u64) << self.nbits;
        self.nbits += nb;
        if self.nbits >= 48 {
            self.out.extend_from_slice(&self.bits.to_le_bytes()[..6]);
            self.bits >>= 48;
            self.nbits -= 48;
        }
    }

    fn flush(&mut self) {
        while self.nbits > 0 {
            self.out.push(self.bits as u8);
            self.bits >>= 8;
            self.nbits = self.nbits.saturating_sub(8);
        }
        self.bits = 0;
    }

    fn stored_header(&mut self, length: usize, eof: bool) {
        self.bits(eof as u32, 3);
        self.flush();
        self.bits(length as u32, 16);
        self.bits(!(length as u16) as u32, 16);
    }

    fn write_bytes(&mut self, bytes: &[u8]) {
        self.flush();
        self.out.extend_from_slice(bytes);
    }

    /// Go's `generateCodegen`: the run-length coded code lengths of both codes.
    fn generate_codegen(&mut self, num_literals: usize, num_offsets: usize) {
        self.codegen_freq = [0; NUM_CODEGEN];
        let cg = &mut self.codegen;
        let lens = self.literals.len[..num_literals].iter().chain(&self.offsets.len[..num_offsets]);
        for (c, &l) in cg.iter_mut().zip(lens) {
            *c = l as u8;
        }
        cg[num_literals + num_offsets] = BAD_CODE;
        let mut size = cg[0];
        let mut count: i32 = 1;
        let mut out = 0;
        let mut input = 1;
        let freq = &mut self.codegen_freq;
        while size != BAD_CODE {
            let next = cg[input];
            input += 1;
            if next == size {
                count += 1;
                continue;
            }
            if size != 0 {
                cg[out] = size;
                out += 1;
                freq[size as usize] += 1;
                count -= 1;
                while count >= 3 {
                    let n = count.min(6);
                    cg[out] = 16;
                    cg[out + 1] = (n - 3) as u8;
                    out += 2;
                    freq[16] += 1;
                    count -= n;
                }
            } else {
                while count >= 11 {
                    let n = count.min(138);
                    cg[out] = 18;
                    cg[out + 1] = (n - 11) as u8;
                    out += 2;
                    freq[18] += 1;
                    count -= n;
                }
                if count >= 3 {
                    cg[out] = 17;
                    cg[out + 1] = (count - 3) as u8;
                    out += 2;
                    freq[17] += 1;
                    count = 0;
                }
            }
            while count > 0 {
                cg[out] = size;
                out += 1;
                freq[size as usize] += 1;
                count -= 1;
            }
            size = next;
            count = 1;
        }
        cg[out] = BAD_CODE;
    }

    fn write_block(&mut self, tokens: &mut Vec<u32>, input: Option<&[u8]>) {
        tokens.push(END_BLOCK);
        // indexTokens
        self.literal_freq.iter_mut().for_each(|f| *f = 0);
        self.offset_freq.iter_mut().for_each(|f| *f = 0);
        for &t in tokens.iter() {
            if t < MATCH {
                self.literal_freq[t as usize] += 1;
            } else {
                self.literal_freq[LENGTH_CODES_START + code_of(&LENGTH_BASE, (t - MATCH) >> LENGTH_SHIFT)] += 1;
                self.offset_freq[offset_code(t & OFFSET_MASK)] += 1;
            }
        }
        let mut num_literals = NUM_LIT;
        while self.literal_freq[num_literals - 1] == 0 {
            num_literals -= 1;
        }
        let mut num_offsets = NUM_OFFSETS;
        while num_offsets > 0 && self.offset_freq[num_offsets - 1] == 0 {
            num_offsets -= 1;
        }
        if num_offsets == 0 {
            self.offset_freq[0] = 1;
            num_offsets = 1;
        }
        self.literals.generate(&self.literal_freq, 15);
        self.offsets.generate(&self.offset_freq, 15);

        let storable = input.filter(|i| i.len() <= MAX_STORED);
        let mut extra = 0;
        if storable.is_some() {
            for code in LENGTH_CODES_START + 8..num_literals {
                extra += self.literal_freq[code] as usize * LENGTH_EXTRA[code - LENGTH_CODES_START] as usize;
            }
            for (&f, &e) in self.offset_freq[..num_offsets].iter().zip(&OFFSET_EXTRA).skip(4) {
                extra += f as usize * e as usize;
            }
        }
        let fixed_size = 3
            + self.fixed_literals.bit_length(&self.literal_freq)
            + self.fixed_offsets.bit_length(&self.offset_freq)
            + extra;

        self.generate_codegen(num_literals, num_offsets);
        let cf = self.codegen_freq;
        self.codegen_code.generate(&cf, 7);
        let mut num_codegens = NUM_CODEGEN;
        while num_codegens > 4 && cf[CODEGEN_ORDER[num_codegens - 1]] == 0 {
            num_codegens -= 1;
        }
        let header = 3
            + 5
            + 5
            + 4
            + 3 * num_codegens
            + self.codegen_code.bit_length(&cf)
            + cf[16] as usize * 2
            + cf[17] as usize * 3
            + cf[18] as usize * 7;
        let dynamic_size =
            header + self.literals.bit_length(&self.literal_freq) + self.offsets.bit_length(&self.offset_freq) + extra;
        let dynamic = dynamic_size < fixed_size;
        let size = fixed_size.min(dynamic_size);

        if let Some(input) = storable {
            if (input.len() + 5) * 8 < size {
                self.stored_header(input.len(), false);
                self.write_bytes(input);
                return;
            }
        }
        if dynamic {
            self.bits(4, 3);
            self.bits((num_literals - 257) as u32, 5);
            self.bits((num_offsets - 1) as u32, 5);
            self.bits((num_codegens - 4) as u32, 4);
            for &o in &CODEGEN_ORDER[..num_codegens] {
                let l = self.codegen_code.len[o] as u32;
                self.bits(l, 3);
            }
            let mut i = 0;
            loop {
                let word = self.codegen[i];
                i += 1;
                if word == BAD_CODE {
                    break;
                }
                let (c, l) = (self.codegen_code.code[word as usize], self.codegen_code.len[word as usize]);
                self.bits(c as u32, l as u32);
                let extra_bits = match word {
                    16 => 2,
                    17 => 3,
                    18 => 7,
                    _ => continue,
                };
                let v = self.codegen[i] as u32;
                self.bits(v, extra_bits);
                i += 1;
            }
        } else {
            self.bits(2, 3);
        }
        let (lit, off) = if dynamic {
            (self.literals.clone(), self.offsets.clone())
        } else {
            (self.fixed_literals.clone(), self.fixed_offsets.clone())
        };
        for &t in tokens.iter() {
            if t < MATCH {
                self.bits(lit.code[t as usize] as u32, lit.len[t as usize] as u32);
                continue;
            }
            let length = (t - MATCH) >> LENGTH_SHIFT;
            let lc = code_of(&LENGTH_BASE, length);
            self.bits(lit.code[lc + LENGTH_CODES_START] as u32, lit.len[lc + LENGTH_CODES_START] as u32);
            if LENGTH_EXTRA[lc] > 0 {
                self.bits(length - LENGTH_BASE[lc], LENGTH_EXTRA[lc] as u32);
            }
            let offset = t & OFFSET_MASK;
            let oc = offset_code(offset);
            self.bits(off.code[oc] as u32, off.len[oc] as u32);
            if OFFSET_EXTRA[oc] > 0 {
                self.bits(offset - offset_base(oc), OFFSET_EXTRA[oc] as u32);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offset_bases_are_deflates() {
        let go = [
            0x0, 0x1, 0x2, 0x3, 0x4, 0x6, 0x8, 0xc, 0x10, 0x18, 0x20, 0x30, 0x40, 0x60, 0x80, 0xc0, 0x100, 0x180,
            0x200, 0x300, 0x400, 0x600, 0x800, 0xc00, 0x1000, 0x1800, 0x2000, 0x3000, 0x4000, 0x6000,
        ];
        for (c, &b) in go.iter().enumerate() {
            assert_eq!(offset_base(c), b);
        }
        assert_eq!(offset_code(32767), 29);
        assert_eq!(code_of(&LENGTH_BASE, 255), 28);
        assert_eq!(code_of(&LENGTH_BASE, 254), 27);
    }

    #[test]
    fn empty_input_is_gos() {
        assert_eq!(
            crate::eval::functions::encoding::base64_encode(&gzip(b"")),
            "H4sIAAAAAAAA/wAAAP//AQAA//8AAAAAAAAAAA=="
        );
    }
}
