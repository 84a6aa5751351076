package corpus

// The sealed half: entries for the probe-bearing tables written after the
// blind half and like it, from how real runtimes, drivers, command-line
// tools, people and agents print and word things, without looking at the
// extractors or at the four other halves' entries: other libraries, other
// tools, other ecosystems, other surfaces. The forms that plant probes in
// the sealed half are in sealed_forms.go.
//
// A table that gets no sealed entries here (harnesses, projects, agent
// styles) falls back to its report half in sealed sessions: see split.of.

func init() {
	rareErrors.with(Sealed, sealedErrors)
	rareCommands.with(Sealed, sealedCommands)
	thinkForms.with(Sealed, sealedThink)
	decisionForms.with(Sealed, sealedDecisions)
	constraintForms.with(Sealed, sealedConstraints)
	planForms.with(Sealed, sealedPlans)
	taskForms.with(Sealed, sealedTasks)
	askForms.with(Sealed, sealedAsks)
	askIssues.with(Sealed, sealedAskIssues)
	userPathForms.with(Sealed, sealedUserPath)
	userCommandForms.with(Sealed, sealedUserCommand)
	userIDForms.with(Sealed, sealedUserID)
	userErrorForms.with(Sealed, sealedUserError)
	proseCommandForms.with(Sealed, sealedProseCommand)
	prosePathForms.with(Sealed, sealedProsePath)
	proseIDForms.with(Sealed, sealedProseID)
	closeForms.with(Sealed, sealedClose)
	forms.with(Sealed, sealedForms)
}

