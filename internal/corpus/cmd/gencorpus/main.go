// Command gencorpus writes a corpus of synthetic agent sessions with
// planted probes, and scores compacted renderings against the probes by
// plain string search.
//
//	go run ./internal/corpus/cmd/gencorpus -half report -n 10 -seed 1 -out DIR
//	go run ./internal/corpus/cmd/gencorpus score P1.probes.json OUT1 [P2.probes.json OUT2 ...]
//	go run ./internal/corpus/cmd/gencorpus extracted DIR [DIR ...]
//
// extracted counts, per category, the probes of each session of the
// directories that some item of the ledger extracted from the whole session
// holds (counts only, no probe's text): a probe lost by a compaction that
// no item holds is an extraction miss, not a budget loss, so the figure
// tells which to work on without reading a held-out half's probes.
//
// Generate from the tune (or the fresh, blind, practice or drill) half while
// adjusting extractors and strategies; generate from the report, sealed,
// holdout and reserve halves only to report figures. The fresh half was written without looking at the
// extractors and held out until its misses were tuned against: it is a
// second tuning half now. The blind half was written the same way, without looking at
// the other halves either, and tuned against in turn: a third tuning half.
// The sealed half is written after it, the same way again, with other
// tools and surfaces: report only. The holdout half is written after the
// sealed half, the same way again, with tools, libraries and wordings of
// its own: report only. The reserve half is written after the holdout
// half, the same way again, with tools, libraries, ecosystems and wordings
// of its own: report only. The practice half is written after the reserve
// half, the same way again, with tools, libraries, ecosystems and wordings
// of its own, but to be tuned against: a fourth tuning half. The drill
// half is written after the practice half, the same way again, without
// looking at the extractors, with tools, formats and wordings no other
// half uses: a fifth tuning half.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/condense-dev/condense/internal/corpus"
	"github.com/condense-dev/condense/ledger"
	"github.com/condense-dev/condense/transcript"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "extracted" {
		if err := extracted(os.Stdout, os.Args[2:]); err != nil {
			fmt.Fprintln(os.Stderr, "gencorpus extracted:", err)
			os.Exit(2)
		}
		return
	}
	if len(os.Args) > 1 && os.Args[1] == "score" {
		if err := score(os.Stdout, os.Args[2:]); err != nil {
			fmt.Fprintln(os.Stderr, "gencorpus score:", err)
			os.Exit(2)
		}
		return
	}
	if err := generate(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "gencorpus:", err)
		os.Exit(2)
	}
}

