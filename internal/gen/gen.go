// Package gen writes the large Claude Code sample transcript
// (transcript/testdata/claude-code-large.jsonl): a long, deterministic coding session
// on a made-up Go project with big tool outputs, large enough to overflow a
// 128k-token window. Regenerate it with `go generate ./transcript`.
package gen

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// rng is splitmix64: tiny, and the same on every platform and Go version.
type rng struct{ s uint64 }

func (r *rng) next() uint64 {
	r.s += 0x9e3779b97f4a7c15
	z := r.s
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

func (r *rng) intn(n int) int { return int(r.next() % uint64(n)) }

func pick[T any](r *rng, xs []T) T { return xs[r.intn(len(xs))] }

var (
	nouns  = []string{"job", "queue", "worker", "lease", "shard", "batch", "retry", "backoff", "tick", "slot", "task", "run", "cursor", "window", "budget", "token", "ledger", "span", "event", "store"}
	verbs  = []string{"claim", "release", "drain", "enqueue", "flush", "renew", "schedule", "expire", "sweep", "apply", "merge", "split", "poll", "commit", "rollback", "record", "replay", "trim"}
	adjs   = []string{"pending", "stale", "active", "next", "last", "max", "min", "total", "dirty", "idle", "late", "early"}
	pkgs   = []string{"queue", "worker", "lease", "sched", "store", "clock", "metrics", "retry"}
	errsTx = []string{"lease expired", "queue closed", "shard not owned", "job already claimed", "deadline exceeded", "store unavailable"}
)

func title(s string) string { return strings.ToUpper(s[:1]) + s[1:] }

func (g *session) ident(exported bool) string {
	s := pick(g.r, verbs) + title(pick(g.r, adjs)) + title(pick(g.r, nouns))
	if exported {
		return title(s)
	}
	return s
}

// goFile returns a plausible Go source file of about n lines.
func (g *session) goFile(pkg string, n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "// Package %s is part of orbit, a distributed job scheduler.\npackage %s\n\nimport (\n\t\"context\"\n\t\"errors\"\n\t\"fmt\"\n\t\"sync\"\n\t\"time\"\n)\n\n", pkg, pkg)
	lines := 12
	for lines < n {
		typ := title(pick(g.r, adjs)) + title(pick(g.r, nouns))
		fmt.Fprintf(&b, "// %s tracks the %s %ss of one shard.\ntype %s struct {\n\tmu sync.Mutex\n", typ, pick(g.r, adjs), pick(g.r, nouns), typ)
		for k := 0; k < 3+g.r.intn(4); k++ {
			fmt.Fprintf(&b, "\t%s %s\n", pick(g.r, adjs)+title(pick(g.r, nouns)), pick(g.r, []string{"int", "time.Duration", "[]string", "map[string]int", "*Job", "time.Time", "chan struct{}"}))
			lines++
		}
		b.WriteString("}\n\n")
		lines += 6
		for f := 0; f < 2+g.r.intn(3) && lines < n; f++ {
			name := g.ident(true)
			arg := pick(g.r, nouns)
			fmt.Fprintf(&b, "// %s %ss the %s %s and reports whether it changed.\nfunc (x *%s) %s(ctx context.Context, %s string) (bool, error) {\n\tx.mu.Lock()\n\tdefer x.mu.Unlock()\n", name, strings.ToLower(name[:1])+name[1:], pick(g.r, adjs), arg, typ, name, arg)
			lines += 5
			for s := 0; s < 4+g.r.intn(8); s++ {
				switch g.r.intn(5) {
				case 0:
					fmt.Fprintf(&b, "\tif %s == \"\" {\n\t\treturn false, errors.New(\"%s: %s\")\n\t}\n", arg, pkg, pick(g.r, errsTx))
					lines += 3
				case 1:
					fmt.Fprintf(&b, "\tfor i := range x.%s {\n\t\tif err := ctx.Err(); err != nil {\n\t\t\treturn false, fmt.Errorf(\"%s %%d: %%w\", i, err)\n\t\t}\n\t}\n", pick(g.r, adjs)+title(pick(g.r, nouns)), g.ident(false))
					lines += 5
				case 2:
					fmt.Fprintf(&b, "\tdeadline := time.Now().Add(%d * time.Millisecond)\n", 50*(1+g.r.intn(40)))
					lines++
				case 3:
					fmt.Fprintf(&b, "\t// %s before %s: a %s %s must not be %sed twice.\n", title(pick(g.r, verbs)), pick(g.r, verbs), pick(g.r, adjs), pick(g.r, nouns), pick(g.r, verbs))
					lines++
				default:
					fmt.Fprintf(&b, "\tx.%s += %d\n", pick(g.r, adjs)+title(pick(g.r, nouns)), 1+g.r.intn(16))
					lines++
				}
			}
			b.WriteString("\treturn true, nil\n}\n\n")
			lines += 3
		}
	}
	return b.String()
}