// sealedErrors are error messages as the runtimes, drivers and tools print
// them, with the keys of rareErrors: Kafka, etcd, NATS, Vault and MongoDB
// clients in Go; pymongo, pika, Elasticsearch, requests and Jinja in
// Python; Mongoose, KafkaJS, GraphQL, the AWS SDK and Node's ESM loader in
// TypeScript; tonic, rdkafka, rustls, serde_yaml and hyper in Rust; the
// Kafka producer, Hibernate, Resilience4j, Feign and the MongoDB driver on
// the JVM; Ansible, nginx, systemd, OpenSSL, RabbitMQ, Rails, PHP, the
// Kafka tools, Elasticsearch and Nomad in ops logs. psql templates are
// what follows "ERROR:  ", mysql templates the client's whole line, tf
// templates what follows Terraform's "Error: " (the Google, Azure,
// Kubernetes and Cloudflare providers).
var sealedErrors = []langTmpl{
	{"go", "kafka: client has run out of available brokers to talk to: dial tcp 10.0.{i}.{j}:9092: connect: connection refused"},
	{"go", "{noun} watcher {n}: etcdserver: mvcc: required revision has been compacted"},
	{"go", "nats: maximum payload exceeded publishing {noun}.{verb}.{n}"},
	{"go", "Error making API request. URL: GET https://vault.internal:8200/v1/secret/data/{host}/{noun} Code: 403. Errors: * permission denied"},
	{"go", "mongo: no documents in result (collection {noun}s, _id {n})"},

	{"python", "pymongo.errors.DuplicateKeyError: E11000 duplicate key error collection: {module}.{noun}s index: {col}_1 dup key: ({col}: \"{noun}-{n}\")"},
	{"python", "pika.exceptions.ChannelClosedByBroker: (406, 'PRECONDITION_FAILED - delivery acknowledgement on channel {m} timed out. Timeout value used: 1800000 ms.')"},
	{"python", "elasticsearch.ConflictError: ConflictError(409, 'version_conflict_engine_exception', '[{n}]: version conflict, required seqNo [{i}], primary term [1]. current document has seqNo [{m}{i}] and primary term [1]')"},
	{"python", "requests.exceptions.SSLError: HTTPSConnectionPool(host='{host}.internal', port=443): Max retries exceeded with url: /v1/{noun}s/{n} (Caused by SSLError(SSLCertVerificationError(1, '[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: unable to get local issuer certificate (_ssl.c:1006)')))"},
	{"python", "jinja2.exceptions.UndefinedError: '{type}' object has no attribute '{col}_{m}'"},

	{"ts", "MongooseError: Operation `{noun}s.findOne()` buffering timed out after 10000ms"},
	{"ts", "KafkaJSNumberOfRetriesExceeded: Connection error: connect ETIMEDOUT 10.0.{i}.{j}:9092"},
	{"ts", "GraphQLError: Cannot query field \"{col}{m}\" on type \"{type}\"."},
	{"ts", "failed to load exports/{noun}-{n}.csv: NoSuchKey: The specified key does not exist."},
	{"ts", "Error [ERR_MODULE_NOT_FOUND]: Cannot find package '@{noun}/client-{m}' imported from /app/dist/{noun}{n}.mjs"},

	{"rust", "status: Unavailable, message: \"tcp connect error: 10.0.{i}.{j}:50051: Connection refused (os error 111)\", details: [], metadata: MetadataMap"},
	{"rust", "KafkaError (Message production error: MessageTimedOut (Local: Message timed out)) on {noun}-events partition {m}"},
	{"rust", "tls handshake with {host}.internal:{n} failed: invalid peer certificate: UnknownIssuer"},
	{"rust", "{noun}s[{m}].{col}: invalid type: integer `{n}`, expected a string at line {i} column 9"},
	{"rust", "upstream {host}:{n}: connection closed before message completed"},

	{"java", "org.apache.kafka.common.errors.RecordTooLargeException: The message is {n}00 bytes when serialized which is larger than 1048576, which is the value of the max.request.size configuration."},
	{"java", "org.hibernate.LazyInitializationException: failed to lazily initialize a collection of role: {pkg}.{type}.{noun}s{m}: could not initialize proxy - no Session"},
	{"java", "io.github.resilience4j.circuitbreaker.CallNotPermittedException: CircuitBreaker '{host}-{noun}' is OPEN and does not permit further calls"},
	{"java", "feign.RetryableException: Connection refused executing GET http://{host}/api/{noun}s/{n}"},
	{"java", "com.mongodb.MongoSocketReadTimeoutException: Timeout while receiving message from {host}-mongo-{j}:27017 after {n} ms"},

	{"ops", "fatal: [{host}]: FAILED! => {\"changed\": false, \"msg\": \"Unable to start service postgresql@13-main: Job for postgresql@13-main.service failed because the control process exited with error code.\"}"},
	{"ops", "nginx: [emerg] bind() to 0.0.0.0:8{i} failed (98: Address already in use)"},
	{"ops", "{host}-{noun}.service: A process of this unit has been killed by the OOM killer."},
	{"ops", "{n}F0000:error:0A000086:SSL routines:tls_post_process_server_certificate:certificate verify failed:../ssl/statem/statem_clnt.c:1889:"},
	{"ops", "Error: operation queue.declare caused a channel exception precondition_failed: inequivalent arg 'x-queue-type' for queue '{noun}.{verb}' in vhost '/': received none but current is the value 'quorum' of type 'longstr'"},
	{"ops", "ActiveRecord::ConnectionTimeoutError (could not obtain a connection from the pool within 5.000 seconds (waited 5.00{m} seconds); all pooled connections were in use)"},
	{"ops", "PHP Fatal error:  Allowed memory size of 134217728 bytes exhausted (tried to allocate {n} bytes) in /var/www/app/vendor/laravel/framework/src/Illuminate/Database/Connection.php on line {i}"},
	{"ops", "Error while executing topic command : Topic '{noun}-events-{m}' already exists."},
	{"ops", "cluster_block_exception: index [{noun}-2026.04.{m}] blocked by: [TOO_MANY_REQUESTS/12/disk usage exceeded flood-stage watermark, index has read-only-allow-delete block];"},

	{"psql", "cannot drop table {table} because other objects depend on it"},
	{"psql", "function {noun}_{verb}(bigint, text) does not exist"},
	{"psql", "could not create unique index \"{table}_{col}_{n}_key\""},
	{"psql", "permission denied for schema {noun}_archive{m}"},
	{"mysql", "ERROR 1265 (01000) at line {i}: Data truncated for column '{col}' at row {n}"},
	{"mysql", "ERROR 1292 (22007) at line {i}: Incorrect datetime value: '2026-04-{m}1 25:00:00' for column '{col}' at row {n}"},
	{"mysql", "ERROR 3024 (HY000) at line {i}: Query execution was interrupted, maximum statement execution time exceeded ({noun} {n})"},
	{"mysql", "ERROR 1118 (42000) at line {i}: Row size too large (> 8126). Changing some columns to TEXT or BLOB may help. In current row format, BLOB prefix of 0 bytes is stored inline."},
	{"tf", "Error creating instance: googleapi: Error 409: The resource 'projects/{host}/zones/europe-west1-b/instances/{noun}-{n}' already exists, alreadyExists"},
	{"tf", "waiting for creation of Kubernetes Cluster (Resource Group \"{host}-rg\" / Name \"{noun}-aks-{n}\"): Code=\"QuotaExceeded\" Message=\"Operation could not be completed as it results in exceeding approved standardDSv3Family Cores quota.\""},
	{"tf", "namespaces \"{host}-{n}\" already exists"},
	{"tf", "failed to create DNS record {noun}-{n}.northwind.dev: An identical record already exists. (81058)"},
}

