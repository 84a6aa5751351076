package corpus

// The blind half: entries for the probe-bearing tables written from how
// real runtimes, drivers, command-line tools and agents print and word
// things, without looking at the extractors or at the other three halves'
// entries: other wording, other tools, other surfaces. The forms that
// plant probes in the blind half are in blind_forms.go.
//
// A table that gets no blind entries here (harnesses, projects, agent
// styles) falls back to its report half in blind sessions: see split.of.

func init() {
	rareErrors.with(Blind, blindErrors)
	rareCommands.with(Blind, blindCommands)
	thinkForms.with(Blind, blindThink)
	decisionForms.with(Blind, blindDecisions)
	constraintForms.with(Blind, blindConstraints)
	planForms.with(Blind, blindPlans)
	taskForms.with(Blind, blindTasks)
	askForms.with(Blind, blindAsks)
	askIssues.with(Blind, blindAskIssues)
	userPathForms.with(Blind, blindUserPath)
	userCommandForms.with(Blind, blindUserCommand)
	userIDForms.with(Blind, blindUserID)
	userErrorForms.with(Blind, blindUserError)
	proseCommandForms.with(Blind, blindProseCommand)
	prosePathForms.with(Blind, blindProsePath)
	proseIDForms.with(Blind, blindProseID)
	closeForms.with(Blind, blindClose)
	forms.with(Blind, blindForms)
}

