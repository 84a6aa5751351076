package corpus

// The holdout half: entries for the probe-bearing tables written after the
// sealed half and like it, from how real runtimes, drivers, command-line
// tools, profilers, load generators, databases, CI systems, people and
// coding agents print and word things, without looking at the extractors.
// Its tools, libraries, ecosystems and wordings are ones the five other
// halves do not use. The forms that plant probes in the holdout half are
// in holdout_forms.go.
//
// A table that gets no holdout entries here (harnesses, projects, agent
// styles) falls back to its report half in holdout sessions: see split.of.

func init() {
	rareErrors.with(Holdout, holdoutErrors)
	rareCommands.with(Holdout, holdoutCommands)
	thinkForms.with(Holdout, holdoutThink)
	decisionForms.with(Holdout, holdoutDecisions)
	constraintForms.with(Holdout, holdoutConstraints)
	planForms.with(Holdout, holdoutPlans)
	taskForms.with(Holdout, holdoutTasks)
	askForms.with(Holdout, holdoutAsks)
	askIssues.with(Holdout, holdoutAskIssues)
	userPathForms.with(Holdout, holdoutUserPath)
	userCommandForms.with(Holdout, holdoutUserCommand)
	userIDForms.with(Holdout, holdoutUserID)
	userErrorForms.with(Holdout, holdoutUserError)
	proseCommandForms.with(Holdout, holdoutProseCommand)
	prosePathForms.with(Holdout, holdoutProsePath)
	proseIDForms.with(Holdout, holdoutProseID)
	closeForms.with(Holdout, holdoutClose)
	forms.with(Holdout, holdoutForms)
}

