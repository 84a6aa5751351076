package corpus

// The drill half: entries for the probe-bearing tables written after the
// practice half and like it, without looking at the extractors, to drill
// what compaction still loses on fresh material: identifiers and figures
// printed inside the output of tools the other halves never run, and some
// errors, commands and decisions that reach the agent through a tool's
// output. Its tools, libraries and wordings are ones the eight other halves
// do not use. Like the practice half it is a tuning half: its misses may be
// read and the extractors adjusted to them. The forms that plant probes in
// the drill half are in drill_forms.go.
//
// A table that gets no drill entries here (harnesses, projects, agent
// styles) falls back to its report half in drill sessions: see split.of.

func init() {
	rareErrors.with(Drill, drillErrors)
	rareCommands.with(Drill, drillCommands)
	thinkForms.with(Drill, drillThink)
	decisionForms.with(Drill, drillDecisions)
	constraintForms.with(Drill, drillConstraints)
	planForms.with(Drill, drillPlans)
	taskForms.with(Drill, drillTasks)
	askForms.with(Drill, drillAsks)
	askIssues.with(Drill, drillAskIssues)
	userPathForms.with(Drill, drillUserPath)
	userCommandForms.with(Drill, drillUserCommand)
	userIDForms.with(Drill, drillUserID)
	userErrorForms.with(Drill, drillUserError)
	proseCommandForms.with(Drill, drillProseCommand)
	prosePathForms.with(Drill, drillProsePath)
	proseIDForms.with(Drill, drillProseID)
	closeForms.with(Drill, drillClose)
	forms.with(Drill, drillForms)
}

