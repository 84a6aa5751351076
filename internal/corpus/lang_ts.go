package corpus

import (
	"fmt"
	"strings"
)

var _ = register(&lang{
	name: "ts", pkgKind: "module",
	srcFile:  func(dir string, w []string) string { return joinPath(dir, camel(w...)+".ts") },
	testFile: func(dir string, w []string) string { return joinPath(dir, camel(w...)+".test.ts") },
	pkg:      func(p *project, dir string) string { return dir },
	fn:       camel,
	typ:      pascal,
	source:   tsSource,
	frame: func(g *gen, path, fn string, line int) string {
		return fmt.Sprintf("    at %s.%s (%s/%s:%d:%d)", pick(g.r, g.p.types), fn, g.root, path, line, 3+g.r.intn(40))
	},
	crash: func(g *gen, head string, frames []string) string {
		return fmt.Sprintf("%s/dist/index.js:%d\n            throw err;\n            ^\n\n%s\n%s\n    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)\n\nNode.js v18.19.1\n",
			g.root, 100+g.r.intn(900), head, strings.Join(frames, "\n"))
	},
	compileErr: func(g *gen, path string, line int, msg string) string {
		return fmt.Sprintf("%s(%d,%d): error TS%d: %s\n", path, line, 3+g.r.intn(40), 2300+g.r.intn(500), msg)
	},
	compileMsgs: []string{"Argument of type 'string' is not assignable to parameter of type '%s'.", "Property '%s' does not exist on type 'Cart'.",
		"Object is possibly 'undefined'. (%s)", "Cannot find name '%s'."},
	build: func(g *gen) string {
		return pick(g.r, []string{"npx tsc --noEmit", "npm run build", "npx eslint src --max-warnings 0"})
	},
	buildOK: func(g *gen) string {
		return fmt.Sprintf("\n> %s@%d.%d.%d build\n> tsc -p tsconfig.build.json\n\n", g.p.module, 1+g.r.intn(3), g.r.intn(20), g.r.intn(10))
	},
	benchValue: func(g *gen) string { return fmt.Sprintf("%d.%02d ms", 2+g.r.intn(300), g.r.intn(100)) },
	bench: func(g *gen, v string) string {
		var b strings.Builder
		fmt.Fprintf(&b, "Running 30s test @ http://localhost:%d/%s\n%d connections\n\n", 3000+g.r.intn(100), pick(g.r, g.p.nouns), 10*(1+g.r.intn(20)))
		b.WriteString("┌─────────┬──────┬──────┬───────┬───────┬──────────┬──────────┬────────┐\n")
		b.WriteString("│ Stat    │ 2.5% │ 50%  │ 97.5% │ 99%   │ Avg      │ Stdev    │ Max    │\n")
		b.WriteString("├─────────┼──────┼──────┼───────┼───────┼──────────┼──────────┼────────┤\n")
		fmt.Fprintf(&b, "│ Latency │ %d ms │ %d ms │ %d ms │ %d ms │ %s │ %d.%02d ms │ %d ms │\n", 1+g.r.intn(4), 4+g.r.intn(8), 20+g.r.intn(60), 60+g.r.intn(200), v, 3+g.r.intn(20), g.r.intn(100), 300+g.r.intn(900))
		b.WriteString("└─────────┴──────┴──────┴───────┴───────┴──────────┴──────────┴────────┘\n")
		fmt.Fprintf(&b, "│ Req/Sec   │ %d │ %d │ %d │ %d │\n\n", 1000+g.r.intn(9000), 2000+g.r.intn(9000), 3000+g.r.intn(9000), 100+g.r.intn(900))
		fmt.Fprintf(&b, "Req/Bytes counts sampled once per second.\n# of samples: 30\n\n%dk requests in 30.02s, %d MB read\n", 50+g.r.intn(400), 10+g.r.intn(300))
		return b.String()
	},
})

func tsSource(g *gen, path string, n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "import { %s } from './%s';\nimport type { %s } from '../types';\nimport { logger } from '../logger';\n\n", g.fnName(), camel(g.nounWords()...), pick(g.r, g.p.types))
	lines := 4
	for lines < n {
		typ := g.typName()
		fmt.Fprintf(&b, "export interface %s {\n", typ)
		for k := 0; k < 3+g.r.intn(4); k++ {
			fmt.Fprintf(&b, "  %s%s: %s;\n", g.varName(), pick(g.r, []string{"", "?"}), pick(g.r, []string{"number", "string", "boolean", pick(g.r, g.p.types) + "[]", "Map<string, number>"}))
			lines++
		}
		b.WriteString("}\n\n")
		lines += 3
		for f := 0; f < 2+g.r.intn(3) && lines < n; f++ {
			name := g.fnName()
			arg := g.varName()
			fmt.Fprintf(&b, "export %sfunction %s(%s: %s): %s {\n", pick(g.r, []string{"", "async "}), name, arg, typ, pick(g.r, []string{"boolean", "number", "void"}))
			lines++
			for s := 0; s < 3+g.r.intn(7); s++ {
				switch g.r.intn(4) {
				case 0:
					fmt.Fprintf(&b, "  if (!%s.%s) {\n    throw new Error('%s');\n  }\n", arg, g.varName(), g.routineError())
					lines += 3
				case 1:
					fmt.Fprintf(&b, "  const %s = %s.%s ?? %d;\n", g.varName(), arg, g.varName(), g.r.intn(100))
					lines++
				case 2:
					fmt.Fprintf(&b, "  logger.debug({ %s: %s.%s }, '%s');\n", pick(g.r, g.p.nouns), arg, g.varName(), pick(g.r, g.p.verbs))
					lines++
				default:
					fmt.Fprintf(&b, "  // %s before %s, otherwise the %s is stale\n", pick(g.r, g.p.verbs), pick(g.r, g.p.verbs), pick(g.r, g.p.nouns))
					lines++
				}
			}
			b.WriteString("  return true as never;\n}\n\n")
			lines += 3
		}
	}
	return b.String()
}