// holdoutErrors are error messages as the runtimes, drivers and tools
// print them, with the keys of rareErrors: pgx, go-redis, the AWS SDK v2,
// encoding/gob and protobuf in Go; Celery, jsonschema, botocore, redis-py,
// asyncpg and httpx in Python; Prisma, ioredis, Next.js, undici, TypeORM
// and Deno in TypeScript; sqlx, Tokio, rusqlite, axum and RefCell in Rust;
// Spring, Jakarta Persistence, collectors and Kotlin coroutines on the
// JVM; Elixir, .NET, AddressSanitizer, Helm, Envoy, containerd,
// Redis, Swift, Zig and Pulumi in ops logs. psql templates are what
// follows "ERROR:  ", mysql templates the client's whole line, tf
// templates what follows Terraform's "Error: " (the Helm, GitHub, Datadog
// and PagerDuty providers).
var holdoutErrors = []langTmpl{
	{"go", "failed to connect to `user=app database={module}`: 10.0.{i}.{j}:5432 ({host}): server error: FATAL: remaining connection slots are reserved for roles with the SUPERUSER attribute (SQLSTATE 53300)"},
	{"go", "{noun} cache: redis: connection pool timeout after {m}s (pool size {n})"},
	{"go", "operation error DynamoDB: PutItem, https response error StatusCode: 400, RequestID: {n}QK{m}VJ0, ConditionalCheckFailedException: The conditional request failed"},
	{"go", "gob: type mismatch: no fields matched compiling decoder for {type} ({noun} snapshot {n})"},
	{"go", "proto: cannot parse invalid wire-format data ({noun}.{type}, {n} bytes)"},

	{"python", "celery.exceptions.SoftTimeLimitExceeded: SoftTimeLimitExceeded() in task {module}.tasks.{verb}_{noun}[{n}]"},
	{"python", "jsonschema.exceptions.ValidationError: '{noun}-{n}' is not of type 'integer' (at $.{col}[{m}])"},
	{"python", "botocore.exceptions.ClientError: An error occurred (ThrottlingException) when calling the PutMetricData operation (reached max retries: {m}): Rate exceeded for {noun}-{n}"},
	{"python", "redis.exceptions.ResponseError: WRONGTYPE Operation against a key holding the wrong kind of value ({noun}:{n})"},
	{"python", "asyncpg.exceptions.TooManyConnectionsError: sorry, too many clients already (pool {host}-{m})"},
	{"python", "httpx.ReadTimeout: timed out reading https://{host}.internal/v2/{noun}s/{n}"},

	{"ts", "PrismaClientKnownRequestError: Invalid `prisma.{noun}.create()` invocation: Unique constraint failed on the fields: (`{col}`) [P2002, {n}]"},
	{"ts", "ReplyError: OOM command not allowed when used memory > 'maxmemory'. script: {noun}_{verb}_{n}"},
	{"ts", "Error: Dynamic server usage: Route /{noun}s/[{col}] couldn't be rendered statically because it used `cookies`. See more info here: https://nextjs.org/docs/messages/dynamic-server-error ({n})"},
	{"ts", "UND_ERR_HEADERS_TIMEOUT: Headers Timeout Error fetching http://{host}:{n}/api/{noun}s"},
	{"ts", "QueryFailedError: null value in column \"{col}\" of relation \"{table}\" violates not-null constraint ({noun} {n})"},
	{"ts", "error: Uncaught (in promise) PermissionDenied: Requires net access to \"{host}.internal:{n}\", run again with the --allow-net flag"},

	{"rust", "{noun} repository: pool timed out while waiting for an open connection (attempt {m} of {i})"},
	{"rust", "thread 'tokio-runtime-worker' panicked at crates/{crate}/src/{noun}.rs:{i}:{m}: there is no reactor running, must be called from the context of a Tokio 1.x runtime"},
	{"rust", "{noun} store: SqliteFailure(Error { code: DatabaseBusy, extended_code: 5 }, Some(\"database is locked\")) after {n} ms"},
	{"rust", "Failed to deserialize the JSON body into the target type: {noun}s[{m}]: missing field `{col}` at line 1 column {i}"},
	{"rust", "already mutably borrowed: BorrowError in {noun} registry (slot {n})"},

	{"java", "org.springframework.web.client.ResourceAccessException: I/O error on GET request for \"http://{host}:8080/api/{noun}s/{n}\": Read timed out"},
	{"java", "jakarta.persistence.OptimisticLockException: Row was updated or deleted by another transaction (or unsaved-value mapping was incorrect) : [{pkg}.{type}#{n}]"},
	{"java", "java.lang.IllegalStateException: Duplicate key {noun}-{n} (attempted merging values {m} and {i})"},
	{"java", "org.springframework.dao.DataIntegrityViolationException: could not execute statement [ERROR: duplicate key value violates unique constraint \"{table}_pkey\" Detail: Key (id)=({n}) already exists.]"},
	{"java", "kotlinx.coroutines.TimeoutCancellationException: Timed out waiting for {n} ms in {cls}.{fn}"},

	{"ops", "** (DBConnection.ConnectionError) connection not available and request was dropped from queue after {m}{n}ms."},
	{"ops", "Unhandled exception. System.InvalidOperationException: Sequence contains no elements (at {host}.{type}.Get{type}Async line {i})"},
	{"ops", "==1{n}==ERROR: AddressSanitizer: heap-use-after-free on address 0x60200000{i}0 at pc 0x55d{n} bp 0x7ffd{m} sp 0x7ffd{m}8"},
	{"ops", "Error: UPGRADE FAILED: another operation (install/upgrade/rollback) is in progress ({host} revision {m})"},
	{"ops", "upstream connect error or disconnect/reset before headers. reset reason: connection timeout (cluster {host}_{noun}_{n})"},
	{"ops", "failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: exec: \"/app/bin/{host}-{m}\": permission denied: unknown"},
	{"ops", "MISCONF Redis is configured to save RDB snapshots, but it's currently unable to persist to disk ({noun}-cache-{n})."},
	{"ops", "Fatal error: Unexpectedly found nil while unwrapping an Optional value: file {type}/{type}Service.swift, line {i}"},
	{"ops", "error: update failed: {noun}-{n} (kubernetes:apps/v1:Deployment): the Kubernetes API server reported that \"{host}\" failed to fully initialize or become live"},

	{"psql", "there is no unique or exclusion constraint matching the ON CONFLICT specification ({table}.{col}_{m})"},
	{"psql", "could not obtain lock on row in relation \"{table}_{m}\""},
	{"psql", "invalid input value for enum {noun}_status: \"{verb}ed_{m}\""},
	{"psql", "could not serialize access due to read/write dependencies among transactions (batch {n})"},
	{"psql", "column \"{col}_{m}\" of relation \"{table}\" contains null values"},
	{"mysql", "ERROR 1136 (21S01) at line {i}: Column count doesn't match value count at row {n}"},
	{"mysql", "ERROR 1048 (23000) at line {i}: Column '{col}_{m}' cannot be null"},
	{"mysql", "ERROR 1364 (HY000) at line {i}: Field '{col}_{m}' doesn't have a default value ({noun} {n})"},
	{"mysql", "ERROR 4025 (23000) at line {i}: CONSTRAINT `{table}_chk_{m}` failed for `app`.`{table}` (row {n})"},
	{"tf", "cannot re-use a name that is still in use ({host}-{noun}-{n})"},
	{"tf", "PUT https://api.github.com/repos/northwind/{noun}-{n}/branches/main/protection: 422 Invalid request. No subschema in \"anyOf\" matched."},
	{"tf", "error creating monitor {noun}-{verb}-{n}: 400 Bad Request: {\"errors\":[\"The value provided for parameter 'query' is invalid\"]}"},
	{"tf", "POST API call to https://api.pagerduty.com/services failed 400 Bad Request. Code: 2001, Errors: [Name has already been taken], Message: Invalid Input Provided ({host}-{n})"},
}

