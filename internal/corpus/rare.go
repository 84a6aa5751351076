package corpus

import (
	"fmt"
	"strings"
)

// langTmpl is a template for one language ("*": any).
type langTmpl struct{ lang, tmpl string }

func ltKey(t langTmpl) string { return t.lang + "|" + t.tmpl }

// Rare error messages, as the tools print them. Keys: {table}, {col},
// {noun}, {verb}, {n}, {m}, {i}, {j}, {host}, {type}, {fn}, {ip}, {file}.
var rareErrors = newSplit("error messages", []langTmpl{
	{"go", "pq: could not serialize access due to concurrent update on {table} ({n})"},
	{"go", "runtime error: invalid memory address or nil pointer dereference [signal SIGSEGV: segmentation violation code=0x1 addr=0x{i} pc=0x{m}]"},
	{"go", "read tcp 10.0.{i}.{j}:{n}->10.0.{m}.7:5432: i/o timeout"},
	{"python", "psycopg2.errors.SerializationFailure: could not serialize access due to concurrent update on {table} (attempt {n})"},
	{"python", "KeyError: '{noun}_{col}_{n}'"},
	{"python", "redis.exceptions.ConnectionError: Error 111 connecting to 10.0.{i}.{j}:6379. Connection refused."},
	{"ts", "TypeError: Cannot read properties of undefined (reading '{noun}{n}')"},
	{"ts", "RangeError: Maximum call stack size exceeded in {fn} after {n} frames"},
	{"ts", "FetchError: request to http://{host}:{n}/{noun} failed, reason: socket hang up"},
	{"rust", "called `Option::unwrap()` on a `None` value (looking up {noun} {n})"},
	{"rust", "attempt to subtract with overflow in {fn} at {noun} {n}"},
	{"rust", "error returned from database: deadlock detected (pid {n} waiting for ShareLock on transaction {m})"},
	{"java", "java.lang.NullPointerException: Cannot invoke \"{type}.get{col}()\" because \"{noun}{n}\" is null"},
	{"java", "org.hibernate.StaleObjectStateException: Row was updated or deleted by another transaction: [{type}#{n}]"},
	{"java", "java.util.concurrent.RejectedExecutionException: Task {n} rejected from java.util.concurrent.ThreadPoolExecutor[Running, pool size = {i}]"},
	{"ops", "ERROR 1213 (40001) at line {i}: Deadlock found when trying to get lock; try restarting transaction ({table} {n})"},
	{"ops", "rsync: [sender] write error: Broken pipe (32) after {n} files"},
	{"ops", "mysqldump: Got error: 2013: Lost connection to MySQL server during query when dumping table `{table}` at row: {n}"},
}, []langTmpl{
	{"go", "pq: duplicate key value violates unique constraint \"{table}_{col}_key\""},
	{"go", "index out of range [{i}] with length {j}"},
	{"go", "context deadline exceeded while waiting for {noun} {n} on {host}"},
	{"python", "sqlalchemy.exc.IntegrityError: (psycopg2.errors.UniqueViolation) duplicate key value violates unique constraint \"ix_{table}_{col}_{n}\""},
	{"python", "IndexError: list index out of range in {fn}(batch={n})"},
	{"python", "asyncio.exceptions.TimeoutError: timed out after {n}s waiting for {noun} lock"},
	{"ts", "Error: connect ECONNREFUSED 10.0.{i}.{j}:{n}"},
	{"ts", "ERR_STREAM_WRITE_AFTER_END: write after end ({noun} {n})"},
	{"ts", "Unhandled promise rejection: AbortError: The operation was aborted while waiting for {noun} {n}"},
	{"rust", "index out of bounds: the len is {j} but the index is {i}"},
	{"rust", "Os { code: 24, kind: Uncategorized, message: \"Too many open files\" } while opening {noun}-{n}.wal"},
	{"rust", "error returned from database: duplicate key value violates unique constraint \"{table}_{col}_{n}_key\""},
	{"java", "java.lang.IllegalStateException: {type} {n} already assigned to {noun} {m}"},
	{"java", "org.springframework.dao.DataIntegrityViolationException: could not execute statement; constraint [uk_{table}_{col}_{n}]"},
	{"java", "java.net.SocketTimeoutException: Read timed out after {n} ms calling {host}"},
	{"ops", "FATAL:  remaining connection slots are reserved for non-replication superuser connections ({n} in use)"},
	{"ops", "could not receive data from WAL stream: server closed the connection unexpectedly (slot {noun}_{n})"},
	{"ops", "duplicate key value violates unique constraint \"{table}_{col}_{n}_idx\""},
}, ltKey)

