package ledger

import "github.com/condense-dev/condense/internal/redact"

// Redacted replaces every secret Redact finds.
const Redacted = redact.Redacted

// Redact returns s with secrets replaced by "[REDACTED]":
//
//   - private key blocks (PEM and PGP), whole;
//   - keys and tokens of known shapes: OpenAI and Anthropic sk-…, Stripe
//     sk_live_/rk_test_/whsec_, AWS AKIA…, GitHub ghp_…/github_pat_…,
//     GitLab glpat-…, Slack xox…- and webhook paths, Google AIza…, npm_,
//     Hugging Face hf_, PyPI, SendGrid, Shopify, DigitalOcean, age keys and
//     JSON web tokens;
//   - Authorization, Cookie and Set-Cookie header values and bearer tokens;
//   - values after secret-like keys in any case and spelling (password,
//     Pwd, API-KEY, Api_Key, access-key, Private-Key, client_secret, token,
//     credentials, …) with ':' or '=' (query strings, environment
//     assignments, JSON, YAML, headers);
//   - command-line secrets: --password x, --token=x, mysql -pSECRET,
//     docker login -p x;
//   - a random-looking value (20+ characters of letters and digits with high
//     entropy) after any key-like word (key, signature, salt, auth, …);
//   - the password of a URL (scheme://user:pass@host →
//     scheme://user:[REDACTED]@host).
//
// Text without secrets is returned as is. Redact is idempotent. It is the
// same redaction the library applies to its own log lines, the journal and
// the command line's output, so one table decides what a secret is
// everywhere.
func Redact(s string) string { return redact.String(s) }
