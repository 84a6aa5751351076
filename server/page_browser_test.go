package server_test

import (
	"context"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/agent"
	"github.com/condense-dev/condense/server"
)

// findBrowser returns a Chromium to drive: $CONDENSE_CHROMIUM, else the
// first of the usual names on PATH.
// stepTimeout guards each subtest against a hang.
var stepTimeout = time.Minute

func findBrowser() string {
	if p := os.Getenv("CONDENSE_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "headless-shell"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// pageServer serves a JSONL store with tokens on a loopback port, as
// condense serve does, with the test model (echoes prompts, blocks on
// summaries until cancelled).
func pageServer(t *testing.T) *client {
	t.Helper()
	dir := t.TempDir()
	log := slog.New(slog.DiscardHandler)
	b, err := server.OpenBackend(context.Background(), "jsonl:"+filepath.Join(dir, "store"), log)
	if err != nil {
		t.Fatal(err)
	}
	s, err := server.New(b, &server.Options{Logger: log, Tokens: map[string]string{aliceToken: "alice"},
		NewModel: func(provider, model string) (agent.Model, error) { return blockingSummaries{}, nil }})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, ln, server.Timeouts{}) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
		b.Close()
	})
	return &client{t: t, base: "http://" + ln.Addr().String(), token: aliceToken}
}