func generate(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("gencorpus", flag.ContinueOnError)
	half := fs.String("half", "", "which half of the tables to draw from: tune (for adjusting extractors), report (held out, for reporting), fresh (written without looking at the extractors, since tuned against: a second tuning half), blind (written like fresh without looking at the other halves either, since tuned against too: a third tuning half), sealed (held out like blind, written after it with other tools and surfaces: report only, never tune on it), holdout (held out like sealed, written after it with other tools, libraries and wordings again: report only, never tune on it), reserve (held out like holdout, written after it with other tools, libraries, ecosystems and wordings again: report only, never tune on it), practice (written after reserve like it, without looking at the extractors, with other tools, libraries, ecosystems and wordings again, but to be tuned against: a fourth tuning half) or drill (written after practice without looking at the extractors, with tools, formats and wordings no other half uses: a fifth tuning half)")
	n := fs.Int("n", 10, "number of sessions")
	seed := fs.Uint64("seed", 1, "seed of the first session; session i uses seed+i")
	steps := fs.Int("steps", 0, "tool steps per session (0: drawn in 240–260)")
	out := fs.String("out", "", "directory to write into (created if missing)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	h, err := corpus.ParseHalf(*half)
	if err != nil {
		return err
	}
	if *out == "" || *n <= 0 {
		return fmt.Errorf("need -out DIR and -n > 0")
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	sessions, err := corpus.Corpus(h, *seed, *n, *steps)
	if err != nil {
		return err
	}
	for _, s := range sessions {
		if _, err := s.WriteFiles(*out); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s%s\t%d bytes\t%d steps\t%d probes\n", s.Name, s.Ext, len(s.Data), s.Steps, len(s.Plants))
	}
	return os.WriteFile(filepath.Join(*out, "README.md"), readme(h, *seed, *n, *steps, sessions), 0o644)
}

func readme(h corpus.Half, seed uint64, n, steps int, ss []*corpus.Session) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# Synthetic agent sessions (%s half)\n\n", h)
	stepsFlag := ""
	if steps > 0 {
		stepsFlag = fmt.Sprintf(" -steps %d", steps)
	}
	fmt.Fprintf(&b, "Written by `go run ./internal/corpus/cmd/gencorpus -half %s -n %d -seed %d%s -out DIR`; the same command writes the same bytes.\n\n", h, n, seed, stepsFlag)
	switch h {
	case corpus.Fresh:
		b.WriteString("This is the **fresh** half: written without looking at the extractors and held out until its misses were read and tuned against; it is a second tuning half now (report on `-half report`, `-half sealed`, `-half holdout` and `-half reserve`). Its probe forms, error messages, commands and phrasings are its own; harnesses, projects and agent styles are the report half's.\n\n")
	case corpus.Blind:
		b.WriteString("This is the **blind** half: written without looking at the extractors or at the other halves, and held out until its misses were read and tuned against; it is a third tuning half now (report on `-half report`, `-half sealed`, `-half holdout` and `-half reserve`). Its probe forms, error messages, commands and phrasings are its own; harnesses, projects and agent styles are the report half's.\n\n")
	case corpus.Sealed:
		b.WriteString("This is the **sealed** half: a held-out half, written after the blind half and like it, without looking at the extractors or at the other halves, with other tools, ecosystems and surfaces: report only, never tune on it. Do not look at these sessions, their probes or their retention per form while adjusting extractors, strategies or summarizers (use `-half tune` for that). Its probe forms, error messages, commands and phrasings are its own; harnesses, projects and agent styles are the report half's.\n\n")
	case corpus.Holdout:
		b.WriteString("This is the **holdout** half: a held-out half, written after the sealed half and like it, without looking at the extractors, with tools, libraries, ecosystems and wordings none of the other halves use: report only, never tune on it. Do not look at these sessions, their probes or their retention per form while adjusting extractors, strategies or summarizers (use `-half tune` for that). Its probe forms, error messages, commands and phrasings are its own; harnesses, projects and agent styles are the report half's.\n\n")
	case corpus.Reserve:
		b.WriteString("This is the **reserve** half: a held-out half, written after the holdout half and like it, without looking at the extractors, with tools, libraries, ecosystems and wordings none of the other halves use: report only, never tune on it. Do not look at these sessions, their probes or their retention per form while adjusting extractors, strategies or summarizers (use `-half tune` for that). Its probe forms, error messages, commands and phrasings are its own; harnesses, projects and agent styles are the report half's.\n\n")
	case corpus.Practice:
		b.WriteString("This is the **practice** half: written after the reserve half and like it, without looking at the extractors, with tools, libraries, ecosystems and wordings none of the other halves use, but meant to be tuned against: read its misses and adjust extractors, strategies and summarizers to them (report on `-half report`, `-half sealed`, `-half holdout` and `-half reserve`). Its probe forms, error messages, commands and phrasings are its own; harnesses, projects and agent styles are the report half's.\n\n")
	case corpus.Drill:
		b.WriteString("This is the **drill** half: written after the practice half without looking at the extractors, with tools, formats and wordings none of the other halves use, to drill what compaction still loses (identifiers and figures printed inside the output of unfamiliar tools, and errors, commands and decisions that reach the agent through a tool's output); a fifth tuning half: read its misses and adjust extractors, strategies and summarizers to them (report on `-half report`, `-half sealed`, `-half holdout` and `-half reserve`). Its probe forms, error messages, commands and phrasings are its own; harnesses, projects and agent styles are the report half's.\n\n")
	case corpus.Report:
		b.WriteString("This is the **report** half: held out. Use it to report retention; do not look at it while adjusting extractors, strategies or summarizers (use `-half tune` for that).\n\n")
	default:
		b.WriteString("This is the **tune** half: use it while adjusting extractors, strategies and summarizers. Report figures on the report half, which shares none of these phrasings, projects or format variants.\n\n")
	}
	b.WriteString("For each session NAME:\n\n- `NAME.<ext>`: the transcript, in its agent's own format;\n- `NAME.probes.json`: the planted specifics, for `condense eval --probes`;\n- `NAME.plants.json`: the same probes with the surface form that planted each, its site (task, user, assistant, tool-input, tool-output), the tool step it sits in and how often its text occurs;\n- `NAME.distractors.json`: routine specifics in the probe format (plans that are not decisions, the most repeated commands and paths, the errors seen run after run), to compare with the rare ones.\n\n")
	b.WriteString("| session | format | harness | ecosystem | project | style | steps | bytes | probes |\n|---|---|---|---|---|---|---|---|---|\n")
	for _, s := range ss {
		fmt.Fprintf(&b, "| `%s%s` | %s | %s | %s | %s | %s | %d | %d | %d |\n", s.Name, s.Ext, s.Format, s.Harness, s.Ecosystem, s.Project, s.Style, s.Steps, len(s.Data), len(s.Plants))
	}
	cats := map[string]int{}
	sites := map[string]int{}
	formsSeen := map[string]int{}
	for _, s := range ss {
		for _, p := range s.Plants {
			cats[p.Category]++
			sites[p.Site]++
			formsSeen[p.Category+": "+p.Form]++
		}
	}
	b.WriteString("\nProbes by category: ")
	var parts []string
	for _, c := range corpus.Categories {
		parts = append(parts, fmt.Sprintf("%s %d", c, cats[c]))
	}
	b.WriteString(strings.Join(parts, ", ") + ".\n\nBy site: ")
	parts = nil
	for _, st := range []string{"task", "user", "assistant", "tool-input", "tool-output"} {
		parts = append(parts, fmt.Sprintf("%s %d", st, sites[st]))
	}
	b.WriteString(strings.Join(parts, ", ") + ".\n\nBy surface form:\n\n")
	var keys []string
	for k := range formsSeen {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		fmt.Fprintf(&b, "- %s: %d\n", k, formsSeen[k])
	}
	b.WriteString("\nMeasure, for example:\n\n```sh\ncondense eval --window 64k --json --probes NAME.probes.json NAME.<ext>\ncondense compact --window 64k -o NAME.out.json NAME.<ext>\ngo run ./internal/corpus/cmd/gencorpus score NAME.probes.json NAME.out.json\n```\n")
	return b.Bytes()
}

type tally struct{ kept, total int }

// score searches each rendering for its probes: the text as it is, or
// escaped once or twice as a JSON string (a tool output that is itself
// JSON inside a JSON request).
func score(w io.Writer, args []string) error {
	if len(args) == 0 || len(args)%2 != 0 {
		return fmt.Errorf("want pairs: PROBES.json RENDERED ...")
	}
	byCat := map[string]*tally{}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "file\tkept\ttotal\t")
	for i := 0; i < len(args); i += 2 {
		raw, err := os.ReadFile(args[i])
		if err != nil {
			return err
		}
		var probes []corpus.Probe
		if err := json.Unmarshal(raw, &probes); err != nil {
			return fmt.Errorf("%s: %w", args[i], err)
		}
		out, err := os.ReadFile(args[i+1])
		if err != nil {
			return err
		}
		var file tally
		for _, p := range probes {
			t := byCat[p.Category]
			if t == nil {
				t = &tally{}
				byCat[p.Category] = t
			}
			t.total++
			file.total++
			if contains(out, p.Text) {
				t.kept++
				file.kept++
			}
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t\n", args[i+1], file.kept, file.total)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w)
	return categoryTable(w, "kept", byCat)
}

// categoryTable writes, per category (the corpus's order first), the
// count column named kept, the total and the rate, then their sums.
func categoryTable(w io.Writer, kept string, byCat map[string]*tally) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "category\t%s\ttotal\trate\t\n", kept)
	var all tally
	cats := slices.Clone(corpus.Categories)
	for c := range byCat {
		if !slices.Contains(cats, c) {
			cats = append(cats, c)
		}
	}
	for _, c := range cats {
		if t := byCat[c]; t != nil {
			all.kept += t.kept
			all.total += t.total
			fmt.Fprintf(tw, "%s\t%d\t%d\t%.1f%%\t\n", c, t.kept, t.total, 100*float64(t.kept)/float64(t.total))
		}
	}
	fmt.Fprintf(tw, "all\t%d\t%d\t%.1f%%\t\n", all.kept, all.total, 100*float64(all.kept)/float64(max(all.total, 1)))
	return tw.Flush()
}

