package corpus

// The practice half: entries for the probe-bearing tables written after
// the reserve half and like it, from how real runtimes, libraries,
// command-line tools, build systems, brokers, data stores, CI servers,
// people and coding agents print and word things, without looking at the
// extractors. Its tools, libraries, ecosystems and wordings are ones the
// seven other halves do not use. Unlike the sealed, holdout and reserve
// halves it is a tuning half: its misses may be read and the extractors
// adjusted to them. The forms that plant probes in the practice half are
// in practice_forms.go.
//
// A table that gets no practice entries here (harnesses, projects, agent
// styles) falls back to its report half in practice sessions: see
// split.of.

func init() {
	rareErrors.with(Practice, practiceErrors)
	rareCommands.with(Practice, practiceCommands)
	thinkForms.with(Practice, practiceThink)
	decisionForms.with(Practice, practiceDecisions)
	constraintForms.with(Practice, practiceConstraints)
	planForms.with(Practice, practicePlans)
	taskForms.with(Practice, practiceTasks)
	askForms.with(Practice, practiceAsks)
	askIssues.with(Practice, practiceAskIssues)
	userPathForms.with(Practice, practiceUserPath)
	userCommandForms.with(Practice, practiceUserCommand)
	userIDForms.with(Practice, practiceUserID)
	userErrorForms.with(Practice, practiceUserError)
	proseCommandForms.with(Practice, practiceProseCommand)
	prosePathForms.with(Practice, practiceProsePath)
	proseIDForms.with(Practice, practiceProseID)
	closeForms.with(Practice, practiceClose)
	forms.with(Practice, practiceForms)
}