// blindErrors are error messages as the runtimes, drivers and tools print
// them, with the keys of rareErrors: gRPC status errors, pgx, net/http and
// crypto/x509 in Go; Celery, httpx, Django and the datetime parser in
// Python; Node's unhandled rejections, Prisma, axios and node-redis in
// TypeScript; anyhow-style chains, sqlx, reqwest, serde and Tokio join
// errors in Rust; Spring, Kotlin and grpc-java on the JVM; helm, kubectl,
// BuildKit, the AWS CLI, gcloud, pg_restore, WAL archiving, Postgrex and
// .NET lines in ops logs. psql templates are what follows "ERROR:  ", mysql
// templates the client's whole line, tf templates what follows Terraform's
// "Error: ".
var blindErrors = []langTmpl{
	{"go", "rpc error: code = ResourceExhausted desc = grpc: received message larger than max ({n} vs. 4194304)"},
	{"go", "failed to encode args[{j}]: unable to encode \"{noun}-{n}\" into binary format for int8 (OID 20): cannot find encode plan"},
	{"go", "http: superfluous response.WriteHeader call from {module}/{dir}.(*{type}).ServeHTTP ({file}:{i})"},
	{"go", "strconv.ParseInt: parsing \"{noun}-{n}\": invalid syntax"},
	{"go", "tls: failed to verify certificate: x509: certificate has expired or is not yet valid: current time 2026-04-0{m}T0{j}:14:{j}{m}Z is after 2026-03-31T23:59:59Z"},

	{"python", "celery.exceptions.TimeLimitExceeded: Hard time limit ({m}00s) exceeded for {module}.tasks.{verb}_{noun}[{n}]"},
	{"python", "httpx.HTTPStatusError: Server error '503 Service Unavailable' for url 'http://{host}:8000/v1/{noun}s/{n}'"},
	{"python", "django.db.utils.OperationalError: could not obtain lock on row in relation \"{table}\""},
	{"python", "ModuleNotFoundError: No module named '{module}.{noun}_compat{m}'"},
	{"python", "ValueError: time data '2026-04-0{m} 25:{j}0' does not match format '%Y-%m-%d %H:%M'"},

	{"ts", "[UnhandledPromiseRejection: This error originated either by throwing inside of an async function without a catch block, or by rejecting a promise which was not handled with .catch(). The promise rejected with the reason \"{noun} {n} not found\".] { code: 'ERR_UNHANDLED_REJECTION' }"},
	{"ts", "PrismaClientKnownRequestError: Unique constraint failed on the fields: (`{col}`) while creating {type} {n}"},
	{"ts", "AxiosError: timeout of {n}ms exceeded"},
	{"ts", "Error: Redis connection to 10.0.{i}.{j}:6379 failed - read ECONNRESET ({noun} {n})"},
	{"ts", "Error [ERR_REQUIRE_ESM]: require() of ES Module /app/node_modules/{noun}-kit/index.js from /app/dist/{noun}{n}.js not supported."},

	{"rust", "failed to open {noun} journal at /var/lib/{host}/{noun}-{n}.log: No such file or directory (os error 2)"},
	{"rust", "replaying batch {n}: pool timed out while waiting for an open connection"},
	{"rust", "error sending request for url (http://{host}:{n}/v1/{noun}s): operation timed out"},
	{"rust", "invalid type: string \"{n}\", expected u64 at line 1 column {i}"},
	{"rust", "task {n} panicked with message \"{noun} index out of sync\""},

	{"java", "io.grpc.StatusRuntimeException: DEADLINE_EXCEEDED: deadline exceeded after {m}.{n}s. [closed=[], open=[[remote_addr={host}/10.0.{i}.{j}:8443]]]"},
	{"java", "kotlin.UninitializedPropertyAccessException: lateinit property {noun}Client{m} has not been initialized"},
	{"java", "org.springframework.beans.factory.UnsatisfiedDependencyException: Error creating bean with name '{noun}Service{n}': Unsatisfied dependency expressed through constructor parameter {j}"},
	{"java", "java.time.format.DateTimeParseException: Text '2026-04-1{m}T{m}:00' could not be parsed at index 11"},
	{"java", "org.springframework.web.client.HttpClientErrorException$TooManyRequests: 429 Too Many Requests: \"rate limit exceeded for {noun} {n}\""},

	{"ops", "Error: UPGRADE FAILED: release {host}-{n} failed, and has been rolled back due to atomic being set: context deadline exceeded"},
	{"ops", "error: unable to upgrade connection: container not found (\"{host}-{n}\")"},
	{"ops", "ERROR: failed to solve: process \"/bin/sh -c ./{script} --{noun} {n}\" did not complete successfully: exit code: {m}"},
	{"ops", "fatal error: An error occurred (404) when calling the HeadObject operation: Key \"backups/{noun}-{n}.tar.zst\" does not exist"},
	{"ops", "ERROR: (gcloud.sql.instances.patch) HTTPError 409: Operation {n} is already in progress for instance {host}."},
	{"ops", "pg_restore: error: could not execute query: ERROR:  relation \"{table}_{noun}_{n}_idx\" already exists"},
	{"ops", "** (Postgrex.Error) ERROR 55P03 (lock_not_available) could not obtain lock on relation \"{table}\" after {n}ms"},
	{"ops", "Unhandled exception. System.IO.IOException: No space left on device : '/var/lib/{host}/{noun}-{n}.tmp'"},

	{"psql", "could not extend file \"base/16384/{n}\": No space left on device"},
	{"psql", "invalid input syntax for type uuid: \"{noun}-{n}\""},
	{"psql", "cannot ALTER TABLE \"{table}\" because it has pending trigger events"},
	{"psql", "new row for relation \"{table}\" violates check constraint \"{table}_{col}_check\""},
	{"mysql", "ERROR 1205 (HY000) at line {i}: Lock wait timeout exceeded; try restarting transaction"},
	{"mysql", "ERROR 1146 (42S02) at line {i}: Table 'app.{table}_{noun}' doesn't exist"},
	{"mysql", "ERROR 1366 (HY000) at line {i}: Incorrect integer value: '{noun}' for column '{col}' at row {n}"},
	{"tf", "waiting for RDS DB Instance ({host}-{n}) update: unexpected state 'storage-full', wanted target 'available'. last error: %!s(<nil>)"},
	{"tf", "Failed to query available provider packages: could not retrieve the list of available versions for provider hashicorp/aws: no available releases match the given constraints ~> 4.{m}, >= 5.{j}.0"},
	{"tf", "creating SQS Queue ({host}-{noun}-{n}): operation error SQS: CreateQueue, https response error StatusCode: 400, api error QueueAlreadyExists: A queue already exists with the same name and a different value for attribute VisibilityTimeout"},
}

