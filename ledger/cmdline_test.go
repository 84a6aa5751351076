package ledger

import "testing"

// TestCommandLinePlaces: how much a line must look like a command depends
// on where it stands. A script run by its path is a command whatever its
// extension; a known program may take plain words where a command is cued;
// an unknown tool on a bare line needs flags; prose, code and a block's
// opening line are never one.
func TestCommandLinePlaces(t *testing.T) {
	for _, tc := range []struct {
		c     string
		place cmdPlace
		want  bool
	}{
		{"./migrations/0053_failover_snapshot.sql --dry-run --backup 97478", inContext, true},
		{"../tools/gen.rb --all", bare, true},
		{"./main.go:17:2: imported and not used", bare, false},
		{"npx playwright install", cued, true},
		{"npx playwright install", bare, false},
		{"git bisect start HEAD v2.3.0", cued, true},
		{"nix build .#server", inContext, true},
		{"pg_dump -Fc db | aws s3 cp - s3://backups/db.dump", cued, true},
		{"buildctl --addr tcp://x:1234 build --frontend dockerfile.v0", bare, true},
		{"make sure the tests pass", cued, false},
		{"find the bug in the parser", inContext, false},
		{`resource "aws_s3_bucket" "logs" {`, inContext, false},
		{"go func() {", inContext, false},
		{"order = Order(items)", inContext, false},
		{"first - then second", cued, false},
	} {
		if got := commandLine(tc.c, tc.place); got != tc.want {
			t.Errorf("commandLine(%q, %d) = %v, want %v", tc.c, tc.place, got, tc.want)
		}
	}
}