// practiceErrors are error messages as the runtimes, libraries and tools
// print them, with the keys of rareErrors: go-sql-driver/mysql, minio-go,
// goose, urfave/cli, the runtime's deadlock check, net/http's client and
// the OpenTelemetry exporter in Go; Pydantic v2, PyArrow, Pillow,
// paramiko, APScheduler, concurrent.futures and pandas in Python; Knex,
// Fastify, NestJS, node-postgres, Puppeteer, esbuild and Node's listener
// in TypeScript; the stack guard, the allocator, tracing-subscriber,
// Tokio's runtime, the toml crate, ureq and the image crate in Rust;
// Micronaut, CDI, jOOQ, Apache HttpClient 5, Gson, Hazelcast and
// kotlinx.serialization on the JVM; OpenResty's Lua, Elixir's GenServer,
// Dart, Clojure, Perl's DBD::Pg, Composer, Ruby, Varnish, ZFS, Podman,
// Julia and OCaml in ops logs. psql templates are what follows "ERROR:  ",
// mysql templates the client's whole line, tf templates what follows
// "Error: " (the Linode, Scaleway, Oracle Cloud, MongoDB Atlas and Okta
// providers).
var practiceErrors = []langTmpl{
	{"go", "Error 1040 (08004): Too many connections (pool {noun}-rw, {n} open)"},
	{"go", "Access Denied. (bucket {noun}-exports, object {noun}/{n}.parquet)"},
	{"go", "goose run: ERROR {n}_{verb}_{noun}.sql: failed to run SQL migration: failed to execute SQL query \"CREATE TYPE {noun}_kind AS ENUM ('a', 'b')\": ERROR: type \"{noun}_kind\" already exists (SQLSTATE 42710)"},
	{"go", "Required flag \"{noun}-id\" not set (invocation {n})"},
	{"go", "fatal error: all goroutines are asleep - deadlock! ({verb} loop, {n} {noun}s pending)"},
	{"go", "Get \"http://{host}:8080/v1/{noun}s/{n}\": net/http: request canceled (Client.Timeout exceeded while awaiting headers)"},
	{"go", "traces export: context deadline exceeded: rpc error: code = Unavailable desc = name resolver error: produced zero addresses (collector {host}-otel-{m})"},

	{"python", "pydantic_core._pydantic_core.ValidationError: 1 validation error for {type} {col}: Input should be a valid integer, unable to parse string as an integer [type=int_parsing, input_value='{noun}-{n}', input_type=str]"},
	{"python", "pyarrow.lib.ArrowInvalid: Could not convert '{noun}-{n}' with type str: tried to convert to int64 (column {col})"},
	{"python", "PIL.UnidentifiedImageError: cannot identify image file '/tmp/{noun}-{n}.png'"},
	{"python", "paramiko.ssh_exception.NoValidConnectionsError: [Errno None] Unable to connect to port 22 on 10.0.{i}.{j} ({host}, attempt {m})"},
	{"python", "apscheduler.jobstores.base.ConflictingIdError: 'Job identifier ({verb}_{noun}_{n}) conflicts with an existing job'"},
	{"python", "concurrent.futures.process.BrokenProcessPool: A process in the process pool was terminated abruptly while the future was running or pending. ({noun} shard {n})"},
	{"python", "ValueError: You are trying to merge on object and int64 columns for key '{col}_{m}'. If you wish to proceed you should use pd.concat"},

	{"ts", "KnexTimeoutError: Knex: Timeout acquiring a connection. The pool is probably full. Are you missing a .transacting(trx) call? ({noun} {n})"},
	{"ts", "FastifyError [FST_ERR_CTP_BODY_TOO_LARGE]: Request body is too large (POST /api/{noun}s, {n} bytes)"},
	{"ts", "Error: Nest can't resolve dependencies of the {type}Service (?, ConfigService). Please make sure that the argument {type}Repository at index [0] is available in the {type}Module context."},
	{"ts", "Error: Connection terminated unexpectedly (pg pool {host}, client {n})"},
	{"ts", "TimeoutError: Navigation timeout of 30000 ms exceeded (rendering /{noun}s/{n}.pdf)"},
	{"ts", "✘ [ERROR] Could not resolve \"@{noun}/sdk-v{m}\" (imported by src/{noun}/{verb}{n}.ts)"},
	{"ts", "Error: listen EADDRINUSE: address already in use :::{n}"},

	{"rust", "thread '{noun}-worker-{m}' has overflowed its stack (request {n})"},
	{"rust", "memory allocation of {n}000000 bytes failed"},
	{"rust", "failed to set global default subscriber: SetGlobalDefaultError(\"a global default trace dispatcher has already been set\") ({crate} init {n})"},
	{"rust", "Cannot drop a runtime in a context where blocking is not allowed. This happens when a runtime is dropped from within an asynchronous context. ({noun} client {n})"},
	{"rust", "TOML parse error at line {i}, column {m}: invalid type: string \"{noun}-{n}\", expected u32 for key `{noun}.{col}`"},
	{"rust", "http://{host}:{n}/v1/{noun}s: status code 502"},
	{"rust", "Format error decoding Png: Invalid PNG signature. ({noun}-{n}.png)"},

	{"java", "io.micronaut.context.exceptions.NoSuchBeanException: No bean of type [{pkg}.{type}Client] exists. Make sure the bean is not disabled by bean requirements ({n})"},
	{"java", "jakarta.enterprise.inject.UnsatisfiedResolutionException: Unsatisfied dependency for type {pkg}.{type}Gateway and qualifiers [@Default] ({n})"},
	{"java", "org.jooq.exception.TooManyRowsException: Cursor returned more than one result ({type} {n})"},
	{"java", "org.apache.hc.client5.http.HttpHostConnectException: Connect to http://{host}:8080 [{host}/10.0.{i}.{j}] failed: Connection refused ({noun} {n})"},
	{"java", "com.google.gson.JsonSyntaxException: java.lang.IllegalStateException: Expected BEGIN_OBJECT but was STRING at line 1 column {i} path $.{col}[{n}]"},
	{"java", "com.hazelcast.core.HazelcastInstanceNotActiveException: Hazelcast instance is not active! ({noun} map {n})"},
	{"java", "kotlinx.serialization.MissingFieldException: Field '{col}' is required for type with serial name '{pkg}.{type}', but it was missing at path: $.{noun}s[{m}] ({n})"},

	{"ops", "[error] 31#31: *{n} lua entry thread aborted: runtime error: /etc/nginx/lua/{noun}.lua:{i}: attempt to index a nil value (local '{col}')"},
	{"ops", "** (exit) exited in: GenServer.call(:{noun}_registry, :flush, 5000) ** (EXIT) time out (node {host}, pid {n})"},
	{"ops", "Unhandled exception: Bad state: Cannot add new events after calling close ({noun} stream {n})"},
	{"ops", "Execution error (ArityException) at {noun}.core/{verb}-{noun} (core.clj:{i}). Wrong number of args ({m}) passed to: {noun}.core/{verb}"},
	{"ops", "DBD::Pg::st execute failed: ERROR:  canceling statement due to lock timeout at /opt/{host}/lib/{noun}_{verb}.pm line {i}. ({n})"},
	{"ops", "Problem 1 - Root composer.json requires northwind/{noun}-sdk ^{m}.0, found northwind/{noun}-sdk[1.0.0, ..., 1.{i}.0] but it does not match the constraint."},
	{"ops", "undefined method '{verb}' for nil (NoMethodError) in {noun}_{verb}_job.rb:{i} (jid {n})"},
	{"ops", "FetchError      backend {host}_{noun}: fail errno 111 (Connection refused) (vxid {n})"},
	{"ops", "cannot open '{noun}pool/{host}-{n}': dataset does not exist"},
	{"ops", "Error: short-name \"{noun}-worker:{m}.{j}\" did not resolve to an alias and no unqualified-search registries are defined in \"/etc/containers/registries.conf\""},
	{"ops", "ERROR: LoadError: MethodError: no method matching {verb}_{noun}(::String) in expression starting at /opt/{host}/jobs/{noun}.jl:{i}"},
	{"ops", "Fatal error: exception Not_found raised at {verb}_{noun} in file \"{noun}.ml\", line {i}, characters {m}-{i}"},

	{"psql", "column reference \"{col}\" is ambiguous"},
	{"psql", "permission denied for sequence {table}_id_seq"},
	{"psql", "operator does not exist: {noun}_kind = integer"},
	{"psql", "value \"{n}00000000\" is out of range for type integer"},
	{"psql", "cannot insert a non-DEFAULT value into column \"{col}_{m}\""},
	{"psql", "index \"{table}_{col}_idx\" contains unexpected zero page at block {n}"},
	{"mysql", "ERROR 1093 (HY000) at line {i}: You can't specify target table '{table}' for update in FROM clause"},
	{"mysql", "ERROR 1049 (42000): Unknown database 'app_{noun}_{m}'"},
	{"mysql", "ERROR 1091 (42000) at line {i}: Can't DROP '{col}_{m}'; check that column/key exists"},
	{"mysql", "ERROR 1060 (42S21) at line {i}: Duplicate column name '{col}_{m}'"},
	{"mysql", "ERROR 1242 (21000) at line {i}: Subquery returns more than 1 row"},
	{"mysql", "ERROR 1153 (08S01) at line {i}: Got a packet bigger than 'max_allowed_packet' bytes"},
	{"tf", "Error creating a Linode Instance: [400] [type] A valid plan type by that ID was not found ({host}-{noun}-{n})"},
	{"tf", "scaleway-sdk-go: quota exceeded(s): instances_servers_quota: 10 (current: 10) creating server {noun}-{n}"},
	{"tf", "400-LimitExceeded, The following service limits were exceeded: standard-e4-core-count. Request a service limit increase from the service limits page in the console. Opc request id: {n}a{m}b"},
	{"tf", "error creating MongoDB Cluster ({noun}-{n}): POST https://cloud.mongodb.com/api/atlas/v2/groups/{m}f{n}/clusters: 409 (request \"DUPLICATE_CLUSTER_NAME\") A cluster named {noun}-{n} is already defined in group {m}f{n}."},
	{"tf", "failed to create group rule: the API returned an error: Api validation failed: name. Causes: errorSummary: name: An object with this field already exists in the current organization ({host}-{noun}-{n})"},
}

