-- Whether the answer a finished batch gave each request was reported to
-- the run that bills it (BaselineItem.batch_id, SPEC §9): 0 until the
-- Executor has sent the item; 1 since. A process that died after its
-- batches finished but before it reported their answers leaves them 0,
-- and the next call that finds such an answer in the cache reports, and
-- so bills, it once. Rows stored before this column existed count as
-- reported: whether they were is not known, and billing twice is worse
-- than not at all.
ALTER TABLE llm_batch_items ADD COLUMN reported INTEGER NOT NULL DEFAULT 1;

CREATE INDEX llm_batch_items_unreported ON llm_batch_items (key) WHERE reported = 0;
