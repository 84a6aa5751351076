package tokens_test

import (
	"fmt"
	"log/slog"
	"os"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/tokens"
)

func ExampleForModel() {
	req := condense.Request{
		Model:  "gpt-4o-2024-08-06",
		System: "You are a careful coding agent.",
		Messages: []condense.Message{
			condense.UserText("Why does the test in store_test.go fail?"),
		},
	}
	c := tokens.ForModel(req.Model, nil)
	fmt.Println(c.Name(), c.Exact())
	fmt.Println(condense.CountRequest(c, &req))

	claude := tokens.ForModel("claude-sonnet-4-5-20250929", nil)
	fmt.Println(claude.Name(), claude.Exact())
	// Output:
	// o200k_base true
	// 28
	// anthropic-heuristic false
}

func ExampleObserver() {
	c := tokens.ForModel("claude-sonnet-4-5", nil)
	req := condense.Request{Messages: []condense.Message{condense.UserText("Summarize the build log.")}}
	before := condense.CountRequest(c, &req) // no usage seen yet: uncorrected

	// The provider billed 10% more input tokens than estimated.
	if o, ok := c.(tokens.Observer); ok {
		o.Observe(before, before*11/10)
	}
	fmt.Printf("factor %.2f\n", c.(condense.Corrector).Correction())
	fmt.Println(condense.CountRequest(c, &req) > before)
	// Output:
	// factor 1.06
	// true
}

func ExampleRegistry_Lookup() {
	info, ok := tokens.Models.Lookup("claude-sonnet-4-5-20250929")
	fmt.Println(info.Name, info.Window, info.MaxOutput, ok)

	// Override or add models on a registry of your own.
	reg := tokens.NewRegistry(tokens.BuiltinModels()...)
	reg.Set(condense.ModelInfo{Name: "claude-sonnet-4-5", Window: 1_000_000, MaxOutput: 64_000, Family: tokens.FamilyAnthropic})
	info, _ = reg.Lookup("claude-sonnet-4-5-20250929")
	fmt.Println(info.Window)
	// Output:
	// claude-sonnet-4-5 200000 64000 true
	// 1000000
}

func ExampleRegistry_WarnUnknown() {
	logger := slog.New(slog.NewTextHandler(os.Stdout, &slog.HandlerOptions{
		ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey {
				return slog.Attr{}
			}
			return a
		},
	}))
	reg := tokens.NewRegistry(tokens.BuiltinModels()...)
	for range 3 {
		reg.WarnUnknown(logger, "my-local-llama")
	}
	// Output:
	// level=WARN msg="condense: unknown model has no context window; requests are not guarded" model=my-local-llama
}

func ExampleHeuristic() {
	c := tokens.Heuristic(tokens.FamilyAnthropic)
	m := condense.Message{Role: condense.RoleTool, Parts: []condense.Part{
		condense.ToolResult("toolu_01", false, condense.Text("ok  \tgithub.com/condense-dev/condense/tokens\t0.8s")),
	}}
	fmt.Println(c.Name(), c.CountMessage(&m))
	// Output:
	// anthropic-heuristic 33
}
