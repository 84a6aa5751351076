package corpus

// The fresh half: entries for the probe-bearing tables that were written
// without looking at the extractors, or at what the tune and report halves
// plant, to keep one held-out half nobody has tuned against. The forms that
// plant probes in the fresh half are in fresh_forms.go.
//
// A table that gets no fresh entries here (harnesses, projects, agent
// styles) falls back to its report half in fresh sessions: see split.of.

func init() {
	rareErrors.with(Fresh, freshErrors)
	rareCommands.with(Fresh, freshCommands)
	thinkForms.with(Fresh, freshThink)
	decisionForms.with(Fresh, freshDecisions)
	constraintForms.with(Fresh, freshConstraints)
	planForms.with(Fresh, freshPlans)
	taskForms.with(Fresh, freshTasks)
	askForms.with(Fresh, freshAsks)
	askIssues.with(Fresh, freshAskIssues)
	userPathForms.with(Fresh, freshUserPath)
	userCommandForms.with(Fresh, freshUserCommand)
	userIDForms.with(Fresh, freshUserID)
	userErrorForms.with(Fresh, freshUserError)
	proseCommandForms.with(Fresh, freshProseCommand)
	prosePathForms.with(Fresh, freshProsePath)
	proseIDForms.with(Fresh, freshProseID)
	closeForms.with(Fresh, freshClose)
	forms.with(Fresh, freshForms)
}

// freshErrors are error messages as the runtimes, drivers and tools print
// them, with the keys of rareErrors. The languages psql, mysql and tf are
// not projects' languages: the SQL client and Terraform forms draw them
// (rareErrorOf) whatever the project's language, as any team runs psql or
// terraform. psql templates are what follows "ERROR:  "; mysql templates
// are the client's whole line; tf templates follow Terraform's "Error: ".
var freshErrors = []langTmpl{
	{"go", "sql: Scan error on column index {j}, name \"{col}\": converting NULL to int64 is unsupported"},
	{"go", "failed to connect to `host={host} user=app database={noun}`: dial error (dial tcp 10.0.{i}.{j}:5432: connect: connection refused)"},
	{"go", "json: cannot unmarshal string into Go struct field {type}.{col} of type int64"},
	{"python", "sqlalchemy.exc.TimeoutError: QueuePool limit of size {m} overflow 10 reached, connection timed out, timeout 30.00"},
	{"python", "UnicodeDecodeError: 'utf-8' codec can't decode byte 0x{m}f in position {n}: invalid start byte"},
	{"python", "botocore.exceptions.ClientError: An error occurred (ThrottlingException) when calling the PutRecords operation (reached max retries: {m}): Rate exceeded"},
	{"ts", "TypeError: Cannot destructure property '{col}' of 'req.body' as it is undefined."},
	{"ts", "SyntaxError: Unexpected token } in JSON at position {n}"},
	{"ts", "Error: ENOENT: no such file or directory, open '/app/dist/{noun}-{n}.json'"},
	{"rust", "{noun} {n} must exist before {verb}: RowNotFound"},
	{"rust", "failed to deserialize {type}: missing field `{col}` at line 1 column {n}"},
	{"rust", "range start index {n} out of range for slice of length {i}"},
	{"java", "com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException: Unrecognized field \"{col}\" (class {type}), not marked as ignorable"},
	{"java", "java.sql.SQLTransientConnectionException: HikariPool-1 - Connection is not available, request timed out after {n}ms."},
	{"java", "java.lang.ClassCastException: class {type} cannot be cast to class java.lang.String ({type} is in unnamed module of loader 'app'; java.lang.String is in module java.base of loader 'bootstrap')"},
	{"ops", "ERROR 1062 (23000) at line {i}: Duplicate entry '{n}' for key '{table}.PRIMARY'"},
	{"ops", "pg_dump: error: query failed: ERROR:  permission denied for table {table}"},
	{"ops", "Error from server (Forbidden): pods \"{host}-{n}\" is forbidden: exceeded quota: compute-quota, requested: limits.memory={m}Gi, used: limits.memory=30Gi, limited: limits.memory=32Gi"},
	{"ops", "ssh: connect to host 10.0.{i}.{j} port 22: Connection timed out"},

	{"psql", "insert or update on table \"{table}\" violates foreign key constraint \"{table}_{col}_fkey\""},
	{"psql", "column \"{noun}_{col}\" of relation \"{table}\" does not exist"},
	{"psql", "null value in column \"{col}\" of relation \"{table}\" violates not-null constraint"},
	{"psql", "value too long for type character varying({i})"},
	{"mysql", "ERROR 1452 (23000) at line {i}: Cannot add or update a child row: a foreign key constraint fails (`app`.`{table}`, CONSTRAINT `{table}_ibfk_{m}` FOREIGN KEY (`{col}`) REFERENCES `{noun}` (`id`))"},
	{"mysql", "ERROR 1054 (42S22) at line {i}: Unknown column '{noun}_{col}' in 'field list'"},
	{"mysql", "ERROR 1406 (22001) at line {i}: Data too long for column '{col}' at row {n}"},
	{"tf", "creating RDS DB Instance ({host}-{n}): operation error RDS: CreateDBInstance, https response error StatusCode: 400, api error DBInstanceAlreadyExists: DB instance already exists"},
	{"tf", "creating IAM Role ({host}-{noun}-{n}): operation error IAM: CreateRole, https response error StatusCode: 409, api error EntityAlreadyExists: Role with name {host}-{noun}-{n} already exists."},
	{"tf", "deleting S3 Bucket ({host}-{noun}-{n}): operation error S3: DeleteBucket, https response error StatusCode: 409, api error BucketNotEmpty: The bucket you tried to delete is not empty"},
	{"tf", "waiting for EKS Node Group ({host}:{noun}-{n}) create: unexpected state 'CREATE_FAILED', wanted target 'ACTIVE'. last error: NodeCreationFailure: Instances failed to join the kubernetes cluster"},
}

