package redact

import (
	"fmt"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// TestRedactKeySpellings writes one secret under every common spelling of
// a secret's key, with every separator a config file, an environment dump,
// JSON, YAML or a header uses.
func TestRedactKeySpellings(t *testing.T) {
	const secret = "Zq8vN3xK7pL2mR9t"
	keys := []string{
		"password", "Password", "PASSWORD", "passwd", "Passwd", "pwd", "Pwd", "PWD", "db_password", "DB_PASSWORD", "dbPassword",
		"pass", "Pass", "smtp_pass", "SMTP-PASS", "passphrase", "Passphrase",
		"secret", "Secret", "SECRET", "client_secret", "Client-Secret", "CLIENT_SECRET", "clientSecret", "secret_key", "SECRET_KEY", "Secret-Key",
		"token", "Token", "TOKEN", "access_token", "Access-Token", "ACCESS_TOKEN", "accessToken", "refresh_token", "X-Auth-Token",
		"api_key", "Api_Key", "API_KEY", "api-key", "Api-Key", "API-KEY", "apikey", "ApiKey", "APIKEY", "apiKey", "X-Api-Key", "OPENAI_API_KEY",
		"access_key", "access-key", "Access-Key", "ACCESS_KEY", "accessKey", "aws_secret_access_key",
		"private_key", "Private-Key", "PRIVATE_KEY", "privateKey",
		"credentials", "Credential", "GOOGLE_CREDENTIALS",
	}
	seps := []struct{ before, mid, after string }{
		{"", "=", ""}, {"export ", "=", ""}, {"", ": ", ""}, {"", " = ", ""}, {`{"`, `": "`, `"}`}, {"", `="`, `"`}, {"--", "=", ""}, {"?a=1&", "=", "&b=2"},
	}
	for _, k := range keys {
		for _, sp := range seps {
			in := sp.before + k + sp.mid + secret + sp.after
			if got := String(in); strings.Contains(got, secret[:8]) {
				t.Errorf("String(%q) = %q", in, got)
			}
		}
	}
}

// TestRedactSecretShapes covers secrets recognised by their own shape,
// whatever surrounds them. All values are made up.
func TestRedactSecretShapes(t *testing.T) {
	for _, tc := range []struct{ name, text, secret string }{
		{"stripe live", "STRIPE=sk_live_51HxYz0Abc9DeFgHiJkLmNoPq", "sk_live_51HxYz0Abc9DeFgHiJkLmNoPq"},
		{"stripe restricted", "using rk_test_4eC39HqLyjWDarjtT1zdp7dc in tests", "rk_test_4eC39HqLyjWDarjtT1zdp7dc"},
		{"stripe webhook", "signing secret whsec_a1B2c3D4e5F6g7H8i9J0k1L2", "whsec_a1B2c3D4e5F6g7H8i9J0k1L2"},
		{"gitlab", "git remote add origin https://oauth2:glpat-xY7z9AbCdEfGh1JkLmNo@gitlab.com/a/b", "glpat-xY7z9AbCdEfGh1JkLmNo"},
		{"npm", "//registry.npmjs.org/:_authToken=npm_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8", "npm_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"},
		{"hugging face", "huggingface-cli login --token hf_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789", "hf_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789"},
		{"hugging face alone", "loaded hf_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789 from cache", "hf_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789"},
		{"slack webhook", "curl -X POST https://hooks.slack.com/services/T0ABCDEF1/B0ABCDEF2/x1Y2z3A4b5C6d7E8f9G0h1I2", "x1Y2z3A4b5C6d7E8f9G0h1I2"},
		{"pgp private key", "-----BEGIN PGP PRIVATE KEY BLOCK-----\n\nlQOYBGX1a2IBCADK3m9wJ8zq\n=Ab1c\n-----END PGP PRIVATE KEY BLOCK-----", "lQOYBGX1a2IBCADK3m9wJ8zq"},
		{"password flag", "pg_dump --password s3cr3tPa55 --host db", "s3cr3tPa55"},
		{"password flag quoted", `tool --password "s3cr3t Pa55" --x`, "s3cr3t Pa55"},
		{"token flag", "gh auth login --token Qw3rTy7UiOp9AsDf", "Qw3rTy7UiOp9AsDf"},
		{"mysql -p", "mysql -u root -pS3cr3tRootPw -h 127.0.0.1 app", "S3cr3tRootPw"},
		{"mysqldump -p quoted", "mysqldump -uroot -p'S3cr3t Root' app > dump.sql", "S3cr3t Root"},
		{"docker login", "docker login -u ci -p Dh7kLm2Np9Qr4St6 registry.acme.dev", "Dh7kLm2Np9Qr4St6"},
		{"password starting with a dollar", "db --password $uperS3cret", "$uperS3cret"},
		{"docker login long", "docker login registry.acme.dev --username ci --password=Dh7kLm2Np9Qr4St6", "Dh7kLm2Np9Qr4St6"},
		{"cookie header", `curl -H 'Cookie: session=9f8e7d6c5b4a3f2e1d0c; theme=dark' https://acme.dev`, "9f8e7d6c5b4a3f2e1d0c"},
		{"set-cookie", "Set-Cookie: sid=Zx8Yw7Vu6Ts5Rq4P; HttpOnly", "Zx8Yw7Vu6Ts5Rq4P"},
		{"jwt", "token was eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U ok", "dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"},
		{"sendgrid", "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", "TwL2iGABf9DHoTf-09kqeF8tAmbihYzrnopKc-1s5cr"},
		{"random after key", "signing_key: 7d9fA2kL8mQ4xZ1vB6nR3tY5", "7d9fA2kL8mQ4xZ1vB6nR3tY5"},
		{"aws secret", "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "wJalrXUtnFEMI/K7MDENG"},
		{"anthropic admin", "sk-ant-admin01-Zk9Xq2Lm8Vb1Nc7Jd3Pr6Wy0Ae5Hf4Tg", "Zk9Xq2Lm8Vb1Nc7Jd3Pr6Wy0Ae5Hf4Tg"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := String(tc.text)
			if strings.Contains(got, tc.secret) {
				t.Errorf("secret survives: %q", got)
			}
			if !strings.Contains(got, Redacted) {
				t.Errorf("nothing redacted: %q", got)
			}
			if again := String(got); again != got {
				t.Errorf("not idempotent: %q → %q", got, again)
			}
		})
	}
}

// TestRedactLeavesOrdinaryText guards against the wider table eating
// ordinary lines.
func TestRedactLeavesOrdinaryText(t *testing.T) {
	for _, s := range []string{
		"bypass=true", "compass: north", "max_tokens: 4096", "input_tokens=5210", "token_count: 12",
		"cache-key: go-mod-v1", "monkey: 5", "the password is wrong", "mysql -u root -p app", "docker login --password-stdin",
		"Asia/Tokyo", "KeyError: 'creditnote_period_81403'", "RUST_LOG=token=trace cargo run", "secret_scanning: enabled", "PASSWORD=none", "signing_key: payment_webhook_secret_name_2026", "go test -run TestAPI ./api/...", "--passes=3", "sk-learn", "author: Ann",
		// a variable names the secret, it does not hold it; MySQL's "using password: YES" says one was sent
		`curl -H "Authorization: Bearer $TOKEN" https://api.example.com`, "--token ${GITHUB_TOKEN}", "API_KEY=$(cat key.txt)",
		"password: %DB_PASSWORD%", "token: {{ .Values.token }}", "Access denied for user 'app'@'10.0.0.4' (using password: YES)",
		// a test runner's verdict
		"--- PASS: TestReconcileUsage (126.26s)", "PASS: tests/parse.sh", "14:33:25  Done. PASS=6 WARN=0 ERROR=0 SKIP=0 TOTAL=6",
		// a key word in a sentence
		"Going with jose: jsonwebtoken: jsonwebtoken has no EdDSA support.", "the refresh token: expired after an hour",
	} {
		if got := String(s); got != s {
			t.Errorf("String(%q) = %q", s, got)
		}
	}
}

// TestRedactPrefilterAgreesWithPatterns is the property that makes the
// fast pre-filter safe: every string a rule's expression matches holds one
// of the rule's triggers (in any case), so the line search finds it and the
// rule runs.
func TestRedactPrefilterAgreesWithPatterns(t *testing.T) {
	for i := range redactions {
		r := &redactions[i]
		t.Run(r.name, func(t *testing.T) {
			rapid.Check(t, func(t *rapid.T) {
				s := rapid.StringMatching(r.re.String()).Draw(t, "s")
				if !r.re.MatchString(s) || strings.ContainsAny(s, "\r\n") {
					return // the generator's idea of the pattern is wider than RE2's
				}
				found := false
				triggerSet.Lines(s, func(int, uint64) { found = true })
				if !found {
					t.Fatalf("no trigger in %q", s)
				}
				if !r.hit(s) {
					t.Fatalf("rule does not run on %q", s)
				}
			})
		})
	}
}

func ExampleString() {
	fmt.Println(String("export Api-Key=Zq8vN3xK7pL2mR9t; mysql -uroot -pS3cr3t app"))
	// Output: export Api-Key=[REDACTED]; mysql -uroot -p[REDACTED] app
}

// FuzzRedact: a secret of a known shape, set off by a space from whatever
// text the fuzzer writes around it, never survives String, and String is
// idempotent on every input.
func FuzzRedact(f *testing.F) {
	f.Add("export X=", "done", uint8(0), "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8s9T0")
	f.Add("Authorization: Bearer", "", uint8(3), "Zq8vN3xK7pL2mR9tZq8vN3xK7pL2mR9t")
	f.Add("{\"k\": \"", "\"}", uint8(5), "0000000000000000000000000000000000000000")
	shapes := []func(v string) string{
		func(v string) string { return "sk-proj-" + v },
		func(v string) string { return "ghp_" + v },
		func(v string) string { return "glpat-" + v },
		func(v string) string { return "sk_live_" + v },
		func(v string) string { return "npm_" + v },
		func(v string) string { return "hf_" + v },
		func(v string) string { return "xoxb-" + v },
		func(v string) string { return "AIza" + v },
	}
	f.Fuzz(func(t *testing.T, before, after string, shape uint8, v string) {
		// The secret's body: 36 letters and digits drawn from v.
		var body []byte
		for i := 0; i < len(v) && len(body) < 36; i++ {
			if c := v[i]; 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' {
				body = append(body, c)
			}
		}
		if len(body) < 36 {
			body = append(body, "0a1b2c3d4e5f6g7h8i9j0k1l2m3n4o5p6q7r"[len(body):]...)
		}
		body[0] = '7' // a digit, as the sk- shape asks
		secret := shapes[int(shape)%len(shapes)](string(body))
		text := before + " " + secret + " " + after
		got := String(text)
		if strings.Contains(got, secret) {
			t.Fatalf("secret survives in %q", got)
		}
		if again := String(got); again != got {
			t.Fatalf("not idempotent: %q → %q", got, again)
		}
		if again := String(text); again != got {
			t.Fatalf("not deterministic")
		}
	})
}

