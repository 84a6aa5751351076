package corpus

import (
	"fmt"
	"strings"
)

func javaPkg(dir string) string {
	for _, pre := range []string{"src/main/java/", "src/test/java/"} {
		if strings.HasPrefix(dir, pre) {
			return strings.ReplaceAll(strings.TrimPrefix(dir, pre), "/", ".")
		}
	}
	return strings.ReplaceAll(dir, "/", ".")
}

var _ = register(&lang{
	name: "java", pkgKind: "package",
	srcFile:  func(dir string, w []string) string { return joinPath(dir, pascal(w...)+".java") },
	testFile: func(dir string, w []string) string { return joinPath(dir, pascal(w...)+"Test.java") },
	pkg:      func(p *project, dir string) string { return javaPkg(dir) },
	fn:       camel,
	typ:      pascal,
	source:   javaSource,
	frame: func(g *gen, path, fn string, line int) string {
		dir := path[:max(strings.LastIndexByte(path, '/'), 0)]
		return fmt.Sprintf("\tat %s.%s.%s(%s:%d)", javaPkg(dir), stemOf(path), fn, lastDir(path), line)
	},
	crash: func(g *gen, head string, frames []string) string {
		return fmt.Sprintf("%s\n%s\n\tat org.springframework.aop.framework.CglibAopProxy$DynamicAdvisedInterceptor.intercept(CglibAopProxy.java:%d)\n\tat java.base/java.lang.Thread.run(Thread.java:%d)\n",
			head, strings.Join(frames, "\n"), 600+g.r.intn(100), 800+g.r.intn(100))
	},
	compileErr: func(g *gen, path string, line int, msg string) string {
		if g.p.runner == "maven" {
			return fmt.Sprintf("[ERROR] %s/%s:[%d,%d] %s\n", g.root, path, line, 5+g.r.intn(40), msg)
		}
		return fmt.Sprintf("%s/%s:%d: error: %s\n        %s.%s(%s);\n        ^\n", g.root, path, line, msg, g.varName(), g.fnName(), g.varName())
	},
	compileMsgs: []string{"cannot find symbol %s", "incompatible types: long cannot be converted to int (%s)", "method %s in class Registry cannot be applied to given types;", "unreported exception java.io.IOException in %s; must be caught or declared to be thrown"},
	build: func(g *gen) string {
		if g.p.runner == "maven" {
			return pick(g.r, []string{"mvn -q compile", "mvn -q -DskipTests package"})
		}
		return pick(g.r, []string{"./gradlew compileJava", "./gradlew assemble"})
	},
	buildOK: func(g *gen) string {
		if g.p.runner == "maven" {
			return fmt.Sprintf("[INFO] BUILD SUCCESS\n[INFO] ------------------------------------------------------------------------\n[INFO] Total time:  %d.%03d s\n", 3+g.r.intn(30), g.r.intn(1000))
		}
		return fmt.Sprintf("> Task :compileJava\n\nBUILD SUCCESSFUL in %ds\n%d actionable tasks: %d executed, %d up-to-date\n", 2+g.r.intn(40), 3+g.r.intn(5), 1+g.r.intn(3), g.r.intn(4))
	},
	benchValue: func(g *gen) string {
		return fmt.Sprintf("%d.%03d ± %d.%03d  us/op", 10+g.r.intn(900), g.r.intn(1000), g.r.intn(20), g.r.intn(1000))
	},
	bench: func(g *gen, v string) string {
		var b strings.Builder
		b.WriteString("# JMH version: 1.37\n# VM version: JDK 17.0.10, OpenJDK 64-Bit Server VM, 17.0.10+7\n# Warmup: 5 iterations, 10 s each\n# Measurement: 5 iterations, 10 s each\n\n")
		b.WriteString("Benchmark                                   Mode  Cnt     Score     Error  Units\n")
		n := 4 + g.r.intn(6)
		at := g.r.intn(n)
		for i := 0; i < n; i++ {
			val := fmt.Sprintf("%d.%03d ± %d.%03d  us/op", 10+g.r.intn(900), g.r.intn(1000), g.r.intn(20), g.r.intn(1000))
			if i == at {
				val = v
			}
			fmt.Fprintf(&b, "%-43s avgt   25  %s\n", pick(g.r, g.p.types)+"Bench."+g.fnName(), val)
		}
		return b.String()
	},
})

func javaSource(g *gen, path string, n int) string {
	var b strings.Builder
	dir := path[:max(strings.LastIndexByte(path, '/'), 0)]
	cls := stemOf(path)
	fmt.Fprintf(&b, "package %s;\n\nimport java.math.BigDecimal;\nimport java.time.Instant;\nimport java.util.List;\nimport java.util.Optional;\n\nimport org.springframework.stereotype.Service;\n\n@Service\npublic class %s {\n\n", javaPkg(dir), cls)
	lines := 12
	for k := 0; k < 3+g.r.intn(4); k++ {
		fmt.Fprintf(&b, "    private final %s %s;\n", pick(g.r, []string{"BigDecimal", "Instant", "List<" + pick(g.r, g.p.types) + ">", "int", "String"}), g.varName())
		lines++
	}
	for lines < n {
		name := g.fnName()
		arg := g.varName()
		fmt.Fprintf(&b, "\n    /** %s the %s. */\n    public Optional<%s> %s(%s %s) {\n", title(pick(g.r, g.p.verbs)), arg, pick(g.r, g.p.types), name, pick(g.r, g.p.types), arg)
		lines += 3
		for s := 0; s < 3+g.r.intn(7); s++ {
			switch g.r.intn(4) {
			case 0:
				fmt.Fprintf(&b, "        if (%s == null) {\n            throw new IllegalArgumentException(%q);\n        }\n", arg, g.routineError())
				lines += 3
			case 1:
				fmt.Fprintf(&b, "        for (var item : %s.get%s()) {\n            %s = %s.add(item.amount());\n        }\n", arg, pascal(g.nounWords()...), g.varName(), g.varName())
				lines += 3
			case 2:
				fmt.Fprintf(&b, "        log.debug(\"%s {}\", %s);\n", pick(g.r, g.p.verbs), arg)
				lines++
			default:
				fmt.Fprintf(&b, "        // %s before %s, otherwise the %s is stale\n", pick(g.r, g.p.verbs), pick(g.r, g.p.verbs), pick(g.r, g.p.nouns))
				lines++
			}
		}
		b.WriteString("        return Optional.empty();\n    }\n")
		lines += 2
	}
	b.WriteString("}\n")
	return b.String()
}
