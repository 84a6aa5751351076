package bpe

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"os"
	"slices"
	"testing"
)

// referenceEntry is one line of testdata/reference.jsonl.gz: a text and the
// token ids the official tiktoken tokenizer gives it (testdata/reference
// has the script that writes the file, and says how to run it).
type referenceEntry struct {
	Source string   `json:"source"`
	Text   string   `json:"text"`
	O200k  []uint32 `json:"o200k_base"`
	Cl100k []uint32 `json:"cl100k_base"`
}

func loadReference(t testing.TB) []referenceEntry {
	t.Helper()
	f, err := os.Open("testdata/reference.jsonl.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var out []referenceEntry
	sc := bufio.NewScanner(z)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var e referenceEntry
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("line %d: %v", len(out)+1, err)
		}
		out = append(out, e)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(out) < 10000 {
		t.Fatalf("the reference has %d entries, want at least 10000", len(out))
	}
	return out
}

// TestReference checks that Encode gives the reference's token ids, and
// Count their number, for every entry of the reference corpus.
func TestReference(t *testing.T) {
	entries := loadReference(t)
	for _, name := range []string{O200kBase, Cl100kBase} {
		t.Run(name, func(t *testing.T) {
			enc, err := Get(name)
			if err != nil {
				t.Fatal(err)
			}
			failed, tokens := 0, 0
			for _, e := range entries {
				want := e.O200k
				if name == Cl100kBase {
					want = e.Cl100k
				}
				tokens += len(want)
				got := enc.Encode(e.Text)
				n := enc.Count(e.Text)
				if slices.Equal(got, want) && n == len(want) {
					continue
				}
				if failed++; failed > 20 {
					continue
				}
				i := 0
				for i < len(got) && i < len(want) && got[i] == want[i] {
					i++
				}
				g, _ := enc.Decode(got[i:min(len(got), i+3)])
				w, _ := enc.Decode(want[i:min(len(want), i+3)])
				t.Errorf("%s %q: %d ids (Count %d), want %d; from id %d got %v (%q), want %v (%q)",
					e.Source, e.Text, len(got), n, len(want), i, got[i:min(len(got), i+3)], g, want[i:min(len(want), i+3)], w)
			}
			if failed > 0 {
				t.Errorf("%d of %d entries differ from the reference", failed, len(entries))
			}
			t.Logf("%d entries, %d tokens", len(entries), tokens)
		})
	}
}

// TestVocabulary checks the vocabularies loaded from the tokenizer module:
// their sizes, and a few tokens whose ids are well known.
func TestVocabulary(t *testing.T) {
	for _, tt := range []struct {
		name   string
		size   int
		tokens map[string]uint32
	}{
		{O200kBase, 199998, map[string]uint32{"!": 0, "hello": 24912, " world": 2375, "\n": 198}},
		{Cl100kBase, 100256, map[string]uint32{"!": 0, "hello": 15339, " world": 1917, "\n": 198}},
	} {
		r := mustGet(t, tt.name).ranks
		if n := len(r.off) - 1; n != tt.size {
			t.Errorf("%s has %d tokens, want %d", tt.name, n, tt.size)
		}
		for tok, id := range tt.tokens {
			if got := r.lookup(tok, 0, len(tok)); got != id {
				t.Errorf("%s: %q has id %d, want %d", tt.name, tok, got, id)
			}
		}
	}
}
