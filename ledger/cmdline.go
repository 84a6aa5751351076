package ledger

import (
	"strings"
)

// This file decides whether a piece of text reads as a shell command line,
// whatever the tool: not from a list of known programs alone, but from the
// shape of the words. A command is a program (a known runner, a path to an
// executable or script, or a tool's name) followed by arguments that only
// command lines have: flags, paths, assignments, pipes and redirections,
// file names, subcommands. English reads differently: function words ("to",
// "the"), words ending in a comma or a full stop, capitalised words.
//
// How much evidence is needed depends on where the text stands. In a
// place that already says "a command follows" (after a prompt, in a set -x
// trace, in backticks, in a shell code block, under a "run:" key) a
// program and one argument are enough. A bare line of output must show
// more: a known runner or an executable's path with an argument that reads
// as one, or an unknown tool with flags and more command words than
// English ones.

// cmdToken is one word of a command line; quoted words are one token.
type cmdToken struct {
	s      string
	quoted bool
}

// cmdTokens splits c into words, keeping a quoted span ('…', "…") whole.
// It gives up (nil) on more than 64 words: a command line is shorter.
func cmdTokens(c string) []cmdToken { return appendCmdTokens(nil, c) }

// appendCmdTokens is cmdTokens appending to out, so that a caller may
// split into a buffer of its own.
func appendCmdTokens(out []cmdToken, c string) []cmdToken {
	base := len(out)
	for i := 0; i < len(c); {
		for i < len(c) && (c[i] == ' ' || c[i] == '\t') {
			i++
		}
		if i == len(c) {
			break
		}
		j, quoted := i, false
		for j < len(c) && c[j] != ' ' && c[j] != '\t' {
			if q := c[j]; q == '"' || q == '\'' {
				if k := strings.IndexByte(c[j+1:], q); k >= 0 {
					j += k + 2
					quoted = true
					continue
				}
			}
			j++
		}
		if len(out)-base == 64 {
			return out[:base]
		}
		out = append(out, cmdToken{c[i:j], quoted})
		i = j
	}
	return out
}

// cmdPrefixes run the command that follows them: the program is the next
// word that is not one of their own flags.
var cmdPrefixes = map[string]bool{"sudo": true, "nohup": true, "env": true, "exec": true, "time": true,
	"nice": true, "doas": true, "command": true, "xvfb-run": true, "caffeinate": true}

// shellBuiltins are words a shell trace shows that run nothing worth
// recording on their own.
var shellBuiltins = map[string]bool{"set": true, "export": true, "local": true, "declare": true, "shift": true,
	"true": true, "false": true, "return": true, "exit": true, "readonly": true, "unset": true, "trap": true,
	"if": true, "then": true, "read": true, "else": true, "fi": true, "for": true, "while": true, "do": true, "done": true,
	"case": true, "esac": true, "function": true, "[": true, "[[": true, "test": true, "wait": true}

// packageManagers have a "why" subcommand.
var packageManagers = map[string]bool{"yarn": true, "npm": true, "pnpm": true, "bun": true}

// proseWords are English function words: among a line's arguments they
// say it is prose ("make sure the build passes", "go ahead with it").
var proseWords = map[string]bool{
	"a": true, "an": true, "the": true, "to": true, "of": true, "in": true, "on": true, "at": true, "by": true,
	"for": true, "from": true, "with": true, "without": true, "and": true, "or": true, "but": true, "if": true,
	"is": true, "are": true, "was": true, "were": true, "be": true, "been": true, "it": true, "its": true,
	"this": true, "that": true, "these": true, "those": true, "there": true, "than": true, "we": true,
	"you": true, "your": true, "i": true, "he": true, "she": true, "they": true, "our": true, "not": true,
	"so": true, "as": true, "when": true, "which": true, "who": true, "what": true, "how": true, "why": true,
	"where": true, "will": true, "would": true, "should": true, "could": true, "can": true, "may": true,
	"might": true, "must": true, "has": true, "have": true, "had": true, "does": true, "did": true,
	"sure": true, "also": true, "please": true, "cannot": true, "just": true, "into": true, "about": true, "because": true,
	"very": true, "too": true, "still": true,
}

// codeWords begin lines of code, not commands.
var codeWords = map[string]bool{"raise": true, "return": true, "import": true, "from": true, "def": true,
	"class": true, "assert": true, "print": true, "const": true, "let": true, "var": true, "func": true,
	"elif": true, "except": true, "throw": true, "new": true, "await": true, "async": true, "yield": true,
	"lambda": true, "del": true, "global": true, "select": true, "insert": true, "update": true,
	"delete": true, "create": true, "drop": true, "alter": true, "package": true, "type": true,
	"struct": true, "interface": true, "enum": true, "pub": true, "fn": true, "impl": true, "use": true,
	"mod": true, "public": true, "private": true, "static": true, "void": true, "int": true, "defer": true,
	"match": true, "when": true, "val": true, "fun": true, "include": true, "require": true}

// trivialPrograms only move about or print: alone ("+ cd /app", "+ echo
// done") they are no command worth recording; in a line with a pipe,
// a redirection or another command they are part of one.
var trivialPrograms = map[string]bool{"cd": true, "echo": true, "printf": true, "pwd": true, "sleep": true,
	"clear": true, ":": true}

// codeCall reports whether w is a call in code: a name and an opening
// parenthesis (print(x), RefundError(f"…)), not a shell's $( or <(.
func codeCall(w string) bool {
	k := strings.IndexByte(w, '(')
	return k > 0 && (isAlnum(w[k-1]) || w[k-1] == '_')
}

// notPrograms are words that begin English phrases and log lines and are
// no program's name ("use --force to override", "unused variable -x").
var notPrograms = map[string]bool{
	"use": true, "using": true, "used": true, "see": true, "try": true, "now": true, "get": true,
	"add": true, "remove": true, "set": true, "pass": true, "call": true, "called": true, "returned": true,
	"running": true, "starting": true, "started": true, "finished": true, "done": true, "unused": true,
	"unknown": true, "invalid": true, "missing": true, "failed": true, "error": true, "warning": true,
	"note": true, "hint": true, "info": true, "debug": true, "loaded": true, "active": true, "more": true,
	"most": true, "other": true, "again": true, "once": true, "all": true, "any": true, "no": true,
	"then": true, "here": true, "only": true, "each": true, "every": true, "after": true, "before": true,
	"since": true, "until": true, "run": true, "while": true, "some": true, "option": true, "flag": true, "usage": true,
}

