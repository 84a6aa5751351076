// Package workspace gives an agent read-only tools over one directory
// tree: read_file, list_files and search. Every path a model names is
// resolved inside the workspace root — a ".." that climbs out, an absolute
// path elsewhere and a symbolic link that resolves outside are refused — and
// every answer is capped, so that a tool result cannot flood the context
// window. Failures (a missing file, a binary or too-large file, a path
// outside) are returned as errors, which the agent loop hands to the model
// as error results.
//
//	ws, err := workspace.Open("/srv/repo", nil)
//	if err != nil { … }
//	defer ws.Close()
//	a := &agent.Agent{Tools: ws.Tools(), …}
package workspace

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/condense-dev/condense/agent"
)

// Errors a tool returns, wrapped in an *Error naming the path.
var (
	// ErrOutside: the path leaves the workspace (by "..", an absolute
	// path elsewhere or a symbolic link).
	ErrOutside = errors.New("the path leaves the workspace")
	// ErrNotFound: no such file or directory.
	ErrNotFound = errors.New("no such file or directory")
	// ErrBinary: the file is not text.
	ErrBinary = errors.New("binary file")
	// ErrTooLarge: the file is over Options.MaxFileBytes.
	ErrTooLarge = errors.New("file too large")
	// ErrNotDir and ErrIsDir: a directory was expected, or a file.
	ErrNotDir = errors.New("not a directory")
	ErrIsDir  = errors.New("is a directory")
)

// Error is a tool's failure on one path (relative to the workspace root,
// as the model gave it).
type Error struct {
	Tool, Path string
	Err        error
	Detail     string
}

func (e *Error) Error() string {
	s := fmt.Sprintf("%s %q: %v", e.Tool, e.Path, e.Err)
	if e.Detail != "" {
		s += " (" + e.Detail + ")"
	}
	return s
}

func (e *Error) Unwrap() error { return e.Err }

// Defaults of Options.
const (
	DefaultMaxFileBytes   = 4 << 20
	DefaultMaxOutputBytes = 32 << 10
	DefaultMaxEntries     = 500
	DefaultMaxMatches     = 200
)

// Options bound what the tools read and return. Zero fields take the
// defaults.
type Options struct {
	// MaxFileBytes is the largest file read_file reads and search looks
	// into (DefaultMaxFileBytes).
	MaxFileBytes int64
	// MaxOutputBytes caps each tool result (DefaultMaxOutputBytes); a
	// longer one is cut at a line and says so.
	MaxOutputBytes int
	// MaxEntries caps the entries list_files returns (DefaultMaxEntries).
	MaxEntries int
	// MaxMatches caps the lines search returns (DefaultMaxMatches).
	MaxMatches int
}

// Workspace is a directory tree the tools read. It is safe for
// concurrent use.
type Workspace struct {
	dir  string // the root, absolute, symbolic links resolved
	root *os.Root
	opts Options
}

// Open opens the workspace rooted at dir, which must be a directory.
func Open(dir string, opts *Options) (*Workspace, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("workspace %s: %w", dir, err)
	}
	abs, err = filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, fmt.Errorf("workspace %s: %w", dir, err)
	}
	root, err := os.OpenRoot(abs)
	if err != nil {
		return nil, fmt.Errorf("workspace %s: %w", dir, err)
	}
	w := &Workspace{dir: abs, root: root}
	if opts != nil {
		w.opts = *opts
	}
	if w.opts.MaxFileBytes <= 0 {
		w.opts.MaxFileBytes = DefaultMaxFileBytes
	}
	if w.opts.MaxOutputBytes <= 0 {
		w.opts.MaxOutputBytes = DefaultMaxOutputBytes
	}
	if w.opts.MaxEntries <= 0 {
		w.opts.MaxEntries = DefaultMaxEntries
	}
	if w.opts.MaxMatches <= 0 {
		w.opts.MaxMatches = DefaultMaxMatches
	}
	return w, nil
}

// Dir returns the workspace root (absolute, symbolic links resolved).
func (w *Workspace) Dir() string { return w.dir }

// Close releases the root directory.
func (w *Workspace) Close() error { return w.root.Close() }

