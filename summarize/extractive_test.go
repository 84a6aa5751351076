package summarize_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/ledger"
	"github.com/condense-dev/condense/summarize"
)

// step is one shell step: the assistant's text and command, the output.
func step(id, text, cmd, out string, isErr bool) []condense.Message {
	in, _ := json.Marshal(map[string]string{"command": cmd})
	var parts []condense.Part
	if text != "" {
		parts = append(parts, condense.Text(text))
	}
	parts = append(parts, condense.ToolCall(id, "bash", in))
	return []condense.Message{
		{Role: condense.RoleAssistant, Parts: parts},
		{Role: condense.RoleTool, Parts: []condense.Part{condense.ToolResult(id, isErr, condense.Text(out))}},
	}
}

func fileStep(id, tool, path string) []condense.Message {
	in, _ := json.Marshal(map[string]string{"file_path": path, "content": "package parse\n"})
	return []condense.Message{
		{Role: condense.RoleAssistant, Parts: []condense.Part{condense.ToolCall(id, tool, in)}},
		{Role: condense.RoleTool, Parts: []condense.Part{condense.ToolResult(id, false, condense.Text("ok"))}},
	}
}

// workSpan is a session: a test fails and is fixed, lint fails twice and
// stays failing, files are read and written, a decision and a plan are
// stated.
func workSpan() []condense.Message {
	msgs := []condense.Message{condense.UserText("Fix the parser so that -2^2 parses as -(2^2).\nNever edit vendor/.")}
	msgs = append(msgs, step("c1", "Running the tests first.", "go test ./...", "--- FAIL: TestParse (0.00s)\n    parse_test.go:12: got 4, want -4\nFAIL\nexit status 1", true)...)
	for i := range 3 {
		msgs = append(msgs, step(fmt.Sprintf("r%d", i), "", fmt.Sprintf("cat internal/parse/p%d.go", i), "package parse\n", false)...)
	}
	msgs = append(msgs, condense.AssistantText("I'll use a Pratt parser instead of recursive descent, because precedence is then one table. I will read lexer.go next."))
	msgs = append(msgs, fileStep("w1", "Write", "internal/parse/pratt.go")...)
	msgs = append(msgs, step("c2", "", "go test ./...", "ok  \tgithub.com/acme/app/internal/parse\t0.01s\nExit code: 0", false)...)
	msgs = append(msgs, step("l1", "", "make lint", "parse.go:3: exported func Parse should have comment\nmake: *** [lint] Error 1\nExit code: 2", true)...)
	msgs = append(msgs, step("l2", "", "make lint", "pratt.go:9: exported func Bind should have comment\nmake: *** [lint] Error 1\nExit code: 2", true)...)
	msgs = append(msgs, condense.AssistantText("The tests pass. Next I will add doc comments so that make lint passes."))
	return msgs
}

