package bpe

import (
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/condense-dev/condense/internal/testmode"
	"github.com/dlclark/regexp2/v2"
)

func pieces(e *Encoding, s string) []string {
	var out []string
	e.Split(s, func(p string) bool {
		out = append(out, p)
		return true
	})
	return out
}

func mustGet(t testing.TB, name string) *Encoding {
	t.Helper()
	e, err := Get(name)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// TestSplitExamples pins the subtle parts of the split patterns.
func TestSplitExamples(t *testing.T) {
	for _, tt := range []struct {
		name, s string
		want    []string
	}{
		// \s*[\r\n]+ runs to the last line break of a white-space run.
		{O200kBase, "a\n \nb", []string{"a", "\n \n", "b"}},
		{Cl100kBase, "a \n \nb", []string{"a", " \n \n", "b"}},
		{O200kBase, "today\n ", []string{"today", "\n", " "}},
		// \s+(?!\S) leaves the last space to the word after it, and takes
		// the whole run at the end of the text.
		{O200kBase, "a   b", []string{"a", "  ", " b"}},
		{O200kBase, "a\t\tb", []string{"a", "\t", "\tb"}},
		{Cl100kBase, "a   ", []string{"a", "   "}},
		{Cl100kBase, "a\n  ", []string{"a", "\n", "  "}},
		// A single space before punctuation belongs to it; before a
		// digit it stands alone.
		{O200kBase, "x (y) 12", []string{"x", " (", "y", ")", " ", "12"}},
		// \p{N}{1,3}.
		{Cl100kBase, "1234567", []string{"123", "456", "7"}},
		{O200kBase, "x²³¹⁴", []string{"x", "²³¹", "⁴"}},
		// o200k splits words at case changes; cl100k does not.
		{O200kBase, "XMLHttpRequest", []string{"XMLHttp", "Request"}},
		{Cl100kBase, "XMLHttpRequest", []string{"XMLHttpRequest"}},
		{O200kBase, "HTTP", []string{"HTTP"}},
		// Contractions: after a word in o200k (any case), on their own in
		// cl100k; U+017F (ſ) folds to s.
		{O200kBase, "DON'T we're", []string{"DON'T", " we're"}},
		{Cl100kBase, "DON'T we're", []string{"DON", "'T", " we", "'re"}},
		{O200kBase, "ー'ſ'da", []string{"ー'ſ", "'da"}},
		{Cl100kBase, "'ſa", []string{"'ſ", "a"}},
		// Marks are not letters but are in both o200k letter classes: a
		// mark after an upper-case run ends a match of the first
		// alternative, after the engine gives characters back.
		{O200kBase, "\u0301A ", []string{"\u0301", "A", " "}},
		{O200kBase, "AB\u0301C.", []string{"AB\u0301", "C", "."}},
		{Cl100kBase, "e\u0301t", []string{"e", "\u0301t"}},
		// Slashes and line breaks after punctuation.
		{O200kBase, "a //\n\nb", []string{"a", " //\n\n", "b"}},
		{Cl100kBase, "a //\n\nb", []string{"a", " //\n\n", "b"}},
		// DEL and other controls are punctuation to the patterns.
		{O200kBase, "x\x7f", []string{"x", "\x7f"}},
		{Cl100kBase, "\x00\x7f", []string{"\x00\x7f"}},
	} {
		if got := pieces(mustGet(t, tt.name), tt.s); !slices.Equal(got, tt.want) {
			t.Errorf("%s %q: %q, want %q", tt.name, tt.s, got, tt.want)
		}
	}
}

// regexpSplitter splits text with an official pattern on the regexp2
// engine, the backtracking engine tiktoken-go uses.
type regexpSplitter struct {
	re *regexp2.Regexp
	// fix corrects the known deviations of the engine from the reference
	// tokenizer (tiktoken, on Rust's fancy-regex), or reports that it
	// cannot (ok false: the text is not compared).
	fix func(s string, pieces []string) (fixed []string, ok bool)
}

// regexpSplitters returns the oracles FuzzPretokenize compares the scanner
// of encoding name with:
//
//   - the official pattern compiled by regexp2.Compile, which interprets
//     it. It has no known deviation from the reference.
//   - the same pattern from regexp2.MustCompile, which finds the matcher
//     that tiktoken-go v0.10.0 generated from it (regexp2cg) and registered
//     under it: what the previous counter ran. It has two known
//     deviations, which fixGenerated handles.
func regexpSplitters(t testing.TB, name string) []regexpSplitter {
	pattern := O200kPattern
	if name == Cl100kBase {
		pattern = Cl100kPattern
	}
	re, err := regexp2.Compile(pattern, regexp2.None)
	if err != nil {
		t.Fatal(err)
	}
	gen := regexp2.MustCompile(pattern, regexp2.None)
	for _, r := range []*regexp2.Regexp{re, gen} {
		r.MatchTimeout = 5 * time.Second
	}
	exact := func(_ string, p []string) ([]string, bool) { return p, true }
	return []regexpSplitter{{re, exact}, {gen, fixGenerated}}
}

// fixGenerated corrects the split of tiktoken-go's generated matcher:
//
//   - \s*[\r\n]+ stops at the first group of line breaks of a white-space
//     run, where backtracking reaches the last one: "\n \n" is split
//     "\n", " \n" instead of being one piece (so tiktoken-go counts
//     "a\n \nb" as 4 tokens, tiktoken as 3). The reference never has two
//     adjacent white-space pieces that end in a line break (the first
//     would have reached the second's line break), so such pieces are
//     joined.
//   - DEL (U+007F) matches no alternative, so it is in no piece (and
//     tiktoken-go drops it: "\x7f" counts 0 tokens, not 1). A text with a
//     DEL is not compared.
func fixGenerated(s string, pieces []string) ([]string, bool) {
	if strings.Contains(s, "\x7f") {
		return nil, false
	}
	breakRun := func(p string) bool {
		return p != "" && strings.TrimFunc(p, unicode.IsSpace) == "" && strings.ContainsAny(p[len(p)-1:], "\r\n")
	}
	var out []string
	for _, p := range pieces {
		if n := len(out); n > 0 && breakRun(p) && breakRun(out[n-1]) {
			out[n-1] += p
			continue
		}
		out = append(out, p)
	}
	return out, true
}

// split returns the pieces regexp2 finds in s, which must be valid UTF-8.
// Text between two matches, which no alternative matched, is returned as a
// piece too, after a "\xff" byte (never in valid UTF-8) that marks it.
func (r regexpSplitter) split(t testing.TB, s string) []string {
	var out []string
	at := 0
	m, err := r.re.FindStringMatch(s)
	for ; err == nil && m != nil; m, err = r.re.FindNextMatch(m) {
		i, n := m.ByteRange()
		if i > at {
			out = append(out, "\xff"+s[at:i])
		}
		out = append(out, s[i:i+n])
		at = i + n
	}
	if err != nil {
		t.Fatalf("regexp2 on %q: %v", s, err)
	}
	if at < len(s) {
		out = append(out, "\xff"+s[at:])
	}
	return out
}

// compare reports whether the scanner's pieces got for s are what the
// oracle gives, after its known deviations are corrected. skipped reports
// a text the oracle cannot be compared on.
func (r regexpSplitter) compare(t testing.TB, s string, got []string) (want []string, same, skipped bool) {
	want, ok := r.fix(s, r.split(t, s))
	if !ok {
		return nil, true, true
	}
	return want, slices.Equal(got, want), false
}

// splitSeeds are inputs for FuzzPretokenize: every subtle part of the two
// patterns, short.
var splitSeeds = []string{
	"", "a", "hello world", "Hello, World!", "don't", "DON'T", "We'Re", "I'm", "y'all'd've", "'s", "x'ſ", "ー'ſ'd",
	"a\n \nb", "\n \n", "today\n ", "a\n  ", "  \n  ", "a   b", "\t\tx", "x   ", "\r\n\r\n", " \r\n x",
	"12345", "x²³¹⁴", "٣٤٥", "Ⅻ", "1½",
	"XMLHttpRequest", "ǅungla", "ʰx", "ªb", "ΣΑΣ σας",
	"e\u0301", "\u0301A ", "AB\u0301C.", " \u0301", "\u0301\u0301", "a\u20ddb", "क्ष",
	"😀 👍🏽 🇺🇸", "中文文本", "日本語のテキスト", "한국어",
	"a //\n\nb", "x/*y*/", "\x00\x7f\x1b", "a\u00a0b", "x\u3000 y", "\u2028", "\u0085x", "\ufeff",
	"\xff\xfe", "a\xc3", "func f() {\n\treturn 1\n}\n",
}

// maxFuzzLen is the length, in bytes, to which FuzzPretokenize cuts its
// inputs.
const maxFuzzLen = 256

// FuzzPretokenize compares the hand-written scanners with the official
// split patterns run by regexp2 (see regexpSplitters, and fixGenerated for
// the deviations of one of them from the reference tokenizer). It also
// checks that the pieces are not empty and concatenate to the input, that
// Count is the number of ids Encode gives, and that the ids decode to the
// input.
func FuzzPretokenize(f *testing.F) {
	for _, s := range splitSeeds {
		f.Add(s)
	}
	type encoding struct {
		enc     *Encoding
		oracles []regexpSplitter
	}
	var encs []encoding
	for _, name := range []string{O200kBase, Cl100kBase} {
		encs = append(encs, encoding{mustGet(f, name), regexpSplitters(f, name)})
	}
	f.Fuzz(func(t *testing.T, s string) {
		// Long texts are the reference corpus's job: a backtracking engine
		// is slow on long white-space runs, and the fuzzer would spend its
		// time minimizing long inputs.
		s = s[:min(len(s), maxFuzzLen)]
		for _, e := range encs {
			name := e.enc.Name()
			got := pieces(e.enc, s)
			if strings.Join(got, "") != s {
				t.Fatalf("%s: pieces %q do not concatenate to %q", name, got, s)
			}
			if slices.Contains(got, "") {
				t.Fatalf("%s: empty piece in %q", name, got)
			}
			valid := validUTF8(s)
			ids := e.enc.Encode(s)
			if n := e.enc.Count(s); n != len(ids) {
				t.Fatalf("%s: Count(%q) = %d, Encode gives %d ids", name, s, n, len(ids))
			}
			if d, err := e.enc.Decode(ids); err != nil || d != valid {
				t.Fatalf("%s: ids of %q decode to %q, %v", name, s, d, err)
			}
			if s != valid {
				// regexp2 reads invalid UTF-8 as U+FFFD; compare on the
				// text Count and Encode see.
				s, got = valid, pieces(e.enc, valid)
			}
			for k, o := range e.oracles {
				if want, same, _ := o.compare(t, s, got); !same {
					t.Fatalf("%s %q:\n got  %q\n want %q (oracle %d)", name, s, got, want, k)
				}
			}
		}
	})
}

// TestSplitMatchesRegexp2 makes the comparison of FuzzPretokenize on every
// text of the reference corpus, and counts the texts where the generated
// matcher's deviations had to be corrected.
func TestSplitMatchesRegexp2(t *testing.T) {
	entries := loadReference(t)
	// regexp2 is slow under the race detector: there (outside
	// CONDENSE_TEST_LONG=1) each pair of encoding and oracle compares a
	// different fourth of the texts, so every text is still compared once.
	stride := testmode.Stride(4)
	pair := 0
	for _, name := range []string{O200kBase, Cl100kBase} {
		enc := mustGet(t, name)
		for k, o := range regexpSplitters(t, name) {
			fixed, skipped, compared := 0, 0, 0
			for i, e := range entries {
				if i%stride != pair%stride {
					continue
				}
				compared++
				got := pieces(enc, e.Text)
				want, same, skip := o.compare(t, e.Text, got)
				switch {
				case skip:
					skipped++
				case !same:
					t.Errorf("%s %s %q:\n got  %q\n want %q (oracle %d)", name, e.Source, e.Text, got, want, k)
				case !slices.Equal(o.split(t, e.Text), want):
					fixed++
				}
			}
			t.Logf("%s, oracle %d: %d of %d texts; corrected %d, skipped %d", name, k, compared, len(entries), fixed, skipped)
			pair++
		}
	}
}
