package corpus

import (
	"fmt"
	"strings"
)

var _ = register(&lang{
	name: "python", pkgKind: "module",
	srcFile:  func(dir string, w []string) string { return joinPath(dir, snake(w...)+".py") },
	testFile: func(dir string, w []string) string { return joinPath(dir, "test_"+snake(w...)+".py") },
	pkg: func(p *project, dir string) string {
		return strings.ReplaceAll(strings.TrimPrefix(dir, "src/"), "/", ".")
	},
	fn:     snake,
	typ:    pascal,
	source: pySource,
	frame: func(g *gen, path, fn string, line int) string {
		return fmt.Sprintf("  File \"%s/%s\", line %d, in %s\n    %s", g.root, path, line, fn,
			pick(g.r, []string{"return self._merge(batch)", "rows = list(cursor.fetchmany(size))", "total += item.amount * rate", "self.session.flush()", "raise " + pick(g.r, g.p.types) + "Error(key)"}))
	},
	crash: func(g *gen, head string, frames []string) string {
		return "Traceback (most recent call last):\n" + strings.Join(frames, "\n") + "\n" + head + "\n"
	},
	compileErr: func(g *gen, path string, line int, msg string) string {
		return fmt.Sprintf("%s:%d: error: %s  [%s]\n", path, line, msg, pick(g.r, []string{"arg-type", "attr-defined", "return-value", "union-attr"}))
	},
	compileMsgs: []string{`Argument 1 to "%s" has incompatible type "str"; expected "int"`, `Item "None" of "Optional[Invoice]" has no attribute "%s"`,
		`Incompatible return value type (got "None", expected "Decimal")  # %s`, `Name "%s" is not defined`},
	build: func(g *gen) string {
		return pick(g.r, []string{"mypy " + strings.Split(g.p.dirs[0], "/")[0], "python -m compileall -q " + g.p.dirs[0], "ruff check ."})
	},
	buildOK: func(g *gen) string {
		return fmt.Sprintf("Success: no issues found in %d source files\n", 40+g.r.intn(120))
	},
	benchValue: func(g *gen) string { return fmt.Sprintf("%d.%03d seconds", 1+g.r.intn(40), g.r.intn(1000)) },
	bench: func(g *gen, v string) string {
		var b strings.Builder
		fmt.Fprintf(&b, "         %d function calls (%d primitive calls) in %s\n\n   Ordered by: cumulative time\n   List reduced from %d to 25 due to restriction <25>\n\n", 100000+g.r.intn(5000000), 90000+g.r.intn(4000000), v, 800+g.r.intn(3000))
		b.WriteString("   ncalls  tottime  percall  cumtime  percall filename:lineno(function)\n")
		for i := 0; i < 25; i++ {
			f := pick(g.r, g.files)
			fmt.Fprintf(&b, "%9d %8.3f %8.3f %8.3f %8.3f %s:%d(%s)\n", 1+g.r.intn(200000), float64(g.r.intn(4000))/1000, float64(g.r.intn(100))/1000,
				float64(g.r.intn(9000))/1000, float64(g.r.intn(100))/1000, lastDir(f), 10+g.r.intn(400), g.fnName())
		}
		return b.String()
	},
})

func pySource(g *gen, path string, n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\"\"\"%s helpers for %s.\"\"\"\nfrom __future__ import annotations\n\nimport logging\nfrom dataclasses import dataclass\nfrom decimal import Decimal\nfrom typing import Iterable, Optional\n\nlog = logging.getLogger(__name__)\n\n", title(stemOf(path)), g.p.name)
	lines := 11
	for lines < n {
		cls := g.typName()
		fmt.Fprintf(&b, "\n@dataclass\nclass %s:\n    \"\"\"The %s of one %s.\"\"\"\n\n", cls, pick(g.r, g.p.nouns), pick(g.r, g.p.nouns))
		lines += 5
		for k := 0; k < 2+g.r.intn(4); k++ {
			fmt.Fprintf(&b, "    %s: %s = %s\n", g.varName(), pick(g.r, []string{"int", "Decimal", "str", "Optional[str]", "list[int]"}), pick(g.r, []string{"0", "Decimal(\"0\")", "\"\"", "None", "field(default_factory=list)"}))
			lines++
		}
		for f := 0; f < 2+g.r.intn(3) && lines < n; f++ {
			name := g.fnName()
			arg := g.varName()
			fmt.Fprintf(&b, "\n    def %s(self, %s: Iterable[%s]) -> bool:\n        \"\"\"%s the %s.\"\"\"\n", name, arg, pick(g.r, g.p.types), title(pick(g.r, g.p.verbs)), arg)
			lines += 3
			for s := 0; s < 3+g.r.intn(7); s++ {
				switch g.r.intn(4) {
				case 0:
					fmt.Fprintf(&b, "        if not %s:\n            raise ValueError(%q)\n", arg, g.routineError())
					lines += 2
				case 1:
					fmt.Fprintf(&b, "        for item in %s:\n            self.%s += item.%s\n", arg, g.varName(), g.varName())
					lines += 2
				case 2:
					fmt.Fprintf(&b, "        log.debug(\"%s %%s\", self.%s)\n", pick(g.r, g.p.verbs), g.varName())
					lines++
				default:
					fmt.Fprintf(&b, "        # %s before %s; see the %s docs\n", pick(g.r, g.p.verbs), pick(g.r, g.p.verbs), pick(g.r, g.p.nouns))
					lines++
				}
			}
			b.WriteString("        return True\n")
			lines++
		}
	}
	return b.String()
}
