-- Rate-limit counters are written on almost every request and are worth nothing after a crash (a lost counter only
-- forgets the uses of its last minute). Unlogged, their updates skip the write-ahead log: no WAL record and no flush to
-- wait for on commit. Measured on the benchmark (README, Performance): the anonymous driver list 530 to 891 req/s and the
-- status check 1,129 to 1,381 req/s at scale 0.1. Unlogged tables are emptied after a crash and not replicated, both
-- harmless here.
ALTER TABLE "rate_limits" SET UNLOGGED;