// blindCommands are commands run once while debugging, with the keys of
// rareCommands.
var blindCommands = []langTmpl{
	{"go", "GODEBUG=gctrace=1 go test -run '^{test}$' -count=1 ./{dir}/ 2>&1 | grep -E '^gc [0-9]+' | tail -n {m}0"},
	{"go", "go test -coverprofile=/tmp/{noun}{n}.out ./{dir}/ && go tool cover -func=/tmp/{noun}{n}.out | sort -k3 -n | head -{m}0"},
	{"go", "go test -run '^{test}$' -exec 'strace -f -e trace=network -o /tmp/{noun}-{n}.strace' ./{dir}/"},
	{"go", "govulncheck -show verbose ./{dir}/... > /tmp/vuln-{noun}-{n}.txt"},

	{"python", "coverage run -m pytest {tfile} -k {test} && coverage report -m --include='*{noun}*' --fail-under={m}0"},
	{"python", "pytest {tfile} --durations={m}0 --durations-min=0.5 -p no:randomly -k '{noun} and not slow'"},
	{"python", "PYTHONTRACEMALLOC=25 python -W error::ResourceWarning -m pytest {tfile}::{test} --count={n}"},
	{"python", "memray run --native -o /tmp/{noun}-{n}.bin -m {module}.{verb}_{noun} && memray flamegraph /tmp/{noun}-{n}.bin"},

	{"ts", "node --trace-warnings --unhandled-rejections=strict dist/{noun}.js --replay {n}"},
	{"ts", "DEBUG='ioredis:*' npx jest {tfile} -t '{phrase}' --testTimeout={n} --runInBand"},
	{"ts", "npx clinic doctor --on-port 'autocannon -c {m}0 -d 20 localhost:$PORT/{noun}' -- node dist/server.js"},
	{"ts", "node --heapsnapshot-signal=SIGUSR2 --max-semi-space-size={m}4 dist/{noun}.js --port {n}"},

	{"rust", "TOKIO_CONSOLE_BIND=127.0.0.1:{n} RUSTFLAGS='--cfg tokio_unstable' cargo run -p {crate} --features console -- {verb}"},
	{"rust", "cargo expand -p {crate} {noun} > /tmp/{noun}-{n}.rs && wc -l /tmp/{noun}-{n}.rs"},
	{"rust", "valgrind --tool=massif --massif-out-file=/tmp/massif.{n} target/release/{crate} {verb} --limit {m}000"},
	{"rust", "cargo insta test -p {crate} --review -- {fn} --test-threads={m}"},

	{"java", "jstat -gcutil $(pgrep -f {module}) {m}000 {n}"},
	{"java", "asprof -e alloc -d {m}0 -f /tmp/{noun}-{n}.html $(pgrep -f {module})"},
	{"java", "mvn -Dtest={cls}#{fn} -Dmaven.surefire.debug='-agentlib:jdwp=transport=dt_socket,server=y,suspend=y,address={n}' test"},
	{"java", "./gradlew -q dependencyInsight --dependency jackson-databind --configuration runtimeClasspath -Pbuild={n}"},

	{"ops", "helm rollback {host} {m} -n {noun} --wait --timeout 5m --history-max {n}"},
	{"ops", "aws logs tail /ecs/{host} --since {m}h --filter-pattern '\"{noun} {n}\"' --format short"},
	{"ops", "tcpdump -i any -nn -c {n} 'port 5432 and host {host}' -w /tmp/{noun}-{m}.pcap"},
	{"ops", "strace -f -tt -e trace=network -p $(pgrep -f {host} | head -1) -o /tmp/{noun}-{n}.strace"},
}