// freshCommands are commands run once while debugging, with the keys of
// rareCommands.
var freshCommands = []langTmpl{
	{"go", "go test -shuffle=on -failfast -count={m}0 -run '^{test}$' ./{dir}/..."},
	{"go", "go test -run '^{test}$' -trace=/tmp/{noun}{n}.trace ./{dir}/ && go tool trace /tmp/{noun}{n}.trace"},
	{"go", "go build -gcflags='-m=2' ./{dir}/ 2>&1 | grep -n 'escapes to heap' | head -{m}0"},
	{"python", "python -m pytest {tfile} -k '{test}' --lf -p no:xdist --hypothesis-seed={n}"},
	{"python", "python -X importtime -c 'import {module}' 2> /tmp/importtime-{n}.log"},
	{"python", "py-spy record -o /tmp/{noun}-{n}.svg --duration {m}0 -- python -m {module}.{verb}_{noun}"},
	{"ts", "npx playwright test {tfile} --grep '{phrase}' --repeat-each={m} --workers=1 --trace on"},
	{"ts", "node --cpu-prof --cpu-prof-dir=/tmp/prof-{n} dist/{noun}.js"},
	{"ts", "npx tsc --noEmit --extendedDiagnostics --generateTrace /tmp/tsc-{noun}-{n}"},
	{"rust", "MIRIFLAGS=-Zmiri-seed={n} cargo +nightly miri test -p {crate} {fn}"},
	{"rust", "RUSTFLAGS='-Z sanitizer=thread' cargo +nightly test -p {crate} --target x86_64-unknown-linux-gnu {fn} -- --test-threads={m}"},
	{"rust", "PROPTEST_CASES={n} cargo test -p {crate} --release {fn} -- --nocapture"},
	{"java", "./gradlew test --tests '{pkg}.{cls}' -Dspring.profiles.active=it-{n} --no-build-cache --info"},
	{"java", "jcmd $(pgrep -f {module}) JFR.start duration={m}0s filename=/tmp/{noun}-{n}.jfr"},
	{"java", "java -XX:+UnlockDiagnosticVMOptions -XX:+PrintCompilation -jar build/libs/{module}.jar --{noun}.batch-size={n}"},
	{"ops", "kubectl -n {noun} debug -it {host}-{n} --image=nicolaka/netshoot --target={host}"},
	{"ops", "terraform plan -target='aws_db_instance.{noun}' -var 'replica_count={m}' -refresh=false -out=/tmp/plan-{n}.tfplan"},
	{"ops", "ansible-playbook -i inventories/prod site.yml --limit {host} --tags {noun} --check --diff -e batch={n}"},
}

// freshThink is thinking (never a probe). Keys: {path}, {thing}.
var freshThink = []string{
	"Hmm. {thing} might be mutated somewhere I haven't looked yet; {path} is the obvious candidate.",
	"If {thing} is shared between callers, that would explain the flakiness. Check {path}.",
	"Don't guess. Read {path} and see where {thing} comes from.",
	"Could be an ordering problem: {thing} initialised after first use? {path} should settle it.",
}