// numbered formats a file the way Claude Code's Read tool shows it.
func numbered(src string) string {
	var b strings.Builder
	for i, l := range strings.Split(strings.TrimRight(src, "\n"), "\n") {
		fmt.Fprintf(&b, "%6d\t%s\n", i+1, l)
	}
	return b.String()
}

// testRun returns `go test -v` output for a package with failing tests.
func (g *session) testRun(pkg string, tests, failing int) string {
	var b strings.Builder
	for i := 0; i < tests; i++ {
		name := "Test" + g.ident(true)
		fmt.Fprintf(&b, "=== RUN   %s\n", name)
		if i%7 == 3 && failing > 0 {
			failing--
			fmt.Fprintf(&b, "    %s_test.go:%d: %s(%q) = %d, want %d\n", pkg, 20+g.r.intn(400), g.ident(true), pick(g.r, nouns), g.r.intn(9), 10+g.r.intn(90))
			fmt.Fprintf(&b, "    %s_test.go:%d: error: %s: %s\n", pkg, 20+g.r.intn(400), pkg, pick(g.r, errsTx))
			fmt.Fprintf(&b, "--- FAIL: %s (0.%02ds)\n", name, g.r.intn(100))
			continue
		}
		for k := 0; k < g.r.intn(3); k++ {
			sub := pick(g.r, adjs) + "_" + pick(g.r, nouns)
			fmt.Fprintf(&b, "=== RUN   %s/%s\n--- PASS: %s/%s (0.00s)\n", name, sub, name, sub)
		}
		fmt.Fprintf(&b, "--- PASS: %s (0.%02ds)\n", name, g.r.intn(100))
	}
	if strings.Contains(b.String(), "--- FAIL") {
		fmt.Fprintf(&b, "FAIL\nFAIL\tgithub.com/acme/orbit/%s\t%d.%03ds\nFAIL\n", pkg, g.r.intn(3), g.r.intn(1000))
	} else {
		fmt.Fprintf(&b, "PASS\nok  \tgithub.com/acme/orbit/%s\t%d.%03ds\n", pkg, g.r.intn(3), g.r.intn(1000))
	}
	return b.String()
}

func (g *session) grep(pattern string, n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		pkg := pick(g.r, pkgs)
		fmt.Fprintf(&b, "%s/%s.go:%d:\tok, err := x.%s(ctx, %s)\n", pkg, pick(g.r, nouns), 10+g.r.intn(600), pattern, pick(g.r, nouns))
	}
	return b.String()
}

// session writes the JSONL lines.
type session struct {
	r      *rng
	w      *bufio.Writer
	n      int // lines written, for uuids and timestamps
	parent string
	msgN   int
	callN  int
	err    error
}

func (g *session) uuid() string {
	a, b := g.r.next(), g.r.next()
	return fmt.Sprintf("%08x-%04x-4%03x-8%03x-%012x", uint32(a), uint16(a>>32), uint16(a>>48)&0xfff, uint16(b)&0xfff, b>>16&0xffffffffffff)
}