// Rare commands: run once, worth remembering. Keys: {dir}, {tfile},
// {test}, {crate}, {pkg}, {cls}, {host}, {table}, {noun}, {verb}, {n},
// {m}, {script}, {module}, {phrase}, {fn}.
var rareCommands = newSplit("rare commands", []langTmpl{
	{"go", "go test -run '{test}/{noun}_{n}' -count=20 -timeout 90s ./{dir}/"},
	{"go", "go test -bench={fn} -benchmem -cpuprofile=/tmp/{noun}{n}.prof ./{dir}/"},
	{"go", "GOFLAGS=-mod=mod go run ./cmd/... -{noun}={n} -dry-run"},
	{"python", "pytest {tfile}::{test} -x -vv --tb=long -k {noun}{n}"},
	{"python", "python -m {module}.{verb}_{noun} --dry-run --limit {n}"},
	{"python", "python manage.py {verb}_{noun} --tenant {n} --since 2026-03-{m}"},
	{"ts", "npx vitest run {tfile} -t '{phrase}' --reporter=verbose --seed {n}"},
	{"ts", "node --inspect-brk=0.0.0.0:{n} dist/{noun}.js"},
	{"ts", "npx tsx scripts/{verb}-{noun}.ts --dry-run --batch {n}"},
	{"rust", "cargo test -p {crate} {fn} -- --nocapture --test-threads=1 --exact"},
	{"rust", "RUST_LOG={noun}=trace cargo run -p {crate} -- {verb} --depth {n}"},
	{"rust", "cargo bench -p {crate} --bench {noun} -- --save-baseline b{n}"},
	{"java", "./gradlew test --tests '{pkg}.{cls}.{fn}' -i --rerun-tasks -PseedValue={n}"},
	{"java", "java -jar build/libs/{module}.jar --spring.profiles.active=replay-{n}"},
	{"java", "./gradlew bootRun --args='--{noun}.limit={n}'"},
	{"ops", "mysql -h {host} -e 'SHOW REPLICA STATUS\\G' | grep -E 'Seconds_Behind|Last_SQL_Error' # run {n}"},
	{"ops", "kubectl -n data rollout restart statefulset/{noun}-{n}"},
	{"ops", "./{script} --dry-run --{noun} {n} --verbose"},
}, []langTmpl{
	{"go", "go test -race -run '^{test}$' -count=50 ./{dir}/ 2>&1 | tee /tmp/{noun}-{n}.log"},
	{"go", "dlv test ./{dir}/ -- -test.run {test} -test.count={n}"},
	{"go", "go tool pprof -top -nodecount={n} http://localhost:6060/debug/pprof/heap"},
	{"python", "python -X dev -m pytest {tfile} -p no:randomly -x --maxfail=1 -q --count={n}"},
	{"python", "alembic upgrade head --sql > /tmp/{noun}_{n}.sql && wc -l /tmp/{noun}_{n}.sql"},
	{"python", "celery -A {module} call {module}.tasks.{verb}_{noun} --args='[{n}]'"},
	{"ts", "npx jest {tfile} -t '{phrase}' --runInBand --detectOpenHandles --seed={n}"},
	{"ts", "NODE_OPTIONS=--max-old-space-size={n} npm run start:{noun}"},
	{"ts", "curl -sS -N -H 'Sec-WebSocket-Version: 13' http://localhost:{n}/{noun} | head -c 2000"},
	{"rust", "RUST_BACKTRACE=1 cargo test -p {crate} --test {noun} -- {fn} --ignored --nocapture"},
	{"rust", "cargo run -p {crate} --release -- replay --from {n} --to {m}"},
	{"rust", "cargo flamegraph -p {crate} --bin {crate} -- {verb} --count {n}"},
	{"java", "mvn -pl . -Dtest={cls}#{fn} -DfailIfNoTests=false -Dsurefire.rerunFailingTestsCount={n} test"},
	{"java", "jcmd $(pgrep -f {module}) Thread.print > /tmp/threads-{n}.txt"},
	{"java", "mvn -q exec:java -Dexec.mainClass={pkg}.{cls} -Dexec.args='--period 2026-0{m} --run {n}'"},
	{"ops", "psql -h {host} -d app -c \"SELECT pid, state, wait_event FROM pg_stat_activity WHERE query ILIKE '%{table}%' LIMIT {n}\""},
	{"ops", "pg_repack -h {host} -d app --table {table} --jobs {n} --dry-run"},
	{"ops", "sudo -u postgres {script} --slot {noun}_{n} --since '-{m} hours'"},
}, ltKey)

