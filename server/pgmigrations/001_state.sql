-- The server's state beside the session logs, shared by every replica.
-- "@." stands for the schema the server was given.
CREATE TABLE @.condense_server_sessions (
	id      text PRIMARY KEY,
	owner   text NOT NULL DEFAULT '',
	created timestamptz NOT NULL,
	config  jsonb NOT NULL
);

CREATE TABLE @.condense_server_usage (
	session text NOT NULL,
	seq     bigint GENERATED ALWAYS AS IDENTITY,
	point   jsonb NOT NULL,
	PRIMARY KEY (session, seq)
);

-- The newest event id of each session: taking the row (an upsert) orders
-- the events of a session, so ids commit in the order they are given.
CREATE TABLE @.condense_server_event_heads (
	session text PRIMARY KEY,
	last    bigint NOT NULL
);

-- The events themselves; data is kept as the text it was published with.
CREATE TABLE @.condense_server_events (
	session text NOT NULL,
	id      bigint NOT NULL,
	type    text NOT NULL,
	time    timestamptz NOT NULL,
	data    json NOT NULL,
	PRIMARY KEY (session, id)
);

CREATE TABLE @.condense_server_logins (
	hash    text PRIMARY KEY,
	owner   text NOT NULL,
	salt    text NOT NULL,
	token   text NOT NULL,
	expires timestamptz NOT NULL
);
