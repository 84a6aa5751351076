package corpus

// The reserve half: entries for the probe-bearing tables written after the
// holdout half and like it, from how real runtimes, libraries, command-line
// tools, schedulers, data stores, CI servers, people and coding agents
// print and word things, without looking at the extractors. Its tools,
// libraries, ecosystems and wordings are ones the six other halves do not
// use. The forms that plant probes in the reserve half are in
// reserve_forms.go.
//
// A table that gets no reserve entries here (harnesses, projects, agent
// styles) falls back to its report half in reserve sessions: see split.of.

func init() {
	rareErrors.with(Reserve, reserveErrors)
	rareCommands.with(Reserve, reserveCommands)
	thinkForms.with(Reserve, reserveThink)
	decisionForms.with(Reserve, reserveDecisions)
	constraintForms.with(Reserve, reserveConstraints)
	planForms.with(Reserve, reservePlans)
	taskForms.with(Reserve, reserveTasks)
	askForms.with(Reserve, reserveAsks)
	askIssues.with(Reserve, reserveAskIssues)
	userPathForms.with(Reserve, reserveUserPath)
	userCommandForms.with(Reserve, reserveUserCommand)
	userIDForms.with(Reserve, reserveUserID)
	userErrorForms.with(Reserve, reserveUserError)
	proseCommandForms.with(Reserve, reserveProseCommand)
	prosePathForms.with(Reserve, reserveProsePath)
	proseIDForms.with(Reserve, reserveProseID)
	closeForms.with(Reserve, reserveClose)
	forms.with(Reserve, reserveForms)
}

