-- The leases of the workers computing units (cells, baseline items,
-- re-solves): who holds each unit and until when (unix microseconds of the
-- workers' clocks).
CREATE TABLE claims (
	key        TEXT PRIMARY KEY,
	worker     TEXT NOT NULL,
	expires_at BIGINT NOT NULL
);