// holdoutCommands are commands run once while debugging, with the keys of
// rareCommands.
var holdoutCommands = []langTmpl{
	{"go", "go test -run '^{test}$' -count={m}0 -failfast -shuffle=on ./{dir}/ 2>&1 | tail -n {n}"},
	{"go", "dlv test ./{dir} --headless --listen=:23{m}5 -- -test.run '^{test}$' -test.v"},
	{"go", "go test -run '^$' -fuzz '^Fuzz' -fuzztime {m}m -parallel 2 ./{dir}/ # seed corpus {n}"},
	{"go", "govulncheck -show verbose -scan symbol ./{dir}/... > /tmp/vuln-{n}.txt"},

	{"python", "pytest {tfile} -x -k '{test}' --hypothesis-show-statistics --hypothesis-verbosity=verbose # seed {n}"},
	{"python", "tox -e py312 -- {tfile} -k '{test}' -x -p no:randomly --count={m}"},
	{"python", "mypy --strict --show-error-codes --follow-imports=silent {tfile} | head -n {m}0"},
	{"python", "pipdeptree --reverse --packages urllib3,{noun} --warn fail | head -n {m}0 # {n}"},

	{"ts", "node --heapsnapshot-near-heap-limit={m} --max-old-space-size=512 dist/{noun}.js # run {n}"},
	{"ts", "npx tsc --noEmit --extendedDiagnostics -p tsconfig.{noun}.json | grep -E 'Check time|Memory used' # run {n}"},
	{"ts", "npx jest --detectOpenHandles --runInBand --testNamePattern='{phrase}' src/{noun}/__tests__/{noun}{m}.test.ts"},
	{"ts", "npx knip --include files,exports --workspace packages/{noun} --reporter compact # {n}"},

	{"rust", "cargo nextest run -p {crate} --no-fail-fast --retries {m} -E 'test(/{noun}/)' # {n}"},
	{"rust", "cargo expand -p {crate} {noun}::{verb} > /tmp/expand-{n}.rs"},
	{"rust", "RUST_BACKTRACE=full RUST_LOG={crate}=trace,tower=debug cargo run -p {crate} --release -- --once --limit {n}"},
	{"rust", "cargo +nightly miri test -p {crate} {noun} -- --skip slow_{m} # {n}"},

	{"java", "./gradlew :{module}:test --tests '*{cls}*' --rerun-tasks --info --max-workers={m} # {n}"},
	{"java", "java -XX:+UnlockDiagnosticVMOptions -XX:+PrintCompilation -jar target/{module}-{m}.jar | grep {cls} > /tmp/jit-{n}.txt"},
	{"java", "jstack -l $(pgrep -f {module}) | grep -A {m}0 'BLOCKED' > /tmp/blocked-{n}.txt"},
	{"java", "mvn -pl {module} -am -Dtest='{cls}#{test}' -Dsurefire.failIfNoSpecifiedTests=false -Dsurefire.rerunFailingTestsCount={m} test"},

	{"ops", "sudo strace -f -tt -e trace=network -p $(pgrep -f {host} | head -1) -o /tmp/strace-{n}.txt"},
	{"ops", "sudo tcpdump -i any -nn -c {m}00 'tcp port 5432 and host 10.0.{i}.{j}' -w /tmp/pg-{n}.pcap"},
	{"ops", "journalctl -u {host}.service --since '-{m}h' -o short-iso --no-pager | grep -iE 'oom|killed' | tail -n {n}"},
	{"ops", "sudo bpftrace -e 'tracepoint:syscalls:sys_enter_fsync /comm == \"{host}\"/ { @[ustack] = count(); }' -c 'sleep {m}0' # {n}"},
	{"ops", "dig +trace +nodnssec {noun}-{n}.{host}.internal @10.0.{i}.{j}"},
}

