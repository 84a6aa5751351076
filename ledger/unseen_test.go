package ledger

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/condense-dev/condense"
)

// unseenCase is a case of testdata/unseen: a tool's output (with the
// command that printed it) or a message, with one specific planted in it.
type unseenCase struct {
	ID, Category, Source, Command, Output, Text, Probe string
	// Tool and Input are the call of a tool other than a shell: the
	// tool's name and its JSON arguments. With source "tool-input" the
	// probe is in one of the arguments (a file the agent writes, a note it
	// posts); with source "tool" it is in what the tool returned.
	Tool  string
	Input json.RawMessage
}

// haystack returns every text of c the probe may be in: the output, the
// message and each string argument of the call.
func (c unseenCase) haystack() string {
	var b strings.Builder
	b.WriteString(c.Output)
	b.WriteString(c.Text)
	var in any
	if json.Unmarshal(c.Input, &in) == nil {
		walkStrings(in, func(s string) { b.WriteString("\x00" + s) })
	}
	return b.String()
}

// unseenKept reports whether the probe of c is in an item extracted from
// the few messages that hold it. A failing command's output is reported
// as an error, as agent harnesses report a non-zero exit.
func unseenKept(c unseenCase) bool {
	return slices.ContainsFunc(unseenItems(c), func(it Item) bool { return strings.Contains(it.Value, c.Probe) })
}

// unseenItems returns the items extracted from the few messages that hold
// the case's text.
func unseenItems(c unseenCase) []Item {
	body := c.Output
	if body == "" {
		body = c.Text
	}
	msgs := []condense.Message{condense.UserText("Please fix the service.")}
	switch c.Source {
	case "assistant":
		msgs = append(msgs, condense.AssistantText(body))
	case "user":
		msgs = append(msgs, condense.UserText(body))
	default:
		name, in := "bash", c.Input
		if c.Tool != "" {
			name = c.Tool
		} else {
			in, _ = json.Marshal(map[string]string{"command": c.Command})
		}
		failed := c.Category == "error" && c.Source != "tool-input"
		msgs = append(msgs,
			condense.Message{Role: condense.RoleAssistant, Parts: []condense.Part{condense.ToolCall("call_1", name, in)}},
			condense.Message{Role: condense.RoleTool, Parts: []condense.Part{condense.ToolResult("call_1", failed, condense.Text(body))}})
	}
	return Extract(msgs, 0)
}

// openSample opens testdata/unseen/NAME.jsonl, or NAME.jsonl.gz (the
// samples of long outputs are stored compressed), and returns the reader
// of its lines.
func openSample(name string) (io.Closer, io.Reader, error) {
	dir := filepath.Join("testdata", "unseen")
	if f, err := os.Open(filepath.Join(dir, name+".jsonl")); err == nil {
		return f, f, nil
	}
	f, err := os.Open(filepath.Join(dir, name+".jsonl.gz"))
	if err != nil {
		return nil, nil, err
	}
	z, err := gzip.NewReader(f)
	if err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("%s.jsonl.gz: %w", name, err)
	}
	return f, z, nil
}

