package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/ledger"
)

// Exit codes, a contract scripts rely on (docs/formats.md): 0 success, 1
// the request cannot fit, 2 bad usage or bad input, 130 interrupted.
const (
	exitOK        = 0
	exitCannotFit = 1
	exitUsage     = 2
	exitCancelled = 130
)

// usageError is bad usage or bad input: exit 2. When cmd is set (a command
// path such as "condense compact") the error is about the command line, and
// a hint to that command's help follows the one-line message.
type usageError struct {
	err error
	cmd string
}

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

// usagef is bad input (or a usage problem that needs no hint): exit 2.
func usagef(format string, args ...any) error {
	return &usageError{err: fmt.Errorf(format, args...)}
}

// flagErrorf is a bad flag value or argument count of cmd: exit 2, printed
// with a hint to cmd's help.
func flagErrorf(cmd *cobra.Command, format string, args ...any) error {
	return &usageError{err: fmt.Errorf(format, args...), cmd: cmd.CommandPath()}
}

// exitError is an error already printed; only its exit code matters.
type exitError struct{ code int }

func (e *exitError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

// ExitCode maps an error from Run to the process exit code: 0 success, 1 the
// request cannot fit (context_window_exceeded), 2 bad usage or bad input,
// 130 cancelled (Ctrl-C).
func ExitCode(err error) int {
	var ee *exitError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &ee):
		return ee.code
	case errors.Is(err, condense.ErrContextWindowExceeded):
		return exitCannotFit
	case errors.Is(err, context.Canceled):
		return exitCancelled
	}
	// Everything else is bad usage or bad input in the contract's terms: an
	// output path that cannot be written, a malformed file, a provider that
	// refused the configured key. Exit 1 means "cannot fit" and nothing else.
	return exitUsage
}

// env is what a command reads from and writes to. Terminal detection goes
// through isTerminal, so a test can hand in writers that say they are
// terminals (see terminal).
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	// sizeHint, when set, is told the size in bytes of the input a command
	// is about to read (from the file's size, or the --max-input cap when
	// standard input is a pipe) before reading starts. The binary's main
	// sets its soft memory limit from it (setMemoryLimit); Run leaves it
	// nil.
	sizeHint func(size int64)
}

// terminal is implemented by writers and readers that know whether they
// are an interactive terminal; isTerminal asks them before looking at a
// file descriptor. Tests use it to see the output meant for people (the
// summary line, the progress bar) without a TTY.
type terminal interface{ IsTerminal() bool }

// isTerminal reports whether v (a reader or writer) is an interactive
// terminal: a terminal implementation's answer, else whether it is an
// *os.File on a TTY.
func isTerminal(v any) bool {
	switch t := v.(type) {
	case terminal:
		return t.IsTerminal()
	case *os.File:
		return term.IsTerminal(int(t.Fd()))
	}
	return false
}

// Run runs the condense command line with args (without the program name),
// reading standard input from os.Stdin, writing output to stdout and
// diagnostics to stderr. Errors are printed to stderr (one line, and for a
// command-line mistake a hint to the command's help) before they are
// returned; ExitCode maps them to exit codes.
func Run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return runEnv(ctx, args, &env{stdin: os.Stdin, stdout: stdout, stderr: stderr})
}

// runEnv is Run with every stream given.
func runEnv(ctx context.Context, args []string, e *env) error {
	root := newRoot(e)
	root.SetArgs(singleDashLong(root, args))
	root.SetIn(e.stdin)
	root.SetOut(e.stdout)
	root.SetErr(e.stderr)
	err := root.ExecuteContext(ctx)
	if err == nil {
		return nil
	}
	var ee *exitError
	if errors.As(err, &ee) {
		return err
	}
	if strings.HasPrefix(err.Error(), "unknown command ") {
		err = &usageError{err: err, cmd: root.CommandPath()}
	}
	// An error may quote the input (a value a reader could not take).
	fmt.Fprintf(e.stderr, "condense: %s\n", ledger.Redact(err.Error()))
	var ue *usageError
	if errors.As(err, &ue) && ue.cmd != "" {
		fmt.Fprintf(e.stderr, "Run '%s --help' for usage.\n", ue.cmd)
	}
	return err
}

// rootLong is the root command's description.
const rootLong = `condense keeps long-running LLM agents inside their context window.

Transcripts are read in any format the transcript package knows (--format auto
detects it) from a FILE, or from standard input with "-" or when no FILE is
given and standard input is not a terminal. Exit codes: 0 success, 1 the
request cannot fit even after compaction, 2 bad usage or bad input, 130
interrupted.`

// newRoot builds the command tree. Every call builds a new one, so Run
// keeps no state between calls.
func newRoot(e *env) *cobra.Command {
	root := &cobra.Command{
		Use:           "condense",
		Short:         "keep long-running LLM agents inside their context window",
		Long:          rootLong,
		Version:       version(),
		SilenceErrors: true,
		SilenceUsage:  true,
		// With no command, the help goes to standard error and the exit
		// code says the usage was wrong.
		RunE: func(cmd *cobra.Command, args []string) error {
			cmd.SetOut(e.stderr)
			_ = cmd.Help()
			return usagef("no command given")
		},
	}
	root.SetVersionTemplate("condense {{.Version}}\n")
	root.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error {
		msg := strings.Replace(err.Error(), "unknown flag: ", "unknown flag ", 1)
		return &usageError{err: errors.New(msg), cmd: cmd.CommandPath()}
	})
	root.AddCommand(newCompactCmd(e), newCountCmd(e), newInspectCmd(e), newEvalCmd(e), newReplayCmd(e), newServeCmd(e), newProxyCmd(e))
	return root
}

// version is the module version of the binary (go install ...@v1.2.3), else
// the VCS revision it was built from ("+dirty" for uncommitted changes),
// else "(devel)".
func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "(devel)"
	}
	return versionOf(info)
}

// versionOf is version reading info.
func versionOf(info *debug.BuildInfo) string {
	if v := info.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var rev, modified string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	if rev == "" {
		return "(devel)"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if modified == "true" {
		rev += "+dirty"
	}
	return "(devel) " + rev
}

// singleDashLong rewrites the single-dash long flags the command line
// accepted before it followed GNU conventions ("-window 32k", "-json") to
// their double-dash form, so scripts written for it keep working. Only an
// argument naming a long flag of the command (or -help, -version) is
// rewritten; single-letter shorthands ("-o") and everything after "--"
// are left alone.
func singleDashLong(root *cobra.Command, args []string) []string {
	out := append([]string(nil), args...)
	var cmd *cobra.Command
	for i, a := range out {
		if a == "--" {
			break
		}
		if cmd == nil && !strings.HasPrefix(a, "-") {
			for _, c := range root.Commands() {
				if c.Name() == a {
					cmd = c
				}
			}
			continue
		}
		if !strings.HasPrefix(a, "-") || strings.HasPrefix(a, "--") || len(a) < 3 {
			continue
		}
		name, _, _ := strings.Cut(a[1:], "=")
		if name == "help" || name == "version" && cmd == nil || cmd != nil && cmd.Flags().Lookup(name) != nil {
			out[i] = "-" + a
		}
	}
	return out
}
