-- Sessions: one row per session, with the counts and version a replica
-- checks to refresh what it caches, and the session's lease.
CREATE TABLE sessions (
	id            text PRIMARY KEY,
	messages      bigint  NOT NULL DEFAULT 0,  -- messages in the log
	checkpoints   integer NOT NULL DEFAULT 0,  -- checkpoints saved
	undos         integer NOT NULL DEFAULT 0,  -- undo markers saved
	version       bigint  NOT NULL DEFAULT 0,  -- +1 on every commit
	lease_owner   text,                        -- token of the lease's holder; NULL when free
	lease_host    text,                        -- the holder's machine (host, boot, pid namespace)
	lease_pid     integer,                     -- the holder's process id on that machine
	lease_expires timestamptz,                 -- the lease is void after this (database clock)
	created       timestamptz NOT NULL DEFAULT now(),
	updated       timestamptz NOT NULL DEFAULT now()
);

-- The append-only log: each message's condense JSON, byte for byte.
CREATE TABLE messages (
	session text   NOT NULL REFERENCES sessions(id),
	idx     bigint NOT NULL,
	data    bytea  NOT NULL,
	PRIMARY KEY (session, idx)
);

-- Checkpoints in the order saved (seq 0, 1, …); a checkpoint id is saved
-- once per session.
CREATE TABLE checkpoints (
	session       text    NOT NULL REFERENCES sessions(id),
	seq           integer NOT NULL,
	id            text    NOT NULL,
	history_count bigint  NOT NULL,
	data          bytea   NOT NULL,  -- store.Checkpoint JSON
	created       timestamptz NOT NULL DEFAULT now(),
	PRIMARY KEY (session, seq),
	UNIQUE (session, id)
);

-- Undo markers in the order saved.
CREATE TABLE undos (
	session text    NOT NULL REFERENCES sessions(id),
	seq     integer NOT NULL,
	data    bytea   NOT NULL,  -- store.Undo JSON
	created timestamptz NOT NULL DEFAULT now(),
	PRIMARY KEY (session, seq)
);