// holdoutThink is thinking (never a probe). Keys: {path}, {thing}.
var holdoutThink = []string{
	"If {thing} were to blame, the retry counter would have moved. Check {path} anyway.",
	"Two readers, one writer, and {thing} in the middle. {path} decides the order.",
	"I keep coming back to {path}. Something there assumes {thing} is never empty.",
	"Careful: {thing} is shared. Read {path} before changing a line.",
}

// holdoutDecisions are decisions in the wordings of coding agents and the
// people who review their work: a plan step that commits, a terse review
// verdict, a commit trailer, a chat line, a "the better choice is" turn,
// a conditional that resolves, a weighed comparison, a "verdict" label,
// a rule for the rest of the task. {x} is chosen over {y} for {c}, because
// {why}.
var holdoutDecisions = []string{
	"I'll implement {c} with {x}. I considered {y}, but {why}.",
	"The better choice for {c} is {x}: {why}, which rules out {y}.",
	"Approach for {c}: {x}. Alternative considered and rejected: {y} ({why}).",
	"Let me go with {x} for {c} — {y} would also work on paper, but {why}.",
	"Recommendation: {x} for {c}. Not recommended: {y}, since {why}.",
	"Nit, but blocking: please keep {c} on {x}; {y} gets us in trouble because {why}.",
	"LGTM with {x} in {c}. Let's not reintroduce {y}; {why}.",
	"Decided-by: review. {c} uses {x}, {y} rejected ({why}).",
	"Verdict on {c}: {x}. {y} loses because {why}.",
	"If {y} were safe here I'd take it, but {why}; so {c} gets {x}.",
	"{y} is off the table for {c} ({why}); {x} is what I'm implementing.",
	"Comparing the two for {c}: {y} is simpler, {x} is correct since {why}. Picking {x}.",
	"Switching {c} from {y} to {x}, because {why}.",
	"My pick is {x} for {c}; skipping {y} because {why}.",
	"{x} for {c}, definitely. {y} came up, but {why}.",
	"Resolution for {c}: adopt {x}; {y} is declined as {why}.",
	"From here on, anything touching {c} goes through {x}, and {y} stays banned, because {why}.",
	"I'm standardizing {c} on {x} for the rest of this change; {y} stays out of it, since {why}.",
	"Two options for {c}:\n- {x}\n- {y}\n\nGoing with the first: {why} rules out the second.",
	"**Decision:** {x} for {c}\n**Rejected:** {y}\n**Reason:** {why}",
	"Thinking about {c} again: {y} is out ({why}). Proceeding with {x}.",
	"Okay, {x} for {c}. {y} was my first instinct; {why}, though.",
	"We agreed on {x} for {c} in the thread; {y} was voted down because {why}.",
	"For {c} I'm taking {x} and leaving {y} behind: {why}.",
}

// holdoutUserDecisions are decisions as the user words them in a reply
// choosing one of the alternatives. Keys as holdoutDecisions. Only the
// user-reply decision form draws them, so they are in no table.
var holdoutUserDecisions = []string{
	"Go with {x} for {c}. I don't want {y} there: {why}.",
	"My vote: {x} in {c}. {y} is a no, {why}.",
	"Let's do {x} for {c} and forget {y}; {why}.",
	"Between the two, {x} for {c}. Not {y}: {why}.",
	"{x}, please, for {c}. We tried {y} last year and {why}.",
}