// sealedCommands are commands run once while debugging, with the keys of
// rareCommands.
var sealedCommands = []langTmpl{
	{"go", "gotestsum --format testname --rerun-fails={m} --packages ./{dir}/... -- -run '^{test}$' -count=1"},
	{"go", "staticcheck -checks 'SA*,-SA1019' ./{dir}/... | tee /tmp/staticcheck-{noun}-{n}.txt"},
	{"go", "go mod graph | grep -E '{noun}|grpc' | sort | uniq -c | sort -rn | head -{m}0"},
	{"go", "gops stack $(pgrep -f {host} | head -1) > /tmp/goroutines-{n}.txt"},

	{"python", "nox -s tests-3.12 -- {tfile} -k '{test}' --maxfail={m}"},
	{"python", "scalene --cli --reduced-profile --profile-only {noun} -m {module}.{verb}_{noun} --limit {n}"},
	{"python", "python -m pdb -c continue -m pytest {tfile}::{test} -p no:cacheprovider"},
	{"python", "pip install --dry-run --report /tmp/resolve-{n}.json -r requirements/{noun}.txt"},

	{"ts", "npx 0x --output-dir /tmp/flame-{noun}-{n} -- node dist/{noun}.js"},
	{"ts", "npx madge --circular --extensions ts src/{noun} --warning --ts-config tsconfig.json # run {n}"},
	{"ts", "pnpm why {noun}-kit --depth {m} --filter ./packages/{noun}"},
	{"ts", "npx cypress run --spec 'cypress/e2e/{noun}-{m}.cy.ts' --browser electron --env grep='{phrase}'"},

	{"rust", "cargo +nightly fuzz run {noun}_decode -- -max_total_time={m}00 -seed={n}"},
	{"rust", "cargo tree -p {crate} -i tokio --edges normal --depth {m}"},
	{"rust", "cargo mutants -p {crate} --file 'src/{noun}.rs' --timeout {m}0 --jobs 4"},
	{"rust", "cargo hack check -p {crate} --feature-powerset --depth 2 --no-dev-deps # run {n}"},

	{"java", "jmap -histo:live $(pgrep -f {module}) | head -n {m}0 > /tmp/histo-{n}.txt"},
	{"java", "mvn -q dependency:tree -Dincludes=io.netty -Dverbose -DoutputFile=/tmp/deps-{n}.txt"},
	{"java", "jfr print --events jdk.ThreadPark,jdk.JavaMonitorEnter /tmp/{noun}-{n}.jfr | grep -B2 -A12 {cls}"},
	{"java", "jdeps --multi-release 17 --print-module-deps --ignore-missing-deps target/{module}-{m}.jar"},

	{"ops", "openssl s_client -connect {host}:5432 -starttls postgres -servername {host}.internal -showcerts </dev/null | openssl x509 -noout -dates # {n}"},
	{"ops", "patronictl -c /etc/patroni/{noun}.yml list --extended --watch {m}"},
	{"ops", "sudo -u postgres pg_waldump --stats=record -p /var/lib/postgresql/13/main/pg_wal 00000001000000{m}A00000{n}"},
	{"ops", "sudo -u postgres pg_amcheck -d app --table={table} --heapallindexed --jobs={m} --progress"},
	{"ops", "ss -tanp state established '( dport = :5432 )' | awk '{print $5}' | sort | uniq -c | sort -rn | head -{m}0"},
}

