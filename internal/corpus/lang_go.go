package corpus

import (
	"fmt"
	"strings"
)

var _ = register(&lang{
	name: "go", pkgKind: "package",
	srcFile:  func(dir string, w []string) string { return joinPath(dir, snake(w...)+".go") },
	testFile: func(dir string, w []string) string { return joinPath(dir, snake(w...)+"_test.go") },
	pkg:      func(p *project, dir string) string { return lastDir(dir) },
	fn:       pascal,
	typ:      pascal,
	source:   goSource,
	frame: func(g *gen, path, fn string, line int) string {
		dir := path[:max(strings.LastIndexByte(path, '/'), 0)]
		return fmt.Sprintf("%s/%s.(*%s).%s(0xc%09x, {0x%x, 0xc%09x})\n\t%s/%s:%d +0x%x", g.p.module, dir, pick(g.r, g.p.types), fn,
			g.r.intn(1<<30), 0x700000+g.r.intn(0xfffff), g.r.intn(1<<30), g.root, path, line, 0x20+g.r.intn(0x300))
	},
	crash: func(g *gen, head string, frames []string) string {
		var b strings.Builder
		fmt.Fprintf(&b, "%s\n\ngoroutine %d [running]:\n", head, 7+g.r.intn(200))
		for _, f := range frames {
			b.WriteString(f)
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "created by %s/%s.(*%s).Start in goroutine 1\n\t%s/%s/%s.go:%d +0x%x\nexit status 2\n", g.p.module, lastDir(g.p.dirs[0]),
			pick(g.r, g.p.types), g.root, g.p.dirs[0], snake(g.nounWords()...), 40+g.r.intn(200), 0x40+g.r.intn(0x200))
		return b.String()
	},
	compileErr: func(g *gen, path string, line int, msg string) string {
		dir := path[:max(strings.LastIndexByte(path, '/'), 0)]
		return fmt.Sprintf("# %s/%s\n%s:%d:%d: %s\n", g.p.module, dir, path, line, 2+g.r.intn(30), msg)
	},
	compileMsgs: []string{"undefined: %s", "declared and not used: %s", "cannot use %s (variable of type int) as string value in argument", "too many arguments in call to %s", "%s redeclared in this block"},
	build: func(g *gen) string {
		return pick(g.r, []string{"go build ./...", "go vet ./...", "go build -o /tmp/out ./cmd/..."})
	},
	buildOK: func(g *gen) string {
		var b strings.Builder
		for _, d := range g.p.dirs {
			if g.r.chance(0.7) {
				fmt.Fprintf(&b, "%s/%s\n", g.p.module, d)
			}
		}
		return b.String()
	},
	benchValue: func(g *gen) string { return fmt.Sprintf("%d ns/op", 1000+g.r.intn(900000)) },
	bench: func(g *gen, v string) string {
		var b strings.Builder
		dir := pick(g.r, g.p.dirs)
		fmt.Fprintf(&b, "goos: linux\ngoarch: amd64\npkg: %s/%s\ncpu: AMD EPYC 7B13\n", g.p.module, dir)
		n := 6 + g.r.intn(8)
		at := g.r.intn(n)
		for i := 0; i < n; i++ {
			val := fmt.Sprintf("%d ns/op", 100+g.r.intn(90000))
			if i == at {
				val = v
			}
			fmt.Fprintf(&b, "Benchmark%s-8   \t%8d\t%14s\t%8d B/op\t%6d allocs/op\n", g.fnName(), 1000+g.r.intn(2000000), val, 16*g.r.intn(400), g.r.intn(60))
		}
		fmt.Fprintf(&b, "PASS\nok  \t%s/%s\t%s\n", g.p.module, dir, g.secs(30000))
		return b.String()
	},
})

func goSource(g *gen, path string, n int) string {
	var b strings.Builder
	pkg := lastDir(path[:max(strings.LastIndexByte(path, '/'), 0)])
	if strings.HasPrefix(pkg, "cmd") || pkg == "" {
		pkg = "main"
	}
	fmt.Fprintf(&b, "// Package %s is part of %s.\npackage %s\n\nimport (\n\t\"context\"\n\t\"errors\"\n\t\"fmt\"\n\t\"sync\"\n\t\"time\"\n)\n\n", pkg, g.p.name, pkg)
	lines := 12
	for lines < n {
		typ := g.typName()
		fmt.Fprintf(&b, "// %s tracks the %s of one %s.\ntype %s struct {\n\tmu sync.Mutex\n", typ, pick(g.r, g.p.nouns), pick(g.r, g.p.nouns), typ)
		for k := 0; k < 3+g.r.intn(4); k++ {
			fmt.Fprintf(&b, "\t%s %s\n", g.varName(), pick(g.r, []string{"int", "time.Duration", "[]string", "map[string]int", "*" + pick(g.r, g.p.types), "time.Time", "chan struct{}"}))
			lines++
		}
		b.WriteString("}\n\n")
		lines += 6
		for f := 0; f < 2+g.r.intn(3) && lines < n; f++ {
			name := g.fnName()
			arg := g.varName()
			fmt.Fprintf(&b, "// %s %ss the %s and reports whether it changed.\nfunc (x *%s) %s(ctx context.Context, %s string) (bool, error) {\n\tx.mu.Lock()\n\tdefer x.mu.Unlock()\n",
				name, pick(g.r, g.p.verbs), arg, typ, name, arg)
			lines += 5
			for s := 0; s < 4+g.r.intn(8); s++ {
				switch g.r.intn(5) {
				case 0:
					fmt.Fprintf(&b, "\tif %s == \"\" {\n\t\treturn false, errors.New(\"%s: %s\")\n\t}\n", arg, pkg, g.routineError())
					lines += 3
				case 1:
					fmt.Fprintf(&b, "\tfor i := range x.%s {\n\t\tif err := ctx.Err(); err != nil {\n\t\t\treturn false, fmt.Errorf(\"%s %%d: %%w\", i, err)\n\t\t}\n\t}\n", g.varName(), g.fnName())
					lines += 5
				case 2:
					fmt.Fprintf(&b, "\tdeadline := time.Now().Add(%d * time.Millisecond)\n\t_ = deadline\n", 50*(1+g.r.intn(40)))
					lines += 2
				case 3:
					fmt.Fprintf(&b, "\t// %s before %s: a %s must not be %s twice.\n", title(pick(g.r, g.p.verbs)), pick(g.r, g.p.verbs), pick(g.r, g.p.nouns), past(pick(g.r, g.p.verbs)))
					lines++
				default:
					fmt.Fprintf(&b, "\tx.%s += %d\n", g.varName(), 1+g.r.intn(16))
					lines++
				}
			}
			b.WriteString("\treturn true, nil\n}\n\n")
			lines += 3
		}
	}
	return b.String()
}