// drillErrors are error messages as the runtimes, libraries and tools
// print them, with the keys of rareErrors: x/crypto/ssh, golang-migrate,
// os/exec, the HTTP/2 transport, encoding/json's strict decoder,
// gorilla/websocket, golang-jwt and crypto/x509 in Go; kombu, the Google
// Cloud client, smtplib against SES, PyYAML, struct, ElementTree and csv
// in Python; undici, Node's fs and Buffer, got, raw-body, Passport,
// amqplib and the module loader in TypeScript; std::io, Tokio's timeout,
// hyper, deadpool, RocksDB, the csv crate, the AWS SDK, std::str and
// reqwest in Rust; the AWS SDK v2, Long.parseLong, Reactor Netty's
// WebClient, Spring's transaction manager, java.nio, Spring's multipart
// resolver, BigDecimal and Spring Batch on the JVM; nginx, HAProxy, the
// kernel's OOM killer, pgBackRest, the Docker daemon and PostgreSQL's WAL
// sender in ops logs.
var drillErrors = []langTmpl{
	{"go", "ssh: handshake failed: ssh: unable to authenticate, attempted methods [none publickey], no supported methods remain (deploy@{host}:22, try {m})"},
	{"go", "Dirty database version {n}. Fix and force version."},
	{"go", "exec: \"{noun}-exporter\": executable file not found in $PATH"},
	{"go", "http2: server sent GOAWAY and closed the connection; LastStreamID={i}, ErrCode=ENHANCE_YOUR_CALM, debug=\"too_many_pings\""},
	{"go", "json: unknown field \"{col}_v{m}\""},
	{"go", "websocket: close 1006 (abnormal closure): unexpected EOF (conn {n} to {host})"},
	{"go", "token has invalid claims: token is expired (kid {noun}-{m}, sub {n})"},
	{"go", "Post \"https://{host}.internal:8443/v1/{noun}s\": tls: failed to verify certificate: x509: certificate signed by unknown authority"},

	{"python", "kombu.exceptions.OperationalError: Error 111 connecting to {host}-redis:6379. Connection refused."},
	{"python", "google.api_core.exceptions.NotFound: 404 GET https://storage.googleapis.com/download/storage/v1/b/{noun}-exports/o/{noun}%2F{n}.parquet?alt=media: No such object: {noun}-exports/{noun}/{n}.parquet"},
	{"python", "smtplib.SMTPDataError: (554, b'Message rejected: Email address is not verified. The following identities failed the check in region EU-WEST-1: {noun}-{n}@mail.{host}.example')"},
	{"python", "yaml.constructor.ConstructorError: could not determine a constructor for the tag '!{noun}_ref' in \"config/{noun}.yaml\", line {i}, column {m}"},
	{"python", "struct.error: unpack requires a buffer of {m}{j} bytes ({noun} frame {n})"},
	{"python", "xml.etree.ElementTree.ParseError: not well-formed (invalid token): line {i}, column {m} ({noun}-{n}.xml)"},
	{"python", "_csv.Error: field larger than field limit (131072) (exports/{noun}-{n}.csv, line {i})"},

	{"ts", "ConnectTimeoutError: Connect Timeout Error (attempted address: {host}:{n}, timeout: 10000ms)"},
	{"ts", "Error: EMFILE: too many open files, open '/srv/{noun}/cache/{n}.json'"},
	{"ts", "RangeError [ERR_OUT_OF_RANGE]: The value of \"offset\" is out of range. It must be >= 0 and <= {m}{j}. Received {n}"},
	{"ts", "TimeoutError: Timeout awaiting 'request' for {m}000ms (GET https://{host}.internal/v2/{noun}s/{n})"},
	{"ts", "PayloadTooLargeError: request entity too large (POST /api/{noun}s/bulk, limit 100kb, length {n})"},
	{"ts", "Error: Unknown authentication strategy \"{noun}-bearer\""},
	{"ts", "Error: Socket closed abruptly during opening handshake (amqp://{host}:5672, attempt {m})"},
	{"ts", "Error: Cannot find module '@northwind/{noun}-client-v{m}' imported from /srv/{noun}/dist/{verb}.js"},

	{"rust", "failed to read {noun} frame {n}: failed to fill whole buffer"},
	{"rust", "{verb} {noun} {n}: deadline has elapsed"},
	{"rust", "error reading a body from connection: Connection reset by peer (os error 104) ({host}, stream {n})"},
	{"rust", "Timeout occurred while waiting for a slot to become available ({crate} pool, {m} of {m} in use, waiter {n})"},
	{"rust", "IO error: While lock file: /var/lib/{host}/{noun}-db/LOCK: Resource temporarily unavailable"},
	{"rust", "CSV deserialize error: record {i} (line: {i}, byte: {n}): field {m}: invalid digit found in string"},
	{"rust", "dispatch failure: timeout: HTTP connect timeout occurred after 3.1s ({noun}-archive-{n})"},
	{"rust", "invalid utf-8 sequence of 1 bytes from index {n} ({noun} key)"},

	{"java", "software.amazon.awssdk.core.exception.SdkClientException: Unable to execute HTTP request: Connect to {noun}-exports.s3.eu-west-1.amazonaws.com:443 [{noun}-exports.s3.eu-west-1.amazonaws.com/52.218.{i}.{j}] failed: connect timed out"},
	{"java", "java.lang.NumberFormatException: For input string: \"{noun}-{n}\" under radix 10"},
	{"java", "org.springframework.web.reactive.function.client.WebClientRequestException: Connection prematurely closed BEFORE response; nested exception is reactor.netty.http.client.PrematureCloseException (GET http://{host}:8080/api/{noun}s/{n})"},
	{"java", "org.springframework.transaction.CannotCreateTransactionException: Could not open JPA EntityManager for transaction ({type}Service.{verb}, attempt {m})"},
	{"java", "java.io.UncheckedIOException: java.nio.file.NoSuchFileException: /var/lib/{host}/inbox/{noun}-{n}.csv"},
	{"java", "org.springframework.web.multipart.MaxUploadSizeExceededException: Maximum upload size exceeded ({noun} import {n})"},
	{"java", "java.lang.ArithmeticException: Non-terminating decimal expansion; no exact representable decimal result. ({type}.{col}, row {n})"},
	{"java", "org.springframework.batch.core.repository.JobExecutionAlreadyRunningException: A job execution for this job is already running: JobExecution: id={n}, version={m}, status=STARTED, exitStatus=exitCode=UNKNOWN;exitDescription="},

	{"ops", "[error] 2211#2211: *{n} upstream timed out (110: Connection timed out) while reading response header from upstream, client: 10.0.{i}.{j}, server: {host}.internal, request: \"GET /v1/{noun}s/{n} HTTP/1.1\", upstream: \"http://10.0.{j}.{i}:8080/v1/{noun}s/{n}\""},
	{"ops", "Server be_{host}/{host}-{m} is DOWN, reason: Layer4 connection problem, info: \"Connection refused\", check duration: 0ms. {j} active and 0 backup servers left. 0 sessions active, 0 requeued, 0 remaining in queue."},
	{"ops", "Out of memory: Killed process {n} ({noun}-worker) total-vm:{n}12kB, anon-rss:{n}04kB, file-rss:0kB, shmem-rss:0kB, UID:999 pgtables:{i}40kB oom_score_adj:0"},
	{"ops", "ERROR: [082]: WAL segment 000000010000{m}A1B000000{j}4 was not archived before the 60000ms timeout"},
	{"ops", "Error response from daemon: driver failed programming external connectivity on endpoint {host}-{noun}-{m} (9f3c{n}): Bind for 0.0.0.0:{n} failed: port is already allocated"},
	{"ops", "FATAL:  could not receive data from WAL stream: ERROR:  requested WAL segment 000000010000{m}A2C000000{j}8 has already been removed"},
}