// reserveErrors are error messages as the runtimes, libraries and tools
// print them, with the keys of rareErrors: go-playground/validator, the
// runtime's map checks, GORM's logger, bbolt, Consul's API and
// html/template in Go; numpy, PyTorch, aiohttp, RQ, psycopg 3, lxml and
// polars in Python; Joi, Sequelize, BullMQ, Vite, worker threads and ws in
// TypeScript; prost, deadpool, channels, rename across devices, clap and
// wasmtime in Rust; Vert.x, Quartz, Apache Camel, Flink, Ktor and Lettuce
// on the JVM; HAProxy, Traefik, Packer, Puppet, LVM, ext4, Akka, C++ and
// Haskell in ops logs. psql templates are what follows "ERROR:  ", mysql
// templates the client's whole line, tf templates what follows OpenTofu's
// "Error: " (the Hetzner Cloud, DigitalOcean, Fastly, Snowflake and Auth0
// providers).
var reserveErrors = []langTmpl{
	{"go", "Key: '{type}.{col}' Error:Field validation for '{col}' failed on the 'required' tag (batch {n})"},
	{"go", "fatal error: concurrent map writes (goroutine {n} in {fn})"},
	{"go", "/app/internal/{noun}/repo.go:{i} record not found [{m}.{n}ms] [rows:0] SELECT * FROM \"{table}\" WHERE \"{table}\".\"id\" = {n} LIMIT 1"},
	{"go", "bolt.Open /var/lib/{host}/{noun}-{n}.db: timeout"},
	{"go", "Unexpected response code: 500 (rpc error making call: No cluster leader) reading {noun}/{host}/config-{m}"},
	{"go", "template: {noun}.html:{i}:{m}: executing \"{noun}.html\" at <.{type}.{col}>: nil pointer evaluating *{type}.{col} (render {n})"},

	{"python", "numpy.core._exceptions._ArrayMemoryError: Unable to allocate {m}{j}.{j}{m} GiB for an array with shape ({n}, {i}) and data type float64"},
	{"python", "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate {m}.{j}0 GiB (GPU 0; 22.19 GiB total capacity; 19.{i} GiB already allocated; {noun} batch {n})"},
	{"python", "aiohttp.client_exceptions.ClientConnectorError: Cannot connect to host {host}.internal:443 ssl:default [Connect call failed ('10.0.{i}.{j}', 443)] ({noun} {n})"},
	{"python", "rq.timeouts.JobTimeoutException: Task exceeded maximum timeout value ({m}80 seconds) in {module}.jobs.{verb}_{noun} ({n})"},
	{"python", "psycopg.errors.QueryCanceled: canceling statement due to statement timeout (CONTEXT: {verb} {table} batch {n})"},
	{"python", "lxml.etree.XMLSyntaxError: Opening and ending tag mismatch: {noun} line {i} and {col}, line {n}, column {m}"},
	{"python", "polars.exceptions.ColumnNotFoundError: unable to find column \"{col}_{m}\"; valid columns: [\"id\", \"{col}\", \"{noun}_at\"] (frame {n})"},

	{"ts", "ValidationError: \"{col}\" must be a number. \"{noun}Id\" is required (payload {n})"},
	{"ts", "SequelizeConnectionAcquireTimeoutError: Operation timeout while acquiring a connection for {type}.findAll ({n})"},
	{"ts", "Error: Missing lock for job {n}. moveToFinished ({noun}-{verb} queue)"},
	{"ts", "[vite] Internal server error: Failed to resolve import \"@/{noun}/{type}{m}\" from \"src/{noun}/index.ts\". Does the file exist?"},
	{"ts", "Error [ERR_WORKER_OUT_OF_MEMORY]: Worker terminated due to reaching memory limit: JS heap out of memory ({noun} worker {n})"},
	{"ts", "RangeError: Invalid WebSocket frame: invalid status code {n} (connection to {host}:{m}443)"},

	{"rust", "failed to decode Protobuf message: {type}.{col}: invalid wire type: LengthDelimited (expected Varint) at offset {n}"},
	{"rust", "{noun} pool: Timeout occurred while waiting for a slot to become available (waited {m}0s, batch {n})"},
	{"rust", "called `Result::unwrap()` on an `Err` value: SendError { .. } ({noun} channel {n})"},
	{"rust", "failed to persist {noun}-{n}.tmp to /var/lib/{host}/{noun}: Invalid cross-device link (os error 18)"},
	{"rust", "error: unexpected argument '--{noun}-{verb}' found (run {n})"},
	{"rust", "error while executing at wasm backtrace: 0: 0x{m}{n} - {noun}_plugin!{verb}: wasm trap: out of bounds memory access"},

	{"java", "io.vertx.core.impl.NoStackTraceThrowable: Timed out after waiting 30000(ms) for a reply. address: __vertx.reply.{n}, repliedAddress: {noun}.{verb}"},
	{"java", "org.quartz.ObjectAlreadyExistsException: Unable to store Job : '{noun}.{verb}Job{m}', because one already exists with this identification. ({n})"},
	{"java", "org.apache.camel.ExchangeTimedOutException: The OUT message was not received within: 30000 millis due reply message with correlationID: {n} not received on destination: {noun}.{verb}"},
	{"java", "org.apache.flink.runtime.JobException: Recovery is suppressed by NoRestartBackoffTimeStrategy ({noun}-{verb} job, attempt {m}, checkpoint {n})"},
	{"java", "io.ktor.client.plugins.HttpRequestTimeoutException: Request timeout has expired [url=http://{host}:8080/api/{noun}s/{n}, request_timeout=10000 ms]"},
	{"java", "io.lettuce.core.RedisCommandTimeoutException: Command timed out after 1 minute(s) ({noun}:{n})"},

	{"ops", "[ALERT]    (1) : config : parsing [/etc/haproxy/haproxy.cfg:{i}] : unknown keyword '{noun}-{verb}' in 'backend' section ({n})"},
	{"ops", "level=error msg=\"service \\\"{host}-{noun}@kubernetes\\\" error: no available server\" attempt={m} request={n}"},
	{"ops", "Build '{noun}.amazon-ebs.{host}' errored after {m} minutes {i} seconds: Timeout waiting for SSH (image {n})"},
	{"ops", "Error: Could not retrieve catalog from remote server: Error 500 on SERVER: Server Error: Evaluation Error: Unknown variable: '{noun}_{verb}_{m}' (file: /etc/puppetlabs/code/environments/production/manifests/{host}.pp, line: {i})"},
	{"ops", "Insufficient free space: {n} extents needed, but only {i}{m} available (volume group vg_{noun})"},
	{"ops", "EXT4-fs error (device nvme1n1): ext4_find_entry:1455: inode #{n}: comm {host}: reading directory lblock {m}"},
	{"ops", "akka.pattern.AskTimeoutException: Ask timed out on [Actor[akka://{host}/user/{noun}#{n}]] after [5000 ms]"},
	{"ops", "terminate called after throwing an instance of 'std::bad_alloc' (in {noun}_{verb} worker {n})"},
	{"ops", "{host}-{noun}: Prelude.head: empty list (request {n})"},

	{"psql", "relation \"{table}_{noun}_{m}\" does not exist"},
	{"psql", "syntax error at or near \"{verb}_{m}\""},
	{"psql", "index row size {n} exceeds btree version 4 maximum 2704 for index \"{table}_{col}_idx\""},
	{"psql", "could not access status of transaction {n}"},
	{"psql", "missing FROM-clause entry for table \"{noun}_{m}\""},
	{"psql", "role \"{noun}_reader_{m}\" does not exist"},
	{"mysql", "ERROR 1064 (42000) at line {i}: You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near '{verb} {table}_{m}' at line 1"},
	{"mysql", "ERROR 1071 (42000) at line {i}: Specified key was too long; max key length is 3072 bytes"},
	{"mysql", "ERROR 1045 (28000): Access denied for user '{noun}_rw'@'10.0.{i}.{j}' (using password: YES)"},
	{"mysql", "ERROR 1290 (HY000) at line {i}: The MySQL server is running with the --read-only option so it cannot execute this statement"},
	{"mysql", "ERROR 1114 (HY000) at line {i}: The table '{table}_{m}' is full"},
	{"tf", "hcloud/createServer: resource_unavailable: error during placement (server {host}-{noun}-{n}, location fsn1)"},
	{"tf", "Error creating droplet: POST https://api.digitalocean.com/v2/droplets: 422 (request \"{n}\") You specified an invalid size for Droplet creation."},
	{"tf", "error activating version {m} of service {host}-{noun}: 400 - Bad Request: Invalid value for backend '{noun}-{n}'"},
	{"tf", "error creating warehouse {noun}_WH_{n}: 002002 (42710): SQL compilation error: Object '{noun}_WH_{n}' already exists."},
	{"tf", "403 Forbidden: Insufficient scope, expected any of: create:clients (client {host}-{noun}-{n})"},
}

