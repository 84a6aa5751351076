package eval

import (
	"sort"

	"github.com/condense-dev/condense/ledger"
)

// maxLost is how many lost specifics a tally lists.
const maxLost = 5

// Tally counts how many specifics (or probes) were looked for and how many
// the rendering kept.
type Tally struct {
	Found    int `json:"found"`
	Retained int `json:"retained"`
	// Lost lists the first few that were not kept, secrets redacted
	// (ledger.Redact).
	Lost []string `json:"lost,omitempty"`
}

// Rate returns Retained/Found, or 1 when nothing was looked for.
func (t *Tally) Rate() float64 {
	if t.Found == 0 {
		return 1
	}
	return float64(t.Retained) / float64(t.Found)
}

func (t *Tally) count(text string, kept bool) {
	t.Found++
	if kept {
		t.Retained++
	} else if len(t.Lost) < maxLost {
		t.Lost = append(t.Lost, ledger.Redact(text))
	}
}

// Add adds o's counts to t (lost examples up to the cap).
func (t *Tally) Add(o Tally) {
	t.Found += o.Found
	t.Retained += o.Retained
	for _, l := range o.Lost {
		if len(t.Lost) >= maxLost {
			break
		}
		t.Lost = append(t.Lost, l)
	}
}

// Retention is how many specifics a rendering kept, per category and
// overall.
//
// Overall is the mean of the categories' rates (a macro average): every
// category that had something to look for counts the same, so thousands of
// identifiers from a test listing cannot drown the few hundred errors of
// the same session. ItemWeighted is the pooled rate over all items
// (Total.Rate), kept for comparison.
//
// A rendering that does not fit the window cannot be sent, so it keeps
// nothing: its tallies count every specific as lost and Unsent says why.
type Retention struct {
	Total      Tally            `json:"total"`
	ByCategory map[string]Tally `json:"by_category"`
	// Overall is the mean over categories of their retention rates; 1 when
	// nothing was looked for.
	Overall float64 `json:"overall"`
	// ItemWeighted is Total's rate: retained items over found items.
	ItemWeighted float64 `json:"item_weighted"`
	// Unsent counts the renderings scored as keeping nothing because they
	// did not fit the window (0 or 1 for one transcript; Aggregate sums).
	Unsent int `json:"unsent,omitempty"`
}

// Add adds o's counts to r: per category the items are pooled, and Overall
// is the mean over the pooled categories.
func (r *Retention) Add(o Retention) {
	r.Total.Add(o.Total)
	if r.ByCategory == nil {
		r.ByCategory = map[string]Tally{}
	}
	for k, v := range o.ByCategory {
		t := r.ByCategory[k]
		t.Add(v)
		r.ByCategory[k] = t
	}
	r.Unsent += o.Unsent
	r.score()
}

// Macro returns the mean of the rates of the categories that had something
// to look for, and 1 when none had. The categories are summed in sorted
// order, so the figure does not change in its last bits from run to run.
func (r *Retention) Macro() float64 {
	sum, n := 0.0, 0
	for _, k := range r.Keys() {
		if t := r.ByCategory[k]; t.Found > 0 {
			sum += t.Rate()
			n++
		}
	}
	if n == 0 {
		return 1
	}
	return sum / float64(n)
}

// score sets Overall and ItemWeighted from the tallies.
func (r *Retention) score() {
	r.Overall = r.Macro()
	r.ItemWeighted = r.Total.Rate()
}

// Keys returns the categories of r, sorted.
func (r *Retention) Keys() []string {
	keys := make([]string, 0, len(r.ByCategory))
	for k := range r.ByCategory {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Measure counts the specifics that appear verbatim in the rendering
// indexed by idx. A nil idx is a rendering that was not sent (it did not
// fit the window): nothing is retained and Unsent is 1.
func Measure(specifics []Specific, idx *Index) Retention {
	r := Retention{ByCategory: map[string]Tally{}}
	for _, c := range Categories {
		r.ByCategory[string(c)] = Tally{}
	}
	for _, s := range specifics {
		kept := idx != nil && idx.Contains(s.Text)
		r.Total.count(s.Text, kept)
		t := r.ByCategory[string(s.Category)]
		t.count(s.Text, kept)
		r.ByCategory[string(s.Category)] = t
	}
	if idx == nil {
		r.Unsent = 1
	}
	r.score()
	return r
}