// knownPrograms are programs that take plain words as arguments ("npx
// playwright install", "dotnet tool restore"), beyond the runners of
// inline.go, named here so a bare line of them reads as a command.
var knownPrograms = map[string]bool{
	"apt": true, "apt-get": true, "brew": true, "dnf": true, "yum": true, "apk": true, "pacman": true,
	"conda": true, "mamba": true, "pipx": true, "pnpx": true, "bunx": true, "uvx": true, "nix": true,
	"flutter": true, "dart": true, "ng": true, "nx": true, "turbo": true, "lerna": true, "rush": true,
	"bazel": true, "bazelisk": true, "buck2": true, "ninja": true, "meson": true, "sbt": true, "lein": true,
	"stack": true, "cabal": true, "ghc": true, "zig": true, "nim": true, "crystal": true, "julia": true,
	"rscript": true, "Rscript": true, "R": true, "ansible": true, "ansible-playbook": true, "vagrant": true,
	"packer": true, "pulumi": true, "tofu": true, "terragrunt": true, "az": true, "doctl": true,
	"flyctl": true, "fly": true, "heroku": true, "vercel": true, "netlify": true, "wrangler": true,
	"firebase": true, "eksctl": true, "kind": true, "minikube": true, "k3d": true, "skaffold": true,
	"tilt": true, "kustomize": true, "istioctl": true, "argocd": true, "kubectx": true, "k9s": true,
	"docker-compose": true, "nerdctl": true, "buildah": true, "skopeo": true, "crane": true,
	"openssl": true, "ssh-keygen": true, "gpg": true, "certbot": true, "nginx": true, "caddy": true,
	"supervisorctl": true, "service": true, "launchctl": true, "crontab": true, "pg_dump": true,
	"pg_restore": true, "pg_dumpall": true, "createdb": true, "dropdb": true, "mongosh": true,
	"mongodump": true, "mysqldump": true, "clickhouse-client": true, "duckdb": true, "sqlx": true,
	"prisma": true, "alembic": true, "flyway": true, "liquibase": true, "goose": true, "migrate": true,
	"atlas": true, "sqlc": true, "buf": true, "protoc": true, "mockgen": true, "stringer": true,
	"wire": true, "air": true, "goreleaser": true, "ko": true, "gotestsum": true, "staticcheck": true,
	"govulncheck": true, "dlv": true, "pprof": true, "benchstat": true, "hyperfine": true, "wrk": true,
	"ab": true, "hey": true, "k6": true, "vegeta": true, "locust": true, "jmeter": true, "siege": true,
	"gunicorn": true, "uvicorn": true, "celery": true, "flask": true, "django-admin": true,
	"jupyter": true, "ipython": true, "streamlit": true, "pre-commit": true, "nox": true, "pip3": true,
	"pdm": true, "hatch": true, "rye": true, "pyenv": true, "nvm": true, "volta": true, "fnm": true,
	"asdf": true, "mise": true, "rbenv": true, "rustup": true, "gem": true, "bin/rails": true,
	"artisan": true, "symfony": true, "mvnw": true, "ant": true, "kotlinc": true, "javac": true,
	"swiftc": true, "pod": true, "fastlane": true, "adb": true, "xcrun": true, "west": true,
	"idf.py": true, "esptool.py": true, "platformio": true, "pio": true, "arduino-cli": true,
	"openocd": true, "gdb": true, "lldb": true, "valgrind": true, "strace": true, "ltrace": true,
	"perf": true, "lsof": true, "netstat": true, "ss": true, "ip": true, "dig": true, "nslookup": true,
	"ping": true, "traceroute": true, "nc": true, "telnet": true, "tcpdump": true, "nmap": true,
	"jq": true, "yq": true, "xargs": true, "tee": true, "sort": true, "uniq": true, "tar": true,
	"gzip": true, "gunzip": true, "zip": true, "unzip": true, "chmod": true, "chown": true, "mkdir": true,
	"rm": true, "cp": true, "mv": true, "ln": true, "touch": true, "kill": true, "pkill": true,
	"killall": true, "ps": true, "top": true, "htop": true, "df": true, "free": true, "watch": true,
	"tmux": true, "screen": true, "vim": true, "nvim": true, "code": true, "sed": true, "awk": true,
	"grep": true, "rg": true, "find": true, "fd": true, "cat": true, "ls": true, "head": true, "tail": true,
	"cd": true, "echo": true, "printf": true, "diff": true, "patch": true, "tsc-alias": true, "tsup": true,
	"vite": true, "webpack": true, "esbuild": true, "rollup": true, "parcel": true, "next": true,
	"nuxt": true, "astro": true, "playwright": true, "cypress": true, "mocha": true, "ava": true,
	"prettier": true, "biome": true, "stylelint": true, "tslint": true, "nodemon": true, "pm2": true,
	"ts-node": true, "tsx": true, "clang": true, "clang++": true, "gcc": true, "g++": true, "cc": true,
	"c++": true, "ld": true, "ar": true, "gcc-ar": true, "cargo-nextest": true, "wasm-pack": true,
	"trunk": true, "cross": true, "maturin": true, "isort": true, "flake8": true,
	"pylint": true, "pyright": true, "bandit": true, "coverage": true, "sphinx-build": true,
	"mkdocs": true, "hugo": true, "jekyll": true, "helmfile": true, "velero": true, "vault": true,
	"consul": true, "nomad": true, "etcdctl": true, "nats": true, "rabbitmqctl": true, "kafka-topics": true,
	"pg_ctl": true, "initdb": true,
	"lint-staged": true, "husky": true, "changeset": true, "semantic-release": true, "act": true,
	"glab": true, "hub": true, "svn": true, "hg": true, "git-lfs": true, "shellcheck": true, "shfmt": true,
	"hadolint": true, "trivy": true, "grype": true, "syft": true, "cosign": true, "tflint": true,
	"checkov": true, "conftest": true, "opa": true,
}

// cmdPlace is how strongly the place a text stands in says a command may
// be there.
type cmdPlace uint8

const (
	// bare: a line of output on its own. The program must be known or a
	// path to an executable, with an argument that reads as one, or an
	// unknown tool with flags and more command words than plain ones.
	bare cmdPlace = iota
	// cued: after words that may introduce a command ("…installed
	// with:", a quoted span after "run"). As bare, but a known program
	// may take plain words only ("npx playwright install").
	cued
	// inContext: where a command is expected (after a prompt, in a set -x
	// trace, in backticks, in a shell block, under a "run:" key). An
	// unknown tool needs only one argument that reads as one.
	inContext
)