// drillCommands are commands run once while debugging, with the keys of
// rareCommands. The drill forms echo them in CI step logs, a Rakefile's
// output, a terminal recording and a script written by heredoc.
var drillCommands = []langTmpl{
	{"go", "go vet -vettool=$(command -v shadow) ./{dir}/..."},
	{"go", "go mod why -m github.com/northwind/{noun}-sdk"},
	{"go", "go test -run '^{test}$' -count={m} -p 1 -parallel 1 ./{dir}/"},
	{"go", "go test -asan -run '^{test}$' ./{dir}/"},
	{"go", "go test -race -c -o /tmp/{noun}.race ./{dir}/ && GORACE='halt_on_error=1 history_size={m}' /tmp/{noun}.race -test.run '^{test}$'"},

	{"python", "pip-audit --requirement requirements/{noun}.txt --desc on"},
	{"python", "vulture {dir} --min-confidence {m}0 --sort-by-size"},
	{"python", "pydeps {module} --max-bacon {m} --only {module}.{noun} --noshow -o /tmp/{noun}.svg"},
	{"python", "pytest {tfile} -k '{test}' --setup-show -p no:cacheprovider"},
	{"python", "PYTHONASYNCIODEBUG=1 python -X faulthandler -m {module}.{verb}_{noun} --limit {n}"},

	{"ts", "NODE_DEBUG=http,net node dist/{noun}.js 2>&1 | grep -m {m}0 -i socket"},
	{"ts", "npx vitest run {tfile} --sequence.shuffle --sequence.seed={n}"},
	{"ts", "npx @arethetypeswrong/cli --pack packages/{noun}"},
	{"ts", "npx why-is-node-running dist/{verb}-{noun}.js"},
	{"ts", "npx vitest run {tfile} -t '{phrase}' --pool=forks --poolOptions.forks.singleFork"},

	{"rust", "cargo machete --with-metadata crates/{crate}"},
	{"rust", "cargo msrv verify --path crates/{crate}"},
	{"rust", "cargo fuzz run {noun}_decode -- -runs={n}00 -rss_limit_mb=2048"},
	{"rust", "cargo geiger -p {crate} --forbid-only"},
	{"rust", "cargo test -p {crate} {fn} --features {noun}-trace -- --exact --show-output"},

	{"java", "mvn -pl {module} help:effective-pom -Doutput=/tmp/{noun}-pom.xml"},
	{"java", "java -XX:+PrintFlagsFinal -XX:MaxRAMPercentage={m}0 -version | grep -E 'MaxHeapSize|MaxRAMPercentage'"},
	{"java", "mvn -pl {module} dependency:analyze -DignoreNonCompile=true -Dverbose"},
	{"java", "mvn -pl {module} -Dtest={cls}Test -Dsurefire.skipAfterFailureCount=1 -Dsurefire.useFile=false test"},
	{"java", "mvn -pl {module} dependency:list -DincludeScope=runtime -DoutputFile=/tmp/{noun}-deps.txt"},

	{"ops", "sudo iotop -b -o -d {m} -n 3 | grep -v ' 0.00 B/s'"},
	{"ops", "sudo needrestart -b -r l | grep -i {host}"},
	{"ops", "sudo nft list ruleset | grep -n -B{m} 'dport 5432'"},
	{"ops", "sudo dmesg -T --level=err,warn | tail -n {m}0"},
	{"ops", "sudo -u postgres pg_controldata /var/lib/postgresql/16/main | grep -iE 'checkpoint|timeline'"},
	{"ops", "lsblk -o NAME,SIZE,ROTA,SCHED,MOUNTPOINT /dev/nvme{m}n1"},
}

// drillThink is thinking (never a probe). Keys: {path}, {thing}.
var drillThink = []string{
	"{thing} again. What does {path} assume about it?",
	"Two readings of {path}; only one of them explains {thing}.",
	"Park the theory about {thing} and reread {path} cold.",
	"If {thing} were stale, {path} would show it somewhere.",
}