// reserveCommands are commands run once while debugging, with the keys of
// rareCommands. None ends in a shell comment: the reserve forms embed
// them in scripts.
var reserveCommands = []langTmpl{
	{"go", "go run golang.org/x/tools/cmd/deadcode@latest -test -filter '{noun}' ./{dir}/..."},
	{"go", "go run golang.org/x/tools/go/analysis/passes/fieldalignment/cmd/fieldalignment@latest ./{dir}/"},
	{"go", "gopls references {dir}/{file}:{i}:{m}"},
	{"go", "go version -m ./bin/{host} | grep -E 'dep|build' | head -n {m}0"},
	{"go", "go test -run '^{test}$' -count=1 -v -timeout {m}m -cpu 1,2,4 ./{dir}/"},

	{"python", "pyinstrument -r html -o /tmp/{noun}-{n}.html -m {module}.{verb}_{noun} --limit {n}"},
	{"python", "pytest -n {m} --dist loadfile {tfile} -k '{test}' --maxfail=1"},
	{"python", "uv run --with ipdb pytest {tfile}::{test} --pdb -x"},
	{"python", "kernprof -l -v -m {module}.{verb}_{noun} --batch {n}"},
	{"python", "uv pip compile requirements.in --upgrade-package {noun} -o /tmp/requirements-{n}.txt"},

	{"ts", "npx depcheck --ignores='@types/*' packages/{noun}"},
	{"ts", "node --test --test-name-pattern='{phrase}' --test-concurrency=1 test/{noun}{m}.test.mjs"},
	{"ts", "npx tsc --traceResolution -p tsconfig.json | grep -n '{noun}' | head -n {m}0"},
	{"ts", "npm ls {noun}-kit --all --omit=dev --workspace packages/{noun}"},
	{"ts", "bun test --timeout {n} --bail test/{noun}.test.ts"},

	{"rust", "cargo +nightly udeps -p {crate} --all-targets --workspace"},
	{"rust", "cargo deny --workspace check bans licenses sources"},
	{"rust", "cargo asm -p {crate} --lib '{crate}::{noun}::{verb}' --rust"},
	{"rust", "cargo semver-checks check-release -p {crate} --baseline-version 0.{m}.0"},
	{"rust", "samply record --rate 4000 target/release/{crate} {verb} --limit {n}"},

	{"java", "mvn -q versions:display-dependency-updates -pl {module} -DprocessDependencyManagement=false"},
	{"java", "jinfo -flags $(pgrep -f {module})"},
	{"java", "mvn -pl {module} org.pitest:pitest-maven:mutationCoverage -DtargetClasses='{pkg}.{cls}*' -Dthreads={m}"},
	{"java", "java -jar jol-cli.jar internals -cp target/classes {pkg}.{cls}"},
	{"java", "./gradlew :{module}:dependencies --configuration testRuntimeClasspath --refresh-dependencies"},

	{"ops", "pgbadger -j {m} --prefix '%t [%p]: ' -o /tmp/pgbadger-{n}.html /var/log/postgresql/postgresql-13-main.log"},
	{"ops", "sar -n TCP,ETCP 1 {m}0"},
	{"ops", "sudo offcputime-bpfcc -p $(pgrep -f {host} | head -1) -f {m}0 > /tmp/offcpu-{n}.folded"},
	{"ops", "sudo ethtool -S ens5 | grep -iE 'drop|exceeded|allowance'"},
	{"ops", "sudo nsenter -t $(pgrep -f {host} | head -1) -n ss -tinp state established '( dport = :{i}{m} )'"},
}