func (g *session) ts() string {
	s := g.n * 4
	return fmt.Sprintf("2026-04-02T%02d:%02d:%02d.%03dZ", 8+s/3600, s/60%60, s%60, (g.n*137)%1000)
}

func (g *session) write(rec map[string]any) {
	if g.err != nil {
		return
	}
	g.n++
	raw, err := json.Marshal(rec)
	if err != nil {
		g.err = err
		return
	}
	g.w.Write(raw)
	g.w.WriteByte('\n')
}

func (g *session) base(typ string) (map[string]any, string) {
	id := g.uuid()
	var parent any
	if g.parent != "" {
		parent = g.parent
	}
	g.parent = id
	return map[string]any{"parentUuid": parent, "isSidechain": false, "userType": "external",
		"cwd": "/home/dev/orbit", "sessionId": "3c0f7a52-9d41-4b8e-a6f1-27e5d90c4b18", "version": "2.0.31",
		"gitBranch": "fix-drain", "type": typ, "uuid": id, "timestamp": g.ts()}, id
}

func (g *session) user(content any) {
	rec, _ := g.base("user")
	rec["message"] = map[string]any{"role": "user", "content": content}
	g.write(rec)
}

type call struct {
	name   string
	input  map[string]any
	output string
	isErr  bool
}

// step writes one assistant API message (one line per block, as Claude
// Code does) and the result lines of its calls.
func (g *session) step(thinking, text string, calls ...call) {
	g.msgN++
	mid := fmt.Sprintf("msg_01%022x", g.r.next())
	req := fmt.Sprintf("req_011C%020x", g.r.next())
	var blocks []map[string]any
	if thinking != "" {
		sig := make([]byte, 96)
		for i := range sig {
			sig[i] = byte(g.r.next())
		}
		blocks = append(blocks, map[string]any{"type": "thinking", "thinking": thinking, "signature": base64.StdEncoding.EncodeToString(sig)})
	}
	if text != "" {
		blocks = append(blocks, map[string]any{"type": "text", "text": text})
	}
	ids := make([]string, len(calls))
	for i, c := range calls {
		g.callN++
		ids[i] = fmt.Sprintf("toolu_01%016x", g.r.next())
		blocks = append(blocks, map[string]any{"type": "tool_use", "id": ids[i], "name": c.name, "input": c.input})
	}
	for _, bl := range blocks {
		rec, _ := g.base("assistant")
		rec["requestId"] = req
		rec["message"] = map[string]any{"id": mid, "type": "message", "role": "assistant", "model": "claude-opus-4-5-20251101",
			"content": []any{bl}, "stop_reason": nil, "stop_sequence": nil,
			"usage": map[string]any{"input_tokens": 6, "cache_creation_input_tokens": 900 + g.r.intn(4000), "cache_read_input_tokens": 20000 + g.msgN*1800, "output_tokens": 80 + g.r.intn(600)}}
		g.write(rec)
	}
	for i, c := range calls {
		rec, _ := g.base("user")
		rec["message"] = map[string]any{"role": "user", "content": []any{map[string]any{"tool_use_id": ids[i], "type": "tool_result", "content": c.output, "is_error": c.isErr}}}
		// Claude Code's own copy of the result: never content.
		tur := map[string]any{"interrupted": false, "isImage": false}
		if c.name == "Bash" {
			tur["stdout"] = truncate(c.output, 200)
			tur["stderr"] = ""
		} else {
			tur["type"] = "text"
		}
		rec["toolUseResult"] = tur
		g.write(rec)
	}
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}

func bash(cmd, out string, isErr bool) call {
	return call{name: "Bash", input: map[string]any{"command": cmd, "description": "Run " + strings.Fields(cmd)[0]}, output: out, isErr: isErr}
}

func read(path, out string) call {
	return call{name: "Read", input: map[string]any{"file_path": "/home/dev/orbit/" + path}, output: out}
}

// ClaudeCode writes the large sample. The output depends on nothing but
// this code.
func ClaudeCode(w io.Writer) error { return Session(w, 20260402, 6) }