// practiceCommands are commands run once while debugging, with the keys of
// rareCommands. None holds a '#': the practice forms embed them in a
// Procfile, a YAML block and CI scripts.
var practiceCommands = []langTmpl{
	{"go", "go test -run '^{test}$' -count=1 -json ./{dir}/ | tparse -all -slow {m}"},
	{"go", "go tool nm -size -sort size ./bin/{host} | head -n {m}0"},
	{"go", "GOEXPERIMENT=loopvar go test -run '^{test}$' -count={m} ./{dir}/"},
	{"go", "go list -m -u -json all | jq -r 'select(.Update) | .Path + \" \" + .Update.Version' | head -n {m}0"},
	{"go", "go test -c -o /tmp/{noun}.test ./{dir}/ && /tmp/{noun}.test -test.run '^{test}$' -test.count={m} -test.v"},

	{"python", "python -m trace --count -C /tmp/trace-{n} --missing -m {module}.{verb}_{noun}"},
	{"python", "austin -i 100 -o /tmp/{noun}-{n}.austin python -m {module}.{verb}_{noun} --limit {n}"},
	{"python", "hatch run test:cov -- {tfile} -k '{test}' -x"},
	{"python", "poetry show --tree --only main | grep -B1 -A{m} {noun}"},
	{"python", "pytest {tfile}::{test} --pdbcls=IPython.terminal.debugger:TerminalPdb --trace"},

	{"ts", "npx ts-prune -p tsconfig.json -i 'src/{noun}' | head -n {m}0"},
	{"ts", "npx mocha --require ts-node/register --grep '{phrase}' --timeout {n} test/{noun}.spec.ts"},
	{"ts", "yarn why {noun}-kit --recursive"},
	{"ts", "npx nx affected -t test --base=origin/main --parallel={m} --exclude='*-e2e'"},
	{"ts", "node --report-on-fatalerror --report-directory=/tmp/report-{n} dist/{noun}.js"},

	{"rust", "cargo bloat --release -p {crate} --crates -n {m}0"},
	{"rust", "cargo llvm-lines -p {crate} --lib --sort lines | head -n {m}0"},
	{"rust", "cargo +nightly careful test -p {crate} {fn} -- --exact"},
	{"rust", "cargo outdated -R -p {crate} --depth {m}"},
	{"rust", "cargo test -p {crate} --doc {noun} -- --show-output"},

	{"java", "mvn -pl {module} com.github.spotbugs:spotbugs-maven-plugin:check -Dspotbugs.onlyAnalyze={pkg}.{cls}"},
	{"java", "jdeprscan --release 17 --for-removal target/{module}-{m}.jar"},
	{"java", "mvn -pl {module} enforcer:enforce -Drules=dependencyConvergence -Drevision={m}.{n}"},
	{"java", "pmd check -d src/main/java -R category/java/errorprone.xml -f text | grep {cls}"},
	{"java", "java -Xlog:class+load=info -cp target/classes {pkg}.{cls} | grep -c {noun}"},

	{"ops", "sudo lsof -nP -p $(pgrep -f {host} | head -1) | wc -l"},
	{"ops", "sudo conntrack -L -p tcp --dport 5432 -s 10.0.{i}.{j} | wc -l"},
	{"ops", "sudo tc -s qdisc show dev ens{m}"},
	{"ops", "chronyc -n tracking && chronyc -n sources -v | head -n {m}0"},
	{"ops", "sudo smem -t -k -P {host}"},
}

