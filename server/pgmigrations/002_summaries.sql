-- Summaries computed ahead of the compaction that needs them (prefetch.go):
-- one per session and summary request fingerprint.
CREATE TABLE IF NOT EXISTS @.condense_server_summaries (
	session     text NOT NULL,
	fingerprint text NOT NULL,
	summary     jsonb NOT NULL,
	created     timestamptz NOT NULL DEFAULT now(),
	PRIMARY KEY (session, fingerprint)
);