// commandLine reports whether c reads as a command line at a place of the
// given strength (see the file comment).
func commandLine(c string, place cmdPlace) bool {
	c = strings.TrimSpace(c)
	if len(c) < 3 || len(c) > 2000 || strings.IndexByte(c, '\n') >= 0 {
		return false
	}
	if c[0] == '(' {
		// a subshell, "(cd web && npm ci)", not a parenthesis, "(elixir 1.16.0) lib/…"
		e := strings.IndexByte(c, ')')
		if e < 0 || !strings.ContainsAny(c[:e], ";&|") {
			return false
		}
		c = c[1:]
	}
	var buf [64]cmdToken
	toks := appendCmdTokens(buf[:0], c)
	if len(toks) < 2 {
		return false
	}
	i := 0
	// environment assignments, PowerShell's "$env:X='…';", and the
	// programs that run the next (sudo -u www-data …)
	for i < len(toks) {
		w := toks[i].s
		switch {
		case assignment(w):
			i++
			continue
		case strings.HasPrefix(w, "$env:") && strings.HasSuffix(w, ";"):
			i++
			continue
		case cmdPrefixes[w]:
			i++
			for i < len(toks) && strings.HasPrefix(toks[i].s, "-") {
				i++
				if i < len(toks) && !strings.HasPrefix(toks[i].s, "-") && (w == "sudo" || w == "nice" || w == "doas") && len(toks[i-1].s) == 2 {
					i++ // sudo -u www-data
				}
			}
			continue
		}
		break
	}
	if i >= len(toks)-1 {
		return false // a program alone, or assignments only
	}
	prog := toks[i].s
	if toks[i].quoted || shellBuiltins[prog] || codeWords[prog] {
		return false
	}
	if last := toks[len(toks)-1]; !last.quoted && last.s == "{" {
		return false // a block's opening line: `resource "aws_s3_bucket" "logs" {`, `deploy() {`
	}
	known := runners[prog] || knownPrograms[prog]
	kind := programShape(prog)
	if known && kind == notProgram {
		kind = toolName
	}
	if kind == notProgram || !known && kind == toolName && (proseWords[prog] || notPrograms[prog] || participle(prog)) {
		return false
	}
	var features, ops, plain, capitals, numbers, versions int
	for k, t := range toks[i+1:] {
		w := t.s
		if t.quoted {
			features++
			continue
		}
		switch {
		case w == "|" || w == "||" || w == "&&" || w == ";" || w == "&" || w == ">" || w == ">>" || w == "<" ||
			strings.HasPrefix(w, "2>") || strings.HasPrefix(w, ">") || strings.HasPrefix(w, "1>"):
			ops++
		case w == "=" || w == "==" || w == "!=" || w == ":=" || w == "+=" || w == "=>" || w == "->":
			return false // code: order = Order(…), left == right
		case w == "--":
			// the end of the flags: "cargo clippy -- -D warnings"
		case strings.HasPrefix(w, "-"):
			if len(w) > 1 && (isAlpha(w[1]) || w[1] == '-' && len(w) > 2 && isAlpha(w[2])) {
				features++
			} else if len(w) == 1 && ops > 0 {
				features++ // standard input in a pipeline: "| aws s3 cp - s3://…"
			} else if len(w) == 1 {
				return false // a dash between words: prose
			} else {
				numbers++
			}
		case proseEnd(w):
			return false
		case k == 0 && w == "why" && packageManagers[prog]:
			features++ // yarn why left-pad: which package pulls it in
		case proseWords[strings.ToLower(w)]:
			return false
		case !hasLetter(w) && !strings.ContainsAny(w, "/*~") && w != ".":
			numbers++ // figures, symbols: a progress bar, a table's rule
		case codeCall(w):
			return false // code: RefundError(f"…"), print(x)
		case version(w):
			numbers++
			versions++ // git bisect start HEAD v2.3.0
		case w == "*" || location(w):
			numbers++ // a product, a version (v0.9.102), a place in a file (total.ts:12:22)
		case w[0] == '.' && !strings.HasPrefix(w, "./") && !strings.HasPrefix(w, "../") && !strings.HasPrefix(w, ".#") && w != "." ||
			w[0] == '[' || w[0] == '(':
			numbers++ // pytest's "..F..F." and "[100%]", a parenthesis
		case strings.ContainsAny(w, "/\\=:@*$~{}") || fileName(w):
			features++
		case isLowerWord(w) || hyphenWord(w):
			plain++ // a subcommand, or a word: text-muted
		case isUpper(w[0]) && len(w) > 1 && (isLower(w[1]) || upperWord(w)):
			if k == 0 || !strings.HasPrefix(toks[i+k].s, "-") {
				capitals++
			}
		case isDigit(w[0]):
			numbers++
		default:
			features++ // a name with digits, dots or underscores: deps.get, v1.8.2, app_test
		}
	}
	if capitals > 1 && kind != psCmdlet || trivialPrograms[prog] && ops == 0 {
		return false
	}
	if lookCommands[prog] && features+plain+ops == flagsOf(toks[i+1:]) {
		return false // "cat -n": a reading command with nothing to read
	}
	switch {
	case known || kind == execPath:
		if features+ops > 0 {
			return true
		}
		// only words: "npx playwright install", "dotnet tool restore"
		return place > bare && numbers == versions && versions <= 1 && capitals <= 1 && plain > 0 && plain <= 4
	case place == inContext:
		return features > 0 || kind == psCmdlet
	default:
		// an unknown tool on a bare line: flags, and more command words
		// than plain ones
		return flagsOf(toks[i+1:]) > 0 && features >= plain && capitals == 0
	}
}

// flagsOf counts the flags among a command line's words.
func flagsOf(toks []cmdToken) int {
	n := 0
	for _, t := range toks {
		if !t.quoted && len(t.s) > 1 && t.s[0] == '-' && (isAlpha(t.s[1]) || t.s[1] == '-' && len(t.s) > 2 && isAlnum(t.s[2])) {
			n++
		}
	}
	return n
}

// programShape is what the first word of a command line looks like.
type programKind int

const (
	notProgram programKind = iota
	toolName               // a bare name: goreleaser, sqlx, node_exporter
	execPath               // a path to an executable or script: ./run, /usr/bin/cc, bin/rails, deploy.sh
	psCmdlet               // a PowerShell cmdlet: Get-ChildItem
)

// ownScriptExts are the extensions of scripts run by their bare name
// (deploy.sh, manage.py); a bare "server.js" or "Node.js" is a name.
var ownScriptExts = map[string]bool{"sh": true, "bash": true, "zsh": true, "py": true, "pl": true, "rb": true,
	"exe": true, "bat": true, "cmd": true, "ps1": true, "phar": true}