// reserveThink is thinking (never a probe). Keys: {path}, {thing}.
var reserveThink = []string{
	"What if {thing} is fine and the caller is wrong? {path} has the caller.",
	"{path} again. The {thing} branch there looks too clever by half.",
	"Need the exact order of writes to {thing}; {path} should show it.",
	"Slow down. {thing} first, {path} second.",
}

// reserveDecisions are decisions in the wordings of coding agents and
// the people they work with: a runner-up named, a proposal accepted, a
// TL;DR, an arrow, a lettered option list, a quoted block, a decision-log
// entry, a veto, a rule for what remains of the branch. {x} is chosen
// over {y} for {c}, because {why}.
var reserveDecisions = []string{
	"{x} for {c}. The runner-up was {y}; it lost because {why}.",
	"Going forward, {c} is built on {x}, not on {y}, because {why}.",
	"On reflection: {x} in {c}. I'm leaving {y} unmerged since {why}.",
	"Weighed {x} against {y} for {c}; {x} comes out ahead because {why}.",
	"Proposal accepted for {c}: {x}. Counter-proposal ({y}) declined, {why}.",
	"I'd rather not use {y} for {c}: {why}. So, {x}.",
	"ADR-lite. Context: {c}. Choice: {x}. Rejected: {y}. Rationale: {why}.",
	"TL;DR: {x} for {c}, because {why} (so no {y}).",
	"We're locking in {x} for {c}; {y} got vetoed since {why}.",
	"Landing {x} in {c}. Before anyone asks about {y}: {why}.",
	"So: {c} → {x}. {y} ✗ ({why}).",
	"Between {y} and {x} for {c}, the answer is {x}; {why}.",
	"The case for {y} in {c} falls apart because {why}; I'm doing {x}.",
	"Selected {x} as the mechanism for {c}. Reason {y} was passed over: {why}.",
	"Given the constraints, {c} should use {x}. I ruled {y} out early, since {why}.",
	"{c}: moving ahead with {x}; {y} is a dead end here, as {why}.",
	"Not going to fight it: {x} for {c}. {y} reads cleaner, but {why}.",
	"Whatever touches {c} from now on uses {x}; {y} is retired because {why}.",
	"House rule for the remainder of this branch: {c} means {x}, and {y} does not come back ({why}).",
	"I've gone back and forth on {c}, and {x} wins; {y} can't work because {why}.",
	"Final call for {c} is {x}, ruling out {y} because {why}.",
	"Options for {c}\n  a) {x}\n  b) {y}\nPicked (a). (b) fails because {why}.",
	"> Decision ({c})\n> Use {x}. Do not use {y}: {why}.",
	"Decision log entry\n  scope: {c}\n  chosen: {x}\n  rejected: {y}\n  because: {why}",
}

// reserveUserDecisions are decisions as the user words them in a reply
// choosing one of the alternatives. Keys as reserveDecisions. Only the
// user-reply decision form draws them, so they are in no table.
var reserveUserDecisions = []string{
	"Take {x} for {c}; {y} isn't happening, {why}.",
	"I'm choosing {x} for {c}, and {y} is out: {why}.",
	"Decision from my side: {x} in {c}. No {y}, because {why}.",
	"Let's settle it: {x} for {c}, since {y} has bitten us before: {why}.",
	"Prefer {x} for {c}; drop {y}, since {why}.",
}