// TestUnseenSamples scores the extractors on samples written without
// reading them (testdata/unseen/README.md), by plain substring search of
// each probe, half by half: the tuned half (odd cases) and the reported
// half (even cases). A half that falls below its floor fails: the floors
// are the rates measured when the samples were added, less one case's
// worth of slack.
func TestUnseenSamples(t *testing.T) {
	floors := map[string]float64{ // file/half/category → lowest rate kept
		"idmeas/a/measurement": 0.938, "idmeas/a/identifier": 0.892, "idmeas/b/measurement": 0.861, "idmeas/b/identifier": 0.892,
		"decerr/a/decision": 0.942, "decerr/a/constraint": 0.95, "decerr/a/error": 0.942, "decerr/a/command": 0.92, "decerr/b/decision": 0.942, "decerr/b/constraint": 0.95, "decerr/b/error": 0.942, "decerr/b/command": 0.96,
		"cmds/a/command": 0.958, "cmds/b/command": 0.901,
		"decs/a/decision": 0.922, "decs/b/decision": 0.831,
		"errs/a/error": 0.962, "errs/b/error": 0.825,
		"ids/a/identifier": 0.862, "ids/b/identifier": 0.862,
		"cmds2/a/command": 0.975, "cmds2/b/command": 0.925,
		"decs2/a/decision": 0.975, "decs2/b/decision": 0.837,
		"meas/a/measurement": 0.85, "meas/b/measurement": 0.825,
		"ids2/a/identifier": 0.925, "ids2/b/identifier": 0.862,
		"errs2/a/error": 0.925, "errs2/b/error": 0.812,
		"meas2/a/measurement": 0.9, "meas2/b/measurement": 0.8,
		"cmds3/a/command": 0.887, "cmds3/b/command": 0.912,
		"decs3/a/decision": 0.887, "decs3/b/decision": 0.825,
		"errs3/a/error": 0.887, "errs3/b/error": 0.837,
		"meas3/a/measurement": 0.787, "meas3/b/measurement": 0.837,
		"cmds4/a/command": 0.937, "cmds4/b/command": 0.875,
		"errs4/a/error": 0.937, "errs4/b/error": 0.875,
		"cmds5/a/command": 0.737, "cmds5/b/command": 0.762,
		"decs4/a/decision": 0.887, "decs4/b/decision": 0.712,
		"errs5/a/error": 0.912, "errs5/b/error": 0.862,
		"meas4/a/measurement": 0.837, "meas4/b/measurement": 0.7,
		"cmds6/a/command": 0.925, "cmds6/b/command": 0.787,
		"decs5/b/decision": 0.725, "decs5/a/decision": 0.75,
		"errs6/a/error": 0.775, "errs6/b/error": 0.812,
		"meas5/a/measurement": 0.787, "meas5/b/measurement": 0.737,
		"cmds7/a/command": 0.966, "cmds7/b/command": 0.733, "decs6/a/decision": 0.816, "decs6/b/decision": 0.616,
		"errs7/a/error": 0.733, "errs7/b/error": 0.733, "meas6/a/measurement": 0.7, "meas6/b/measurement": 0.75,
		"decs7/a/decision": 0.666, "decs7/b/decision": 0.6, "errs8/a/error": 0.8, "errs8/b/error": 0.8,
		"meas7/a/measurement": 0.85, "meas7/b/measurement": 0.8,
		"decs8/a/decision": 0.8, "decs8/b/decision": 0.816, "errs9/a/error": 0.866, "errs9/b/error": 0.8,
		"meas8/a/measurement": 0.816, "meas8/b/measurement": 0.783,
	}
	for _, name := range []string{"idmeas", "decerr", "cmds", "decs", "errs", "ids", "cmds2", "decs2", "meas", "ids2", "errs2", "meas2", "cmds3", "decs3", "errs3", "meas3", "cmds4", "errs4",
		"cmds5", "decs4", "errs5", "meas4", "cmds6", "decs5", "errs6", "meas5", "cmds7", "decs6", "errs7", "meas6",
		"decs7", "errs8", "meas7", "decs8", "errs9", "meas8"} {
		f, r, err := openSample(name)
		if err != nil {
			t.Fatal(err)
		}
		type tally struct{ n, kept int }
		got := map[string]*tally{}
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 1<<20), 1<<22)
		for line := 1; sc.Scan(); line++ {
			var c unseenCase
			if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
				t.Fatalf("%s.jsonl:%d: %v", name, line, err)
			}
			if !strings.Contains(c.haystack(), c.Probe) {
				t.Fatalf("%s.jsonl:%d (%s): the probe is not in the text", name, line, c.ID)
			}
			half := "a"
			if line%2 == 0 {
				half = "b"
			}
			key := name + "/" + half + "/" + c.Category
			if got[key] == nil {
				got[key] = &tally{}
			}
			got[key].n++
			if unseenKept(c) {
				got[key].kept++
			}
		}
		f.Close()
		if err := sc.Err(); err != nil {
			t.Fatal(err)
		}
		for key, tl := range got {
			rate := float64(tl.kept) / float64(tl.n)
			t.Logf("%-22s %3d/%3d %5.1f%%", key, tl.kept, tl.n, 100*rate)
			floor, ok := floors[key]
			if !ok {
				t.Errorf("%s: no floor recorded", key)
				continue
			}
			if rate < floor {
				t.Errorf("%s: %d of %d kept (%.1f%%), below the floor of %.0f%%", key, tl.kept, tl.n, 100*rate, 100*floor)
			}
		}
	}
}