func summarizeText(t *testing.T, e summarize.Extractive, in condense.SummaryRequest) string {
	t.Helper()
	out, err := e.Summarize(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	return out.Text
}

func TestExtractiveStateOfWork(t *testing.T) {
	text := summarizeText(t, summarize.Extractive{}, condense.SummaryRequest{Messages: workSpan()})
	// The headings, each once, in order.
	at := -1
	for _, h := range summarize.Sections {
		i := strings.Index(text, "## "+h+"\n")
		if i < 0 || i < at || strings.Count(text, "## "+h+"\n") != 1 {
			t.Fatalf("heading %q missing, repeated or out of order:\n%s", h, text)
		}
		at = i
	}
	sec := summarize.ParseSections(text)
	has := func(name, want string) {
		t.Helper()
		if !strings.Contains(strings.Join(sec[name], "\n"), want) {
			t.Errorf("## %s lacks %q:\n%s", name, want, text)
		}
	}
	lacks := func(name, banned string) {
		t.Helper()
		if strings.Contains(strings.Join(sec[name], "\n"), banned) {
			t.Errorf("## %s holds %q:\n%s", name, banned, text)
		}
	}
	has("Task", "> Fix the parser so that -2^2 parses as -(2^2).")
	has("Constraints", "Never edit vendor/.")
	has("Decisions", "I'll use a Pratt parser instead of recursive descent")
	lacks("Decisions", "I will read lexer.go next")
	// The test failed and passes now: done, not open. Lint still fails:
	// open, with the error of its latest run, as ledger items.
	has("Done", `command "go test ./..." (exit 0) succeeds now, after 1 failed run`)
	has("Done", "wrote 1 file: internal/parse/pratt.go")
	has("Done", "read 3 files under internal/parse/: ./ 3")
	has("Done", "cat 3")
	lacks("Failed / open", "go test")
	has("Failed / open", `command "make lint" (exit 2), 2 failed runs: error`)
	has("Failed / open", `error "make: *** [lint] Error 1"`)
	has("Next steps", "Next I will add doc comments so that make lint passes.")
}

func TestExtractiveBounded(t *testing.T) {
	// 300 steps of distinct commands, files and failures, long requests.
	msgs := []condense.Message{condense.UserText(strings.Repeat("Investigate the slow checkout and fix it. ", 60))}
	for i := range 300 {
		if i%30 == 0 {
			msgs = append(msgs, condense.UserText(fmt.Sprintf("Request %d: also look at module m%d, the error is `E%d: boom`. ", i, i, i)+strings.Repeat("More words. ", 30)))
		}
		msgs = append(msgs, condense.AssistantText(fmt.Sprintf("We will use approach %d instead of approach %d because it is simpler.", i, i+1)))
		out, isErr := "ok\nExit code: 0", false
		if i%7 == 0 {
			out, isErr = fmt.Sprintf("error: step %d broke\nExit code: 1", i), true
		}
		msgs = append(msgs, step(fmt.Sprintf("c%d", i), "", fmt.Sprintf("./run-%d.sh --flag %d", i, i), out, isErr)...)
		msgs = append(msgs, fileStep(fmt.Sprintf("w%d", i), "Write", fmt.Sprintf("pkg/m%d/file%d.go", i%9, i))...)
	}
	for _, tc := range []struct {
		e      summarize.Extractive
		maxOut int
		want   int
	}{
		{summarize.Extractive{}, 0, summarize.DefaultStateTokens + summarize.DefaultTaskTokens},
		{summarize.Extractive{MaxTokens: 700, MaxTaskTokens: 500}, 0, 1200},
		{summarize.Extractive{}, 600, 600},
	} {
		text := summarizeText(t, tc.e, condense.SummaryRequest{Messages: msgs, MaxOutputTokens: tc.maxOut})
		if got := ledger.ApproxTokens(text); got > tc.want {
			t.Errorf("bound %d: the summary costs %d:\n%s", tc.want, got, text)
		}
		if !strings.Contains(text, "left out)") {
			t.Errorf("bound %d: nothing says what was left out:\n%s", tc.want, text)
		}
		sec := summarize.ParseSections(text)
		if d := strings.Join(sec["Done"], "\n"); !strings.Contains(d, "600 tool steps (43 failed)") || !strings.Contains(d, "wrote 300 files") {
			t.Errorf("bound %d: the counts are lost:\n%s", tc.want, text)
		}
		// The newest failure is open.
		if !strings.Contains(strings.Join(sec["Failed / open"], "\n"), `command "./run-294.sh --flag 294" (exit 1)`) {
			t.Errorf("bound %d: the newest failure is not open:\n%s", tc.want, text)
		}
	}
	if _, err := (summarize.Extractive{MaxTokens: -1}).Summarize(context.Background(), condense.SummaryRequest{Messages: msgs}); err == nil {
		t.Error("a negative bound is accepted")
	}
}

// Each summary updates the previous one: its task, constraints and
// decisions are carried; its open items stay open unless the span ran them
// again; a summary in the older layout is read too.
func TestExtractiveUpdatesPrevious(t *testing.T) {
	prev := summarizeText(t, summarize.Extractive{}, condense.SummaryRequest{Messages: workSpan()})
	later := []condense.Message{condense.UserText("Now also make the CLI print its version.")}
	later = append(later, step("l3", "", "make lint", "Exit code: 0", false)...)
	later = append(later, step("v1", "", "go run ./cmd/app --version", "panic: flag redefined: version\nexit status 2", true)...)
	text := summarizeText(t, summarize.Extractive{}, condense.SummaryRequest{Messages: later, Base: 40, Previous: prev})
	sec := summarize.ParseSections(text)
	for name, want := range map[string]string{
		"Task":          "> Fix the parser so that -2^2 parses as -(2^2).",
		"Constraints":   "Never edit vendor/.",
		"Decisions":     "I'll use a Pratt parser",
		"Failed / open": `command "go run ./cmd/app --version" (exit 2)`,
		"Done":          `command "make lint" (exit 0) succeeds now`,
	} {
		if !strings.Contains(strings.Join(sec[name], "\n"), want) {
			t.Errorf("## %s lacks %q:\n%s", name, want, text)
		}
	}
	if !strings.Contains(strings.Join(sec["Task"], "\n"), "- Now also make the CLI print its version.") {
		t.Errorf("the later request is not listed:\n%s", text)
	}
	if strings.Contains(strings.Join(sec["Failed / open"], "\n"), "make lint") {
		t.Errorf("make lint passed in this span but stays open:\n%s", text)
	}
	if !strings.Contains(strings.Join(sec["Done"], "\n"), "before: ") {
		t.Errorf("the previous summary's done lines are not carried:\n%s", text)
	}

	old := "## Summary\n9 earlier messages were compacted.\n\n## Facts\n- Never edit vendor/.\n\n## Completed\n- bash: ls\n\n## Pending\n- bash: go vet ./... (failed)\n"
	text = summarizeText(t, summarize.Extractive{}, condense.SummaryRequest{Messages: later, Base: 40, Previous: old})
	sec = summarize.ParseSections(text)
	if !strings.Contains(strings.Join(sec["Constraints"], "\n"), "Never edit vendor/.") ||
		!strings.Contains(strings.Join(sec["Failed / open"], "\n"), "bash: go vet ./... (failed)") {
		t.Errorf("the older layout's facts and pending items are not carried:\n%s", text)
	}
	if !strings.Contains(strings.Join(sec["Task"], "\n"), "stays verbatim before this summary") {
		t.Errorf("a span after the task does not say where the task is:\n%s", text)
	}
}

// An agent that speaks a text protocol (mini-swe-agent: a fenced command in
// the assistant's text, its output in the next user message) is read as
// steps; its outputs are neither requests nor constraints.
func TestExtractiveTextProtocol(t *testing.T) {
	msgs := []condense.Message{
		condense.UserText("<pr_description>\nThe slugger drops accents. Don't touch the tests.\n</pr_description>"),
		condense.AssistantText("THOUGHT: Let me run the tests.\n\n```mswea_bash_command\npytest -q tests/test_slug.py\n```"),
		condense.UserText("<returncode>1</returncode>\n<output>\nE   AssertionError: assert 'cafe' == 'café'\n1 failed\n// never call this twice\n</output>"),
		condense.AssistantText("THOUGHT: I'll normalise with NFKD instead of stripping non-ASCII bytes.\n\n```bash\nsed -i 's/x/y/' slug.py && pytest -q tests/test_slug.py\n```"),
		condense.UserText("<returncode>0</returncode>\n<output>\n3 passed\n</output>"),
		condense.AssistantText("THOUGHT: Now I'll run the whole suite.\n\n```bash\npytest -q\n```"),
		condense.UserText("<returncode>2</returncode>\n<output>\nE   ImportError: cannot import name 'slugify'\n</output>"),
	}
	text := summarizeText(t, summarize.Extractive{}, condense.SummaryRequest{Messages: msgs})
	sec := summarize.ParseSections(text)
	if d := strings.Join(sec["Done"], "\n"); !strings.Contains(d, "3 tool steps (2 failed)") || !strings.Contains(d, "1 user request,") {
		t.Errorf("the text steps are not counted as steps:\n%s", text)
	}
	if o := strings.Join(sec["Failed / open"], "\n"); !strings.Contains(o, `command "pytest -q" (exit 2)`) || !strings.Contains(o, `command "pytest -q tests/test_slug.py" (exit 1)`) {
		t.Errorf("the failing text steps are not open:\n%s", text)
	}
	if strings.Contains(text, "returncode") || strings.Contains(text, "never call this twice") {
		t.Errorf("an observation was read as the user's words:\n%s", text)
	}
	if !strings.Contains(strings.Join(sec["Decisions"], "\n"), "normalise with NFKD instead of") {
		t.Errorf("the decision is lost:\n%s", text)
	}
}

// A text-protocol harness whose observations open with nothing a reader
// knows (SWE-agent's bare-fenced actions, its output templates) is read by
// the exchange's structure: each answer to a fenced action is the action's
// output, and only the user's own follow-up is a request.
func TestExtractiveBareFenceProtocol(t *testing.T) {
	msgs := []condense.Message{
		condense.UserText("Fix the retry loop in client.py."),
		condense.AssistantText("Let me search.\n\n```\nsearch_dir \"retry\" src\n```"),
		condense.UserText("Found 12 matches for \"retry\" in /repo/src:\n/repo/src/client.py (12 matches)"),
		condense.AssistantText("Running the tests.\n```\npython -m pytest tests/test_client.py\n```"),
		condense.UserText("FAILED tests/test_client.py::test_retry - assert 3 == 2\n1 failed in 0.21s"),
		condense.AssistantText("Done: the retry loop stops after two attempts now."),
		condense.UserText("Also never log the API token."),
	}
	text := summarizeText(t, summarize.Extractive{}, condense.SummaryRequest{Messages: msgs})
	sec := summarize.ParseSections(text)
	if d := strings.Join(sec["Done"], "\n"); !strings.Contains(d, "2 tool steps (1 failed)") || !strings.Contains(d, "2 user requests,") {
		t.Errorf("the fenced actions are not counted as steps:\n%s", text)
	}
	task := strings.Join(sec["Task"], "\n")
	if strings.Contains(task, "Found 12 matches") || strings.Contains(task, "FAILED tests") {
		t.Errorf("an observation was listed as a request:\n%s", text)
	}
	if !strings.Contains(task, "never log the API token") {
		t.Errorf("the user's follow-up is missing:\n%s", text)
	}
}

// A result an earlier pass masked is read from its placeholder: the exit
// status and the error lines it kept.
func TestExtractiveMaskedResults(t *testing.T) {
	kept := []string{`command "go test ./internal/..." (exit 1)`, `error "--- FAIL: TestLoad (0.02s)"`, "file internal/load.go (read)"}
	msgs := append([]condense.Message{condense.UserText("Fix the loader.")},
		step("m1", "", "go test ./internal/...", condense.MaskPlaceholder(5210, "r3-abc", kept), false)...)
	msgs = append(msgs, step("m2", "", "go vet ./...", condense.MaskPlaceholder(900, "r5-def", nil), false)...)
	text := summarizeText(t, summarize.Extractive{}, condense.SummaryRequest{Messages: msgs})
	sec := summarize.ParseSections(text)
	if o := strings.Join(sec["Failed / open"], "\n"); !strings.Contains(o, `command "go test ./internal/..." (exit 1): error "--- FAIL: TestLoad (0.02s)"`) {
		t.Errorf("the masked failure is not open:\n%s", text)
	}
	// A masked run whose status was not kept is neither a success nor a
	// failure.
	if strings.Contains(text, "go vet ./...\" succeeds") || strings.Contains(strings.Join(sec["Failed / open"], "\n"), "go vet") {
		t.Errorf("a run of unknown status was judged:\n%s", text)
	}
}

func TestParseSectionsKeepsTaskLines(t *testing.T) {
	sec := summarize.ParseSections("## Task\n> Fix it.\n> Now.\nLater requests:\n- also this\n\n## Failed / open\n- command x (exit 1)\nnot a bullet\n\n## Ledger\n- file a.go\n")
	if got := strings.Join(sec["Task"], "|"); got != "> Fix it.|> Now.|Later requests:|- also this" {
		t.Errorf("Task = %q", got)
	}
	if got := strings.Join(sec["Failed / open"], "|"); got != "command x (exit 1)" {
		t.Errorf("Failed / open = %q", got)
	}
	if got := strings.Join(sec["Ledger"], "|"); got != "file a.go" {
		t.Errorf("Ledger = %q", got)
	}
}

// The model is asked for the extractive summarizer's sections, in order.
func TestSystemPromptNamesTheSections(t *testing.T) {
	at := -1
	for _, h := range summarize.Sections {
		i := strings.Index(summarize.SystemPrompt, "\n## "+h+" - ")
		if i < 0 || i < at {
			t.Fatalf("the system prompt does not ask for ## %s in order", h)
		}
		at = i
	}
}

// TestExtractiveKeepsRequestsWhole: later requests are the user's own words,
// with rules and specifics often at their end; ## Task lists each whole on
// one line, and a very long one by its start and its end.
func TestExtractiveKeepsRequestsWhole(t *testing.T) {
	long := "Next: the export. " + strings.Repeat("Some pasted log line that goes on. ", 120) + "Never touch billing/apply.py."
	msgs := []condense.Message{condense.UserText("Fix the rounding bug.")}
	msgs = append(msgs, step("c1", "", "go test ./...", "ok\nExit code: 0", false)...)
	msgs = append(msgs, condense.UserText("Thanks. While you're at it, the CSV export double-counts retries;\nfix that as well. Production logs show: KeyError: 'payment_number_80438' Avoid adding requests-toolbelt; we are trying to get rid of it."))
	msgs = append(msgs, step("c2", "", "go test ./...", "ok\nExit code: 0", false)...)
	msgs = append(msgs, condense.UserText(long))
	msgs = append(msgs, step("c3", "", "go test ./...", "ok\nExit code: 0", false)...)
	text := summarizeText(t, summarize.Extractive{}, condense.SummaryRequest{Messages: msgs})
	task := strings.Join(summarize.ParseSections(text)["Task"], "\n")
	for _, want := range []string{
		"- Thanks. While you're at it, the CSV export double-counts retries; fix that as well. Production logs show: KeyError: 'payment_number_80438' Avoid adding requests-toolbelt; we are trying to get rid of it.",
		"- Next: the export. Some pasted log line",
		" … ",
		"Never touch billing/apply.py.",
	} {
		if !strings.Contains(task, want) {
			t.Errorf("## Task lacks %q:\n%s", want, task)
		}
	}
	if n := len(task); n > 2000 {
		t.Errorf("## Task is %d bytes: the long request is not cut", n)
	}
}

// TestExtractiveKeepsLongDecisionWhole: a decision the ledger keeps whole
// (up to twice the value cap) is a whole bullet, so the compaction finds
// it in the summary instead of adding it again below.
func TestExtractiveKeepsLongDecisionWhole(t *testing.T) {
	long := "I'll switch the queue to FIFO ordering rather than priority ordering because the billing jobs must run in the order the invoices were created and priority starvation already hit us twice this month in production."
	msgs := []condense.Message{condense.UserText("Fix the billing queue.")}
	msgs = append(msgs, step("c1", long, "go test ./...", "ok\nExit code: 0", false)...)
	text := summarizeText(t, summarize.Extractive{}, condense.SummaryRequest{Messages: msgs})
	decisions := strings.Join(summarize.ParseSections(text)["Decisions"], "\n")
	if !strings.Contains(decisions, long) {
		t.Errorf("## Decisions lacks the whole decision:\n%s", decisions)
	}
}

// TestDecisionBlockRoundTrip: a decision kept over two lines is written as
// one bullet that goes on in its next line, read back as one, and written
// again as it was by the next summary over it.
func TestDecisionBlockRoundTrip(t *testing.T) {
	block := "**Decision:** atomic counters flushed every second for the quota cache.\n**Rejected:** a mutex around the usage map (the mutex shows up in every profile)."
	msgs := []condense.Message{
		condense.UserText("Speed up the quota cache."),
		condense.AssistantText("Two ways to do it.\n\n" + block + "\n\nOn to the code."),
	}
	first := summarizeText(t, summarize.Extractive{}, condense.SummaryRequest{Messages: msgs})
	if !strings.Contains(first, "- "+block+"\n") {
		t.Fatalf("the block is not one bullet:\n%s", first)
	}
	if got := summarize.ParseSections(first)["Decisions"]; !slices.Contains(got, block) {
		t.Fatalf("Decisions read back as %q", got)
	}
	next := summarizeText(t, summarize.Extractive{}, condense.SummaryRequest{Previous: first,
		Messages: []condense.Message{condense.AssistantText("The cache test passes now.")}})
	if !strings.Contains(next, "- "+block+"\n") {
		t.Errorf("the next summary lost the block:\n%s", next)
	}
}
