-- What the run's model calls cost (SPEC §9): one row per call made or
-- about to be made. A reservation (settled = 0) holds the call's
-- pessimistic cost against the spend cap until its lease ends (unix
-- microseconds); settling replaces it with the usage the provider
-- reported and its price. A call answered from the cache leaves no row.
CREATE TABLE spend (
	id            TEXT NOT NULL PRIMARY KEY,
	phase         TEXT NOT NULL,
	endpoint      TEXT NOT NULL,
	call_key      TEXT NOT NULL,
	settled       INTEGER NOT NULL,
	reserved      DOUBLE PRECISION NOT NULL,
	input_tokens  BIGINT NOT NULL,
	output_tokens BIGINT NOT NULL,
	dollars       DOUBLE PRECISION NOT NULL,
	lease_until   BIGINT NOT NULL,
	at            BIGINT NOT NULL
);
CREATE INDEX spend_phase_endpoint ON spend (phase, endpoint);
