package corpus

import (
	"fmt"
	"strings"
)

// crateOf returns the crate of a path under crates/NAME/.
func crateOf(path string) string {
	parts := strings.Split(path, "/")
	if len(parts) > 1 && parts[0] == "crates" {
		return parts[1]
	}
	return "core"
}

var _ = register(&lang{
	name: "rust", pkgKind: "crate",
	srcFile:  func(dir string, w []string) string { return joinPath(dir, snake(w...)+".rs") },
	testFile: func(dir string, w []string) string { return joinPath(dir, snake(w...)+".rs") },
	pkg:      func(p *project, dir string) string { return crateOf(dir) },
	fn:       snake,
	typ:      pascal,
	source:   rustSource,
	frame: func(g *gen, path, fn string, line int) string {
		return fmt.Sprintf("  %2d: %s::%s::%s\n             at ./%s:%d:%d", 4+g.r.intn(20), strings.ReplaceAll(crateOf(path), "-", "_"), stemOf(path), fn, path, line, 5+g.r.intn(30))
	},
	crash: func(g *gen, head string, frames []string) string {
		f := pick(g.r, g.files)
		return fmt.Sprintf("thread 'main' panicked at %s:%d:%d:\n%s\nstack backtrace:\n   0: rust_begin_unwind\n   1: core::panicking::panic_fmt\n%s\nnote: Some details are omitted, run with `RUST_BACKTRACE=full` for a verbose backtrace.\n",
			f, 10+g.r.intn(400), 5+g.r.intn(30), head, strings.Join(frames, "\n"))
	},
	compileErr: func(g *gen, path string, line int, msg string) string {
		code := fmt.Sprintf("        let %s = self.%s.%s(&%s);", g.varName(), g.varName(), g.fnName(), g.varName())
		return fmt.Sprintf("error[E0%d]: %s\n  --> %s:%d:%d\n   |\n%-3d|%s\n   |         ^^^^^^^^^^^^ %s\n\n", 300+g.r.intn(400), msg, path, line, 9, line, code,
			pick(g.r, []string{"mutable borrow occurs here", "expected `u64`, found `i64`", "value used here after move"}))
	},
	compileMsgs: []string{"cannot borrow `self.%s` as mutable because it is also borrowed as immutable", "mismatched types in `%s`", "use of moved value: `%s`", "cannot find value `%s` in this scope"},
	build: func(g *gen) string {
		return pick(g.r, []string{"cargo check --all-targets", "cargo build", "cargo clippy --all-targets"})
	},
	buildOK: func(g *gen) string {
		var b strings.Builder
		for _, d := range g.p.dirs {
			c := crateOf(d)
			if !strings.Contains(b.String(), c+" ") {
				fmt.Fprintf(&b, "    Checking %s v0.%d.%d (%s/crates/%s)\n", c, g.r.intn(9), g.r.intn(20), g.root, c)
			}
		}
		fmt.Fprintf(&b, "    Finished `dev` profile [unoptimized + debuginfo] target(s) in %d.%02ds\n", 1+g.r.intn(40), g.r.intn(100))
		return b.String()
	},
	benchValue: func(g *gen) string { return fmt.Sprintf("%d.%02d µs", 10+g.r.intn(900), g.r.intn(100)) },
	bench: func(g *gen, v string) string {
		var b strings.Builder
		n := 5 + g.r.intn(6)
		at := g.r.intn(n)
		for i := 0; i < n; i++ {
			mid := fmt.Sprintf("%d.%02d µs", 10+g.r.intn(900), g.r.intn(100))
			if i == at {
				mid = v
			}
			fmt.Fprintf(&b, "%-25s time:   [%d.%02d µs %s %d.%02d µs]\n", pick(g.r, g.p.verbs)+"/"+pick(g.r, []string{"small", "1k", "10k", "nested"}), 5+g.r.intn(900), g.r.intn(100), mid, 10+g.r.intn(900), g.r.intn(100))
			fmt.Fprintf(&b, "                        change: [-%d.%d%% +%d.%d%% +%d.%d%%] (p = 0.%02d > 0.05)\n                        No change in performance detected.\n", g.r.intn(5), g.r.intn(10), g.r.intn(3), g.r.intn(10), g.r.intn(6), g.r.intn(10), 5+g.r.intn(90))
			if g.r.chance(0.3) {
				fmt.Fprintf(&b, "Found %d outliers among 100 measurements (%d.00%%)\n  %d (%d.00%%) high mild\n", 1+g.r.intn(9), 1+g.r.intn(9), 1+g.r.intn(5), 1+g.r.intn(5))
			}
		}
		return b.String()
	},
})

func rustSource(g *gen, path string, n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "//! %s for %s.\n\nuse std::collections::BTreeMap;\nuse std::sync::Arc;\n\nuse crate::error::Error;\n\n", title(stemOf(path)), g.p.name)
	lines := 7
	for lines < n {
		typ := g.typName()
		fmt.Fprintf(&b, "#[derive(Debug, Clone)]\npub struct %s {\n", typ)
		for k := 0; k < 2+g.r.intn(4); k++ {
			fmt.Fprintf(&b, "    %s: %s,\n", g.varName(), pick(g.r, []string{"u64", "i128", "String", "Vec<u32>", "Option<Span>", "Arc<str>", "BTreeMap<u32, i64>"}))
			lines++
		}
		fmt.Fprintf(&b, "}\n\nimpl %s {\n", typ)
		lines += 4
		for f := 0; f < 2+g.r.intn(3) && lines < n; f++ {
			name := g.fnName()
			arg := g.varName()
			fmt.Fprintf(&b, "    /// %s the %s.\n    pub fn %s(&mut self, %s: &[u32]) -> Result<bool, Error> {\n", title(pick(g.r, g.p.verbs)), arg, name, arg)
			lines += 2
			for s := 0; s < 3+g.r.intn(7); s++ {
				switch g.r.intn(4) {
				case 0:
					fmt.Fprintf(&b, "        if %s.is_empty() {\n            return Err(Error::msg(%q));\n        }\n", arg, g.routineError())
					lines += 3
				case 1:
					fmt.Fprintf(&b, "        for x in %s.iter() {\n            self.%s += u64::from(*x);\n        }\n", arg, g.varName())
					lines += 3
				case 2:
					fmt.Fprintf(&b, "        tracing::debug!(%s = ?self.%s, \"%s\");\n", pick(g.r, g.p.nouns), g.varName(), pick(g.r, g.p.verbs))
					lines++
				default:
					fmt.Fprintf(&b, "        // %s before %s: a %s is never %s twice.\n", pick(g.r, g.p.verbs), pick(g.r, g.p.verbs), pick(g.r, g.p.nouns), past(pick(g.r, g.p.verbs)))
					lines++
				}
			}
			b.WriteString("        Ok(true)\n    }\n\n")
			lines += 3
		}
		b.WriteString("}\n\n")
		lines += 2
	}
	return b.String()
}