// Thinking, where formats keep it (never a probe: eval does not read
// thinking). Keys: {path}, {thing}.
var thinkForms = strSplit("thinking phrasings", []string{
	"The failure mentions {thing}. I should check {path} before editing anything.",
	"Probably a race around {thing}; the tests will tell.",
	"{path} is the likely place. Keep the change small.",
}, []string{
	"Hypothesis: {thing} is read before it is written. Verify in {path}.",
	"Not sure yet. {path} first, then the tests.",
	"Suspect {thing}. Need evidence from {path}.",
})

// langTmpls returns the templates of half h for the project's language.
func langTmpls(s *split[langTmpl], h Half, lang string) []string {
	var out []string
	for _, t := range s.of(h) {
		if t.lang == lang || t.lang == "*" {
			out = append(out, t.tmpl)
		}
	}
	return out
}

// vars returns the values rare templates draw from, fresh for each use.
func (g *gen) vars() map[string]string {
	w := g.words(2)
	fn := g.l.fn(w...)
	tf := pick(g.r, g.tfiles)
	return map[string]string{
		"table": pick(g.r, g.p.tables), "col": pick(g.r, []string{"external_id", "number", "slug", "email", "period", "txn_id", "idempotency_key"}),
		"noun": strings.ReplaceAll(pick(g.r, g.p.nouns), "_", ""), "verb": pick(g.r, g.p.verbs),
		"n": fmt.Sprint(100 + g.r.intn(99900)), "m": fmt.Sprint(1 + g.r.intn(9)),
		"i": fmt.Sprint(2 + g.r.intn(250)), "j": fmt.Sprint(1 + g.r.intn(2)),
		"host": pick(g.r, g.p.hosts), "type": pick(g.r, g.p.types), "fn": fn, "file": lastDir(pick(g.r, g.files)),
		"dir": pick(g.r, g.p.dirs), "tfile": tf, "test": g.testNameFor(), "crate": crateOf(pick(g.r, g.p.dirs)),
		"pkg": g.l.pkg(g.p, pick(g.r, g.p.dirs)), "cls": pick(g.r, g.p.types), "module": strings.TrimPrefix(g.p.module, "@"),
		"script": pick(g.r, g.files), "phrase": strings.Join(g.words(3), " "),
	}
}

// testNameFor returns a test name usable on a command line.
func (g *gen) testNameFor() string {
	switch g.l.name {
	case "go":
		return "Test" + pascal(g.words(2)...)
	case "python":
		return "test_" + snake(g.words(2)...)
	case "java":
		return camel(g.words(2)...)
	}
	return snake(g.words(2)...)
}
