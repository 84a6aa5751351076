package ledger

import (
	"slices"
	"testing"
)

// TestLines checks single lines of tool output: what is found and, as
// much, what is not (versions, dates, fractions, units, encodings).
func TestLines(t *testing.T) {
	cases := []struct {
		line string
		want []string
	}{
		// Not paths, ids or measurements.
		{"upgraded golang.org/x/net v0.21.0 => v0.23.0 on 2024-01-05 at 12:30:45", nil},
		{"ratio 1/2 of 3/4, ns/op and B/op, I/O, and/or, application/json", nil},
		{"encoding UTF-8, digest SHA-256, standard ISO-8601", nil},
		{"connect 10.0.4.12:5432 from 192.168.1.1", nil},
		{"BenchmarkParse-8 is in internal/codec", nil},
		{"the answer is 42 and version 1.2.3", nil},
		// Paths.
		{"edited internal/x.go and ./scripts/run and ~/notes and /etc/nginx/nginx.conf:12",
			[]string{"file internal/x.go", "file ./scripts/run", "file ~/notes", "file /etc/nginx/nginx.conf"}},
		{"see https://example.com/a/b.html and s3://bucket/key.csv", []string{"url https://example.com/a/b.html", "url s3://bucket/key.csv"}},
		{"(see https://example.com/x_(y)).", []string{"url https://example.com/x_(y)"}},
		{"diff --git a/x.go b/x.go", []string{"file x.go"}}, // the file, without git's a/ and b/ prefixes
		{"+++ b/internal/x.go", []string{"file internal/x.go"}},
		// Identifiers.
		{"fixes ENG-4821 and T-9, see #1234 and PR #77", []string{"id ENG-4821", "id T-9", "id #1234", "id #77"}},
		{"CVE-2024-3094 in xz", []string{"id CVE-2024-3094"}},
		{`ticket=SUP-88213 userId=u_12345 traceID: "a1b2c3d4e5"`, []string{"id ticket=SUP-88213", "id userId=u_12345", "id traceID=a1b2c3d4e5"}},
		{"HEAD is now at 3fa9c2d Fix refund", []string{"id 3fa9c2d"}},
		{"sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", []string{"id sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"}},
		{"deadbeef is not a hash without context; cafe1234 neither", nil},
		{"req 123e4567-e89b-12d3-a456-426614174000 done", []string{"id 123e4567-e89b-12d3-a456-426614174000"}},
		// Measurements.
		{"p99 latency: 703.1ms, p50 latency: 41ms", []string{`measurement "p99 latency: 703.1ms, p50 latency: 41ms"`}},
		{"build took 1,204 ms", []string{`measurement "build took 1,204 ms"`}},
		{"heap=512MiB gc=12%", []string{`measurement "heap=512MiB gc=12%"`}},
		{"throughput: 1043.5 req/s", []string{`measurement "throughput: 1043.5 req/s"`}},
		{"3.2x faster than before", []string{`measurement "3.2x faster than before"`}},
		{"Tests:       1 failed, 4 passed, 5 total", []string{`measurement "Tests:       1 failed, 4 passed, 5 total"`}},
		{"retry in 5 s", nil},
		{"Size\t12.5 MB", []string{"measurement `Size\t12.5 MB`"}},
		{"| p99 latency | 703.1ms |", []string{`measurement "| p99 latency | 703.1ms |"`}},
		{"12.5 MB", []string{`measurement "12.5 MB"`}},
		// Errors.
		{"fatal: not a git repository (or any of the parent directories): .git", []string{`error "fatal: not a git repository (or any of the parent directories): .git"`}},
		{"E1130 12:00:01.123456       1 controller.go:123] failed to sync pod default/api: timeout",
			[]string{`error "E1130 12:00:01.123456       1 controller.go:123] failed to sync pod default/api: timeout"`}},
		{"2026-11-30 10:00:00 ERROR [worker] job 77 failed", []string{`error "2026-11-30 10:00:00 ERROR [worker] job 77 failed"`}},
		{"src/app.ts(12,5): error TS2322: Type 'string' is not assignable to type 'number'.",
			[]string{`error "src/app.ts(12,5): error TS2322: Type 'string' is not assignable to type 'number'."`, "file src/app.ts"}},
		{"Exception in thread \"main\" java.lang.NullPointerException: name", []string{"error `Exception in thread \"main\" java.lang.NullPointerException: name`"}},
		{"make: *** [Makefile:12: test] Error 1", []string{`error "make: *** [Makefile:12: test] Error 1"`}},
		{"the error handling is fine", nil},
		{"src/app.ts:12:5 - error TS2322: Type 'string' is not assignable", []string{`error "src/app.ts:12:5 - error TS2322: Type 'string' is not assignable"`, "file src/app.ts"}},
		{"etl/run.py:12: error: Incompatible return value type", []string{`error "etl/run.py:12: error: Incompatible return value type"`, "file etl/run.py"}},
		{"vet: internal/x.go:9:2: unreachable code", []string{`error "vet: internal/x.go:9:2: unreachable code"`, "file internal/x.go"}},
		{"  12:5  error  'x' is not defined  no-undef", []string{`error "12:5  error  'x' is not defined  no-undef"`}},
		{"Caused by: java.io.IOException: Broken pipe", []string{`error "Caused by: java.io.IOException: Broken pipe"`}},
		{"main.go:42: starting server on :8080", nil},
		{`opened C:\Users\dev\app\main.py: and D:\logs\ and \\server\share`, []string{`file C:\Users\dev\app\main.py`}},
	}
	for _, tc := range cases {
		res := resultOf(tc.line, false)
		got := Strings(ExtractResult(nil, &res, 0))
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s\n got  %q\n want %q", tc.line, got, tc.want)
		}
	}
}
