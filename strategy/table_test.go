package strategy_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/strategy"
	"github.com/condense-dev/condense/tokens"
)

// caseStrategies names the strategies the testdata cases use.
var caseStrategies = map[string]condense.Strategy{
	"mask":                         strategy.Mask{},
	"mask-2":                       strategy.Mask{KeepSteps: 2},
	"drop-oldest":                  strategy.DropOldest{KeepRecent: 4},
	"clear-tool-uses-exclude-read": strategy.ClearToolUses{KeepToolUses: 2, Exclude: []string{"read_file"}, ClearInputs: true},
	"minify":                       strategy.Minify{},
	"summarize":                    strategy.Summarize{},
	"segments-lossy":               strategy.Segments{Mode: strategy.Lossy},
	"pipeline":                     strategy.Default(),
}

type caseSettings struct {
	Strategy  string `json:"strategy"`
	Window    int    `json:"window"`
	Emergency bool   `json:"emergency"`
}

// caseResult is what a case's want.json holds: the rendered request and its
// source map.
type caseResult struct {
	Records   []condense.Record `json:"records"`
	SourceMap []sourceEntry     `json:"source_map"`
	Request   json.RawMessage   `json:"request"`
}

type sourceEntry struct {
	Index  int           `json:"index"`
	Edit   condense.Edit `json:"edit,omitempty"`
	Covers []int         `json:"covers,omitempty"`
}

// TestCases runs each case under testdata/cases: input.json (condense JSON)
// compacted with settings.json must render exactly want.json. Run with
// -update to rewrite the want files after checking a change.
func TestCases(t *testing.T) {
	dirs, err := filepath.Glob(filepath.Join("testdata", "cases", "*"))
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no cases: %v", err)
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			raw, err := os.ReadFile(filepath.Join(dir, "input.json"))
			if err != nil {
				t.Fatal(err)
			}
			doc, err := condense.ParseDocument(raw)
			if err != nil {
				t.Fatal(err)
			}
			var set caseSettings
			sraw, err := os.ReadFile(filepath.Join(dir, "settings.json"))
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(sraw, &set); err != nil {
				t.Fatal(err)
			}
			s, ok := caseStrategies[set.Strategy]
			if !ok {
				t.Fatalf("unknown strategy %q", set.Strategy)
			}
			pf := condense.NewPreflight(tokens.Heuristic("anthropic"), s, &condense.Options{
				Settings: condense.Settings{Window: set.Window, ReservedOutput: 500}, Logger: quiet})
			var opts []condense.CallOption
			if set.Emergency {
				opts = append(opts, condense.WithEmergency())
			}
			res, err := pf.Compact(context.Background(), doc.Request(), opts...)
			if err != nil {
				t.Fatalf("Compact: %v", err)
			}
			if err := condense.Validate(res.Request.Messages); err != nil {
				t.Fatalf("turn safety: %v", err)
			}
			got := caseResult{Records: res.Records}
			for i := range got.Records {
				got.Records[i].Duration = 0
			}
			for _, it := range res.Rendering {
				e := sourceEntry{Index: it.Index, Edit: it.Edit}
				if it.Covers.Len() > 0 {
					e.Covers = []int{it.Covers.Start, it.Covers.End - 1}
				}
				got.SourceMap = append(got.SourceMap, e)
			}
			got.Request, _ = json.Marshal(condense.DocumentOf(res.Request))
			var buf bytes.Buffer
			enc := json.NewEncoder(&buf)
			enc.SetIndent("", " ")
			enc.SetEscapeHTML(false)
			if err := enc.Encode(got); err != nil {
				t.Fatal(err)
			}
			wantPath := filepath.Join(dir, "want.json")
			if *update {
				if err := os.WriteFile(wantPath, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(wantPath)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if !bytes.Equal(want, buf.Bytes()) {
				t.Fatalf("rendering differs from %s; rerun with -update after checking the diff", wantPath)
			}
		})
	}
}