// sealedThink is thinking (never a probe). Keys: {path}, {thing}.
var sealedThink = []string{
	"Who owns {thing} after the handoff? {path} might answer that.",
	"Stop. Reproduce first; {path} can wait until I know what {thing} holds.",
	"Three places touch {thing}. {path} is the odd one out.",
	"Something about {thing} smells like a stale cache. Confirm in {path}.",
}

// sealedDecisions are decisions as agents and people word them: terse,
// long, hedged and then committed, numbered, tabled, as a Chosen: line, as
// a chat message, as a trailer, as a design-doc section, in the manner of
// Aider, Cursor, Devin, Cline and Copilot's agent: {x} is chosen over {y}
// for {c}, because {why}; some adopt a rule for the rest of the work.
var sealedDecisions = []string{
	"{x}. ({c}; {y} rejected: {why}.)",
	"Chosen: {x} for {c}\nAlso considered: {y}\nWhy not: {why}",
	"1. Keep {y} in {c}: rejected, {why}.\n2. Move {c} to {x}: accepted.",
	"| option | verdict |\n|---|---|\n| {x} | adopted for {c} |\n| {y} | rejected: {why} |",
	"### Decision record\n\nWe go with {x} in {c}; {y} was evaluated and dropped because {why}.",
	"Hmm, {y} might be simpler... no: {why}. Going with {x} for {c}.",
	"I was leaning toward {y}, but {why}, so {c} switches to {x}.",
	"Use {x}, not {y}, in {c}: {why}.",
	":white_check_mark: decided, {c} uses {x}; {y} is out ({why}).",
	"Chosen-Approach: {x} for {c} (rejected {y}: {why})",
	"To fix {c} we need {x}; {y} is not viable here since {why}.",
	"I've decided on {x} for {c}; {y} would break because {why}.",
	"Decision point: {c}. Going forward I will use {x} rather than {y}, as {why}.",
	"Based on my analysis, {x} is the best fit for {c}. I'm not using {y}: {why}.",
	"Implementing {x} in {c} (over {y}) because {why}.",
	"For the rest of this task, {c} always goes through {x}, never {y} ({why}).",
	"Convention from now on: {x} in {c}; no new {y} ({why}).",
	"After comparing the two, {x} is what I'm doing for {c}; {y} looked attractive at first, yet {why}, and that settles it.",
	"{x} wins for {c}; {y} lost on one point: {why}.",
	"Final: {c} => {x}. Dropped {y} since {why}.",
	"Committing to {x} for {c}. Skipping {y}; {why}.",
	"Net: {x} over {y} for {c}, because {why}.",
}

// sealedUserDecisions are decisions as the user words them in a one-line
// reply choosing one of the alternatives. Keys as sealedDecisions. Only
// the user-reply decision form draws them, so they are in no table.
var sealedUserDecisions = []string{
	"Option A, {x}, for {c}; {y} won't fly: {why}.",
	"{x} please; {y} is a non-starter for {c} because {why}.",
	"Ship {x} in {c}; leave {y} alone, {why}.",
	"Yes to {x} for {c}, no to {y} ({why}).",
}