// screenshotDir is where the page's screenshots go: $CONDENSE_SCREENSHOTS,
// else a temporary directory the test names in its log.
func screenshotDir(t *testing.T) string {
	if d := os.Getenv("CONDENSE_SCREENSHOTS"); d != "" {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		return d
	}
	d, err := os.MkdirTemp("", "condense-screenshots-")
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestPageInBrowser drives the web page in headless Chromium against the
// real server on loopback. Every wait is for a condition of the page (an
// element, an attribute, a text); the context's deadline only guards
// against a hang.
func TestPageInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a browser")
	}
	browser := findBrowser()
	if browser == "" {
		t.Skip("no Chromium found (apt-get install -y chromium, or set CONDENSE_CHROMIUM): the page's browser tests did not run")
	}
	if d, err := time.ParseDuration(os.Getenv("CONDENSE_BROWSER_STEP")); err == nil {
		stepTimeout = d
	}
	c := pageServer(t)
	shots := screenshotDir(t)
	t.Logf("screenshots in %s", shots)

	// The sessions: one compacted by its renders (the chart has marks),
	// one long and not compacted yet, one too short to compact, one whose
	// hosted run blocks on its summary.
	cfg := func(window int, strat, summarizer string) server.SessionConfig {
		return server.SessionConfig{Model: "gpt-4o", Window: window, ReservedOutput: 500, Strategy: strat, Summarizer: summarizer, System: testSystem}
	}
	history := newSession(t, c, server.CreateRequest{SessionConfig: cfg(6000, "mask", "")})
	for _, p := range []string{"p1", "p2", "p3", "p4"} {
		c.must(200, "POST", "/v1/sessions/"+history.ID+"/render", server.RenderRequest{Messages: workTurn(p, 3)}, nil)
	}
	summarized := newSession(t, c, server.CreateRequest{SessionConfig: cfg(6000, "summarize", "")})
	for _, p := range []string{"q1", "q2", "q3", "q4"} {
		c.must(200, "POST", "/v1/sessions/"+summarized.ID+"/render", server.RenderRequest{Messages: workTurn(p, 3)}, nil)
	}
	long := newSession(t, c, server.CreateRequest{SessionConfig: cfg(40000, "mask", "")})
	for _, p := range []string{"l1", "l2", "l3"} {
		c.must(200, "POST", "/v1/sessions/"+long.ID+"/messages", server.AppendRequest{Messages: workTurn(p, 3)}, nil)
	}
	short := newSession(t, c, server.CreateRequest{SessionConfig: cfg(100000, "mask", ""),
		Messages: []condense.Message{condense.UserText("the task"), condense.AssistantText("on it")}})
	hosted := newSession(t, c, server.CreateRequest{SessionConfig: cfg(6000, "summarize", "model")})
	for _, p := range []string{"h1", "h2", "h3"} {
		c.must(200, "POST", "/v1/sessions/"+hosted.ID+"/messages", server.AppendRequest{Messages: workTurn(p, 4)}, nil)
	}

	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(browser), chromedp.NoSandbox, chromedp.DisableGPU, chromedp.WindowSize(1280, 900))...)
	defer cancelAlloc()
	base, cancelTab := chromedp.NewContext(alloc, chromedp.WithBrowserOption(chromedp.WithConsolef(t.Logf)))
	defer cancelTab()
	// The first run starts the browser, with no deadline (it would stop
	// the browser).
	if err := chromedp.Do(base); err != nil {
		t.Fatalf("cannot start %s: %v", browser, err)
	}
	// Each subtest runs with a deadline as a hang guard, not a condition
	// of the test: every step waits for the page.
	var tab context.Context
	step := func(t *testing.T) {
		ctx, cancel := context.WithTimeout(base, stepTimeout)
		t.Cleanup(cancel)
		tab = ctx
		t.Cleanup(func() {
			if !t.Failed() {
				return
			}
			// What the page showed, for the failure.
			buf, err := chromedp.Run(base, chromedp.FullScreenshot(100))
			if err == nil {
				os.WriteFile(filepath.Join(shots, "failed-"+strings.ReplaceAll(t.Name(), "/", "-")+".png"), buf, 0o644)
			}
			if txt, err := chromedp.Run(base, chromedp.Evaluate[string](`document.body.innerText`)); err == nil {
				t.Logf("the page showed:\n%s", txt)
			}
		})
	}
	css := func(sel string) chromedp.CSS { return chromedp.CSS(sel) }
	run := func(t *testing.T, steps ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		for i, st := range steps {
			if _, err := chromedp.Run(tab, st); err != nil {
				t.Fatalf("step %d of %d: %v", i+1, len(steps), err)
			}
		}
	}
	// waitJS waits until the JavaScript condition holds (no timeout of its
	// own: the context's deadline guards against a hang).
	waitJS := func(cond string) chromedp.Action[chromedp.Void] {
		return chromedp.Poll[chromedp.Void](cond, chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(0))
	}
	get := func(t *testing.T, a chromedp.Action[string]) string {
		t.Helper()
		v, err := chromedp.Run(tab, a)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	// shot writes a screenshot of the whole page (sel ""), of what a phone
	// shows first ("viewport") or of one element, at the given width.
	shot := func(t *testing.T, name string, width int, sel string) {
		t.Helper()
		// The chart is drawn again for the new width.
		run(t, chromedp.EmulateViewport(int64(width), 900), waitJS(`((c) => c === null || c.querySelector("svg") === null || Math.abs(c.querySelector("svg").viewBox.baseVal.width - Math.round(Math.max(300, Math.min(900, c.clientWidth - 32)))) < 1)(document.querySelector("#chart"))`))
		var buf []byte
		var err error
		switch sel {
		case "":
			buf, err = chromedp.Run(tab, chromedp.FullScreenshot(100))
		case "viewport":
			run(t, chromedp.EmulateViewport(int64(width), 844), waitJS(`(window.scrollTo(0, 0), true)`))
			buf, err = chromedp.Run(tab, chromedp.CaptureScreenshot())
		default:
			run(t, chromedp.ScrollIntoView(css(sel)))
			buf, err = chromedp.Run(tab, chromedp.Screenshot(css(sel)))
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(shots, name+".png"), buf, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// visible and hidden wait for the first element matching sel to be
	// shown, or for none to be shown; they query it again at every poll,
	// since the page replaces what it renders.
	visible := func(sel string) chromedp.Action[chromedp.Void] {
		return waitJS(`((e) => e !== null && e.getClientRects().length > 0 && getComputedStyle(e).visibility !== "hidden")(document.querySelector(` + strconv.Quote(sel) + `))`)
	}
	hidden := func(sel string) chromedp.Action[chromedp.Void] {
		return waitJS(`((e) => e === null || e.getClientRects().length === 0)(document.querySelector(` + strconv.Quote(sel) + `))`)
	}
	text := func(t *testing.T, sel string) string {
		t.Helper()
		return get(t, chromedp.TextContent(css(sel)))
	}
	count := func(t *testing.T, sel string) int {
		t.Helper()
		n, err := chromedp.Run(tab, chromedp.Evaluate[int](`document.querySelectorAll(`+strconv.Quote(sel)+`).length`))
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	usageTokens := func(t *testing.T) int {
		t.Helper()
		v, err := chromedp.Run(tab, chromedp.AttributeValue(css("#usage .usage"), "data-tokens"))
		if err != nil {
			t.Fatal(err)
		}
		n, err := strconv.Atoi(v.Value)
		if err != nil {
			t.Fatalf("usage tokens %q", v.Value)
		}
		return n
	}
	// typeInComposer empties the composer, focuses it and types s with
	// key events.
	typeInComposer := func(s string) chromedp.Action[chromedp.Void] {
		return chromedp.Steps(waitJS(`(document.querySelector("#composer-input").value = "", true)`), chromedp.Focus(css("#composer-input")), chromedp.SendKeys(css("#composer-input"), s))
	}
	openSession := func(t *testing.T, id string) {
		t.Helper()
		run(t, chromedp.Navigate(c.base+"/?notice_ms=300#/s/"+id),
			waitJS(`document.querySelector("#conversation article") !== null && document.querySelector("#conn-status") === null && document.querySelector("#status").dataset.replayed === "true"`))
	}

	t.Run("LoginAndList", func(t *testing.T) {
		step(t)
		run(t, chromedp.Navigate(c.base+"/"), visible("#token"),
			chromedp.SendKeys(css("#token"), aliceToken), chromedp.Click(css(".login button[type=submit]")),
			visible(`tr[data-session="`+history.ID+`"]`))
		row := text(t, `tr[data-session="`+history.ID+`"]`)
		for _, want := range []string{"gpt-4o", "task p1", "c", "tokens", "%"} {
			if !strings.Contains(row, want) {
				t.Errorf("list row %q lacks %q", row, want)
			}
		}
		if r := text(t, `tr[data-session="`+short.ID+`"]`); !strings.Contains(r, "none") || !strings.Contains(r, "idle") {
			t.Errorf("short session's row %q: want no compaction, idle", r)
		}
		shot(t, "list-desktop", 1280, "")
		shot(t, "list-phone", 390, "")
		run(t, chromedp.EmulateViewport(1280, 900))
	})

	t.Run("SessionWithCheckpointsAndChart", func(t *testing.T) {
		step(t)
		openSession(t, history.ID)
		run(t, chromedp.EmulateViewport(1280, 900), visible("#chart .compaction-mark"),
			visible("#checkpoints li[data-checkpoint] button.undo"))
		marks, cps, masked := count(t, "#chart .compaction-mark"), count(t, "#checkpoints li[data-checkpoint]"), count(t, "#conversation .masked-box")
		if marks == 0 || cps == 0 || masked == 0 {
			t.Fatalf("%d compaction marks, %d checkpoints, %d masked outputs shown", marks, cps, masked)
		}
		if g := text(t, "#checkpoints li[data-checkpoint] .gate"); g == "" {
			t.Error("no quality gate shown")
		}
		if l := text(t, "#checkpoints li[data-checkpoint] dd"); l == "" {
			t.Error("checkpoint details empty")
		}
		shot(t, "session-desktop", 1280, "")
		shot(t, "chart-desktop", 1280, "#chart")
		shot(t, "session-phone", 390, "")
		shot(t, "session-phone-top", 390, "viewport")
		shot(t, "chart-phone", 390, "#chart")
		run(t, chromedp.EmulateViewport(1280, 900))

		// A summarized span is collapsed under its summary.
		openSession(t, summarized.ID)
		run(t, visible(`#conversation .span-block[data-rendering="summary"] details`))
		if l := text(t, `#conversation .span-block[data-rendering="summary"] .label`); !strings.Contains(l, "messages summarized") {
			t.Errorf("summary block labelled %q", l)
		}
		if n := count(t, `#conversation .span-block[data-rendering="summary"] details:not([open]) article[data-index="1"]`); n != 1 {
			t.Error("the first summarized message is not collapsed under the summary")
		}
		if n := count(t, `#conversation > article[data-index="1"]`); n != 0 {
			t.Error("a summarized message is shown outside its summary")
		}
		// Idle: the compactions of its renders are over, nothing to stop.
		if n := count(t, "#busy-status"); n != 0 || !strings.Contains(text(t, "#result-status"), "Compacted c1") {
			t.Errorf("an idle session shows %d busy status, result %q", n, text(t, "#status"))
		}
		run(t, hidden("#stop"))
		shot(t, "session-summary-desktop", 1280, "")
	})

	t.Run("CompactRecallUndo", func(t *testing.T) {
		step(t)
		openSession(t, long.ID)
		before := usageTokens(t)
		// The slash menu offers Compact, with the next request's usage.
		run(t, typeInComposer("/"), visible("#slash-menu"),
			visible(`#menu-compact[aria-disabled="false"][aria-selected="true"]`))
		if u := text(t, "#menu-usage"); !strings.Contains(u, strconv.Itoa(before%1000)) || !strings.Contains(u, "%") {
			t.Errorf("menu usage line %q, usage %d", u, before)
		}
		// Keyboard only: Enter picks /compact, Enter again runs it.
		run(t, chromedp.KeyEvent(kb.Enter), waitJS(`document.querySelector("#composer-input").value === "/compact "`),
			chromedp.KeyEvent(kb.Enter),
			visible(`#checkpoints li[data-checkpoint="c1"]`),
			waitJS(`document.querySelector("#result-status")?.textContent.includes("Compacted c1")`),
			visible("#conversation .masked-box button.recall"))
		if after := usageTokens(t); after >= before {
			t.Fatalf("usage %d after /compact, %d before", after, before)
		}
		// Recall a masked output: the original comes back.
		run(t, chromedp.Click(css("#conversation .masked-box button.recall")),
			visible("#conversation .recalled pre"))
		if orig := text(t, "#conversation .recalled pre"); !strings.Contains(orig, "line of output from l1-call0") {
			t.Fatalf("recalled %q", orig)
		}
		// Undo: the checkpoint goes, usage returns.
		run(t, chromedp.Click(css(`button.undo[data-checkpoint="c1"]`)),
			visible("#no-checkpoints"),
			waitJS(`document.querySelector("#conversation .masked-box") === null`))
		if after := usageTokens(t); after != before {
			t.Fatalf("usage %d after undo, %d before the compaction", after, before)
		}
	})

	t.Run("NothingToCompact", func(t *testing.T) {
		step(t)
		openSession(t, short.ID)
		run(t, typeInComposer("/"), visible(`#menu-compact[aria-disabled="true"]`))
		if why := text(t, "#menu-compact .why"); !strings.Contains(why, "Nothing to compact") {
			t.Errorf("disabled entry says %q", why)
		}
		// Typed anyway: one neutral notice, which goes away.
		run(t, chromedp.SendKeys(css("#composer-input"), "compact"), chromedp.KeyEvent(kb.Enter),
			waitJS(`document.querySelector("#notice").dataset.shown === "1"`))
		if n := text(t, "#notice"); !strings.Contains(n, "Nothing to compact") {
			t.Errorf("notice %q", n)
		}
		run(t, hidden("#notice"))
		// Still offered as disabled, and trying again sends nothing.
		run(t, typeInComposer("/"), visible(`#menu-compact[aria-disabled="true"]`))
		if why := text(t, "#menu-compact .why"); !strings.Contains(why, "after a new message") {
			t.Errorf("disabled entry after the attempt says %q", why)
		}
		run(t, chromedp.KeyEvent(kb.Escape), waitJS(`document.querySelector("#slash-menu").hidden`))
		// New messages (appended by an agent): the entry is offered again.
		for _, p := range []string{"s1", "s2", "s3"} {
			c.must(200, "POST", "/v1/sessions/"+short.ID+"/messages", server.AppendRequest{Messages: workTurn(p, 3)}, nil)
		}
		run(t, waitJS(`document.querySelector(".composer").dataset.compact === "available"`),
			typeInComposer("/"), visible(`#menu-compact[aria-disabled="false"]`),
			chromedp.KeyEvent(kb.Escape))
	})

	t.Run("StopHostedRunMidCompactionAndReload", func(t *testing.T) {
		step(t)
		openSession(t, hosted.ID)
		run(t, typeInComposer("go on"), chromedp.KeyEvent(kb.Enter),
			waitJS(`document.querySelector("#busy-status")?.textContent.includes("Compacting (writing the summary)")`),
			visible("#stop"))
		shot(t, "session-compacting-desktop", 1280, "")
		// A reload during the run still shows it, and the conversation
		// (the snapshot waits until the compaction ends).
		run(t, chromedp.Reload(),
			waitJS(`document.querySelector("#busy-status")?.textContent.includes("Compacting (writing the summary)")`),
			visible("#stop"), visible(`#conversation article[data-index="30"]`))
		if n := count(t, "#busy-status"); n != 1 {
			t.Fatal("the run's status went before Stop")
		}
		shot(t, "session-reloaded-during-run-desktop", 1280, "")
		run(t, chromedp.Click(css("#stop")),
			waitJS(`document.querySelector("#result-status")?.textContent === "Stopped."`),
			hidden("#stop"))
		var snap server.Snapshot
		c.must(200, "GET", "/v1/sessions/"+hosted.ID, nil, &snap)
		var ri server.RunInfo
		c.must(200, "GET", "/v1/sessions/"+hosted.ID+"/runs/"+snap.Run, nil, &ri)
		if snap.Busy || ri.State != server.RunAborted {
			t.Fatalf("after Stop: busy %v, run %s", snap.Busy, ri.State)
		}
	})
}
