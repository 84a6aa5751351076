// Command dumptexts writes every text of the transcripts in a directory as
// JSON lines {source, kind, text}, for measure.mjs.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/transcript"
)

type rec struct {
	Source string `json:"source"`
	Kind   string `json:"kind"`
	Text   string `json:"text"`
}

func main() {
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	enc := json.NewEncoder(w)
	files, _ := filepath.Glob(os.Args[1] + "/*")
	for _, f := range files {
		if fi, _ := os.Stat(f); fi.IsDir() {
			continue
		}
		tr, err := transcript.ReadFile(f, transcript.Options{Lenient: true})
		if err != nil {
			fmt.Fprintln(os.Stderr, f, err)
			continue
		}
		emit := func(kind, s string) {
			if s != "" {
				enc.Encode(rec{filepath.Base(f), kind, s})
			}
		}
		emit("system", tr.Request.System)
		for _, m := range tr.Request.Messages {
			for _, p := range m.Parts {
				switch p.Type {
				case condense.PartText:
					emit(string(m.Role)+"-text", p.Text)
				case condense.PartThinking:
					emit("thinking", p.Text)
				case condense.PartToolCall:
					emit("tool-input", string(p.Input))
				case condense.PartToolResult:
					for _, c := range p.Content {
						emit("tool-output", c.Text)
					}
				}
			}
		}
	}
}