// scriptExts are the extensions of files run as programs.
var scriptExts = map[string]bool{"sh": true, "bash": true, "zsh": true, "py": true, "pl": true, "rb": true,
	"js": true, "mjs": true, "cjs": true, "ts": true, "exe": true, "bat": true, "cmd": true, "ps1": true,
	"phar": true, "php": true, "jar": false}

func programShape(w string) programKind {
	if w == "" || strings.HasSuffix(w, ":") || strings.HasSuffix(w, ",") || strings.Contains(w, "://") {
		return notProgram
	}
	ext := ""
	base := w
	if k := strings.LastIndexAny(w, "/\\"); k >= 0 {
		base = w[k+1:]
	}
	if k := strings.LastIndexByte(base, '.'); k > 0 {
		ext = base[k+1:]
	}
	if base == "" {
		return notProgram // a directory
	}
	if strings.ContainsAny(w, "/\\") {
		switch {
		case (strings.HasPrefix(w, "./") || strings.HasPrefix(w, "../")) && !strings.ContainsAny(w, ":(,"):
			return execPath // run by its path, whatever its name: ./migrations/0053_snapshot.sql --dry-run
		case ext != "" && !scriptExts[ext]:
			return notProgram // a file: config.toml, main.c.o
		case strings.HasPrefix(w, "./") || strings.HasPrefix(w, "../") || strings.HasPrefix(w, "~/") ||
			strings.HasPrefix(w, ".\\") || ownScriptExts[ext] || strings.Contains(w, "bin/") ||
			strings.Contains(w, "bin\\") || strings.Contains(w, "/release/") || strings.Contains(w, "/debug/"):
			return execPath
		case strings.HasPrefix(w, "/") && len(w) > 1 && isAlpha(w[1]):
			return toolName // another absolute path: a program, or a route, a directory
		}
		return notProgram
	}
	if ownScriptExts[ext] && (isLower(w[0]) || ext == "ps1" || ext == "bat" || ext == "cmd" || ext == "exe") {
		return execPath // deploy.sh, manage.py, docker-entrypoint.sh
	}
	if k := strings.IndexByte(w, '-'); k > 0 && isUpper(w[0]) && k+1 < len(w) && isUpper(w[k+1]) {
		for i := 0; i < len(w); i++ {
			if !isAlpha(w[i]) && w[i] != '-' {
				return notProgram
			}
		}
		return psCmdlet // Get-ChildItem, Remove-Item
	}
	if len(w) < 2 || len(w) > 40 || !isLower(w[0]) {
		return notProgram
	}
	for i := 1; i < len(w); i++ {
		if c := w[i]; !isLower(c) && !isDigit(c) && c != '-' && c != '_' && c != '.' && c != '+' {
			return notProgram
		}
	}
	if ext != "" && !strings.Contains(w, "-") {
		return notProgram // a file name or a dotted identifier: config.yaml, os.path
	}
	return toolName
}

// assignment reports whether w is an environment assignment: NAME=value.
func assignment(w string) bool {
	k := strings.IndexByte(w, '=')
	if k <= 0 {
		return false
	}
	for i := 0; i < k; i++ {
		if c := w[i]; !isAlnum(c) && c != '_' || i == 0 && isDigit(c) {
			return false
		}
	}
	return true
}

// proseEnd reports whether a word ends as a word of a sentence does: in a
// comma, a full stop, a question or exclamation mark or a colon, after a
// letter ("deploy,", "passes.", "with:"), and is no path or name.
func proseEnd(w string) bool {
	n := len(w)
	if n < 2 || strings.ContainsAny(w, "/=") {
		return false
	}
	switch w[n-1] {
	case ',':
		return true
	case '.', '?', '!', ':':
		return isAlpha(w[n-2]) && !strings.Contains(w[:n-1], ".") && !strings.Contains(w[:n-1], ":")
	}
	return false
}

// participle reports whether an unknown word ends as an English
// participle does (downloading, received, uploaded): a log line's verb,
// not a program.
func participle(w string) bool {
	return len(w) > 4 && isLowerWord(w) && (strings.HasSuffix(w, "ing") || strings.HasSuffix(w, "ed"))
}

// version reports whether w is a version: v0.9.102, 1.16.0.
func version(w string) bool {
	w = strings.TrimPrefix(w, "v")
	if w == "" || !isDigit(w[0]) || strings.Count(w, ".") < 1 {
		return false
	}
	for i := 0; i < len(w); i++ {
		if !isDigit(w[i]) && w[i] != '.' {
			return false
		}
	}
	return true
}

// location reports whether w is a place in a file: a file name with a
// line number after a colon (total.ts:12:22, main.go:40:).
func location(w string) bool {
	k := strings.IndexByte(w, ':')
	return k > 0 && k+1 < len(w) && isDigit(w[k+1]) && fileName(w[:k])
}

// hyphenWord reports whether w is lower-case words joined by hyphens.
func hyphenWord(w string) bool {
	if !strings.Contains(w, "-") || w[0] == '-' || w[len(w)-1] == '-' {
		return false
	}
	for i := 0; i < len(w); i++ {
		if !isLower(w[i]) && w[i] != '-' {
			return false
		}
	}
	return true
}

// upperWord reports whether w is a word in capitals: PATTERN, FILE.
func upperWord(w string) bool { return every(w, isUpper) }

// hasLetter reports whether w holds an ASCII letter.
func hasLetter(w string) bool { return !every(w, func(c byte) bool { return !isAlpha(c) }) }

// isLowerWord reports whether w is a word of lower-case letters only.
func isLowerWord(w string) bool { return every(w, isLower) }

// fileName reports whether w names a file by its extension: main.go,
// tsconfig.build.json, app.wsgi.
func fileName(w string) bool {
	k := strings.LastIndexByte(w, '.')
	if k <= 0 || k == len(w)-1 || len(w)-k > 6 {
		return false
	}
	for i := k + 1; i < len(w); i++ {
		if !isAlnum(w[i]) {
			return false
		}
	}
	return isAlpha(w[k+1])
}

// cmdKeys are keys whose value is a command: a CI step's "run:", a
// compose service's "command:", a hook's "entry:", a unit's ExecStart=.
var cmdKeys = map[string]bool{"run": true, "script": true, "command": true, "cmd": true, "entry": true,
	"entrypoint": true, "exec": true, "execstart": true, "execstartpre": true, "execstartpost": true,
	"execstop": true, "execreload": true, "commands": true, "args": true, "before_script": true,
	"after_script": true, "test": true, "build": true, "start": true, "serve": true, "dev": true,
	"lint": true, "deploy": true, "release": true, "install": true, "prepare": true, "check": true}

