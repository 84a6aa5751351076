package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/condense-dev/condense"
)

// A command is one subcommand: its name, a one-line summary and its run
// function, which parses its own flags.
type command struct {
	name    string
	summary string
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) error
}

var commands = map[string]command{}

func register(c command) { commands[c.name] = c }

// Exit codes, a contract scripts rely on (docs/formats.md): 0 success, 1
// the request cannot fit, 2 bad usage or bad input.
const (
	exitOK        = 0
	exitCannotFit = 1
	exitUsage     = 2
)

// usageError is bad usage or bad input: exit 2.
type usageError struct{ err error }

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error {
	return &usageError{fmt.Errorf(format, args...)}
}

// errReported is an error already printed; only its exit code matters.
type exitError struct{ code int }

func (e *exitError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

// ExitCode maps an error from Run to the process exit code: 0 success, 1 the
// request cannot fit (context_window_exceeded), 2 bad usage or bad input.
func ExitCode(err error) int {
	var ee *exitError
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return exitOK
	case errors.As(err, &ee):
		return ee.code
	case errors.Is(err, condense.ErrContextWindowExceeded):
		return exitCannotFit
	case errors.Is(err, context.Canceled):
		return 130
	}
	// Everything else is bad usage or bad input in the contract's terms: an
	// output path that cannot be written, a malformed file, a provider that
	// refused the configured key. Exit 1 means "cannot fit" and nothing else.
	return exitUsage
}

// Run runs the condense command line with args (without the program name),
// writing output to stdout and diagnostics to stderr. Errors are printed to
// stderr before they are returned; ExitCode maps them to exit codes.
func Run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	err := run(ctx, args, stdout, stderr)
	var ee *exitError
	var fe *flagError
	if err != nil && !errors.Is(err, flag.ErrHelp) && !errors.As(err, &ee) && !errors.As(err, &fe) {
		fmt.Fprintf(stderr, "condense: %v\n", err)
	}
	return err
}

// flagError is a flag the flag package already reported with the usage.
type flagError struct{ usageError }

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		printHelp(stderr)
		return usagef("no command given")
	}
	name := args[0]
	switch name {
	case "help", "-h", "-help", "--help":
		if len(args) > 1 {
			if c, ok := commands[args[1]]; ok {
				return c.run(ctx, []string{"--help"}, stdout, stdout)
			}
		}
		printHelp(stdout)
		return nil
	}
	c, ok := commands[name]
	if !ok {
		printHelp(stderr)
		return usagef("unknown command %q", name)
	}
	return c.run(ctx, args[1:], stdout, stderr)
}

func printHelp(w io.Writer) {
	fmt.Fprintln(w, "condense keeps long-running LLM agents inside their context window.")
	fmt.Fprintln(w, "\nUsage: condense COMMAND [flags] [FILE...]\n\nCommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-9s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w, "\nRun \"condense COMMAND --help\" for a command's flags and an example.")
}

// newFlags returns a flag set for a command whose help shows usage and an
// example.
func newFlags(name, usage, example string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: condense %s\n\nFlags:\n", usage)
		fs.PrintDefaults()
		if example != "" {
			fmt.Fprintf(fs.Output(), "\nExample:\n  %s\n", strings.ReplaceAll(example, "\n", "\n  "))
		}
	}
	return fs
}

// parse parses args with fs, allowing flags after positional arguments
// ("condense compact FILE --window 32k"). A parse error is a usage error.
func parse(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, err
			}
			return nil, &flagError{usageError{err}}
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if rest[0] == "--" {
			return append(pos, rest[1:]...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}
