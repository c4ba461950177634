-- Which builds of triage ran which command on the run (version.Info as
-- JSON under its one-line form), first and last (unix microseconds).
CREATE TABLE builds (
	build      TEXT NOT NULL,
	command    TEXT NOT NULL,
	info       TEXT NOT NULL,
	first_used BIGINT NOT NULL,
	last_used  BIGINT NOT NULL,
	PRIMARY KEY (build, command)
);