// outputCommand returns the command a line of a tool's output shows, if
// it shows one: after a shell prompt, as a key's value, as the last column
// of a process listing or a history, under a line that introduces it
// ("…can be installed with:"), or as a bare line that reads as one (a
// make recipe, a CI script's line).
func (s *scanner) outputCommand(line, t string) (string, bool) {
	t = unbox(t)
	if c, ok := promptCommand(t); ok {
		return c, commandLine(c, inContext)
	}
	if c, ok := leadCommand(t); ok {
		return c, true
	}
	if k := strings.Index(t, "/bin/sh -c "); k >= 0 {
		// docker history's CREATED BY column, a process listing's sh -c
		c := strings.TrimSpace(t[k+len("/bin/sh -c "):])
		if e := strings.Index(c, "  "); e > 0 {
			c = c[:e] // the next column
		}
		if !strings.HasPrefix(c, "#(nop)") && commandLine(c, cued) {
			return c, true
		}
	}
	if c, ok := strings.CutPrefix(t, "- "); ok && shellDashC(strings.TrimSpace(s.prev)) {
		// a container's args: "- /bin/sh", "- -c", "- pg_dump … | aws s3 cp - …"
		c = strings.TrimSpace(c)
		if len(c) > 1 && (c[0] == '"' || c[0] == '\'') && c[len(c)-1] == c[0] {
			c = c[1 : len(c)-1]
		}
		if commandLine(c, cued) {
			return c, true
		}
	}
	if c, place, ok := keyCommand(t); ok && commandLine(c, place) {
		return c, true
	}
	if c, ok := columnCommand(t); ok && commandLine(c, cued) {
		return c, true
	}
	if prev := unbox(s.prev); introducesCommand(prev) {
		if p, ok := sharedPrefix(prev, t); ok {
			// "wandb: You can sync this run … by running:" then
			// "wandb: wandb sync /scratch/…": the tool's prefix on both
			prev, t = prev[p:], t[p:]
		}
		if commandLine(t, cued) || namesCommand(prev) && (commandLine(t, inContext) || wordsCommand(t)) {
			return t, true
		}
	}
	if !strings.HasPrefix(t, "diff --git ") && commandLine(t, bare) {
		return t, true // not a diff's header
	}
	return "", false
}

// shellDashC reports whether a YAML list item passes -c to a shell, so
// that the next item is the shell's command.
func shellDashC(prev string) bool {
	switch strings.Trim(strings.TrimPrefix(prev, "- "), `"'`) {
	case "-c", "-lc", "-ec", "-xc", "-euc", "-exc":
		return strings.HasPrefix(prev, "- ")
	}
	return false
}

// leadCommand returns the command of an output line that names it after
// a lead saying a command ran or failed: "Executing task: dotnet build …",
// "runner: executing: ffmpeg -y -i …", "Error: Command failed: npm run
// build", "Command failed with exit code 2: tsc --noEmit", "Command failed
// with status (1): [bundle exec rubocop]", "[exit 123] find . -name …",
// npm's "npm ERR! command sh -c node-gyp rebuild". What follows the lead
// must read as a command where one is expected (cued).
func leadCommand(t string) (string, bool) {
	for _, p := range []string{"npm ERR! ", "npm error "} {
		if rest, ok := strings.CutPrefix(t, p); ok {
			if c, ok := strings.CutPrefix(rest, "command "); ok && commandLine(c, cued) {
				return strings.TrimSpace(c), true
			}
			return "", false
		}
	}
	if c, ok := hintRun(t); ok {
		return c, true
	}
	if rest, ok := strings.CutPrefix(t, "[exit "); ok {
		if e := strings.IndexByte(rest, ']'); e > 0 && allDigits(rest[:e]) {
			c := strings.TrimSpace(rest[e+1:])
			return c, commandLine(c, cued)
		}
	}
	for off := 0; off < len(t); {
		k := strings.Index(t[off:], ": ")
		if k < 0 {
			break
		}
		k += off
		off = k + 2
		if !commandLead(t[:k]) {
			continue
		}
		c := strings.TrimRight(strings.TrimSpace(t[k+2:]), ".")
		if len(c) > 2 && c[0] == '[' && c[len(c)-1] == ']' {
			c = c[1 : len(c)-1] // rake: "Command failed with status (1): [rubocop]"
		}
		if commandLine(c, cued) {
			return c, true
		}
	}
	return "", false
}

// hintRun returns the command a tool's hint tells to run, written
// without quotes: "To apply migrations in production run prisma migrate
// deploy.", "Run go mod tidy to update go.sum.". The command runs from the
// word after "run" to the end of the sentence or to the "to"/"for" that
// says what it is for, and must read as one where one is expected.
func hintRun(t string) (string, bool) {
	if strings.ContainsAny(t, "`'\"") {
		return "", false // quoted: see quotedCommands
	}
	for off := 0; off < len(t); {
		k := strings.Index(t[off:], "run ")
		if k < 0 {
			k = strings.Index(t[off:], "Run ")
		}
		if k < 0 {
			break
		}
		k += off
		off = k + 4
		if k > 0 && t[k-1] != ' ' || k > 0 && !hintBefore(t[:k]) {
			continue
		}
		c := t[k+4:]
		for _, p := range []string{"the following command: ", "the following commands: ", "the following: ", "this command: "} {
			c = strings.TrimPrefix(c, p) // "run the following command: dotnet workload restore"
		}
		if e := strings.Index(c, ". "); e >= 0 {
			c = c[:e]
		}
		if e := strings.Index(c, " ["); e > 0 {
			c = c[:e] // MSBuild's " [/src/App.csproj]" after its message
		}
		c = strings.TrimRight(c, ".!")
		for _, w := range []string{" to ", " for ", " and then ", " then ", " or ", " if "} {
			if e := strings.Index(c, w); e > 0 {
				c = c[:e]
			}
		}
		if len(strings.Fields(c)) >= 2 && commandLine(c, cued) {
			return c, true
		}
	}
	return "", false
}

