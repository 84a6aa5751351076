package strategytest_test

import (
	"context"
	"flag"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/strategy/strategytest"
)

func TestMain(m *testing.M) {
	flag.Parse()
	// The broken strategies below fail on purpose: write no fail files for
	// them and spend little time shrinking their cases.
	setUnlessGiven("rapid.nofailfile", "true")
	setUnlessGiven("rapid.shrinktime", "1s")
	os.Exit(m.Run())
}

func setUnlessGiven(name, value string) {
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == name })
	if !given {
		if err := flag.Set(name, value); err != nil {
			panic(err)
		}
	}
}

// keepRecentSteps is the custom strategy of the package documentation: it
// drops every step but the newest n, keeping any step that holds a message
// the strategy must not touch.
func keepRecentSteps(n int) condense.Strategy {
	return condense.Func("keep-recent-steps", func(_ context.Context, cc *condense.CompactionContext) ([]condense.Message, error) {
		cur := cc.Current
		protected := cur.Protected()
		steps := cur.Steps()
		drop := make([]bool, len(cur))
		for _, s := range steps[:max(0, len(steps)-n)] {
			if !slices.Contains(protected[s.Start:s.End], true) {
				for i := s.Start; i < s.End; i++ {
					drop[i] = true
				}
			}
		}
		var out []condense.Message
		for i := range cur {
			if !drop[i] {
				out = append(out, cur[i].Message)
			}
		}
		return out, nil
	})
}

func TestCustomStrategy(t *testing.T) {
	strategytest.Run(t, func() condense.Strategy { return keepRecentSteps(4) })
}

// recorder is a strategytest.TB that records what the kit reports instead
// of failing the test that runs it.
type recorder struct {
	mu     sync.Mutex
	failed bool
	errors []string
}

func (r *recorder) Helper()             {}
func (r *recorder) Name() string        { return "recorder" }
func (r *recorder) Logf(string, ...any) {}
func (r *recorder) Log(...any)          {}
func (r *recorder) Skipf(f string, a ...any) {
	r.Errorf("skipped: "+f, a...)
	runtime.Goexit()
}
func (r *recorder) Skip(a ...any) { r.Skipf("%s", fmt.Sprint(a...)) }
func (r *recorder) SkipNow()      { r.Skipf("SkipNow") }
func (r *recorder) Errorf(f string, a ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.failed = true
	r.errors = append(r.errors, fmt.Sprintf(f, a...))
}
func (r *recorder) Error(a ...any)            { r.Errorf("%s", fmt.Sprint(a...)) }
func (r *recorder) Fatalf(f string, a ...any) { r.Errorf(f, a...); r.FailNow() }
func (r *recorder) Fatal(a ...any)            { r.Error(a...); r.FailNow() }
func (r *recorder) FailNow()                  { r.Fail(); runtime.Goexit() }
func (r *recorder) Fail() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.failed = true
}
func (r *recorder) Failed() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.failed
}

// record runs check on a recorder, in a goroutine of its own so that
// FailNow can end it, and returns the recorder.
func record(check func(strategytest.TB)) *recorder {
	r := &recorder{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		check(r)
	}()
	<-done
	return r
}

// editFunc adapts a function that edits the current rendering in place
// (on a copy) to a strategy.
type editFunc struct {
	name string
	edit func(cc *condense.CompactionContext, r condense.Rendering) condense.Rendering
}

func (s editFunc) Name() string { return s.name }

func (s editFunc) Compact(_ context.Context, cc *condense.CompactionContext) (*condense.Candidate, error) {
	r := s.edit(cc, cc.Current.Clone())
	if r == nil {
		return nil, condense.ErrNothingToCompact
	}
	return &condense.Candidate{Rendering: r}, nil
}

// oldest returns the position of the first unprotected item of r with the
// given role, or -1.
func oldest(r condense.Rendering, role condense.Role) int {
	prot := r.Protected()
	for i := range r {
		if !prot[i] && r[i].Index >= 0 && r[i].Message.Role == role {
			return i
		}
	}
	return -1
}

var runs atomic.Int64