// extracted writes, per category, how many probes of the sessions in dirs
// an item extracted from the whole session holds (see the package doc).
func extracted(w io.Writer, dirs []string) error {
	if len(dirs) == 0 {
		return fmt.Errorf("want one directory or more")
	}
	byCat := map[string]*tally{}
	for _, dir := range dirs {
		files, err := filepath.Glob(filepath.Join(dir, "*"))
		if err != nil {
			return err
		}
		for _, f := range files {
			if !strings.HasSuffix(f, ".probes.json") {
				continue
			}
			raw, err := os.ReadFile(f)
			if err != nil {
				return err
			}
			var probes []corpus.Probe
			if err := json.Unmarshal(raw, &probes); err != nil {
				return fmt.Errorf("%s: %w", f, err)
			}
			session := ""
			base := strings.TrimSuffix(f, ".probes.json")
			for _, g := range files {
				if strings.HasPrefix(g, base+".") && g != f && !strings.HasSuffix(g, ".plants.json") && !strings.HasSuffix(g, ".distractors.json") {
					session = g
				}
			}
			if session == "" {
				return fmt.Errorf("%s: no session beside it", f)
			}
			tr, err := transcript.ReadFile(session, transcript.Options{})
			if err != nil {
				return fmt.Errorf("%s: %w", session, err)
			}
			body, err := os.ReadFile(session)
			if err != nil {
				return err
			}
			items := ledger.Extract(tr.Request.Messages, 0)
			for _, p := range probes {
				if !contains(body, p.Text) {
					continue // planted in a step the session was cut before, as eval leaves it out
				}
				t := byCat[p.Category]
				if t == nil {
					t = &tally{}
					byCat[p.Category] = t
				}
				t.total++
				if slices.ContainsFunc(items, func(it ledger.Item) bool { return strings.Contains(it.Value, p.Text) }) {
					t.kept++
				}
			}
		}
	}
	if len(byCat) == 0 {
		return fmt.Errorf("no NAME.probes.json in %s", strings.Join(dirs, ", "))
	}
	return categoryTable(w, "in items", byCat)
}

func contains(out []byte, s string) bool {
	if bytes.Contains(out, []byte(s)) {
		return true
	}
	once := jsonInner(s)
	return bytes.Contains(out, []byte(once)) || bytes.Contains(out, []byte(jsonInner(once)))
}

// jsonInner is s as a JSON string without its quotes.
func jsonInner(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	q := strings.TrimRight(b.String(), "\n")
	return q[1 : len(q)-1]
}