// freshDecisions are decisions as agents word them in longer prose, most
// with their reason: {x} is chosen over {y} for {c}, because {why}.
var freshDecisions = []string{
	"I'm going to use {x} for {c}. I considered {y}, but {why}, so it doesn't fit here.",
	"The cleanest option for {c} is {x}; {y} would also work, except that {why}.",
	"Given that {why}, {y} is off the table and {c} will use {x}.",
	"My recommendation, and what I'm implementing: {x} in {c}, because {why}.",
	"Rather than reaching for {y}, I'll switch {c} to {x} — {why}.",
	"Okay, I'll implement {x} for {c}. The alternative was {y}, but {why}.",
	"Decided: {c} moves to {x}. Keeping {y} isn't an option since {why}.",
	"So the approach for {c} will be {x} instead of {y}, mainly because {why}.",
	"Switching {c} over to {x}. At first {y} looks appealing, but {why}.",
	"I'm confident {x} is the right call for {c} — {y} falls short because {why}.",
	"We'll standardize {c} on {x}, not {y}: {why}.",
	"This is why I'm choosing {x} over {y} for {c}: {why}.",
	"Conclusion: use {x} in {c}. I'm ruling out {y} because {why}.",
}

// freshConstraints are rules the user sets. Keys: {pkgkind} {pkg}, {dir},
// {file}, {dep}, {ver}, {env}, {api}, {cmd}.
var freshConstraints = []string{
	"Heads up: the public interface of {pkgkind} {pkg} can't change, other services import it.",
	"Please stay out of {dir}, it's owned by the platform team.",
	"Please don't pull in any new packages, and that goes for {dep} too.",
	"{file} must not be modified in this change.",
	"This has to keep running on {ver}, so no newer language features.",
	"Nothing gets executed against {env}, not even read-only queries.",
	"Treat everything in {dir} as generated output and don't hand-edit it.",
	"The shape of {api} is a contract with our customers; don't alter it.",
	"Run `{cmd}` and make sure it's clean before you report back.",
	"We're phasing out {dep}, so don't add new call sites for it.",
	"Limit the change to {dir}; anything outside needs a separate PR.",
	"Keep {file} untouched, the release tooling diffs it.",
	"Don't push anything; leave the commits local and I'll review them.",
	"No renaming of public symbols in {pkgkind} {pkg}, downstream code depends on those names.",
}

// freshPlans are plans that are not decisions. Keys: {topic}, {thing},
// {path}.
var freshPlans = []string{
	"After this I want to double-check the {topic} flow.",
	"I still need to review {path}.",
	"Later I'll trace how {thing} gets constructed.",
	"I'll circle back to {topic} once the tests have run.",
	"Then on to {path}.",
	"Worth reading {thing} afterwards as well.",
	"The {topic} side can wait until after the next test run.",
}

var freshTasks = []string{
	"Looks like {proj} {issue}. Please investigate, fix it, and add a test that would have caught it.",
	"Reported in support today: {proj} {issue}. Root cause and fix please.",
	"{proj} {issue}, and it is hurting customers. Can you take this one? Fix plus regression test.",
}

var freshAsks = []string{
	"Great, that's fixed. Next problem: {comp} {issue}.",
	"OK. Separate issue in the same area: {comp} {issue}.",
	"Thanks! Can you look at {comp} next? It {issue}.",
	"While we're here: {comp} {issue}. Same approach please.",
}

var freshAskIssues = []string{
	"times out on the first request after a quiet period",
	"writes duplicate rows when a call is retried",
	"ignores the feature flag in staging",
	"crashes when the input is empty",
}

var freshUserPath = []string{
	"The stack trace in the ticket points at {path}.",
	"Git blame says {path} was touched by the change that broke this.",
	"Could you check {path} as well? It looks suspicious to me.",
}

var freshUserCommand = []string{
	"I've been reproducing it with this:\n\n    {cmd}\n",
	"On my machine `{cmd}` fails every time.",
	"The nightly job runs `{cmd}`, and that's where it breaks.",
}

var freshUserID = []string{
	"The customer's support ticket references {id}.",
	"Look for {id} in the logs, that's the one that failed.",
	"Internal tracking reference: {id}.",
}

var freshUserError = []string{
	"Sentry grouped it under this message: {err}",
	"From the Slack alert:\n> {err}\n",
	"The pager went off with `{err}` at 3am.",
}

var freshProseCommand = []string{
	"I can trigger the failure consistently with `{cmd}`.",
	"To reproduce: {cmd}",
	"Reproduction command (fails before the fix, passes after): `{cmd}`.",
}

var freshProsePath = []string{
	"The bug lives in {path}.",
	"Tracing it back, the faulty logic is in `{path}`.",
	"{path} is where the fix belongs.",
}

var freshProseID = []string{
	"Referencing {id} so the fix is traceable.",
	"This is the same failure as {id}.",
	"Linking this to {id}.",
}

var freshClose = []string{
	"Summary:\n- {comp} is fixed\n- added a regression test; {n} tests pass",
	"## Changes\n- Fixed {comp}\n- Test suite: {n} passing",
}