// practiceThink is thinking (never a probe). Keys: {path}, {thing}.
var practiceThink = []string{
	"Stare at {path} a little longer; {thing} doesn't add up yet.",
	"Is {thing} even initialised on this path? {path} knows.",
	"Rule something out first: {thing}, by way of {path}.",
	"{path} reads fine at a glance. Whatever is wrong with {thing} is subtler.",
}

// practiceDecisions are decisions in the wordings of coding agents and
// the people they work with: "settled on", a plan of record, sticking
// with, a spike's outcome, a tiebreaker, consensus, a pin, a rule for the
// branch, a diff-style list, a question and its answer, an HTML details
// block. {x} is chosen over {y} for {c}, because {why}.
var practiceDecisions = []string{
	"{x} gets the nod for {c}; {y} doesn't, as {why}.",
	"The plan of record for {c} is {x}; {y} was considered and shelved because {why}.",
	"Sticking with {x} in {c} rather than switching to {y}; {why}.",
	"Preference for {c}: {x}, comfortably ahead of {y}, since {why}.",
	"Bottom line for {c}: {x}; {y} only looked cheaper, because {why}.",
	"Outcome of the spike on {c}: {x} stays, {y} goes, because {why}.",
	"I ran the numbers on {c} and {x} it is; {y} fell over because {why}.",
	"Call made on {c}: {x}. Reason for passing on {y}: {why}.",
	"{c} will be done with {x}, and {y} stays on the shelf: {why}.",
	"Adopting {x} for {c} from this commit on; new code must not reach for {y}, because {why}.",
	"Until someone proves otherwise, {c} runs on {x}; {y} breaks down because {why}.",
	"Tiebreaker for {c}: {why}, which favours {x} over {y}.",
	"We'll run with {x} in {c}; as for {y}, no: {why}.",
	"Nailing this down: {c} uses {x}; {y} would have been tempting, but {why}.",
	"Consensus on {c}: {x}. Nobody defended {y} once we saw that {why}.",
	"Pinning {c} to {x}; {y} is not coming back, given that {why}.",
	"My choice for {c} is {x}, and it isn't close: {y} fails since {why}.",
	"Ended up with {x} for {c} after trying {y} first; {why}.",
	"What ships for {c}: {x}. What doesn't: {y} ({why}).",
	"Confirmed: {x} in {c}. I dropped {y} after seeing that {why}.",
	"Standing instruction while this branch is open: {c} goes through {x} and only {x}; {y} would bring the problem back, since {why}.",
	"Let's call it: {x} for {c}; {y} got a fair hearing, but {why}.",
	"After sleeping on it, {x} for {c}; {y} doesn't survive the fact that {why}.",
	"{c}\n+ {x}: what we use from now on\n- {y}: dropped, {why}",
	"Q: {x} or {y} for {c}?\nA: {x}, because {why}; that sinks {y}.",
	"<details><summary>Decision: {x} for {c}</summary>\n\nRuled out: {y}, because {why}.\n</details>",
}