// hinted returns, for command c that a line of a tool's output suggests,
// the sentence of the line that holds it when that sentence says what it
// is for ("Run `flutter doctor --android-licenses` to accept the SDK
// licenses.", "To update snapshots run `cargo insta review`", "To install
// these workloads, run the following command: dotnet workload restore"):
// the hint goes with the command, as printed. Otherwise it returns c.
func hinted(line, c string) string {
	i := strings.Index(line, c)
	if i < 0 || len(line) == len(c) {
		return c
	}
	start := 0
	for k := i - 2; k > 0; k-- {
		if strings.IndexByte(".:!;", line[k]) >= 0 && line[k+1] == ' ' && k+2 < i && isUpper(line[k+2]) {
			start = k + 2
			break
		}
	}
	for start < i && !isAlpha(line[start]) {
		start++ // a box's "│ ", a list's "- ", a quote's "> "
	}
	end := len(line)
	rest := line[i+len(c):]
	for _, stop := range []string{". ", " [", " (", "; "} {
		if e := strings.Index(rest, stop); e >= 0 && i+len(c)+e < end {
			end = i + len(c) + e
			if stop == ". " {
				end++
			}
		}
	}
	h := strings.TrimSpace(line[start:end])
	if len(h) > 200 || !strings.Contains(h, c) {
		return c
	}
	outside := strings.Fields(strings.Replace(h, c, " ", 1))
	words := 0
	for _, w := range outside {
		if isAlpha(w[0]) {
			words++
		}
	}
	low := strings.ToLower(strings.Replace(h, c, " ", 1))
	if words < 2 || !hasAnyWord(low, []string{"run", "use", "with", "execute", "try", "reproduce", "rerun", "re-run",
		"install", "update", "apply", "invoke", "type"}) {
		return c
	}
	return h
}

// hintBefore reports whether the words before "run" make the sentence a
// hint to the reader: "To apply the migrations run", "please run", "you
// can run", "Try: run".
func hintBefore(b string) bool {
	low := strings.ToLower(strings.TrimRight(b, " ,:"))
	for _, l := range []string{"please", "you can", "you may", "you should", "you need to", "try to", "try", "hint", "tip", "to fix this", "to fix", "then"} {
		if strings.HasSuffix(low, l) && (len(low) == len(l) || !isAlpha(low[len(low)-len(l)-1])) {
			return true
		}
	}
	// "To apply migrations in production run …": an infinitive of
	// purpose opens the sentence
	return strings.HasPrefix(low, "to ") && !strings.Contains(low, ".")
}

// commandLead reports whether the text before a colon ends with words
// that say a command follows, a status figure allowed after them ("with
// exit code 2", "with status (1)").
func commandLead(before string) bool {
	b := strings.TrimRight(before, " 0123456789()")
	for _, l := range []string{"executing", "executing task", "executing command", "running command", "command failed",
		"exit code", "exited with code", "exit status", "failed with status", "failed with code", "cmd"} {
		if n := len(b) - len(l); n >= 0 && strings.EqualFold(b[n:], l) && (n == 0 || !isAlpha(b[n-1])) {
			return true
		}
	}
	return false
}

// blockCommand adds the command of a message's line that stands apart as
// one: indented as a block ("    terraform plan -target=module.vpc"),
// after a prompt, in a history's listing, or alone after a line that
// ends with a colon ("My deploy step is:"). It reports whether it did.
func (s *scanner) blockCommand(line, t string) bool {
	indented := strings.HasPrefix(line, "    ") || strings.HasPrefix(line, "\t")
	c, ok := promptCommand(t)
	if !ok {
		if col, isCol := columnCommand(t); isCol && (indented || strings.HasPrefix(line, " ")) {
			c, ok = col, true
		}
	}
	if !ok && (indented || introducesCommand(s.prev) && strings.HasSuffix(s.prev, ":")) {
		c, ok = t, true
	}
	if !ok && commandLine(t, bare) && flagsOf(cmdTokens(t)) > 0 {
		c, ok = t, true // a line of its own: "mvn -pl billing -am clean verify -DskipITs"
	}
	if item := listItemText(t); !ok && item != "" && commandLine(item, bare) && flagsOf(cmdTokens(item)) > 0 {
		c, ok = item, true // a step of a list: "2. npm version minor -m … && git push --follow-tags"
	}
	if !ok || !commandLine(c, inContext) {
		return false
	}
	s.add(KindCommand, strings.TrimSuffix(c, " \\"))
	return true
}

// listItemText returns the text of a list item after its mark ("2. ",
// "3) ", "- ", "* "), or "" for a line that is no list item (nor a diff's
// or a trace's "+ " line).
func listItemText(t string) string {
	if !listItem(t) || strings.HasPrefix(t, "+ ") {
		return ""
	}
	return strings.TrimSpace(t[strings.IndexByte(t, ' ')+1:])
}

// unbox takes off the frame a tool draws around a message: "║ … ║", "│ … │".
func unbox(t string) string {
	for _, r := range []string{"║", "│", "┃", "|"} {
		if strings.HasPrefix(t, r) && strings.HasSuffix(t, r) && len(t) > 2*len(r) {
			return strings.TrimSpace(t[len(r) : len(t)-len(r)])
		}
	}
	return t
}

// introducesCommand reports whether a line introduces a command on the
// next: it ends with a colon ("…can be installed with:", "Script
// contents:") or with a word such as use or run ("…set the remote as
// upstream, use").
func introducesCommand(prev string) bool {
	if prev == "" {
		return false
	}
	if prev[len(prev)-1] == ':' {
		return true
	}
	for _, w := range []string{" use", " run", " with", " command", " commands", " try"} {
		if len(prev) >= len(w) && strings.EqualFold(prev[len(prev)-len(w):], w) {
			return true
		}
	}
	return false
}

// namesCommand reports whether a line that introduces the next one says
// that it is a command to run: "Please install them with the following
// command:", "You can sync this run to the cloud by running:", "To add
// another node to this Ray cluster, run", "try repairing the migration
// history table:". What follows is then read as a command is where one is
// expected.
func namesCommand(prev string) bool {
	low := strings.ToLower(prev)
	if !strings.HasSuffix(low, ":") && !strings.HasSuffix(low, " run") && !strings.HasSuffix(low, " running") {
		return false
	}
	return hasAnyWord(low, []string{"run", "running", "command", "commands", "execute", "executing", "install",
		"try", "reproduce", "invoke", "following", "repairing", "fix", "apply", "update"})
}

// wordsCommand reports whether a line introduced as a command is one made
// of lower-case words only: "supabase db pull", "flyctl deploy".
func wordsCommand(t string) bool {
	f := strings.Fields(t)
	if len(f) < 2 || len(f) > 6 || proseWords[f[0]] || notPrograms[f[0]] || codeWords[f[0]] || shellBuiltins[f[0]] {
		return false
	}
	for _, w := range f {
		if !isLowerWord(w) && !hyphenWord(w) || proseWords[w] {
			return false
		}
	}
	return true
}