// Tools returns read_file, list_files and search.
func (w *Workspace) Tools() []agent.Tool {
	return []agent.Tool{
		agent.NewTool("read_file", "Read a text file of the workspace. Lines are numbered; give start_line and max_lines to read part of a long file.", w.readFile),
		agent.NewTool("list_files", "List a directory of the workspace (the root when path is empty); directories end with '/'. recursive lists the whole tree below it.", w.listFiles),
		agent.NewTool("search", "Search the workspace's text files for a regular expression (RE2 syntax); answers path:line: text for each matching line. path limits the search to a file or directory; glob (like *.go) to file names.", w.search),
	}
}

// rel turns the path a model gave into a slash path relative to the root,
// refusing one that climbs out or is absolute elsewhere. "" and "." are the
// root.
func (w *Workspace) rel(tool, p string) (string, error) {
	if strings.IndexByte(p, 0) >= 0 {
		return "", &Error{Tool: tool, Path: p, Err: ErrNotFound, Detail: "the path holds a NUL byte"}
	}
	native := filepath.FromSlash(p)
	if filepath.IsAbs(native) {
		r, err := filepath.Rel(w.dir, filepath.Clean(native))
		if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
			return "", &Error{Tool: tool, Path: p, Err: ErrOutside, Detail: "paths are relative to the workspace root"}
		}
		native = r
	}
	c := path.Clean(filepath.ToSlash(native))
	if c == ".." || strings.HasPrefix(c, "../") {
		return "", &Error{Tool: tool, Path: p, Err: ErrOutside}
	}
	return c, nil
}

// failure turns an error of the root into a tool error: a path that
// exists but resolves outside (a symbolic link) is ErrOutside.
func (w *Workspace) failure(tool, p, rel string, err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return &Error{Tool: tool, Path: p, Err: ErrNotFound}
	}
	if real, rerr := filepath.EvalSymlinks(filepath.Join(w.dir, filepath.FromSlash(rel))); rerr == nil && !w.inside(real) {
		return &Error{Tool: tool, Path: p, Err: ErrOutside, Detail: "a symbolic link leads out"}
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err // the host path is not the model's business
	}
	return &Error{Tool: tool, Path: p, Err: err}
}

func (w *Workspace) inside(real string) bool {
	r, err := filepath.Rel(w.dir, real)
	return err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator))
}

// ReadFileInput is read_file's input.
type ReadFileInput struct {
	Path      string `json:"path" jsonschema:"description=the file's path relative to the workspace root,required"`
	StartLine int    `json:"start_line,omitempty" jsonschema:"description=first line to return (1-based; default 1)"`
	MaxLines  int    `json:"max_lines,omitempty" jsonschema:"description=how many lines to return at most (default: as many as fit)"`
}

func (w *Workspace) readFile(ctx context.Context, in ReadFileInput) (string, error) {
	const tool = "read_file"
	if in.Path == "" {
		return "", &Error{Tool: tool, Path: "", Err: ErrNotFound, Detail: "path is required"}
	}
	rel, err := w.rel(tool, in.Path)
	if err != nil {
		return "", err
	}
	data, err := w.read(tool, in.Path, rel)
	if err != nil {
		return "", err
	}
	start := max(in.StartLine, 1)
	lines := splitLines(data)
	if start > len(lines) && !(start == 1 && len(lines) == 0) {
		return "", &Error{Tool: tool, Path: in.Path, Err: errors.New("start_line past the end"), Detail: fmt.Sprintf("the file has %d lines", len(lines))}
	}
	out := newCapped(w.opts.MaxOutputBytes)
	last := start - 1
	for i := start - 1; i < len(lines); i++ {
		if in.MaxLines > 0 && i-(start-1) >= in.MaxLines {
			break
		}
		if !out.line(fmt.Sprintf("%6d\t%s", i+1, lines[i])) {
			break
		}
		last = i + 1
	}
	if last < len(lines) {
		out.note(fmt.Sprintf("[lines %d-%d of %d; read on with start_line %d]", start, last, len(lines), last+1))
	}
	if len(lines) == 0 {
		out.note("[empty file]")
	}
	return out.String(), ctx.Err()
}