// blindThink is thinking (never a probe). Keys: {path}, {thing}.
var blindThink = []string{
	"Wait — is {thing} ever reset? {path} would show it.",
	"Not convinced yet. What writes {thing}? Probably something in {path}.",
	"Two suspects: {thing} itself, or the caller in {path}.",
	"Too early to edit. Skim {path}, note where {thing} is copied.",
}

// blindDecisions are decisions as agents and people word them, terse to
// long, in lists, in Markdown blocks and in review replies: {x} is chosen
// over {y} for {c}, because {why}; some adopt a rule for the rest of the
// work.
var blindDecisions = []string{
	"{c}: {x}. Not {y} — {why}.",
	"**Decision:** {x} for {c}.\n**Rejected:** {y} ({why}).",
	"## Decision\n\nUse {x} for {c}. We considered {y} and turned it down: {why}.",
	"- chosen: {x} ({c})\n- turned down: {y}, because {why}",
	"Two options for {c}: {x} or {y}. Taking {x}, since {why}.",
	"From here on, {c} uses {x} and nothing new goes through {y}: {why}.",
	"Rule for the rest of this change: {x} in {c}, never {y}. Reason: {why}.",
	"I'll stop going back and forth: {x} for {c}; {y} loses because {why}.",
	"{y} would be more familiar to the team, but {why}; {c} gets {x}.",
	"OK, {x}. Not doing {y} for {c} — {why}.",
	"Resolved: {c} goes with {x}; dropping {y} ({why}).",
	"I'm keeping {y} out of {c} and using {x} instead, because {why}.",
	"{x} is what {c} needs; {y} doesn't hold up because {why}.",
	"Trade-off accepted: {x} for {c}, even though {y} would be less code — {why}.",
	"Verdict on {c}: {x}. Reason {y} is out: {why}.",
	"I'll commit to {x} for {c} and won't revisit {y}; {why}.",
	"To settle {c}: {x}, with {y} explicitly off the list since {why}.",
	"Picking {x} for {c}. Why not {y}? Because {why}.",
	"To the review question: we keep {x} in {c} instead of moving to {y}, because {why}.",
	"Every code path in {c} now goes through {x}; {y} is being phased out because {why}.",
	"Chose {x} for {c} (vs. {y}): {why}.",
	"Approach: {x}. Alternative considered: {y}. Turned down because {why}. Scope: {c}.",
	"Locking this in: {c} uses {x} from now on; {y} is not an option because {why}.",
	"Short version: {x}, not {y}, for {c} — {why}.",
}

// blindUserDecisions are decisions as the user words them, choosing one
// of the alternatives for the agent in one line. Keys as blindDecisions.
// They are the blind half's own (see TestBlindUserDecisions): only the
// user-decision form draws them.
var blindUserDecisions = []string{
	"Let's do {x} for {c}; {y} is a no-go since {why}.",
	"Go with {x} in {c}, please, not {y} — {why}.",
	"My vote is {x} for {c}; skip {y} because {why}.",
	"Use {x}. I don't want {y} in {c}: {why}.",
}

// blindConstraints are rules the user sets. Keys: {pkgkind} {pkg}, {dir},
// {file}, {dep}, {ver}, {env}, {api}, {cmd}.
var blindConstraints = []string{
	"{pkgkind} {pkg} is consumed by other repos, so its exported signatures stay frozen.",
	"Nobody but the infra team edits {dir}; leave it alone.",
	"{file} is off-limits for this task.",
	"No additions to the dependency manifest, and {dep} in particular is banned.",
	"Must still build and pass on {ver}.",
	"Read-only or not, you are not to connect to {env}.",
	"{dir} is regenerated by a script on every build; hand edits there get lost, so don't make any.",
	"Clients parse {api} strictly, so its field names and types stay exactly as they are.",
	"`{cmd}` must be green before you say you're finished.",
	"Treat {dep} as deprecated: new code must not import it.",
	"Scope is {dir} only. Anything else needs my sign-off first.",
	"Do not reformat {file}; any diff there breaks the release checksum.",
	"No force-pushes and no history rewrites on shared branches.",
	"Renaming public identifiers in {pkgkind} {pkg} is not allowed in this change.",
	"Hard rule: no schema migrations in this PR.",
	"Do not add retries or sleeps to the tests to make them pass.",
	"Keep the diff under 200 lines; split anything bigger into a follow-up.",
}

