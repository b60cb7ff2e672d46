// Dumps what Go's golang.org/x/text encodings do, as Terraform's textencodebase64 and
// textdecodebase64 use them (ianaindex.IANA, NewEncoder().Bytes, NewDecoder().Bytes), into
// tfgraph's encoding data file. Run by scripts/gen-encodings; see there.
//
// Every table comes from running x/text itself, not from reading its tables: each state's
// decodings of every 1-, 2- and (EUC-JP's 0x8F) 3-byte sequence, and the encoding of every code
// point. The file keeps the decode tables and only the encodings that differ from their inverse.
package main

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/ianaindex"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/unicode/norm"
)

// The encodings tfgraph implements itself (src/eval/functions/encoding_text.rs); every other
// encoding ianaindex gives goes into the file, in the order of ianaindex's own table.
var builtin = map[string]bool{
	"US-ASCII": true, "UTF-8": true, "UTF-16": true, "UTF-16BE": true, "UTF-16LE": true,
	"ISO_8859-1:1987": true, "ISO_8859-9:1989": true, "windows-1252": true,
}

type entry struct {
	seq []byte
	out []rune
}

type table struct{ entries []entry }

var twoChars = map[string]int{}

type enc struct {
	name    string
	e       encoding.Encoding
	aliases []string
	states  [][]byte // the prefix that puts the decoder in each state
}

func decode(e encoding.Encoding, b []byte) ([]rune, bool) {
	out, err := e.NewDecoder().Bytes(b)
	if err != nil || bytes.ContainsRune(out, utf8.RuneError) {
		return nil, false
	}
	return []rune(string(out)), true
}

func encodeRune(e encoding.Encoding, r rune) ([]byte, bool) {
	out, err := e.NewEncoder().Bytes([]byte(string(r)))
	if err != nil {
		return nil, false
	}
	return out, true
}