// Session writes a session of the same shape with rounds rounds of work
// (each about 320 KB), its details drawn from seed: Session(w, 20260402, 6)
// is the sample. Benchmarks use it for sessions of any size.
func Session(w io.Writer, seed uint64, rounds int) error {
	g := &session{r: &rng{s: seed}, w: bufio.NewWriter(w)}
	g.user("Under load the scheduler loses jobs: TestQueueDrainUnderLoad fails about one run in five, and production shows jobs claimed but never finished. Find the cause and fix it. Don't change the public API of package queue. Run the whole test suite before you stop.")
	asks := []string{
		"Good. Now look at the worker package: workers sometimes renew a lease after it expired.",
		"The retry backoff also looks wrong in the metrics dashboard. Check package retry and fix the jitter.",
		"Please also make sure `go vet ./...` is clean and the race detector passes on queue and worker.",
		"One more: the store package leaks goroutines on Close. Fix that too, with a test.",
		"Last thing: write a short summary of every change in CHANGES.md.",
	}
	for round := 0; round < max(rounds, 1); round++ {
		for it := 0; it < 5; it++ {
			pkg := pkgs[(round*3+it)%len(pkgs)]
			other := pkgs[(round*5+it+3)%len(pkgs)]
			fn := g.ident(true)
			g.step(fmt.Sprintf("The failure points at %s. I should read %s/%s.go and %s/%s.go together, then grep for callers of %s.", fn, pkg, pkg, other, other, fn),
				fmt.Sprintf("Let me read the %s and %s packages.", pkg, other),
				read(pkg+"/"+pkg+".go", numbered(g.goFile(pkg, 160+g.r.intn(140)))),
				read(other+"/"+other+".go", numbered(g.goFile(other, 120+g.r.intn(100)))))
			g.step("", "", call{name: "Grep", input: map[string]any{"pattern": fn + `\(`, "path": "/home/dev/orbit", "output_mode": "content", "-n": true},
				output: g.grep(fn, 40+g.r.intn(80))})
			g.step("", fmt.Sprintf("Running the %s tests verbosely to see which cases fail.", pkg),
				bash(fmt.Sprintf("go test -v -count=1 ./%s/", pkg), g.testRun(pkg, 60+g.r.intn(80), 2+g.r.intn(3)), true))
			old := fmt.Sprintf("\tx.%s += %d\n", pick(g.r, adjs)+title(pick(g.r, nouns)), 1+g.r.intn(16))
			g.step("", fmt.Sprintf("%s updates the counter after releasing the lock; moving the update under the lock in %s/%s.go.", fn, pkg, pkg),
				call{name: "Edit", input: map[string]any{"file_path": "/home/dev/orbit/" + pkg + "/" + pkg + ".go", "old_string": old, "new_string": "\tx.mu.Lock()\n" + old + "\tx.mu.Unlock()\n"},
					output: "The file /home/dev/orbit/" + pkg + "/" + pkg + ".go has been updated. Here's the result of running `cat -n` on a snippet of the edited file:\n" + numbered(g.goFile(pkg, 30))})
			g.step("", "Re-running the package tests.",
				bash(fmt.Sprintf("go test -count=1 ./%s/", pkg), g.testRun(pkg, 20+g.r.intn(30), 0), false))
		}
		g.step("", "Running the whole suite with the race detector.",
			bash("go test -race -count=1 ./...", g.testRun("queue", 120, 0)+g.testRun("worker", 90, 0)+g.testRun("store", 80, 0), false))
		if round < rounds-1 {
			g.step("", fmt.Sprintf("Round %d done: the fixes above are in, and `go test -race ./...` passes.", round+1))
			g.user(asks[round%len(asks)])
		}
	}
	g.step("", "All done. Summary of changes:\n- queue: Drain claims under the lock, so no job is lost between claim and finish.\n- worker: lease renewal checks expiry first.\n- retry: jitter is bounded by the base delay.\n- store: Close waits for its goroutines.\nThe whole suite passes with -race; CHANGES.md lists every change.")
	if g.err != nil {
		return g.err
	}
	return g.w.Flush()
}
