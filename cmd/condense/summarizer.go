package main

import (
	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/provider/anthropic"
	"github.com/condense-dev/condense/provider/openai"
	"github.com/condense-dev/condense/summarize"
)

// summarizerNames lists the --summarizer values.
var summarizerNames = []string{"extractive", "anthropic", "openai"}

// newSummarizer builds the summarizer named by --summarizer; model is
// --summarizer-model, the (cheaper) model that writes summaries ("" means
// the provider package's default). The provider summarizers read their key
// and base URL from the usual environment variables (ANTHROPIC_API_KEY,
// ANTHROPIC_BASE_URL, OPENAI_API_KEY, OPENAI_BASE_URL).
func newSummarizer(name, model string) (condense.Summarizer, error) {
	switch name {
	case "", "extractive":
		return summarize.Extractive{}, nil
	case "anthropic":
		s, err := anthropic.New(anthropic.Options{Model: model})
		if err != nil {
			return nil, usagef("--summarizer anthropic: %v", err)
		}
		return s, nil
	case "openai":
		s, err := openai.New(openai.Options{Model: model})
		if err != nil {
			return nil, usagef("--summarizer openai: %v", err)
		}
		return s, nil
	}
	return nil, usagef("unknown --summarizer %q (extractive, anthropic, openai)", name)
}