func main() {
	src, err := os.ReadFile(os.Args[1] + "/encoding/ianaindex/tables.go")
	check(err)
	// Every key of ianaAliases: the names ianaindex knows (some without an encoding).
	block := string(src[bytes.Index(src, []byte("var ianaAliases")):])
	block = block[:strings.Index(block, "\n}")]
	var names []string
	for _, m := range regexp.MustCompile(`"([^"]+)":`).FindAllStringSubmatch(block, -1) {
		names = append(names, m[1])
	}
	sort.Strings(names)

	var encs []*enc
	byName := map[string]*enc{}
	var unsupported []string
	var all []*enc
	for _, n := range names {
		e, err := ianaindex.IANA.Encoding(n)
		if err != nil || e == nil {
			unsupported = append(unsupported, n)
			continue
		}
		canon, err := ianaindex.IANA.Name(e)
		if err != nil {
			panic("no name for " + n) // Terraform would then print the name as given
		}
		x := byName[canon]
		if x == nil {
			x = &enc{name: canon, e: e}
			byName[canon] = x
			all = append(all, x)
		}
		x.aliases = append(x.aliases, n)
	}
	sort.Slice(all, func(i, j int) bool { return all[i].name < all[j].name })
	for _, x := range all {
		if !builtin[x.name] {
			encs = append(encs, x)
		}
	}

	var file bytes.Buffer
	file.WriteString("TFENC1\n")
	putU(&file, uint64(len(encs)))
	var seen [][]byte // state tables already written, for references
	summary := []string{}
	for _, x := range encs {
		x.states = [][]byte{nil}
		switch x.name {
		case "ISO-2022-JP":
			// ascii, katakana, JIS X 0208, JIS X 0212 (src/eval/functions/encoding_text_tables.rs)
			x.states = [][]byte{nil, []byte("\x1b(I"), []byte("\x1b$B"), []byte("\x1b$(D")}
		case "HZ-GB-2312":
			x.states = [][]byte{nil, []byte("~{")}
		}
		var tables []table
		for _, prefix := range x.states {
			tables = append(tables, dumpState(x, prefix))
		}
		encoded := map[rune][]byte{}
		for r := rune(0); r < 0x110000; r++ {
			if r >= 0xD800 && r < 0xE000 {
				continue
			}
			if got, ok := encodeRune(x.e, r); ok {
				if w := splitState(x, r, got); w != nil {
					encoded[r] = w
				}
			}
		}
		// The encoder's choice among several sequences of one character: the first or the last
		// sequence, whichever leaves fewer exceptions (flag 0 or 1 in the file).
		last := 0
		inverse := invert(tables, false)
		if a, b := offs(encoded, inverse), offs(encoded, invert(tables, true)); b < a {
			last, inverse = 1, invert(tables, true)
		}
		putU(&file, uint64(len(x.states)))
		putU(&file, uint64(last))
		n := 0
		for _, t := range tables {
			n += len(t.entries)
			raw := tableBytes(t)
			ref := 0
			for i, s := range seen {
				if bytes.Equal(s, raw) {
					ref = i + 1
				}
			}
			putU(&file, uint64(ref))
			if ref == 0 {
				seen = append(seen, raw)
				file.Write(raw)
			}
		}
		// Encodings: every code point, alone, against the inverse of the decode tables.
		var over bytes.Buffer
		count, prev := 0, rune(0)
		for r := rune(0); r < 0x110000; r++ {
			want := encoded[r] // state, bytes; nil: unmappable
			if bytes.Equal(want, inverse[r]) {
				continue
			}
			putU(&over, uint64(r-prev))
			prev = r
			putU(&over, uint64(len(want)))
			over.Write(want)
			count++
		}
		putU(&file, uint64(count))
		file.Write(over.Bytes())
		summary = append(summary, fmt.Sprintf("%s: %d decodings, %d encodings off the inverse", x.name, n, count))
	}
	// GB18030's four-byte sequences below index 39420: (index, code point) where the
	// difference changes. (Above, index 189000 is U+10000, in encoding_text_tables.rs.)
	var ranges [][2]int
	for i := 0; i < 39420; i++ {
		b := []byte{byte(0x81 + i/12600), byte(0x30 + i/1260%10), byte(0x81 + i/10%126), byte(0x30 + i%10)}
		raw, err := simplifiedchinese.GB18030.NewDecoder().Bytes(b) // index 39419 is U+FFFD itself
		out := []rune(string(raw))
		if err != nil || len(out) != 1 {
			panic(fmt.Sprint("GB18030 four bytes ", b))
		}
		if len(ranges) == 0 || int(out[0])-i != ranges[len(ranges)-1][1]-ranges[len(ranges)-1][0] {
			ranges = append(ranges, [2]int{i, int(out[0])})
		}
	}
	putU(&file, uint64(len(ranges)))
	for _, r := range ranges {
		putU(&file, uint64(r[0]))
		putU(&file, uint64(r[1]))
	}
	check(os.WriteFile(os.Args[2], file.Bytes(), 0o644))
	fmt.Fprintln(os.Stderr, "sequences decoding to two characters:", twoChars)
	for _, s := range summary {
		fmt.Fprintln(os.Stderr, s)
	}

	// The name table for Rust, and the unsupported names.
	var rs strings.Builder
	for _, x := range all {
		fmt.Fprintf(&rs, "    (%q, %q),\n", x.name, strings.Join(x.aliases, " "))
	}
	check(os.WriteFile(os.Args[3], []byte(rs.String()), 0o644))

	// Differential cases: random text and bytes through every encoding, with x/text's answers.
	writeCases(os.Args[4], all, unsupported)
}

// invert: each character's sequence in the decode tables (state first), the first or last one.
func invert(tables []table, last bool) map[rune][]byte {
	inv := map[rune][]byte{}
	for si, t := range tables {
		for _, en := range t.entries {
			if len(en.out) == 1 {
				if _, ok := inv[en.out[0]]; !ok || last {
					inv[en.out[0]] = append([]byte{byte(si)}, en.seq...)
				}
			}
		}
	}
	return inv
}

func offs(encoded, inverse map[rune][]byte) int {
	n := 0
	for r, w := range encoded {
		if !bytes.Equal(w, inverse[r]) {
			n++
		}
	}
	for r := range inverse {
		if encoded[r] == nil {
			n++
		}
	}
	return n
}