// reserveConstraints are rules the user sets. Keys: {pkgkind} {pkg},
// {dir}, {file}, {dep}, {ver}, {env}, {api}, {cmd}.
var reserveConstraints = []string{
	"Nothing exported from {pkgkind} {pkg} may change shape; other repos compile against it.",
	"{dir} is frozen while the storage team migrates it; make no edits there.",
	"Treat {file} as read-only.",
	"Adding packages is not allowed here, and {dep} is specifically rejected.",
	"It has to keep working on {ver}; our oldest deployment still runs it.",
	"{env} is production, and you get no access to it, read or write.",
	"Generated code lives in {dir}: regenerate it with the tool or leave it, but never hand-edit it.",
	"Partners integrate against {api}, so its request and response shapes are fixed.",
	"Before you hand this back, `{cmd}` needs to finish with exit code 0.",
	"{dep} is slated for removal; write no new code that depends on it.",
	"Confine the change to {dir}. Edits elsewhere need a separate ticket.",
	"{file} feeds a signed release manifest; not one byte of it changes.",
	"Shared branch history is append-only for you: no rebase, no reset, no force.",
	"Identifiers exported from {pkgkind} {pkg} keep their current names.",
	"No DDL in this change: no new tables, columns or indexes.",
	"A failing test stays failing until it is fixed; marking it skipped or xfail is not allowed.",
	"Dropping {ver} from the supported versions to simplify the fix is not an option.",
}

// reservePlans are plans that are not decisions, some naming alternatives
// still open. Keys: {topic}, {thing}, {path}.
var reservePlans = []string{
	"Parking {thing} for a moment; {path} might explain it.",
	"Two threads to pull: {path} and the {topic} config. Haven't picked one.",
	"Might revisit {topic} after the next test run, or might not need to.",
	"Reading order, tentatively: {path}, then whatever {thing} calls.",
	"No conclusion yet on {thing}; keeping an eye on it.",
	"Either {topic} regressed or {path} always behaved like this; unclear.",
	"Should probably check how {thing} behaves on an empty input too.",
	"Maybe grep for other writers of {thing} afterwards.",
	"I may end up comparing {path} with its previous revision.",
	"The {topic} angle is plausible but unproven.",
	"Holding off on {path} until the failing test is isolated.",
	"Not yet clear if {thing} is cause or symptom.",
	"Could be {topic}, could be timing; more runs will tell.",
}

var reserveTasks = []string{
	"Ticket from the support queue: {proj} {issue}. I need the cause, a fix, and a test that fails without the fix.",
	"{proj} {issue}; it came up in this week's error budget review. Please fix it and back it with a regression test.",
	"Could you own this one end to end? {proj} {issue}. Fix plus a test, please.",
}

var reserveAsks = []string{
	"Verified, thanks. Next: {comp} {issue}.",
	"That's in. Also reported today: {comp} {issue}.",
	"Good. One more while you have context: {comp} {issue}.",
	"Works now. Our QA lead says {comp} {issue}.",
}

var reserveAskIssues = []string{
	"returns stale data for a few seconds after an update",
	"logs the full request body, secrets included",
	"fails only when two requests arrive within the same millisecond",
	"leaves temp files behind after a crash",
}

var reserveUserPath = []string{
	"The profiler's top frame was in {path}, for what it's worth.",
	"I'd start with {path}; that's where the last hotfix went.",
	"The revert candidate is whatever changed in {path} last week.",
}

var reserveUserCommand = []string{
	"What I run locally:\n\n```sh\n{cmd}\n```",
	"`{cmd}` reproduces it on my laptop, roughly every other run.",
	"Our on-call confirmed it with {cmd}",
}

var reserveUserID = []string{
	"The affected account is {id}.",
	"The auth logs show {id} hitting it over and over.",
	"Mention {id} in the fix's description so support can link it.",
}

var reserveUserError = []string{
	"Our uptime checker emailed this: {err}",
	"Straight from the worker's stderr:\n\n```text\n{err}\n```",
	"A customer screenshot shows `{err}`",
}

var reserveProseCommand = []string{
	"Repro recorded: `{cmd}`.",
	"Reliable reproduction: {cmd}",
	"To watch it fail yourself, run {cmd}",
}

var reserveProsePath = []string{
	"The problem sits in {path}.",
	"Root cause is in `{path}`: the empty case isn't handled there.",
	"The fix goes into {path}.",
}

var reserveProseID = []string{
	"Upstream tracks this as {id}.",
	"Possibly related upstream: {id}.",
	"Known issue upstream ({id}); working around it locally.",
}

var reserveClose = []string{
	"Closing notes\n- {comp}: cause found, fixed, regression-tested\n- {n} tests run, all green",
	"All set: {comp} is fixed and has a test; {n} tests pass.",
}