// read reads a text file of at most MaxFileBytes.
func (w *Workspace) read(tool, p, rel string) ([]byte, error) {
	f, err := w.root.Open(rel)
	if err != nil {
		return nil, w.failure(tool, p, rel, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, w.failure(tool, p, rel, err)
	}
	if st.IsDir() {
		return nil, &Error{Tool: tool, Path: p, Err: ErrIsDir, Detail: "list_files lists a directory"}
	}
	if !st.Mode().IsRegular() {
		return nil, &Error{Tool: tool, Path: p, Err: errors.New("not a regular file")}
	}
	if st.Size() > w.opts.MaxFileBytes {
		return nil, &Error{Tool: tool, Path: p, Err: ErrTooLarge, Detail: fmt.Sprintf("%d bytes, over the limit of %d", st.Size(), w.opts.MaxFileBytes)}
	}
	data, err := io.ReadAll(io.LimitReader(f, w.opts.MaxFileBytes+1))
	if err != nil {
		return nil, w.failure(tool, p, rel, err)
	}
	if int64(len(data)) > w.opts.MaxFileBytes {
		return nil, &Error{Tool: tool, Path: p, Err: ErrTooLarge, Detail: fmt.Sprintf("over the limit of %d bytes", w.opts.MaxFileBytes)}
	}
	if binary(data) {
		return nil, &Error{Tool: tool, Path: p, Err: ErrBinary, Detail: "not UTF-8 text"}
	}
	return data, nil
}

// binary reports whether data is not text: a NUL byte, or invalid UTF-8.
func binary(data []byte) bool {
	return bytes.IndexByte(data, 0) >= 0 || !utf8.Valid(data)
}

func splitLines(data []byte) []string {
	if len(data) == 0 {
		return nil
	}
	s := strings.TrimSuffix(string(data), "\n")
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}

// capped builds a tool result of at most max bytes, whole lines only, and
// keeps room for a closing note.
type capped struct {
	b   strings.Builder
	max int
	cut bool
}

const noteRoom = 160

func newCapped(max int) *capped { return &capped{max: max} }

// line adds a line; false when it did not fit (the output is then cut).
func (c *capped) line(s string) bool {
	if c.cut {
		return false
	}
	if c.b.Len()+len(s)+1 > c.max-noteRoom {
		c.cut = true
		return false
	}
	c.b.WriteString(s)
	c.b.WriteByte('\n')
	return true
}

func (c *capped) note(s string) {
	if len(s) > noteRoom-1 {
		s = s[:noteRoom-1]
	}
	c.b.WriteString(s)
	c.b.WriteByte('\n')
}

func (c *capped) String() string { return c.b.String() }

// ListFilesInput is list_files's input.
type ListFilesInput struct {
	Path      string `json:"path,omitempty" jsonschema:"description=the directory relative to the workspace root (default: the root)"`
	Recursive bool   `json:"recursive,omitempty" jsonschema:"description=list the whole tree below the directory"`
}

func (w *Workspace) listFiles(ctx context.Context, in ListFilesInput) (string, error) {
	const tool = "list_files"
	rel, err := w.rel(tool, in.Path)
	if err != nil {
		return "", err
	}
	st, err := w.root.Stat(rel)
	if err != nil {
		return "", w.failure(tool, in.Path, rel, err)
	}
	if !st.IsDir() {
		return "", &Error{Tool: tool, Path: in.Path, Err: ErrNotDir, Detail: "read_file reads a file"}
	}
	fsys := w.root.FS()
	out := newCapped(w.opts.MaxOutputBytes)
	n, more := 0, false
	add := func(name string, d fs.DirEntry) bool {
		if n >= w.opts.MaxEntries {
			more = true
			return false
		}
		if d.IsDir() {
			name += "/"
		} else if d.Type()&fs.ModeSymlink != 0 {
			name += "@"
		}
		if !out.line(name) {
			more = true
			return false
		}
		n++
		return true
	}
	if !in.Recursive {
		ents, err := fs.ReadDir(fsys, rel)
		if err != nil {
			return "", w.failure(tool, in.Path, rel, err)
		}
		for _, d := range ents {
			if !add(d.Name(), d) {
				break
			}
		}
	} else {
		stop := errors.New("stop")
		err := fs.WalkDir(fsys, rel, func(p string, d fs.DirEntry, err error) error {
			if cerr := ctx.Err(); cerr != nil {
				return cerr
			}
			if err != nil || p == rel {
				return nil // an unreadable directory is skipped
			}
			if d.IsDir() && d.Name() == ".git" {
				return fs.SkipDir
			}
			name := p
			if rel != "." {
				name = strings.TrimPrefix(p, rel+"/")
			}
			if !add(name, d) {
				return stop
			}
			return nil
		})
		if err != nil && err != stop {
			return "", err
		}
	}
	if more {
		out.note(fmt.Sprintf("[cut at %d entries; list a subdirectory]", n))
	}
	if n == 0 && !more {
		out.note("[empty directory]")
	}
	return out.String(), nil
}

// SearchInput is search's input.
type SearchInput struct {
	Pattern string `json:"pattern" jsonschema:"description=a regular expression (RE2 syntax),required"`
	Path    string `json:"path,omitempty" jsonschema:"description=a file or directory to search (default: the whole workspace)"`
	Glob    string `json:"glob,omitempty" jsonschema:"description=only files whose name matches this pattern (like *.go)"`
}

// maxLineBytes cuts long matching lines.
const maxLineBytes = 300

func (w *Workspace) search(ctx context.Context, in SearchInput) (string, error) {
	const tool = "search"
	if in.Pattern == "" {
		return "", &Error{Tool: tool, Path: in.Path, Err: errors.New("pattern is required")}
	}
	re, err := regexp.Compile(in.Pattern)
	if err != nil {
		return "", &Error{Tool: tool, Path: in.Path, Err: fmt.Errorf("pattern: %v", err)}
	}
	if in.Glob != "" {
		if _, err := path.Match(in.Glob, "x"); err != nil {
			return "", &Error{Tool: tool, Path: in.Path, Err: fmt.Errorf("glob %q: %v", in.Glob, err)}
		}
	}
	rel, err := w.rel(tool, in.Path)
	if err != nil {
		return "", err
	}
	st, err := w.root.Stat(rel)
	if err != nil {
		return "", w.failure(tool, in.Path, rel, err)
	}
	var files []string
	if !st.IsDir() {
		files = []string{rel}
	} else {
		err := fs.WalkDir(w.root.FS(), rel, func(p string, d fs.DirEntry, err error) error {
			if cerr := ctx.Err(); cerr != nil {
				return cerr
			}
			if err != nil {
				return nil
			}
			if d.IsDir() {
				if d.Name() == ".git" {
					return fs.SkipDir
				}
				return nil
			}
			if !d.Type().IsRegular() {
				return nil // symbolic links are not followed
			}
			if in.Glob != "" {
				if ok, _ := path.Match(in.Glob, d.Name()); !ok {
					return nil
				}
			}
			files = append(files, p)
			return nil
		})
		if err != nil {
			return "", err
		}
	}
	sort.Strings(files)
	out := newCapped(w.opts.MaxOutputBytes)
	n, more, skipped := 0, false, 0
files:
	for _, f := range files {
		if err := ctx.Err(); err != nil {
			return "", err
		}
		data, err := w.read(tool, f, f)
		if err != nil {
			skipped++ // binary, too large or unreadable
			continue
		}
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(make([]byte, 0, 64<<10), int(w.opts.MaxFileBytes)+1)
		for ln := 1; sc.Scan(); ln++ {
			line := sc.Text()
			if !re.MatchString(line) {
				continue
			}
			if n >= w.opts.MaxMatches {
				more = true
				break files
			}
			if len(line) > maxLineBytes {
				line = strings.ToValidUTF8(line[:maxLineBytes], "") + "…"
			}
			if !out.line(fmt.Sprintf("%s:%d: %s", f, ln, line)) {
				more = true
				break files
			}
			n++
		}
	}
	switch {
	case more:
		out.note(fmt.Sprintf("[cut at %d matches; narrow the pattern, path or glob]", n))
	case n == 0:
		out.note(fmt.Sprintf("[no match in %d files]", len(files)-skipped))
	}
	if skipped > 0 {
		out.note(fmt.Sprintf("[%d binary or too-large files skipped]", skipped))
	}
	return out.String(), nil
}