// dumpState decodes every 1-byte sequence, then every 2-byte sequence whose first byte does not
// decode alone, then (EUC-JP) every 3-byte one whose first two do not, after `prefix`.
func dumpState(x *enc, prefix []byte) table {
	var t table
	with := func(b ...byte) ([]rune, bool) { return decode(x.e, append(append([]byte{}, prefix...), b...)) }
	// In a shifted state the prefix alone decodes to nothing.
	singleOK := [256]bool{}
	for c0 := 0; c0 < 256; c0++ {
		if out, ok := with(byte(c0)); ok && len(out) == 1 {
			t.entries = append(t.entries, entry{[]byte{byte(c0)}, out})
			singleOK[c0] = true
		}
	}
	for c0 := 0; c0 < 256; c0++ {
		if singleOK[c0] {
			continue
		}
		pairOK := [256]bool{}
		for c1 := 0; c1 < 256; c1++ {
			// Two characters from two bytes: Big5's four HKSCS sequences (0x8862 is U+00CA U+0304).
			if out, ok := with(byte(c0), byte(c1)); ok && len(out) >= 1 && len(out) <= 2 {
				if len(out) == 2 {
					twoChars[x.name]++
				}
				t.entries = append(t.entries, entry{[]byte{byte(c0), byte(c1)}, out})
				pairOK[c1] = true
			}
		}
		if x.name == "Extended_UNIX_Code_Packed_Format_for_Japanese" && c0 == 0x8F {
			for c1 := 0; c1 < 256; c1++ {
				for c2 := 0; c2 < 256; c2++ {
					if out, ok := with(byte(c0), byte(c1), byte(c2)); ok && len(out) == 1 && !pairOK[c1] {
						t.entries = append(t.entries, entry{[]byte{byte(c0), byte(c1), byte(c2)}, out})
					}
				}
			}
		}
	}
	// By length, then bytes: the order the file's differences and the inverse's rule assume.
	sort.SliceStable(t.entries, func(i, j int) bool {
		a, b := t.entries[i].seq, t.entries[j].seq
		if len(a) != len(b) {
			return len(a) < len(b)
		}
		return bytes.Compare(a, b) < 0
	})
	return t
}

// splitState turns one code point's encoder output into (state, bytes): ISO-2022-JP's and
// HZ-GB-2312's escapes name the state; every other encoding has one.
func splitState(x *enc, r rune, b []byte) []byte {
	switch x.name {
	case "ISO-2022-JP":
		for si, p := range x.states {
			if si > 0 && bytes.HasPrefix(b, p) {
				return append([]byte{byte(si)}, bytes.TrimSuffix(b[len(p):], []byte("\x1b(B"))...)
			}
		}
	case "HZ-GB-2312":
		if bytes.HasPrefix(b, []byte("~{")) {
			return append([]byte{1}, b[2:]...)
		}
	case "GB18030":
		if len(b) == 4 {
			return nil // four bytes: computed from the ranges, not stored
		}
	}
	return append([]byte{0}, b...)
}

// tableBytes: the entries by sequence, each as the sequence's difference from the last (times
// two, plus one when a second character follows), the first character's difference from the
// last, and the second character.
func tableBytes(t table) []byte {
	var b bytes.Buffer
	putU(&b, uint64(len(t.entries)))
	lastSeq, lastR := uint64(0), int64(0)
	for _, e := range t.entries {
		seq := uint64(len(e.seq)) << 24
		for i, c := range e.seq {
			seq |= uint64(c) << (8 * uint(len(e.seq)-1-i))
		}
		d := (seq - lastSeq) * 2
		if len(e.out) == 2 {
			d++
		}
		putU(&b, d)
		lastSeq = seq
		putI(&b, int64(e.out[0])-lastR)
		lastR = int64(e.out[0])
		if len(e.out) == 2 {
			putU(&b, uint64(e.out[1]))
		}
	}
	return b.Bytes()
}

