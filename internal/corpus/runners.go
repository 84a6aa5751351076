package corpus

import (
	"fmt"
	"strings"
)

// testRun describes one run of a test command.
type testRun struct {
	target string
	total  int
	fails  int
	// inject are lines printed by the code under test, put in the middle
	// of the output verbatim.
	inject []string
	// crash is a crash block printed by a failing test.
	crash string
}

// failure is one failing test: its name and its assertion message.
type failure struct{ name, msg, file string }

// testCmd returns the command that runs the tests of target.
func (g *gen) testCmd(target string) string {
	switch g.p.runner {
	case "gotest-v":
		return fmt.Sprintf("go test -v -count=1 ./%s/", target)
	case "gotest-race":
		return fmt.Sprintf("go test -race -count=1 ./%s/...", target)
	case "pytest-q":
		return "pytest -q " + target
	case "pytest-v":
		return fmt.Sprintf("python -m pytest -v %s -p no:cacheprovider", target)
	case "vitest":
		return "npx vitest run " + target
	case "jest":
		return fmt.Sprintf("npx jest %s --ci", target)
	case "nextest":
		return "cargo nextest run -p " + crateOf(target)
	case "cargo-test":
		return "cargo test -p " + crateOf(target)
	case "gradle":
		return fmt.Sprintf("./gradlew test --tests '%s.*'", javaPkg(target))
	case "maven":
		return fmt.Sprintf("mvn -q test -Dtest='%s.*'", javaPkg(target))
	case "bats":
		return "bats " + target
	case "pgprove":
		return "pg_prove -d pgops_test " + target
	}
	return "make test"
}

// testName returns a test's name in the runner's style.
func (g *gen) testName() string {
	w := g.words(2 + g.r.intn(2))
	switch g.l.name {
	case "go":
		return "Test" + pascal(w...)
	case "python":
		return "test_" + snake(w...)
	case "ts":
		return pick(g.r, g.p.types) + " › " + strings.Join(w, " ") + "s correctly"
	case "rust":
		return pick(g.r, g.p.nouns) + "::tests::" + snake(w...)
	case "java":
		return camel(w...) + "()"
	}
	return stemOf(pick(g.r, g.files)) + ": " + strings.Join(w, " ")
}

// assertion returns a failing assertion's message in the runner's style.
func (g *gen) assertion() string {
	a, b := g.r.intn(50), 50+g.r.intn(50)
	switch g.l.name {
	case "go":
		return fmt.Sprintf("%s(%q) = %d, want %d", g.fnName(), pick(g.r, g.p.nouns), a, b)
	case "python":
		return fmt.Sprintf("AssertionError: assert %d == %d", a, b)
	case "ts":
		return fmt.Sprintf("expected %d to be %d // Object.is equality", a, b)
	case "rust":
		return fmt.Sprintf("assertion `left == right` failed\n  left: %d\n right: %d", a, b)
	case "java":
		return fmt.Sprintf("org.opentest4j.AssertionFailedError: expected: <%d> but was: <%d>", b, a)
	}
	return fmt.Sprintf("`[ \"$status\" -eq 0 ]' failed (status %d)", 1+g.r.intn(3))
}

// failures returns n failing tests, mostly the session's usual suspects so
// that the same failures come back run after run.
func (g *gen) failures(n int, target string) []failure {
	var out []failure
	for i := 0; i < n; i++ {
		if len(g.usual) < 4 || g.r.chance(0.3) {
			g.usual = append(g.usual, failure{name: g.testName(), msg: g.assertion(), file: g.testFileFor(target)})
		}
		out = append(out, g.usual[g.r.intn(len(g.usual))])
	}
	return out
}

func (g *gen) testFileFor(target string) string {
	for _, f := range g.tfiles {
		if strings.HasPrefix(f, target) {
			return f
		}
	}
	return pick(g.r, g.tfiles)
}