// numbered adds to what its strategy does a note with a number that grows
// run after run.
type numbered struct{ condense.Strategy }

func (s numbered) Compact(ctx context.Context, cc *condense.CompactionContext) (*condense.Candidate, error) {
	cand, err := s.Strategy.Compact(ctx, cc)
	if err != nil || cand == nil || cand.Rendering.Equal(cc.Current) {
		return cand, err
	}
	note := condense.Item{Index: -1, Edit: condense.EditSynthetic, Message: condense.UserText(fmt.Sprintf("(run %d)", runs.Add(1)))}
	cand.Rendering = slices.Insert(cand.Rendering, 1, note)
	return cand, nil
}

// broken are strategies that each break one rule, with what the kit must
// say about it.
var broken = []struct {
	name     string
	strategy func() condense.Strategy
	want     string
}{
	{"drops a tool result", func() condense.Strategy {
		return editFunc{"drop-result", func(_ *condense.CompactionContext, r condense.Rendering) condense.Rendering {
			i := oldest(r, condense.RoleTool)
			if i < 0 {
				return nil
			}
			return slices.Delete(r, i, i+1)
		}}
	}, "turn safety"},
	{"rewrites the task", func() condense.Strategy {
		return condense.Func("rewrite-task", func(_ context.Context, cc *condense.CompactionContext) ([]condense.Message, error) {
			msgs := cc.Current.Messages()
			msgs[0] = condense.UserText("a shorter task")
			return msgs, nil
		})
	}, "the task"},
	{"edits the caller's history", func() condense.Strategy {
		return editFunc{"edit-history", func(cc *condense.CompactionContext, r condense.Rendering) condense.Rendering {
			for i := range cc.History {
				for k := range cc.History[i].Parts {
					if p := &cc.History[i].Parts[k]; p.Type == condense.PartText {
						p.Text = strings.ToUpper(p.Text) // in place: the caller's parts
					}
				}
			}
			return nil
		}}
	}, "modified"},
	{"is not deterministic", func() condense.Strategy { return numbered{keepRecentSteps(1)} }, "not deterministic"},
	{"masks without a ledger", func() condense.Strategy {
		return editFunc{"mask-no-ledger", func(_ *condense.CompactionContext, r condense.Rendering) condense.Rendering {
			prot := r.Protected()
			changed := false
			for i := range r {
				it := &r[i]
				if prot[i] || it.Index < 0 || it.Message.Role != condense.RoleTool {
					continue
				}
				parts := slices.Clone(it.Message.Parts)
				for k := range parts {
					parts[k].Content = []condense.Part{condense.Text("[condense: tool output masked]")}
				}
				*it = condense.Item{Index: it.Index, Edit: condense.EditMasked, Message: condense.Message{ID: it.Message.ID, Role: condense.RoleTool, Parts: parts}}
				changed = true
			}
			if !changed {
				return nil
			}
			return r
		}}
	}, "ledger items"},
}

// TestKitFailsBrokenStrategies runs the kit on strategies that each break
// one rule, on a recorder: the kit must fail each, saying why.
func TestKitFailsBrokenStrategies(t *testing.T) {
	for _, b := range broken {
		t.Run(b.name, func(t *testing.T) {
			r := record(func(tb strategytest.TB) { strategytest.Check(tb, b.strategy, strategytest.Cases(50)) })
			if !r.Failed() {
				t.Fatalf("the kit passed a strategy that %s", b.name)
			}
			all := strings.Join(r.errors, "\n")
			if !strings.Contains(all, b.want) {
				t.Fatalf("the kit failed the strategy, but not for %q:\n%.2000s", b.want, all)
			}
		})
	}
}

// TestKitPassesTheRecorder makes sure the recorder itself lets a good
// strategy pass, so the failures above are the kit's.
func TestKitPassesTheRecorder(t *testing.T) {
	r := record(func(tb strategytest.TB) {
		strategytest.Check(tb, func() condense.Strategy { return keepRecentSteps(2) }, strategytest.Cases(3))
	})
	if r.Failed() {
		t.Fatalf("a good strategy failed:\n%.2000s", strings.Join(r.errors, "\n"))
	}
}