// blindPlans are plans that are not decisions, some naming alternatives
// still open. Keys: {topic}, {thing}, {path}.
var blindPlans = []string{
	"I could try {thing} or the {topic} code next; not sure yet which.",
	"Either {path} or the {topic} tests could explain this, so both get a look.",
	"Might be worth comparing {thing} with how {topic} does it.",
	"Next: skim {path}, then maybe the {topic} fixtures.",
	"Before changing anything I want to see how {thing} is built.",
	"One option is to start from {path}; another is to bisect. I'll pick after reading.",
	"May need to look at {topic} as well, depending on what {path} shows.",
	"Still open: whether {thing} or {topic} is the better place to dig.",
	"First I'll list everything that touches {thing}.",
	"Possibly {topic}, possibly {path}; more reading needed.",
	"I'll skim {path} and return to this afterwards.",
	"Unclear whether {thing} matters here; {path} should tell.",
	"Queueing up {path} to read after this run.",
}

var blindTasks = []string{
	"Incident follow-up: {proj} {issue}. Find out why and patch it; a test that pins the behaviour would be good.",
	"{proj} {issue}, reported by two customers this week. Could you find the cause and fix it?",
	"Hi! {proj} {issue}. I'd like this fixed today if possible, regression test included.",
}

var blindAsks = []string{
	"Cool. Different bug now: {comp} {issue}.",
	"Thanks, merged. Also, {comp} {issue}; can you check?",
	"Good stuff. QA found that {comp} {issue}.",
	"Next one from the backlog: {comp} {issue}.",
}

var blindAskIssues = []string{
	"stops processing after a config reload",
	"returns 500 for requests without a locale",
	"reports negative durations now and then",
	"gets slower every hour until it is restarted",
}

var blindUserPath = []string{
	"Pasting from the incident doc: the regression came in with changes to {path}.",
	"FYI {path} was rewritten last sprint, might be related.",
	"My money is on {path}.",
}

var blindUserCommand = []string{
	"The repro from the bug report:\n```\n{cmd}\n```",
	"Try `{cmd}`; that's what fails for me.",
	"Copied from the Slack thread: {cmd}",
}

var blindUserID = []string{
	"Reference from the incident channel: {id}.",
	"Ops flagged {id} as the first bad one.",
	"Please put {id} in the PR title.",
}

var blindUserError = []string{
	"Pasted from #alerts:\n```\n{err}\n```",
	"Customer-facing logs say: {err}",
	"This is what the Grafana log panel shows: {err}",
}

var blindProseCommand = []string{
	"Minimal repro, for the PR description: `{cmd}`.",
	"Reproduced locally with {cmd} (fails on main).",
	"Command I used to trigger it: {cmd}",
}

var blindProsePath = []string{
	"Narrowed it down to {path}.",
	"The offending code is in {path}, about halfway down.",
	"Everything points at `{path}`.",
}

var blindProseID = []string{
	"Tagging {id} here for traceability.",
	"Same root cause as {id}.",
	"{id} should be closed by this.",
}

var blindClose = []string{
	"Wrap-up:\n- {comp}: root cause found and fixed\n- full suite green ({n} tests)",
	"Result\n- {comp} behaves again\n- {n} tests run, 0 failures",
}