// drillDecisions are decisions in wordings of the drill half's own: a
// verdict, a resolution, a lock-in, a trade-off that lands, a standard
// adopted, a review's agreement, an indented record and a quoted block.
// {x} is chosen over {y} for {c}, because {why}.
var drillDecisions = []string{
	"{x} wins for {c}; {y} was the runner-up until it turned out that {why}.",
	"Resolution on {c}: go with {x}; {y} is off the table because {why}.",
	"{c}: {x}, full stop; {y} would bite us since {why}.",
	"Verdict for {c} is {x} over {y}; the deciding fact is that {why}.",
	"We are standardising {c} on {x}; {y} got vetoed because {why}.",
	"Going forward, {c} relies on {x}, not {y}: {why}.",
	"Agreed in review: {x} for {c}; {y} stays out because {why}.",
	"The trade-off for {c} lands on {x}; {y} loses since {why}.",
	"Locking in {x} for {c}; {y} was tempting, except that {why}.",
	"{x} is the answer for {c}; {y} is not, because {why}.",
	"Chosen approach for {c}: {x}. Rejected: {y}, as {why}.",
	"{c} gets {x}. No {y}: {why}.",
	"Settling {c} once and for all with {x}; anyone reaching for {y} should know that {why}.",
	"We walked away from {y} for {c} once it was clear that {why}; {x} replaces it.",
	"Decision ({c})\n  chosen:   {x}\n  rejected: {y}\n  why:      {why}",
	"> **Decided:** {x} for {c}\n> **Not:** {y}, because {why}",
}

// drillConstraints are rules the user sets. Keys: {pkgkind} {pkg},
// {dir}, {file}, {dep}, {ver}, {env}, {api}, {cmd}.
var drillConstraints = []string{
	"Hands off {dir}: a different team ships it and reviews every diff there.",
	"Leave {file} byte-for-byte as it is.",
	"Bringing {dep} back is a non-starter; it was removed on purpose.",
	"{ver} has to keep working after this change, no exceptions.",
	"Nothing touches {env} from this session, read-only queries included.",
	"{api} keeps its current request and response shapes.",
	"The merge gate is `{cmd}`, and it has to pass locally first.",
	"Exported identifiers of {pkgkind} {pkg} are frozen for this change.",
	"No migrations ride along with this change, not even additive ones.",
	"Tests may be added, never deleted or marked skip.",
	"Code generated under {dir} gets regenerated, never edited by hand.",
}

// drillPlans are plans that are not decisions. Keys: {topic}, {thing},
// {path}.
var drillPlans = []string{
	"Parking {thing} for now; it might matter later.",
	"{path} could be involved, or not; no verdict yet.",
	"Two suspects so far: {thing} and the {topic} handling. Neither confirmed.",
	"Might instrument {path} if the next run stays ambiguous.",
	"Open question: does {thing} ever run twice? Unknown for now.",
	"Possibly the {topic} settings, possibly nothing. Gathering data.",
	"Holding off on {path} until the traces are back.",
	"Worth a look eventually: who else writes {thing}.",
}

var drillTasks = []string{
	"On-call handoff: {proj} {issue}. Find out why, fix it, and add a test that would have caught it.",
	"{proj} {issue} since the last deploy. Root-cause it and land a fix with a regression test.",
	"Picked up from the incident channel: {proj} {issue}. We need the cause, the fix and a test.",
}

var drillAsks = []string{
	"Merged, thanks. Next from the queue: {comp} {issue}.",
	"Confirmed fixed on staging. Separate report: {comp} {issue}.",
	"That did it. Unrelated, but {comp} {issue}.",
	"Good. Support escalated another one: {comp} {issue}.",
}

var drillAskIssues = []string{
	"double-counts retries in its metrics",
	"drops the last page of results",
	"stalls on the very first call after every rollout",
	"logs a warning for every healthy request",
}

var drillUserPath = []string{
	"My bet is on {path}.",
	"Whoever touched {path} last might know more.",
	"The stack trace in the ticket ends in {path}.",
}

var drillUserCommand = []string{
	"This is how I run it:\n\n    {cmd}",
	"`{cmd}` is what the nightly job runs, and it fails there.",
	"Try {cmd} on a clean checkout.",
}

var drillUserID = []string{
	"Correlate it with {id}.",
	"The support ticket references {id}.",
	"Grep the logs for {id}.",
}

var drillUserError = []string{
	"The pager said: {err}",
	"Customers are seeing `{err}`",
	"Straight from the incident doc:\n\n> {err}",
}

var drillProseCommand = []string{
	"Repro, for the record: {cmd}",
	"Minimal repro is `{cmd}`.",
	"{cmd} shows it every time.",
}

var drillProsePath = []string{
	"Root cause sits in {path}.",
	"The fix belongs in `{path}`.",
	"{path} was treating an empty list as an error.",
}

var drillProseID = []string{
	"Related upstream issue: {id}.",
	"See also {id} for the same symptom.",
	"This matches what {id} describes.",
}

var drillClose = []string{
	"Wrapping up: {comp} fixed with a regression test; {n} tests green.",
	"All set. {comp} now behaves, guarded by a new test; {n} passing.",
}
