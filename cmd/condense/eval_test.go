package main

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/condense-dev/condense/eval"
)

var policyNames = []string{"none", "drop-oldest", "mask", "codex", "default"}

func TestEvalSections(t *testing.T) {
	for _, file := range []string{"claude-code.jsonl", "codex-rollout.jsonl", "openai-chat.json"} {
		t.Run(file, func(t *testing.T) {
			out, errOut, code := cliRun(t, "eval", samples+file)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			for _, want := range append([]string{"specifics in the original:", "Compaction of the whole transcript",
				"Turn-by-turn replay", "retained", "overflows", "cached"}, policyNames...) {
				if !strings.Contains(out, want) {
					t.Errorf("output lacks %q:\n%s", want, out)
				}
			}
			// Nothing needs compacting in these small sessions: every
			// policy keeps every specific and fits.
			if strings.Contains(out, " no ") || strings.Contains(out, "bad") {
				t.Errorf("a small session should fit and stay valid:\n%s", out)
			}
		})
	}
}

// evalJSON runs eval --json and decodes its output.
func evalJSON(t *testing.T, args ...string) EvalOutput {
	t.Helper()
	out, errOut, code := cliRun(t, append([]string{"eval", "--json"}, args...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var res EvalOutput
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("json: %v\n%s", err, out)
	}
	return res
}

func TestEvalJSONUnderPressure(t *testing.T) {
	// A window far smaller than the session forces every policy to work.
	dir := t.TempDir()
	chart := filepath.Join(dir, "chart.svg")
	res := evalJSON(t, "--window", "2k", "--reserve", "500", "--chart", chart, samples+"claude-code.jsonl", samples+"codex-rollout.jsonl")
	if res.Version != 1 || res.PricesSource == "" || len(res.Transcripts) != 2 || len(res.Total) != len(policyNames) {
		t.Fatalf("header: version %d, %d transcripts, %d totals", res.Version, len(res.Transcripts), len(res.Total))
	}
	rep := res.Transcripts[0]
	if rep.Window != 2000 || rep.InputLimit != 1500 || rep.Steps == 0 || rep.Tokens <= rep.InputLimit || rep.Price == nil {
		t.Fatalf("report header: %+v", rep)
	}
	if rep.Specifics["path"] == 0 || rep.Specifics["command"] == 0 {
		t.Fatalf("specifics: %+v", rep.Specifics)
	}
	byName := map[string]eval.PolicyReport{}
	for i, p := range rep.Policies {
		if p.Name != policyNames[i] {
			t.Fatalf("policy %d is %q, want %q", i, p.Name, policyNames[i])
		}
		byName[p.Name] = p
		if len(p.Replay.TokensPerStep) != rep.Steps || p.Replay.Steps != rep.Steps || p.Replay.Sent+p.Replay.Overflows != rep.Steps {
			t.Errorf("%s: replay %+v for %d steps", p.Name, p.Replay, rep.Steps)
		}
		if !p.Validity.Valid() || p.Validity.Renderings != p.Replay.Sent+1 {
			t.Errorf("%s: validity %+v (sent %d)", p.Name, p.Validity, p.Replay.Sent)
		}
		if p.Replay.CachedTokens > p.Replay.InputTokens || p.Replay.CostUSD <= 0 {
			t.Errorf("%s: cached %d of %d, cost %v", p.Name, p.Replay.CachedTokens, p.Replay.InputTokens, p.Replay.CostUSD)
		}
		if p.Retention.Total.Found != countSpecifics(rep.Specifics) {
			t.Errorf("%s: retention counted %d specifics, the original has %d", p.Name, p.Retention.Total.Found, countSpecifics(rep.Specifics))
		}
	}
	// The transcript itself does not fit: it cannot be sent, so it keeps
	// nothing, and the agent stops at its first refused request.
	none := byName["none"]
	if none.Final.Fits || none.Replay.Overflows == 0 || none.Replay.Compactions != 0 {
		t.Errorf("none: %+v", none)
	}
	if none.Retention.Total.Retained != 0 || none.Retention.Overall != 0 || none.Retention.ItemWeighted != 0 || none.Retention.Unsent != 1 {
		t.Errorf("none's rendering does not fit yet scores %+v", none.Retention)
	}
	if none.Replay.Complete || none.Replay.Incomplete != 1 || none.Replay.CompletedSteps != none.Replay.OverflowSteps[0] {
		t.Errorf("none overflows yet its replay reads %+v", none.Replay)
	}
	if none.Replay.PeakTokens <= rep.InputLimit {
		t.Errorf("none's peak %d should be over the limit %d", none.Replay.PeakTokens, rep.InputLimit)
	}
	def := byName["default"]
	if !def.Final.Fits || def.Final.Tokens > rep.InputLimit || def.Final.Compression <= 0 || def.Replay.Compactions == 0 || def.Replay.PeakTokens > rep.InputLimit {
		t.Errorf("default: %+v", def)
	}
	if def.Retention.Total.Retained > def.Retention.Total.Found || def.Retention.Total.Rate() == 1 {
		t.Errorf("default retention %+v: compaction this deep should lose something", def.Retention.Total)
	}
	if !def.Replay.Complete || def.Replay.Incomplete != 0 || def.Replay.CompletedSteps != rep.Steps || def.Retention.Unsent != 0 {
		t.Errorf("default fits every step: %+v", def.Replay)
	}
	// Compacting breaks the cache: the default caches less of its input
	// than the share none caches of what it sent.
	if byName["codex"].Replay.SummarizerCalls == 0 {
		t.Errorf("codex made no summaries: %+v", byName["codex"].Replay)
	}
	tot := res.Total[0]
	if tot.Replay.Steps != rep.Steps+res.Transcripts[1].Steps {
		t.Errorf("total steps %d", tot.Replay.Steps)
	}
	if tot.Replay.Complete || tot.Replay.Incomplete != 2 || tot.Retention.Unsent != 2 || tot.Retention.Total.Retained != 0 {
		t.Errorf("total of none over two sessions it does not fit: replay %+v, retention %+v", tot.Replay, tot.Retention)
	}

	// The chart: valid XML, one polyline per policy per transcript.
	data, err := os.ReadFile(chart)
	if err != nil {
		t.Fatal(err)
	}
	lines, dashed := svgCounts(t, data)
	if lines["polyline"] != 2*len(policyNames) {
		t.Errorf("chart has %d polylines, want %d", lines["polyline"], 2*len(policyNames))
	}
	for _, name := range policyNames {
		if !strings.Contains(string(data), fmt.Sprintf(`data-policy="%s"`, name)) {
			t.Errorf("chart lacks %s's line", name)
		}
	}
	if dashed < 2 {
		t.Errorf("chart has %d dashed limit lines", dashed)
	}
}

func countSpecifics(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

// svgCounts parses an SVG and counts its elements by name and its dashed
// lines.
func svgCounts(t *testing.T, data []byte) (map[string]int, int) {
	t.Helper()
	dec := xml.NewDecoder(strings.NewReader(string(data)))
	counts := map[string]int{}
	dashed := 0
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("chart is not valid XML: %v", err)
		}
		if se, ok := tok.(xml.StartElement); ok {
			counts[se.Name.Local]++
			for _, a := range se.Attr {
				if a.Name.Local == "stroke-dasharray" && se.Name.Local == "line" {
					dashed++
				}
			}
		}
	}
	if counts["svg"] != 1 {
		t.Fatalf("chart has %d svg elements", counts["svg"])
	}
	return counts, dashed
}