// holdoutConstraints are rules the user sets. Keys: {pkgkind} {pkg},
// {dir}, {file}, {dep}, {ver}, {env}, {api}, {cmd}.
var holdoutConstraints = []string{
	"The exported surface of {pkgkind} {pkg} is frozen until the next major release.",
	"Hands off {dir}; another team is mid-refactor there.",
	"{file} must come out of this change byte-identical.",
	"We are not taking on {dep} or any other new package for this.",
	"Whatever you write has to build and pass on {ver} as well.",
	"You have no business in {env}: local and CI only.",
	"The wire format of {api} cannot change; mobile clients older than a year still call it.",
	"Run `{cmd}` before you tell me it's fixed, and paste the tail of its output.",
	"Do not regenerate anything under {dir}; the generator version there is pinned.",
	"Calls into {dep} are on the deprecation list, so no new ones.",
	"Keep the diff inside {dir}; a change anywhere else goes through me first.",
	"Leave the formatting of {file} alone; the blame history matters to us.",
	"Nothing gets pushed from this session: no branches, no tags, no force-push.",
	"No renaming in {pkgkind} {pkg}; downstream code imports those names.",
	"Schema changes are out of scope, additive or not.",
	"Flaky or not, no test gets an @skip or a retry decorator to pass.",
	"Don't bump {ver} support off the matrix to make this easier.",
}

// holdoutPlans are plans that are not decisions, some naming alternatives
// still open. Keys: {topic}, {thing}, {path}.
var holdoutPlans = []string{
	"Next I'd like to see whether {thing} is even reached on this path.",
	"Either {path} or the {topic} retry loop; haven't narrowed it down.",
	"Might be worth a look at how {topic} handled this before the last release.",
	"I'll skim {path} and come back to {thing} if nothing turns up.",
	"Two suspects so far: {thing} and {path}. No verdict yet.",
	"Could go two ways on {topic}; I'll get more data first.",
	"Possibly a bisect over {path} later, if the logs don't settle it.",
	"Let me see who else reads {thing} before I touch anything.",
	"Whether {topic} needs changing depends on what {path} returns.",
	"Keeping {thing} in mind; not acting on it yet.",
	"Worth checking later: does {topic} behave the same in the worker?",
	"Unclear so far whether {path} or {thing} is upstream of the failure.",
	"I'll want a second reproduction before deciding anything about {topic}.",
}

var holdoutTasks = []string{
	"Bug bash item for {proj}: {issue}. Please reproduce, fix, and add a test that would have caught it.",
	"Customer escalation on {proj}: it {issue}. Track it down and land a tested fix.",
	"Picking up where the last session stopped on {proj}: {issue}. Fix it properly this time, with a test.",
}

var holdoutAsks = []string{
	"Looks right. Something else: {comp} {issue}.",
	"Good, thanks. While you're in there, {comp} {issue}.",
	"Confirmed fixed on my side. Another one: {comp} {issue}.",
	"OK. Support just pinged me: {comp} {issue}.",
}

var holdoutAskIssues = []string{
	"times out only on the first request after a deploy",
	"drops the last item when the page size is exact",
	"logs a success and then retries anyway",
	"writes the timestamp in local time instead of UTC",
}

var holdoutUserPath = []string{
	"git blame points at {path}; the last edit there was a Friday deploy.",
	"The stack trace support pasted ends in {path}.",
	"Might be nothing, but {path} got a big refactor last sprint.",
}

var holdoutUserCommand = []string{
	"This is what I run to see it:\n\n    {cmd}",
	"Try `{cmd}`; it fails for me about one time in three.",
	"QA's repro steps boil down to: {cmd}",
}

var holdoutUserID = []string{
	"Cloudflare shows ray {id} for the failing request.",
	"Support attached {id} to the ticket.",
	"Reference {id} when you write the postmortem note.",
}

var holdoutUserError = []string{
	"Opsgenie woke me up with this: {err}",
	"From the Grafana alert panel:\n\n    {err}",
	"Our status page monitor reports `{err}`",
}

var holdoutProseCommand = []string{
	"Saving this as the repro: `{cmd}`.",
	"Minimal reproduction, for the record: {cmd}",
	"It fails deterministically with {cmd}",
}

var holdoutProsePath = []string{
	"Narrowed it to {path}.",
	"Culprit: `{path}`, specifically how it handles the empty case.",
	"The faulty logic lives in {path}.",
}

var holdoutProseID = []string{
	"This matches {id}.",
	"Same underlying cause as {id}.",
	"Linking {id} for whoever picks this up next.",
}

var holdoutClose = []string{
	"Summary\n- {comp}: root cause fixed, regression test added\n- test suite: {n} passed",
	"Wrapped up. {comp} is fixed and covered; {n} tests green.",
}
