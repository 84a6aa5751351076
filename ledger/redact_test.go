package ledger

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/condense-dev/condense"
)

// Secrets below are made up for the tests; they only have the shape of
// real ones.
var secretCases = []struct {
	name   string
	text   string
	secret string
	want   string // the redacted text, when checked exactly
}{
	{"openai key", "export OPENAI_API_KEY=sk-proj-4fT9xQ2mZ8vL1nB7cK3pR6wY0aE5hJ", "sk-proj-4fT9xQ2mZ8vL1nB7cK3pR6wY0aE5hJ",
		"export OPENAI_API_KEY=[REDACTED]"},
	{"anthropic key", "using key sk-ant-api03-Zk9Xq2Lm8Vb1Nc7Jd3Pr6Wy0Ae5Hf4Tg", "sk-ant-api03-Zk9Xq2Lm8Vb1Nc7Jd3Pr6Wy0Ae5Hf4Tg",
		"using key [REDACTED]"},
	{"aws access key", "aws_access_key_id = AKIAZ7Q2M8V1N7J3P6W0", "AKIAZ7Q2M8V1N7J3P6W0", ""},
	{"aws key alone", "found AKIAZ7Q2M8V1N7J3P6W0 in logs", "AKIAZ7Q2M8V1N7J3P6W0", "found [REDACTED] in logs"},
	{"github token", "git clone https://ghp_R4nd0mT0k3nV4lu3F0rT3st1ngOnly0001@github.com/acme/x.git", "ghp_R4nd0mT0k3nV4lu3F0rT3st1ngOnly0001", ""},
	{"github pat", "GH_TOKEN github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuv", "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuv", ""},
	{"slack token", "slack: xoxb-1234567890-0987654321-AbCdEfGhIjKl", "xoxb-1234567890-0987654321-AbCdEfGhIjKl", "slack: [REDACTED]"},
	{"google key", "key=AIzaSyD3m0Fak3K3yF0rT3st1ngPurp0s3s00", "AIzaSyD3m0Fak3K3yF0rT3st1ngPurp0s3s00", ""},
	{"bearer header", `curl -H "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl" https://api.acme.dev/v1/me`,
		"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl", `curl -H "Authorization: Bearer [REDACTED]" https://api.acme.dev/v1/me`},
	{"bearer alone", "sent bearer Zm9vYmFyYmF6cXV4MTIzNDU2", "Zm9vYmFyYmF6cXV4MTIzNDU2", "sent bearer [REDACTED]"},
	{"password query param", "GET https://api.acme.dev/login?user=ann&password=hunter2hunter2&next=/", "hunter2hunter2",
		"GET https://api.acme.dev/login?user=ann&password=[REDACTED]&next=/"},
	{"token query param", "https://hooks.acme.dev/x?token=9f8e7d6c5b4a&x=1", "9f8e7d6c5b4a", "https://hooks.acme.dev/x?token=[REDACTED]&x=1"},
	{"json secret", `{"client_secret": "c0ffee-s3cr3t-v4lue", "tokens": 512}`, "c0ffee-s3cr3t-v4lue", `{"client_secret": "[REDACTED]", "tokens": 512}`},
	{"url password", "DATABASE_URL=postgres://app:Sup3rS3cret!@db.internal:5432/orders", "Sup3rS3cret!",
		"DATABASE_URL=postgres://app:[REDACTED]@db.internal:5432/orders"},
	{"pem key", "key:\n-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo\n4lgOEePzNm0tRgeLezV6ffAt0gunVTLw\n-----END RSA PRIVATE KEY-----\ndone",
		"MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo", "key:\n[REDACTED]\ndone"},
	{"pem cut off", "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ", "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ", "[REDACTED]"},
}

func TestRedact(t *testing.T) {
	for _, tc := range secretCases {
		t.Run(tc.name, func(t *testing.T) {
			got := Redact(tc.text)
			if strings.Contains(got, tc.secret) {
				t.Errorf("secret survives: %q", got)
			}
			if tc.want != "" && got != tc.want {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
			if again := Redact(got); again != got {
				t.Errorf("not idempotent: %q → %q", got, again)
			}
		})
	}
}

// TestRedactKeepsText checks that text without secrets is left alone.
func TestRedactKeepsText(t *testing.T) {
	for _, s := range []string{
		"max_tokens: 4096\ninput_tokens=5210",
		"token := os.Getenv(\"X\")",
		"see https://example.com/docs?page=2",
		"-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE\n-----END PUBLIC KEY-----",
		"ask-for-help",
	} {
		if got := Redact(s); got != s {
			t.Errorf("Redact(%q) = %q", s, got)
		}
	}
}

// TestSecretsNeverInItems puts each secret everywhere an item can come
// from: user and assistant text, a shell command, a tool result.
func TestSecretsNeverInItems(t *testing.T) {
	for _, tc := range secretCases {
		t.Run(tc.name, func(t *testing.T) {
			cmd, _ := json.Marshal(map[string]string{"command": "echo " + tc.text})
			msgs := []condense.Message{
				condense.UserText(tc.text),
				{Role: condense.RoleUser, Pinned: true, Parts: []condense.Part{condense.Text(tc.text)}},
				{Role: condense.RoleAssistant, Parts: []condense.Part{
					condense.Text("I'll use this: " + tc.text),
					condense.ToolCall("c1", "bash", cmd),
				}},
				{Role: condense.RoleTool, Parts: []condense.Part{
					condense.ToolResult("c1", true, condense.Text("Error: "+tc.text+"\n$ "+tc.text+"\n"+tc.text)),
				}},
			}
			items := Extract(msgs, 0)
			if len(items) == 0 {
				t.Fatal("no items")
			}
			for _, it := range items {
				if strings.Contains(it.String(), tc.secret) || strings.Contains(it.Value, tc.secret[:12]) {
					t.Errorf("secret in %s", it)
				}
			}
		})
	}
}