// practiceUserDecisions are decisions as the user words them in a reply
// choosing one of the alternatives. Keys as practiceDecisions. Only the
// user-reply decision form draws them, so they are in no table.
var practiceUserDecisions = []string{
	"Fine by me: {x} for {c}, not {y}, {why}.",
	"Product sign-off: {x} for {c}; {y} is not approved, {why}.",
	"Just use {x} for {c} and spare me {y}; {why}.",
	"Approved: {x} for {c}. Reject {y}, {why}.",
	"Put {x} into {c} and keep {y} away from it: {why}.",
}

// practiceConstraints are rules the user sets. Keys: {pkgkind} {pkg},
// {dir}, {file}, {dep}, {ver}, {env}, {api}, {cmd}.
var practiceConstraints = []string{
	"The public API of {pkgkind} {pkg} is under a compatibility promise; breaking it is not on the table.",
	"{dir} is owned by another squad; consider it locked.",
	"Whatever else you change, {file} keeps its current contents.",
	"No new entries in the dependency list; {dep} was already turned down in review.",
	"Support for {ver} stays; some customers are pinned to it.",
	"{env} is strictly hands-off: no queries, no deploys, no port-forwards.",
	"Files under {dir} come out of codegen; change the generator's input, never its output.",
	"The schema of {api} is versioned, and this change does not get a new version.",
	"Green `{cmd}` or it doesn't ship.",
	"We're sunsetting {dep}; every new call site makes that harder, so add none.",
	"The blast radius is {dir}; anything outside it waits for another change.",
	"{file} is parsed by a vendor tool that chokes on any diff, so it stays untouched.",
	"Keep history intact: no amending pushed commits, no rebasing shared branches, no force push.",
	"Names exported by {pkgkind} {pkg} are part of the contract; keep every one of them.",
	"This change ships without schema changes of any kind.",
	"Do not weaken any assertion to get the suite passing.",
	"{ver} remains in the support matrix; no dropping it to simplify things.",
	"Keep secrets out of logs, fixtures and test output, even ones that look fake.",
	"Stay within the existing error types of {pkgkind} {pkg}; introduce no new ones.",
}

