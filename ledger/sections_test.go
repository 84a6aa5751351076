package ledger

import (
	"slices"
	"strings"
	"testing"
)

// TestDecisionsBySection: in a design note, a pull request or a commit's
// body, the course taken is read from the layout, whatever its words: the
// paragraph after the options weighed, the section named for a decision,
// the first item of a change's section when options were weighed; and a
// commit body's sentence that says how things now are.
func TestDecisionsBySection(t *testing.T) {
	for _, c := range []struct {
		name, cmd, out, want string
	}{
		{"options by a lead line, then the course", "git show --no-patch 91c2e4d", `commit 91c2e4d8a1f0b3c5d7e9f1a2b3c4d5e6f7a8b9c0
Author: Lena Vogt <lena@example.org>
Date:   Mon Jun 3 10:12:44 2024 +0200

    cache: bound the report cache

    The report cache grew to 11 GB on the big tenants last month. We tried
    three ways out:

      - an LRU on entry count: simple, but entries differ 1000x in size;
      - a TTL of one hour: the nightly reports miss every morning;
      - a byte budget with cost-aware eviction.

    Entries are evicted by a 2 GiB byte budget per tenant; the hourly TTL
    stays only for the public dashboards.
`, "Entries are evicted by a 2 GiB byte budget per tenant"},
		{"a decision's heading", "cat docs/adr/0004-ids.md", `# 4. Identifiers for public records

## Status

Accepted

## Context

Sequential ids leak volume and collide across the two regions.

## Decision

Public records carry a ULID minted by the API, stored as text. Internal joins keep the bigint keys.

## Consequences

Two ids per row for a while.
`, "Public records carry a ULID minted by the API, stored as text."},
		{"a change's section listing, options after it", "gh pr view 301", `queue: one stream per region #301
Merged • 4 commits

  ### What changed

  - Jobs go to one Redis stream per region, consumer groups per worker
    pool, instead of a list per queue.
  - Retries move to a delayed sorted set.

  ### Rejected

  - Kafka: another cluster to run for 2k jobs/s.
  - SQS: the latency floor is too high for the checkout jobs.
`, "Jobs go to one Redis stream per region, consumer groups per worker pool, instead of a list per queue."},
		{"a commit body's new state", "git log --format=%B -n 2", `build: move versions to the catalog

All plugin and library versions now live in gradle/libs.versions.toml, one place for the bot to bump.

test: fix the flaky clock test

The test now passes on slow runners too.
`, "All plugin and library versions now live in gradle/libs.versions.toml, one place for the bot to bump."},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := values(result(c.cmd, c.out, false), KindDecision)
			if !slices.ContainsFunc(got, func(v string) bool { return strings.Contains(v, c.want) }) {
				t.Errorf("decision %q missing from %q", c.want, got)
			}
		})
	}
	// Not decisions: a README's design section with no options weighed,
	// the paragraph of an options section that only weighs them, a section
	// that follows them without choosing, a report that a test now works.
	for _, c := range []struct{ name, cmd, out, not string }{
		{"a README's design section", "cat README.md", `# fastq-tools

## Design

The reader streams records through a ring buffer of 64 KiB blocks.

## Usage

Run fastq-stats on a file.
`, "ring buffer"},
		{"weighing inside the options section, then testing", "cat docs/rfc/12-cache.md", `# RFC 12: cache

## Options considered

- Redis: one more service.
- In-process LRU: no sharing between pods.

Benchmarks on the staging data favoured neither by much.

## Testing

We replay a day of production traffic against both.
`, "replay a day"},
		{"a report that a test now passes", "git log --format=%B -n 1", `test: fix the flaky clock test

The retry test now passes on the slow arm64 runners as well.
`, "now passes"},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, v := range values(result(c.cmd, c.out, false), KindDecision) {
				if strings.Contains(v, c.not) {
					t.Errorf("%q read as a decision", v)
				}
			}
		})
	}
}

// TestCourseBeforeTheOptionSetAside: a short paragraph that states its
// course and then sets an option aside ("… was considered but …", "We tried
// X but …") holds its decision in its first sentence, whatever its words.
func TestCourseBeforeTheOptionSetAside(t *testing.T) {
	out := `OPS-311  Archive closed orders
Status: Done   Assignee: r.okafor

Description
Closed orders older than a year move to cold storage in Parquet on S3, read through a foreign table. Keeping them in a partition was considered but the vacuum cost stays with the hot table.

Orders are looked up by customer and day in the support tool. The index covers that query.
`
	got := values(result("jira issue view OPS-311", out, false), KindDecision)
	want := "Closed orders older than a year move to cold storage in Parquet on S3, read through a foreign table."
	if !slices.Contains(got, want) {
		t.Errorf("decision %q missing from %q", want, got)
	}
	// A paragraph with no option set aside states no decision by its
	// layout.
	for _, v := range got {
		if strings.Contains(v, "looked up by customer") {
			t.Errorf("%q read as a decision", v)
		}
	}
}
