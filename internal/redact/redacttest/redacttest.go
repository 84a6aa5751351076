// Package redacttest holds what the tests of library logs share: made-up
// secrets of real shapes to plant where a history can put them, a logger
// that records every level, and the check that none of the secrets reached
// what it recorded.
package redacttest

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
)

// Made-up secrets of real shapes.
const (
	OpenAIKey = "sk-proj-7Qm2Xv9Lr4Tz8Nc1Pb6Wd3Ky5Hf0Js2Ga7Ue4Io9Ol1Mn3Bq"
	GitHubKey = "ghp_4Fq9Zt2Lm7Xc1Vb8Nw3Kr6Yp0Hd5Js2Ge7Ta"
	AWSKey    = "AKIAZ7Q2M8V1N7J3P6W0"
)

// Logger returns a logger writing every level, as text, to the buffer it
// returns.
func Logger() (*slog.Logger, *bytes.Buffer) {
	var buf bytes.Buffer
	return slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug})), &buf
}

// Check fails t unless out holds each of keep and none of the secrets.
func Check(t testing.TB, out string, keep ...string) {
	t.Helper()
	for _, k := range []string{OpenAIKey, GitHubKey, AWSKey} {
		if strings.Contains(out, k) {
			t.Errorf("secret %s… in the logs:\n%s", k[:8], out)
		}
	}
	for _, s := range keep {
		if !strings.Contains(out, s) {
			t.Errorf("%q missing from the logs:\n%s", s, out)
		}
	}
}