// practicePlans are plans that are not decisions, some naming
// alternatives still open. Keys: {topic}, {thing}, {path}.
var practicePlans = []string{
	"Noting {thing} as a lead; not chasing it yet.",
	"If {path} comes up empty, the {topic} side is next.",
	"Unsure whether {thing} or {topic} is the real culprit; collecting more output.",
	"Queue: {path}, then a look at how {thing} gets its inputs.",
	"The {topic} theory stays on the list for now.",
	"Would like a cleaner repro before touching {path}.",
	"Could bisect, could read {path} first; leaning nowhere yet.",
	"{thing} might be a red herring. Keeping it in view.",
	"A second pass over {path} may be needed once the logs are in.",
	"Haven't decided whether {topic} is worth instrumenting.",
	"Keeping an open mind on {thing} vs. the {topic} config.",
	"Later, maybe: check whether {thing} has other writers besides {path}.",
	"Either the {topic} path or {path} is stale; to be confirmed.",
	"Saving {path} for after the next run.",
}

var practiceTasks = []string{
	"{proj} {issue}. Our canary caught it; we need a root cause, a fix, and a test that pins it.",
	"Assigning you {proj}: it {issue}. Please fix it and leave a regression test behind.",
	"Triage result for {proj}: it {issue}. Please own the fix, and prove it with a test.",
}

var practiceAsks = []string{
	"Shipped. Another from the same reporter: {comp} {issue}.",
	"Checks out here too. Now, {comp} {issue}.",
	"Looks good from here. A fresh complaint: {comp} {issue}.",
	"That one's closed. Our SRE noticed {comp} {issue}.",
}

var practiceAskIssues = []string{
	"creates a metrics label per user id",
	"rejects uploads just over one megabyte",
	"returns results in a different order on every call",
	"breaks when the clock jumps back an hour",
}

var practiceUserPath = []string{
	"Someone on my team swears {path} is involved.",
	"Check {path}; the bug report's screenshot shows that module.",
	"{path} changed in the release where this started.",
}

var practiceUserCommand = []string{
	"Here's the invocation that breaks:\n\n```bash\n{cmd}\n```",
	"It passes in CI but fails locally with `{cmd}`.",
	"If it helps, {cmd} shows the problem within a minute.",
}

var practiceUserID = []string{
	"The message in question is {id}.",
	"Filter the provider's dashboard on {id}.",
	"Please note {id} in the changelog entry.",
}

var practiceUserError = []string{
	"The Rollbar digest this morning led with: {err}",
	"Our synthetic monitor keeps reporting `{err}`",
	"From the mobile team's bug report:\n\n~~~\n{err}\n~~~",
}

var practiceProseCommand = []string{
	"The failing invocation is {cmd}",
	"Reproducer: `{cmd}` (red on main, green with the fix).",
	"Anyone can see it with {cmd}",
}

var practiceProsePath = []string{
	"The wrong assumption was made in {path}.",
	"Found it in `{path}`: an off-by-one at the boundary.",
	"{path} needs the change.",
}

var practiceProseID = []string{
	"Upstream review: {id}.",
	"There's an open upstream change for this: {id}.",
	"Borrowing the approach from {id}.",
}

var practiceClose = []string{
	"Closing out\n• {comp}: behaves now, with a test guarding it\n• suite at {n}, nothing red",
	"Done and dusted: {comp} fixed, test added, {n} passing.",
}