// sharedPrefix returns the length of a tool's "name: " prefix that two
// lines share ("wandb: ", "remote: "), when they do.
func sharedPrefix(a, b string) (int, bool) {
	k := strings.Index(a, ": ")
	if k <= 0 || k > 20 || strings.ContainsAny(a[:k], " \t") || !strings.HasPrefix(b, a[:k+2]) {
		return 0, false
	}
	return k + 2, true
}

// promptCommand returns what follows a shell prompt at the start of t:
// "$ ", "% ", "❯ ", "λ ", or a prompt naming its user, host or directory
// ("dev@box:~/app$ ", "[root@web01 app]# ", "(venv) $ ", "PS C:\app> ",
// "C:\app>").
func promptCommand(t string) (string, bool) {
	for _, p := range []string{"$ ", "% ", "❯ ", "λ ", "# ", "> ", ">"} {
		k := strings.Index(t, p)
		if k < 0 || k > 120 {
			continue
		}
		head := strings.TrimSpace(t[:k])
		if head == "" && p != "# " && p != ">" && p != "> " || promptHead(head, p) {
			c := strings.TrimSpace(t[k+len(p):])
			return c, c != ""
		}
	}
	return "", false
}

// promptHead reports whether head, the text before a prompt's sign, reads
// as a prompt's: a user, host or directory.
func promptHead(head, sign string) bool {
	if head == "" {
		return false
	}
	for strings.HasPrefix(head, "(") { // "(venv) ", "(base) "
		e := strings.IndexByte(head, ')')
		if e < 0 {
			return false
		}
		head = strings.TrimSpace(head[e+1:])
	}
	if head == "" {
		return sign == "$ " || sign == "% "
	}
	if strings.HasPrefix(head, "PS ") && (sign == "> " || sign == ">") {
		return strings.Contains(head, ":\\") || strings.Contains(head, "~")
	}
	if sign == ">" || sign == "> " {
		// cmd.exe: "C:\app>"
		return len(head) > 2 && isAlpha(head[0]) && head[1] == ':' && head[2] == '\\' && !strings.Contains(head, " ")
	}
	if head == "#" {
		return sign == "$ " // a commented prompt: "#     $ conda activate ml"
	}
	if f := strings.Fields(head); len(f) > 1 && strings.Contains(f[0], "@") && !strings.Contains(f[0], ".") {
		return true // fish: "dev@box ~/s/tally (main)> "
	}
	if f := strings.Fields(head); len(f) == 2 && sign == "$ " && strings.Contains(f[0], "/") && isLowerWord(strings.ReplaceAll(f[1], ":", "")) {
		return true // pnpm -r: "packages/api test$ vitest run"
	}
	if sh, ver, ok := strings.Cut(head, "-"); ok && (sh == "sh" || sh == "bash" || sh == "zsh") && version(ver) {
		return true // a shell's own prompt: "bash-5.2$ ", "sh-5.2# "
	}
	if head[0] == '[' && head[len(head)-1] == ']' {
		return strings.Contains(head, "@")
	}
	if strings.ContainsAny(head, " \t") {
		return false
	}
	return strings.Contains(head, "@") || strings.HasSuffix(head, ":~") || strings.Contains(head, ":~/") || strings.Contains(head, ":/")
}

// keyCommand returns the value of a key that holds a command: YAML's
// "run: …" (and "- run: …"), a Dockerfile's RUN, CMD or ENTRYPOINT, a
// unit's ExecStart=…, sudo's COMMAND=…, cron's "CMD (…)", a JSON
// "script": "…" pair, a Procfile's "web: …". inContext says the key is one
// of cmdKeys; any other key's value must read as a command by itself.
func keyCommand(t string) (c string, place cmdPlace, ok bool) {
	t = strings.TrimPrefix(t, "- ")
	for _, ins := range []string{"RUN ", "CMD ", "ENTRYPOINT "} {
		if rest, found := strings.CutPrefix(t, ins); found {
			if strings.HasPrefix(rest, "[") {
				return "", bare, false // exec form: a JSON array
			}
			for strings.HasPrefix(rest, "--") {
				// RUN's own flags: "RUN --mount=type=cache,target=/root/.cache/uv uv sync …"
				sp := strings.IndexByte(rest, ' ')
				if sp < 0 || !strings.Contains(rest[:sp], "=") {
					break
				}
				rest = strings.TrimLeft(rest[sp:], " ")
			}
			return strings.TrimSpace(rest), inContext, true
		}
	}
	if k := strings.Index(t, "CMD ("); k >= 0 && strings.HasSuffix(t, ")") {
		return strings.TrimSpace(t[k+5 : len(t)-1]), inContext, true // cron
	}
	if k := strings.Index(t, "COMMAND="); k >= 0 {
		return strings.TrimSpace(t[k+8:]), inContext, true // sudo's log
	}
	if k := strings.Index(t, "Exec"); k >= 0 {
		if e := strings.IndexByte(t[k:], '='); e > 4 && e < 20 && isLowerWord(strings.ToLower(t[k+4:k+e])) {
			rest := t[k+e+1:]
			if p := strings.Index(rest, " (code="); p > 0 {
				rest = rest[:p] // systemctl status: "Process: 5512 ExecStart=… (code=exited, …)"
			}
			return strings.TrimSpace(rest), inContext, true
		}
	}
	k := strings.IndexAny(t, ":=")
	if k <= 0 || k > 40 || k+1 >= len(t) {
		return "", bare, false
	}
	key := strings.Trim(t[:k], `"' `)
	for i := 0; i < len(key); i++ {
		if c := key[i]; !isAlnum(c) && c != '_' && c != '-' && c != '.' && c != ':' {
			return "", bare, false
		}
	}
	if key == "" {
		return "", bare, false
	}
	v := strings.TrimSpace(t[k+1:])
	if t[k] == ':' && t[k+1] != ' ' {
		return "", bare, false // a URL's or a location's colon
	}
	v = strings.TrimSuffix(v, ",")
	if len(v) > 1 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
		v = v[1 : len(v)-1]
	}
	if cmdKeys[strings.ToLower(key)] {
		return v, inContext, v != ""
	}
	if t[k] == '=' {
		return "", bare, false // an environment assignment before a command: GOOS=linux go build …
	}
	return v, bare, v != ""
}

