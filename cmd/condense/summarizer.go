package main

import (
	"github.com/condense-dev/condense/summarize"
)

// newSummarizer builds the summarizer named by --summarizer.
func newSummarizer(name string, l *loaded) (summarize.Summarizer, error) {
	switch name {
	case "", "extractive":
		return summarize.Extractive{}, nil
	}
	return nil, usagef("unknown --summarizer %q (extractive, anthropic, openai)", name)
}
