package eval

import "sort"

// maxLost is how many lost specifics a tally lists.
const maxLost = 5

// Tally counts how many specifics (or probes) were looked for and how many
// the rendering kept.
type Tally struct {
	Found    int `json:"found"`
	Retained int `json:"retained"`
	// Lost lists the first few that were not kept.
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
		t.Lost = append(t.Lost, text)
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

// Retention is how many specifics a rendering kept, in total and per
// category.
type Retention struct {
	Total      Tally            `json:"total"`
	ByCategory map[string]Tally `json:"by_category"`
}

// Add adds o's counts to r.
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
// indexed by idx.
func Measure(specifics []Specific, idx *Index) Retention {
	r := Retention{ByCategory: map[string]Tally{}}
	for _, c := range Categories {
		r.ByCategory[string(c)] = Tally{}
	}
	for _, s := range specifics {
		kept := idx.Contains(s.Text)
		r.Total.count(s.Text, kept)
		t := r.ByCategory[string(s.Category)]
		t.count(s.Text, kept)
		r.ByCategory[string(s.Category)] = t
	}
	return r
}
