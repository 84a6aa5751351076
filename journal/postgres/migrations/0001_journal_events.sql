-- Journals: one row per event, keyed by run and sequence number. data is
-- the event's JSON as encoded (the json type keeps the text as written).
CREATE TABLE journal_events (
	run  text    NOT NULL,
	seq  bigint  NOT NULL,
	kind text    NOT NULL,
	data json    NOT NULL,
	time timestamptz NOT NULL DEFAULT now(),
	PRIMARY KEY (run, seq)
);