// handMade is a session whose old tool output holds a sentence no ledger
// keeps, and whose newest step holds another.
func handMade(t *testing.T, dir string) string {
	t.Helper()
	type part = map[string]any
	msg := func(id, role string, parts ...part) map[string]any {
		return map[string]any{"id": id, "role": role, "parts": parts}
	}
	text := func(s string) part { return part{"type": "text", "text": s} }
	call := func(id, cmd string) part {
		return part{"type": "tool_call", "id": id, "name": "shell", "input": map[string]string{"cmd": cmd}}
	}
	result := func(id, s string) part {
		return part{"type": "tool_result", "call_id": id, "content": []part{text(s)}}
	}
	filler := strings.Repeat("lorem ipsum dolor sit amet consectetur ", 60)
	msgs := []map[string]any{msg("m0", "user", text("Tidy the repository."))}
	for i := 1; i <= 14; i++ {
		id := fmt.Sprintf("c%d", i)
		out := filler
		if i == 1 {
			out = "the blue whale sings at dawn\n" + filler
		}
		msgs = append(msgs, msg(fmt.Sprintf("a%d", i), "assistant", call(id, fmt.Sprintf("cat notes%d.txt", i))),
			msg(fmt.Sprintf("t%d", i), "tool", result(id, out)))
	}
	msgs = append(msgs, msg("a99", "assistant", text("Done: the red fox jumps over the fence.")))
	doc := map[string]any{"version": 1, "model": "gpt-4o", "system": "", "messages": msgs}
	raw, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "session.json")
	if err := os.WriteFile(path, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestEvalProbes(t *testing.T) {
	dir := t.TempDir()
	session := handMade(t, dir)
	probes := filepath.Join(dir, "probes.json")
	if err := os.WriteFile(probes, []byte(`[
		{"category": "fact", "text": "the blue whale sings at dawn"},
		{"category": "fact", "regex": "the red \\w+ jumps"},
		{"category": "fact", "text": "never said anywhere"},
		{"category": "task", "text": "Tidy the repository."}
	]`), 0o644); err != nil {
		t.Fatal(err)
	}
	res := evalJSON(t, "--format", "condense", "--window", "6k", "--reserve", "1k", "--probes", probes, session)
	rep := res.Transcripts[0]
	if rep.Tokens <= rep.InputLimit {
		t.Fatalf("the session (%d tokens) should overflow %d", rep.Tokens, rep.InputLimit)
	}
	for _, p := range rep.Policies {
		pr := p.Probes
		if pr == nil {
			t.Fatalf("%s: no probe retention", p.Name)
		}
		if pr.Absent != 1 || pr.Total.Found != 3 {
			t.Errorf("%s: found %d, absent %d; want 3 and 1", p.Name, pr.Total.Found, pr.Absent)
		}
		// The task and the newest step always survive verbatim in a
		// rendering that is sent.
		if task := pr.ByCategory["task"]; p.Final.Fits && task.Retained != 1 {
			t.Errorf("%s: task probe %+v", p.Name, task)
		}
		switch p.Name {
		case "none":
			// The session does not fit: nothing it holds reaches the model.
			if pr.Total.Retained != 0 || pr.Overall != 0 || pr.Unsent != 1 {
				t.Errorf("none cannot be sent, yet keeps %+v", pr.Retention)
			}
			continue
		case "drop-oldest", "mask":
			// The old tool output is dropped or masked; its prose is no
			// ledger item, so the blue whale is lost.
			fact := pr.ByCategory["fact"]
			if pr.Total.Retained != 2 || fact.Found != 2 || fact.Retained != 1 || len(fact.Lost) != 1 || fact.Lost[0] != "the blue whale sings at dawn" {
				t.Errorf("%s: probes %+v", p.Name, pr.Retention)
			}
			// Overall is the mean of fact (1/2) and task (1/1), not 2/3.
			if pr.Overall != 0.75 || pr.ItemWeighted != 2.0/3 {
				t.Errorf("%s: overall %v, item-weighted %v; want 0.75 and 2/3", p.Name, pr.Overall, pr.ItemWeighted)
			}
		}
	}
	out, _, code := cliRun(t, "eval", "--format", "condense", "--window", "6k", "--reserve", "1k", "--probes", probes, session)
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	for _, want := range []string{"probe mean", "cannot be sent", "Probes kept by category"} {
		if !strings.Contains(out, want) {
			t.Errorf("text output lacks %q:\n%s", want, out)
		}
	}
	for _, tt := range []struct{ heading, policy, want string }{
		{"Compaction", "none", " 0/3 0.0% "},
		{"Compaction", "drop-oldest", " 2/3 75.0% "},
		{"Probes kept", "policy", " fact task mean all items "},
		{"Probes kept", "none", " 0/2 0/1 0.0% 0.0% "},
		{"Probes kept", "mask", " 1/2 1/1 75.0% 66.7% "},
	} {
		if row := strings.Join(strings.Fields(rowOf(t, out, tt.heading, tt.policy)), " ") + " "; !strings.HasSuffix(row, tt.want) {
			t.Errorf("%s row of %s reads %q, want it to end in %q", tt.policy, tt.heading, row, tt.want)
		}
	}
}

func TestEvalProbesAuto(t *testing.T) {
	dir := t.TempDir()
	a := handMade(t, dir)
	data, err := os.ReadFile(a)
	if err != nil {
		t.Fatal(err)
	}
	b := filepath.Join(dir, "b.traj.json")
	write := func(path, s string) {
		if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(b, string(data))
	write(filepath.Join(dir, "session.probes.json"), `[{"category": "fact", "text": "the blue whale sings at dawn"}]`)
	write(filepath.Join(dir, "b.probes.json"), `[{"category": "task", "text": "Tidy the repository."},
		{"category": "fact", "regex": "the red \\w+ jumps"}]`)
	res := evalJSON(t, "--format", "condense", "--window", "6k", "--reserve", "1k", "--probes", "auto", a, b)
	for i, want := range []int{1, 2} {
		for _, p := range res.Transcripts[i].Policies {
			if p.Probes == nil || p.Probes.Total.Found != want {
				t.Fatalf("%s %s: probes %+v, want %d of its own", res.Transcripts[i].File, p.Name, p.Probes, want)
			}
		}
	}
	// The totals pool the two files' categories: fact 2, task 1.
	for _, p := range res.Total {
		if p.Probes == nil || p.Probes.ByCategory["fact"].Found != 2 || p.Probes.ByCategory["task"].Found != 1 {
			t.Errorf("total %s: %+v", p.Name, p.Probes)
		}
	}
	if err := os.Remove(filepath.Join(dir, "b.probes.json")); err != nil {
		t.Fatal(err)
	}
	// A file without its probes is reported and skipped; the other is
	// evaluated.
	out, errOut, code := cliRun(t, "eval", "--json", "--format", "condense", "--window", "6k", "--probes", "auto", a, b)
	if code != 0 || !strings.Contains(errOut, "b.traj.probes.json") || !strings.Contains(errOut, "b.probes.json") {
		t.Errorf("a missing probes file: exit %d, %s", code, errOut)
	}
	var partial EvalOutput
	if err := json.Unmarshal([]byte(out), &partial); err != nil {
		t.Fatal(err)
	}
	if len(partial.Transcripts) != 1 || len(partial.Errors) != 1 || partial.Errors[0].File != b || !strings.Contains(partial.Errors[0].Message, "b.probes.json") {
		t.Errorf("one file evaluated, one error: %d transcripts, errors %+v", len(partial.Transcripts), partial.Errors)
	}
	// No file evaluated: exit 2.
	if _, errOut, code := cliRun(t, "eval", "--format", "condense", "--window", "6k", "--probes", "auto", b); code != 2 || !strings.Contains(errOut, "b.probes.json") {
		t.Errorf("the only file lacks its probes: exit %d, %s", code, errOut)
	}
}

func TestEvalIncompleteReplayText(t *testing.T) {
	args := []string{"--window", "2k", "--reserve", "500", samples + "claude-code.jsonl"}
	res := evalJSON(t, args...)
	out, errOut, code := cliRun(t, append([]string{"eval"}, args...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	rep := res.Transcripts[0]
	var best *eval.PolicyReport
	for i := range rep.Policies {
		p := &rep.Policies[i]
		row := rowOf(t, out, "Turn-by-turn", p.Name)
		if p.Replay.Complete {
			if !strings.Contains(row, " yes ") || strings.Contains(row, "*") {
				t.Errorf("%s completes, but its row reads %q", p.Name, row)
			}
			if best == nil || p.Replay.CostUSD < best.Replay.CostUSD {
				best = p
			}
			continue
		}
		want := fmt.Sprintf("no, step %d of %d", p.Replay.OverflowSteps[0]+1, p.Replay.Steps)
		if !strings.Contains(row, want) || !strings.Contains(row, fmt.Sprintf("$%.2f*", p.Replay.CostUSD)) {
			t.Errorf("%s stops at step %d, but its row reads %q (want %q and a marked cost)", p.Name, p.Replay.OverflowSteps[0]+1, row, want)
		}
	}
	if best == nil {
		t.Fatal("no policy completes the session")
	}
	want := fmt.Sprintf("cheapest policy that completes every step: %s $%.2f", best.Name, best.Replay.CostUSD)
	if !strings.Contains(out, want) || !strings.Contains(out, "not ranked, incomplete: none") || !strings.Contains(out, "* incomplete") {
		t.Errorf("output lacks %q and the incomplete note:\n%s", want, out)
	}
}

// rowOf returns the line of out after the heading that starts with the
// policy's name.
func rowOf(t *testing.T, out, heading, policy string) string {
	t.Helper()
	_, after, ok := strings.Cut(out, heading)
	if !ok {
		t.Fatalf("no %q in:\n%s", heading, out)
	}
	for _, line := range strings.Split(after, "\n") {
		if f := strings.Fields(line); len(f) > 0 && f[0] == policy {
			return line + " "
		}
	}
	t.Fatalf("no row of %s under %q:\n%s", policy, heading, out)
	return ""
}

func TestCheapestRanksCompletePoliciesOnly(t *testing.T) {
	pol := func(name string, cost float64, complete bool) eval.PolicyReport {
		return eval.PolicyReport{Name: name, Replay: eval.Replay{CostUSD: cost, Complete: complete, Priced: true}}
	}
	// "none" is the cheapest by far because it stopped early; it must not
	// win.
	got := cheapest([]eval.PolicyReport{pol("none", 0.10, false), pol("mask", 3, false), pol("codex", 5.28, true),
		pol("default", 4.37, true), pol("drop-oldest", 4.60, true)})
	want := "cheapest policy that completes every step: default $4.37 (then drop-oldest $4.60, codex $5.28); not ranked, incomplete: none, mask"
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	if got := cheapest([]eval.PolicyReport{pol("none", 1, false)}); got != "cheapest: no policy completes every step; not ranked, incomplete: none" {
		t.Errorf("no complete policy: %q", got)
	}
}

func TestEvalUsage(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	badProbes := write("bad.json", `[{"category": "path", "text": "a.go"}, {"category": "path"}]`)
	badPrices := write("prices.json", `{"gpt-4o": {"input": "cheap"}}`)
	goodProbes := write("good.json", `[{"category": "path", "text": "a.go"}]`)
	t.Setenv("ANTHROPIC_API_KEY", "k")
	t.Setenv("OPENAI_API_KEY", "")
	ok := samples + "claude-code.jsonl"
	for _, tt := range []struct {
		args []string
		says string
	}{
		{[]string{"eval"}, "FILE"},
		{[]string{"eval", "--bogus", ok}, "bogus"},
		{[]string{"eval", "--probes", badProbes, ok}, "entry 2"},
		{[]string{"eval", "--probes", filepath.Join(dir, "missing.json"), ok}, "missing.json"},
		{[]string{"eval", "--prices", badPrices, ok}, "prices.json"},
		{[]string{"eval", samples + "openai-array.json"}, "--window"},
		{[]string{"eval", "--model", "no-such-model-7", ok}, "--window"},
		{[]string{"eval", "--judge", "anthropic", ok}, "--probes"},
		{[]string{"eval", "--judge", "nobody", "--probes", goodProbes, ok}, "--judge"},
		{[]string{"eval", "--judge", "openai", "--probes", goodProbes, ok}, "OPENAI_API_KEY"},
		{[]string{"eval", "--judge", "anthropic", "--judge-policy", "magic", "--probes", goodProbes, ok}, "--judge-policy"},
		{[]string{"eval", "--fraction", "2", ok}, "fraction"},
		{[]string{"eval", "--summarizer", "nope", ok}, "summarizer"},
	} {
		_, errOut, code := cliRun(t, tt.args...)
		if code != 2 || !strings.Contains(errOut, tt.says) {
			t.Errorf("%v: exit %d, stderr %q; want 2 mentioning %q", tt.args, code, errOut, tt.says)
		}
	}
	if _, errOut, code := cliRun(t, "eval", "--probes", badProbes, ok); !strings.Contains(errOut, badProbes) {
		t.Errorf("bad probe file error should name the file: exit %d %s", code, errOut)
	}
	var help strings.Builder
	if err := Run(t.Context(), []string{"eval", "--help"}, &help, &help); ExitCode(err) != 0 {
		t.Fatalf("help: %v", err)
	}
	for _, want := range []string{"Examples:", "condense eval", "-probes", "-prices", "-chart", "-judge", "-judge-model", "-window", "-summarizer", "-json"} {
		if !strings.Contains(help.String(), want) {
			t.Errorf("help lacks %q", want)
		}
	}
}

func TestEvalLargeFinishesQuickly(t *testing.T) {
	if testing.Short() {
		t.Skip("large transcript")
	}
	path, window, _ := largeRun(t)
	res := evalJSON(t, "--window", window, path)
	rep := res.Transcripts[0]
	for _, p := range rep.Policies {
		if p.Name != "none" && p.Name != "mask" && (!p.Final.Fits || p.Replay.PeakTokens > rep.InputLimit) {
			t.Errorf("%s does not keep the large session inside the window: %+v", p.Name, p.Final)
		}
		if !p.Validity.Valid() {
			t.Errorf("%s: %+v", p.Name, p.Validity)
		}
	}
}

func TestEvalJudge(t *testing.T) {
	// A stand-in model: it answers with a probe's text when the request's
	// context holds it, else NOT FOUND, the way a faithful model would.
	known := []string{"the blue whale sings at dawn", "the red fox jumps", "Tidy the repository."}
	calls := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls++
		if r.URL.Path != "/v1/messages" || r.Header.Get("x-api-key") != "k" {
			t.Errorf("request %s with key %q", r.URL.Path, r.Header.Get("x-api-key"))
		}
		var body struct {
			Messages []struct {
				Content json.RawMessage `json:"content"`
			} `json:"messages"`
		}
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil || len(body.Messages) == 0 {
			t.Fatalf("body: %v", err)
		}
		n := len(body.Messages) - 1
		question := string(body.Messages[n].Content)
		var context strings.Builder
		for _, m := range body.Messages[:n] {
			context.Write(m.Content)
		}
		answer := "NOT FOUND"
		for _, k := range known {
			if strings.Contains(question, k[:len(k)/2]) && strings.Contains(context.String(), k) {
				answer = k
			}
		}
		raw, _ := json.Marshal(answer)
		fmt.Fprintf(w, `{"type":"message","role":"assistant","content":[{"type":"text","text":%s}],"stop_reason":"end_turn"}`, raw)
	}))
	defer srv.Close()
	t.Setenv("ANTHROPIC_BASE_URL", srv.URL)
	t.Setenv("ANTHROPIC_API_KEY", "k")
	t.Setenv("OPENAI_API_KEY", "")

	dir := t.TempDir()
	session := handMade(t, dir)
	probes := filepath.Join(dir, "probes.json")
	if err := os.WriteFile(probes, []byte(`[{"category": "fact", "text": "the blue whale sings at dawn"}, {"category": "task", "text": "Tidy the repository."}]`), 0o644); err != nil {
		t.Fatal(err)
	}
	res := evalJSON(t, "--format", "condense", "--window", "6k", "--reserve", "1k", "--probes", probes, "--judge", "anthropic", "--judge-policy", "default", session)
	if len(res.Judge) != 1 || res.Judge[0].Policy != "default" || len(res.Judge[0].Verdicts) != 2 {
		t.Fatalf("judge: %+v", res.Judge)
	}
	jf := res.Judge[0]
	if calls != 4 {
		t.Errorf("%d model calls, want 2 per probe", calls)
	}
	// The task survives every compaction verbatim; whether the old tool
	// output's sentence survives is what the default policy's retention
	// says, and the judge must agree with it.
	var def eval.PolicyReport
	for _, p := range res.Transcripts[0].Policies {
		if p.Name == "default" {
			def = p
		}
	}
	wantWhale := "lost"
	if def.Probes.ByCategory["fact"].Retained == 1 {
		wantWhale = "same"
	}
	if jf.Verdicts[0].Verdict != wantWhale || jf.Verdicts[1].Verdict != "same" {
		t.Errorf("verdicts %+v, want %s and same", jf.Verdicts, wantWhale)
	}
	if jf.Summary[wantWhale] == 0 {
		t.Errorf("summary %+v", jf.Summary)
	}
}

func TestProgress(t *testing.T) {
	// Not a terminal: no bar, and finishing is immediate.
	var buf strings.Builder
	p := startProgress(&buf, "eval", "steps", 10)
	p.add(10)
	p.finish()
	if buf.Len() != 0 || p.done.Load() != 10 {
		t.Errorf("progress on a non-terminal: %q, %d done", buf.String(), p.done.Load())
	}
	f, err := os.CreateTemp(t.TempDir(), "stderr")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	start := time.Now()
	p = startProgress(f, "eval", "steps", 10)
	p.finish()
	if fi, _ := f.Stat(); fi.Size() != 0 || time.Since(start) > progressDelay {
		t.Errorf("a regular file got a bar (%d bytes) or finishing waited", fi.Size())
	}
	// A terminal gets a bar, cleared when the work is done.
	noDelay(t)
	tty := &ttyBuffer{tty: true}
	p = startProgress(tty, "eval", "steps", 10)
	p.add(4)
	p.finish()
	if out := tty.String(); !strings.Contains(out, "eval") || !strings.Contains(out, "/10") {
		t.Errorf("terminal got no bar: %q", out)
	}
}