// runTests returns the output of a test run and its exit status.
func (g *gen) runTests(t testRun) (string, int) {
	fails := g.failures(t.fails, t.target)
	if t.crash != "" && len(fails) == 0 {
		fails = g.failures(1, t.target)
	}
	var lines []string
	add := func(format string, args ...any) { lines = append(lines, fmt.Sprintf(format, args...)) }
	failAt := map[int]failure{}
	for i, f := range fails {
		failAt[(i+1)*t.total/(len(fails)+1)] = f
	}
	exit := 0
	if len(fails) > 0 {
		exit = 1
	}
	crashDone := false
	crash := func() {
		if t.crash != "" && !crashDone {
			lines = append(lines, strings.Split(strings.TrimRight(t.crash, "\n"), "\n")...)
			crashDone = true
		}
	}
	switch g.p.runner {
	case "gotest-v", "gotest-race":
		pkg := g.p.module + "/" + t.target
		for i := 0; i < t.total; i++ {
			f, failed := failAt[i]
			name := g.testName()
			if failed {
				name = f.name
			}
			add("=== RUN   %s", name)
			if failed {
				add("    %s:%d: %s", lastDir(f.file), 20+g.r.intn(300), f.msg)
				add("--- FAIL: %s (%s)", name, g.secs(900))
				crash()
				continue
			}
			for k := 0; k < g.r.intn(3); k++ {
				sub := pick(g.r, g.p.nouns) + "_" + pick(g.r, []string{"empty", "expired", "concurrent", "retry", "zero", "max"})
				add("=== RUN   %s/%s", name, sub)
				add("--- PASS: %s/%s (0.00s)", name, sub)
			}
			add("--- PASS: %s (%s)", name, g.secs(300))
		}
		if exit != 0 {
			add("FAIL")
			add("FAIL\t%s\t%s", pkg, g.secs(9000))
			add("FAIL")
		} else {
			add("PASS")
			add("ok  \t%s\t%s", pkg, g.secs(9000))
		}
	case "pytest-q", "pytest-v":
		verbose := g.p.runner == "pytest-v"
		add("============================= test session starts ==============================")
		add("platform linux -- Python 3.11.8, pytest-8.1.1, pluggy-1.4.0")
		add("rootdir: %s", g.root)
		add("collected %d items", t.total)
		add("")
		var dots strings.Builder
		for i := 0; i < t.total; i++ {
			_, failed := failAt[i]
			if verbose {
				st := "PASSED"
				name := g.testName()
				if failed {
					st, name = "FAILED", failAt[i].name
				}
				add("%s::%s %s [%3d%%]", g.testFileFor(t.target), name, st, (i+1)*100/t.total)
				continue
			}
			if failed {
				dots.WriteByte('F')
			} else if g.r.chance(0.02) {
				dots.WriteByte('s')
			} else {
				dots.WriteByte('.')
			}
			if dots.Len() == 72 || i == t.total-1 {
				add("%-72s [%3d%%]", dots.String(), (i+1)*100/t.total)
				dots.Reset()
			}
		}
		if len(fails) > 0 {
			add("")
			add("=================================== FAILURES ===================================")
			for _, f := range fails {
				add("_______________________________ %s _______________________________", f.name)
				add("")
				add("    def %s(%s):", f.name, pick(g.r, []string{"db", "client", "settings", "tmp_path"}))
				add("        result = %s(%s)", g.fnName(), g.varName())
				add(">       assert result == expected")
				add("E       %s", f.msg)
				add("")
				add("%s:%d: AssertionError", f.file, 20+g.r.intn(200))
				if t.crash != "" && !crashDone {
					add("----------------------------- Captured log call -----------------------------")
					crash()
				}
			}
			add("=========================== short test summary info ============================")
			for _, f := range fails {
				add("FAILED %s::%s - %s", f.file, f.name, f.msg)
			}
			add("========================= %d failed, %d passed in %s =========================", len(fails), t.total-len(fails), g.secs(60000))
		} else {
			add("============================== %d passed in %s ==============================", t.total, g.secs(60000))
		}
	case "vitest":
		add("")
		add(" RUN  v1.4.0 %s", g.root)
		add("")
		files := max(1, t.total/12)
		for i := 0; i < files; i++ {
			f := pick(g.r, g.tfiles)
			add(" ✓ %s (%d tests) %dms", f, 4+g.r.intn(20), 5+g.r.intn(300))
		}
		for _, f := range fails {
			add(" ❯ %s (%d tests | 1 failed) %dms", f.file, 4+g.r.intn(20), 10+g.r.intn(300))
			add("   × %s %dms", f.name, g.r.intn(80))
			add("     → %s", f.msg)
		}
		if len(fails) > 0 {
			add("")
			add("⎯⎯⎯⎯⎯⎯⎯ Failed Tests %d ⎯⎯⎯⎯⎯⎯⎯", len(fails))
			for _, f := range fails {
				add("")
				add(" FAIL  %s > %s", f.file, f.name)
				add("AssertionError: %s", f.msg)
				add(" ❯ %s:%d:%d", f.file, 10+g.r.intn(200), 5+g.r.intn(30))
				crash()
			}
		}
		add("")
		add(" Test Files  %d failed | %d passed (%d)", len(fails), files, files+len(fails))
		add("      Tests  %d failed | %d passed (%d)", len(fails), t.total-len(fails), t.total)
		add("   Duration  %d.%02ds (transform %dms, setup 0ms, collect %dms, tests %dms)", 1+g.r.intn(20), g.r.intn(100), 100+g.r.intn(900), 100+g.r.intn(3000), 100+g.r.intn(3000))
	case "jest":
		files := max(1, t.total/15)
		for i := 0; i < files; i++ {
			add(" PASS  %s (%d.%03d s)", pick(g.r, g.tfiles), g.r.intn(5), g.r.intn(1000))
		}
		for _, f := range fails {
			add(" FAIL  %s", f.file)
			add("  ● %s", f.name)
			add("")
			add("    expect(received).toBe(expected) // Object.is equality")
			add("")
			add("    %s", f.msg)
			add("")
			line := 20 + g.r.intn(200)
			add("      %d |     await %s(%s);", line-1, g.fnName(), g.varName())
			add("    > %d |     expect(%s.%s).toBe(0);", line, g.varName(), g.varName())
			add("         |                        ^")
			add("")
			add("      at Object.<anonymous> (%s:%d:%d)", f.file, line, 24)
			add("")
			crash()
		}
		add("")
		add("Test Suites: %d failed, %d passed, %d total", len(fails), files, files+len(fails))
		add("Tests:       %d failed, %d passed, %d total", len(fails), t.total-len(fails), t.total)
		add("Snapshots:   0 total")
		add("Time:        %d.%03d s", 1+g.r.intn(40), g.r.intn(1000))
		add("Ran all test suites matching /%s/i.", strings.ReplaceAll(t.target, "/", "\\/"))
	case "nextest", "cargo-test":
		crate := crateOf(t.target)
		if g.p.runner == "nextest" {
			add("    Finished `test` profile [unoptimized + debuginfo] target(s) in %d.%02ds", g.r.intn(30), g.r.intn(100))
			add("    Starting %d tests across %d binaries", t.total, 2+g.r.intn(8))
			for i := 0; i < t.total; i++ {
				if f, failed := failAt[i]; failed {
					add("        FAIL [%8s] %s %s", g.secs(900), crate, f.name)
					add("--- STDERR:              %s %s ---", crate, f.name)
					add("thread '%s' panicked at %s:%d:%d:", f.name, pick(g.r, g.files), 10+g.r.intn(400), 5+g.r.intn(30))
					add("%s", f.msg)
					crash()
					continue
				}
				add("        PASS [%8s] %s %s", g.secs(300), crate, g.testName())
			}
			add("------------")
			add("     Summary [%8s] %d tests run: %d passed, %d failed, 0 skipped", g.secs(9000), t.total, t.total-len(fails), len(fails))
			if exit != 0 {
				add("error: test run failed")
			}
			break
		}
		add("   Compiling %s v0.%d.%d (%s/crates/%s)", crate, g.r.intn(9), g.r.intn(20), g.root, crate)
		add("    Finished `test` profile [unoptimized + debuginfo] target(s) in %d.%02ds", g.r.intn(30), g.r.intn(100))
		add("     Running unittests src/lib.rs (target/debug/deps/%s-%s)", strings.ReplaceAll(crate, "-", "_"), g.r.hex(16))
		add("")
		add("running %d tests", t.total)
		for i := 0; i < t.total; i++ {
			if f, failed := failAt[i]; failed {
				add("test %s ... FAILED", f.name)
				continue
			}
			add("test %s ... ok", g.testName())
		}
		if len(fails) > 0 {
			add("")
			add("failures:")
			add("")
			for _, f := range fails {
				add("---- %s stdout ----", f.name)
				add("thread '%s' panicked at %s:%d:%d:", f.name, pick(g.r, g.files), 10+g.r.intn(400), 5+g.r.intn(30))
				add("%s", f.msg)
				crash()
				add("")
			}
			add("failures:")
			for _, f := range fails {
				add("    %s", f.name)
			}
			add("")
			add("test result: FAILED. %d passed; %d failed; 0 ignored; 0 measured; 0 filtered out; finished in %s", t.total-len(fails), len(fails), g.secs(5000))
			add("")
			add("error: test failed, to rerun pass `-p %s --lib`", crate)
		} else {
			add("")
			add("test result: ok. %d passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in %s", t.total, g.secs(5000))
		}
	case "gradle":
		add("> Task :compileJava UP-TO-DATE")
		add("> Task :compileTestJava")
		add("> Task :test")
		add("")
		cls := pick(g.r, g.p.types) + "Test"
		for i := 0; i < t.total; i++ {
			if i%12 == 0 {
				cls = pick(g.r, g.p.types) + "Test"
			}
			if f, failed := failAt[i]; failed {
				add("%s > %s FAILED", cls, f.name)
				add("    %s", f.msg)
				add("        at %s.%s.%s(%s.java:%d)", javaPkg(t.target), cls, strings.TrimSuffix(f.name, "()"), cls, 20+g.r.intn(200))
				crash()
				continue
			}
			add("%s > %s PASSED", cls, g.testName())
		}
		add("")
		if exit != 0 {
			add("%d tests completed, %d failed", t.total, len(fails))
			add("")
			add("> Task :test FAILED")
			add("")
			add("FAILURE: Build failed with an exception.")
			add("")
			add("* What went wrong:")
			add("Execution failed for task ':test'.")
			add("> There were failing tests. See the report at: file://%s/build/reports/tests/test/index.html", g.root)
			add("")
			add("BUILD FAILED in %ds", 5+g.r.intn(90))
		} else {
			add("BUILD SUCCESSFUL in %ds", 5+g.r.intn(90))
		}
	case "maven":
		add("[INFO] -------------------------------------------------------")
		add("[INFO]  T E S T S")
		add("[INFO] -------------------------------------------------------")
		left := t.total
		fi := 0
		for left > 0 {
			cls := javaPkg(t.target) + "." + pick(g.r, g.p.types) + "Test"
			n := min(left, 5+g.r.intn(20))
			left -= n
			add("[INFO] Running %s", cls)
			if fi < len(fails) && (left == 0 || g.r.chance(0.4)) {
				f := fails[fi]
				fi++
				add("[ERROR] Tests run: %d, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: %s <<< FAILURE! -- in %s", n, strings.TrimSuffix(g.secs(3000), "s")+" s", cls)
				add("[ERROR] %s.%s -- Time elapsed: %s <<< FAILURE!", cls, strings.TrimSuffix(f.name, "()"), strings.TrimSuffix(g.secs(300), "s")+" s")
				add("%s", f.msg)
				add("\tat org.junit.jupiter.api.AssertionFailureBuilder.build(AssertionFailureBuilder.java:151)")
				add("\tat %s.%s(%s.java:%d)", cls, strings.TrimSuffix(f.name, "()"), lastDir(strings.ReplaceAll(cls, ".", "/")), 20+g.r.intn(200))
				crash()
				add("")
				continue
			}
			add("[INFO] Tests run: %d, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: %s -- in %s", n, strings.TrimSuffix(g.secs(3000), "s")+" s", cls)
		}
		add("[INFO] ")
		add("[INFO] Results:")
		add("[INFO] ")
		if len(fails) > 0 {
			add("[ERROR] Failures: ")
			for _, f := range fails {
				add("[ERROR]   %s:%d %s", strings.TrimSuffix(f.name, "()"), 20+g.r.intn(200), strings.SplitN(f.msg, "\n", 2)[0])
			}
			add("[INFO] ")
			add("[ERROR] Tests run: %d, Failures: %d, Errors: 0, Skipped: %d", t.total, len(fails), g.r.intn(4))
			add("[INFO] ------------------------------------------------------------------------")
			add("[INFO] BUILD FAILURE")
			add("[INFO] ------------------------------------------------------------------------")
			add("[ERROR] Failed to execute goal org.apache.maven.plugins:maven-surefire-plugin:3.2.5:test (default-test) on project %s: There are test failures.", g.p.name)
		} else {
			add("[INFO] Tests run: %d, Failures: 0, Errors: 0, Skipped: %d", t.total, g.r.intn(4))
			add("[INFO] BUILD SUCCESS")
		}
	case "bats":
		add("1..%d", t.total)
		for i := 0; i < t.total; i++ {
			if f, failed := failAt[i]; failed {
				add("not ok %d %s", i+1, f.name)
				add("# (in test file %s, line %d)", f.file, 10+g.r.intn(200))
				add("#   %s", f.msg)
				crash()
				continue
			}
			add("ok %d %s", i+1, g.testName())
		}
	case "pgprove":
		files := max(1, t.total/10)
		for i := 0; i < files; i++ {
			f := pick(g.r, g.tfiles)
			if i < len(fails) {
				add("%s .. %d/%d", fails[i].file, 1+g.r.intn(5), 10)
				add("# Failed test %d: %q", 1+g.r.intn(10), fails[i].name)
				add("#          have: %d", g.r.intn(10))
				add("#          want: %d", 10+g.r.intn(10))
				crash()
				add("%s .. Failed 1/10 subtests", fails[i].file)
				continue
			}
			add("%s .. ok", f)
		}
		if len(fails) > 0 {
			add("")
			add("Test Summary Report")
			add("-------------------")
			for _, f := range fails {
				add("%s (Wstat: 0 Tests: 10 Failed: 1)", f.file)
			}
		}
		add("Files=%d, Tests=%d, %d wallclock secs ( 0.05 usr  0.01 sys +  0.38 cusr  0.12 csys =  0.56 CPU)", files, t.total, 1+g.r.intn(20))
		if exit != 0 {
			add("Result: FAIL")
		} else {
			add("Result: PASS")
		}
	}
	if t.crash != "" && !crashDone {
		t.inject = append(t.inject, t.crash)
	}
	return insertLines(g, lines, t.inject), exit
}