// TestRedactProseStopsAtSecrets: a value of lower-case letters is read as
// a word of a sentence only when another word follows it; at the end of
// its line or field it is still a secret.
func TestRedactProseStopsAtSecrets(t *testing.T) {
	for _, s := range []string{"password: sunshine", "db_password: sunshine, host: db", `"token": "sunshine" }`, "token=sunshine and more"} {
		if got := String(s); !strings.Contains(got, Redacted) {
			t.Errorf("String(%q) = %q, want the value redacted", s, got)
		}
	}
}

// TestTallyIsNoPassword: a run's "PASS=6" beside its other counts is a
// tally; a password that happens to be digits on such a line is still one.
func TestTallyIsNoPassword(t *testing.T) {
	if s := "Done. PASS=6 WARN=0 ERROR=0 SKIP=0 TOTAL=6"; String(s) != s {
		t.Errorf("String(%q) = %q", s, String(s))
	}
	for _, s := range []string{"DB_PASS=123456 TOTAL=3", "pass=hunter2 fail=0", "PASS=6"} {
		if !strings.Contains(String(s), Redacted) {
			t.Errorf("String(%q) = %q: the password was kept", s, String(s))
		}
	}
}

// TestTallyNeedsTallyFields: a digit password beside words that only
// contain a tally's names is still redacted.
func TestTallyNeedsTallyFields(t *testing.T) {
	for _, s := range []string{"PASS=123456 LOG_ERROR=1 ./deploy.sh", "export PASS=482913 ON_FAIL=abort",
		"docker run -e PASS=908172 -e MAX_ERRORS=5 app", "env PASS=2468 total=3"} {
		if !strings.Contains(String(s), Redacted) {
			t.Errorf("String(%q) = %q: the password was kept", s, String(s))
		}
	}
}