// sealedConstraints are rules the user sets. Keys: {pkgkind} {pkg}, {dir},
// {file}, {dep}, {ver}, {env}, {api}, {cmd}.
var sealedConstraints = []string{
	"Signatures exported by {pkgkind} {pkg} are a published contract; they do not change in this work.",
	"{dir} belongs to the data team and is read-only for you.",
	"Zero edits to {file}, please.",
	"The lockfile stays as it is: no new packages, {dep} least of all.",
	"CI still tests against {ver}, and so must this change.",
	"Stay away from {env}; the sandbox is all you get.",
	"{dir} is produced by the generator in CI, so hand edits there are forbidden.",
	"External consumers depend on {api} byte for byte: no field changes.",
	"Nothing is done until `{cmd}` exits 0.",
	"{dep} is being removed next quarter, so don't add calls to it.",
	"The change is confined to {dir}; touching anything else needs a ticket first.",
	"{file} is checksummed by the release job, so leave its bytes alone.",
	"No commits on main and no tags, ever, from this session.",
	"Keep every public name in {pkgkind} {pkg}; no renames.",
	"No database migrations in this change, not even additive ones.",
	"Don't skip or quarantine tests to get a green run.",
}

// sealedPlans are plans that are not decisions, some naming alternatives
// still open. Keys: {topic}, {thing}, {path}.
var sealedPlans = []string{
	"Maybe {thing}, maybe the {topic} setup; I'll know after the next run.",
	"Open question: is it {path} or the {topic} wiring? Looking at both.",
	"I might diff {thing} against the {topic} variant later.",
	"Plan: read {path}, then decide whether {topic} matters.",
	"Want to see where {thing} is first created before touching anything.",
	"Could start from {path} or from the failing {topic} test; undecided.",
	"Depending on {path}, the {topic} code may need a look too.",
	"Haven't ruled out {thing} or {topic} yet.",
	"First a list of every caller of {thing}.",
	"Parking {path} for now; back to it after the logs.",
	"Not sure {thing} is involved; {path} will say.",
	"{path} goes on the reading list for after this.",
	"Still weighing whether {topic} or {thing} deserves the next hour.",
}

var sealedTasks = []string{
	"On-call handoff: {proj} {issue}. Can you find the root cause and land a fix with a test?",
	"{proj} {issue} (third report this month). Please dig in, fix, and pin it with a test.",
	"Quick one, hopefully: {proj} {issue}. Fix plus a regression test, please.",
}

var sealedAsks = []string{
	"Merged, thanks. New report: {comp} {issue}.",
	"Nice. Unrelated, but {comp} {issue}; mind taking it?",
	"That did it. Now {comp} {issue}.",
	"Next ticket in the queue: {comp} {issue}.",
}

var sealedAskIssues = []string{
	"double-sends notifications after a deploy",
	"rejects valid input with a trailing newline",
	"skips every other batch at midnight UTC",
	"pins a CPU core while idle",
}

var sealedUserPath = []string{
	"Hunch: {path}. It changed right before the first report.",
	"CODEOWNERS says the on-call owns {path}; start there?",
	"The flame graph I looked at was dominated by {path}.",
}

var sealedUserCommand = []string{
	"Snippet from my terminal:\n\n```console\n$ {cmd}\n```",
	"Ran `{cmd}` on the staging box; same failure.",
	"The runbook says to use {cmd}",
}

var sealedUserID = []string{
	"Zendesk escalation mentions {id}.",
	"Grep the logs for {id}; that's the bad one.",
	"Put {id} in the commit trailer, please.",
}

var sealedUserError = []string{
	"PagerDuty summary: {err}",
	"Copied from Datadog:\n\n```\n{err}\n```",
	"Seeing `{err}` in the Kibana dashboard since this morning.",
}

var sealedProseCommand = []string{
	"Noting the repro for later: `{cmd}`.",
	"This reproduces it every time: {cmd}",
	"Repro (fails on main): {cmd}",
}

var sealedProsePath = []string{
	"Located it: {path}.",
	"The defect is in `{path}`, in the second half of the file.",
	"Evidence points to {path}.",
}

var sealedProseID = []string{
	"Cross-referencing {id}.",
	"Root cause shared with {id}.",
	"{id} can be closed once this lands.",
}

var sealedClose = []string{
	"Done:\n- {comp}: fixed, with a regression test\n- {n} tests, all passing",
	"Outcome\n* {comp} works again\n* suite: {n} passed, none failed",
}