func putU(b *bytes.Buffer, v uint64) {
	var tmp [binary.MaxVarintLen64]byte
	b.Write(tmp[:binary.PutUvarint(tmp[:], v)])
}

func putI(b *bytes.Buffer, v int64) {
	var tmp [binary.MaxVarintLen64]byte
	b.Write(tmp[:binary.PutVarint(tmp[:], v)])
}

type testCase struct {
	Fn       string `json:"fn"`
	Input    string `json:"input"` // text to encode, or base64 to decode
	Encoding string `json:"encoding"`
	Result   string `json:"result,omitempty"`
	Error    bool   `json:"error,omitempty"`
}

func writeCases(path string, all []*enc, unsupported []string) {
	rng := rand.New(rand.NewSource(25))
	var cases []testCase
	for _, x := range all {
		// Characters the encoding has, and some it may not have.
		var pool []rune
		for r := rune(0); r < 0x30000; r++ {
			if r >= 0xD800 && r < 0xE000 {
				continue
			}
			if _, ok := encodeRune(x.e, r); ok {
				pool = append(pool, r)
			}
		}
		for i := 0; i < 10; i++ {
			var s []rune
			for j := 0; j < 1+rng.Intn(6); j++ {
				if rng.Intn(10) == 0 {
					s = append(s, rune(0x80+rng.Intn(0x2FF80)))
				} else {
					s = append(s, pool[rng.Intn(len(pool))])
				}
				if s[len(s)-1] >= 0xD800 && s[len(s)-1] < 0xE000 {
					s[len(s)-1] = 'x'
				}
			}
			in := norm.NFC.String(string(s))
			c := testCase{Fn: "textencodebase64", Input: in, Encoding: x.aliases[rng.Intn(len(x.aliases))]}
			if out, err := x.e.NewEncoder().Bytes([]byte(in)); err == nil {
				c.Result = b64(out)
				// and back
				if back, ok := decode(x.e, out); ok {
					cases = append(cases, testCase{Fn: "textdecodebase64", Input: c.Result, Encoding: x.name, Result: norm.NFC.String(string(back))})
				}
			} else {
				c.Error = true
			}
			cases = append(cases, c)
		}
		for i := 0; i < 14; i++ {
			b := make([]byte, 1+rng.Intn(6))
			for j := range b {
				switch rng.Intn(3) {
				case 0:
					b[j] = byte(0x20 + rng.Intn(0x60))
				default:
					b[j] = byte(0x80 + rng.Intn(0x80))
				}
			}
			if x.name == "ISO-2022-JP" && i%2 == 0 {
				b = append([]byte("\x1b$B"), b...)
				for j := 3; j < len(b); j++ {
					b[j] &= 0x7F
				}
			}
			if x.name == "HZ-GB-2312" && i%2 == 0 {
				b = append([]byte("~{"), b...)
				for j := 2; j < len(b); j++ {
					b[j] &= 0x7F
				}
			}
			c := testCase{Fn: "textdecodebase64", Input: b64(b), Encoding: x.name}
			if out, ok := decode(x.e, b); ok {
				c.Result = norm.NFC.String(string(out))
			} else {
				c.Error = true
			}
			cases = append(cases, c)
		}
	}
	for _, n := range unsupported {
		cases = append(cases, testCase{Fn: "textencodebase64", Input: "x", Encoding: n, Error: true})
	}
	out, err := json.MarshalIndent(cases, "", " ")
	check(err)
	check(os.WriteFile(path, append(out, '\n'), 0o644))
}

func b64(b []byte) string {
	const a = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	var s strings.Builder
	for i := 0; i < len(b); i += 3 {
		n := uint(b[i]) << 16
		k := 1
		if i+1 < len(b) {
			n |= uint(b[i+1]) << 8
			k++
		}
		if i+2 < len(b) {
			n |= uint(b[i+2])
			k++
		}
		for j := 0; j < 4; j++ {
			if j <= k {
				s.WriteByte(a[(n>>(18-6*uint(j)))&63])
			} else {
				s.WriteByte('=')
			}
		}
	}
	return s.String()
}

func check(err error) {
	if err != nil {
		panic(err)
	}
}