// columnCommand returns the tail of a line of columns that starts with a
// command: a process listing's (ps, pgrep -a, top -c), after a user name
// and numbers; a shell history's, after its number (and time); a
// crontab's, after its schedule. At least one column must precede it, all
// figures, times or a process state but for a user name first.
func columnCommand(t string) (string, bool) {
	cols, words := 0, 0
	for i := 0; i < len(t); {
		var j int
		i, j = nextField(t, i)
		if i == j {
			break
		}
		w := t[i:j]
		switch {
		case columnValue(w):
			cols++
		case cols == 0 && words == 0 && isLower(w[0]) && j+1 < len(t):
			words++ // a user name
		default:
			if cols == 0 {
				return "", false
			}
			return t[i:], true
		}
		i = j
	}
	return "", false
}

// columnValue reports whether w is a column of a listing before its
// command: a figure, a time or date, a schedule field (*/5), a process
// state (S, Ssl, R+), a terminal (pts/0, ?).
func columnValue(w string) bool {
	if w == "?" || strings.HasPrefix(w, "pts/") || strings.HasPrefix(w, "tty") {
		return true
	}
	if len(w) == 5 && isUpper(w[0]) && isLower(w[1]) && isLower(w[2]) && isDigit(w[3]) && isDigit(w[4]) {
		return true // ps's START of a process older than a day: "May13"
	}
	if isDigit(w[0]) || w[0] == '*' || w[0] == '@' && len(w) > 1 && isLower(w[1]) && len(w) < 10 {
		for i := 0; i < len(w); i++ {
			if c := w[i]; !isDigit(c) && !strings.ContainsRune("*/,-:.%+TZgmkKMGbBpP", rune(c)) {
				return false
			}
		}
		return true
	}
	if len(w) <= 3 && isUpper(w[0]) {
		for i := 1; i < len(w); i++ {
			if !strings.ContainsRune("slN+<L", rune(w[i])) {
				return false
			}
		}
		return strings.ContainsRune("SRDZTI", rune(w[0]))
	}
	return false
}

const (
	fenceShell = 1 + iota
	fencePlain
	fenceCode
)

// shellLanguages are the languages of code blocks that hold commands.
var shellLanguages = map[string]bool{"bash": true, "sh": true, "shell": true, "console": true, "zsh": true,
	"fish": true, "terminal": true, "powershell": true, "ps1": true, "pwsh": true, "ps": true, "cmd": true,
	"bat": true, "batch": true, "shell-session": true, "shellsession": true, "sh-session": true}

// plainFence reports whether t opens a code block with no language, or a
// text one: "```", "```text", "~~~".
func plainFence(t string) bool {
	lang := strings.ToLower(strings.TrimSpace(strings.TrimLeft(t, "`~")))
	return lang == "" || lang == "text" || lang == "txt" || lang == "log" || lang == "console"
}

// shellFence reads a line of a message against its code blocks: it opens
// and closes them, and in a shell block (or one with no language) adds
// each line that reads as a command, past its prompt. It reports whether
// the line belonged to a block (or was its fence), so that the caller does
// not read it as prose.
func (s *scanner) shellFence(t string) bool {
	if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
		if s.fence != 0 {
			s.fence = 0
			return true
		}
		lang := strings.ToLower(strings.TrimSpace(strings.TrimLeft(t, "`~")))
		if sp := strings.IndexAny(lang, " {"); sp >= 0 {
			lang = lang[:sp]
		}
		switch {
		case shellLanguages[lang]:
			s.fence = fenceShell
		case lang == "" || lang == "text" || lang == "txt":
			s.fence = fencePlain
			s.fenceIntro = strings.HasSuffix(strings.TrimSpace(s.prev), ":")
		default:
			s.fence = fenceCode
		}
		return true
	}
	switch s.fence {
	case 0:
		return false
	case fenceCode:
		// a Dockerfile's RUN, a workflow's run:, a compose file's command:
		if c, place, ok := keyCommand(t); ok && place == inContext && commandLine(c, inContext) {
			s.add(KindCommand, c)
		}
		return true
	}
	c, prompted := promptCommand(t)
	if !prompted {
		c = t
		if col, ok := columnCommand(t); ok && commandLine(col, inContext) {
			c, prompted = col, true // a history: "  88  rsync -avz …"
		}
	}
	if strings.HasPrefix(c, "#") || strings.HasPrefix(c, "//") {
		return true // a comment
	}
	place := cued // a plain block: a known program may take plain words
	if prompted || s.fence == fenceShell {
		place = inContext
	}
	if commandLine(c, place) || place == cued && s.fenceIntro && flagsOf(cmdTokens(c)) > 0 && commandLine(c, inContext) {
		// a plain block under "… when deploying that one function:"
		// whose line passes flags is the command the sentence gives
		s.add(KindCommand, strings.TrimSuffix(strings.TrimSpace(c), " \\"))
	}
	return true
}

// quotePlace is how strongly the words before a quoted span say it is a
// command: cued after a word such as run, use, try, command or with
// ("Command 'sphinx-build …' returned", "run \"git rebase --continue\""),
// else bare (a log's msg="slow query attempt=3" is none).
func quotePlace(before string) cmdPlace {
	w := strings.TrimRight(before, " :")
	if k := strings.LastIndexAny(w, " \t("); k >= 0 {
		w = w[k+1:]
	}
	switch strings.ToLower(w) {
	case "run", "running", "ran", "use", "try", "command", "with", "execute", "executing", "exec", "type", "failed":
		return cued
	}
	return bare
}

// quotedCommands adds the commands quoted in a line of output: "Command
// 'sphinx-build -W -b html docs docs/_build' returned non-zero exit
// status 2", "Run `npm audit fix` to fix them", a process listing's
// quoted "docker-entrypoint.sh postgres -c max_connections=300".
func (s *scanner) quotedCommands(t string) {
	line := t
	for n := 0; n < 8 && len(t) > 0; n++ {
		a := strings.IndexAny(t, "'\"`")
		if a < 0 {
			return
		}
		q := t[a]
		if q == '\'' && a > 0 && isAlpha(t[a-1]) {
			t = t[a+1:] // an apostrophe: don't, it's
			continue
		}
		b := strings.IndexByte(t[a+1:], q)
		if b < 0 {
			return
		}
		span := t[a+1 : a+1+b]
		if strings.IndexByte(span, ' ') > 0 && commandLine(span, quotePlace(t[:a])) {
			c := strings.TrimSpace(span)
			if s.output {
				c = hinted(line, c)
			}
			s.add(KindCommand, c)
		}
		t = t[a+b+2:]
	}
}
