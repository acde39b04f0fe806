-- 0004: the LLM distiller's ledger: one row per call (see src/store/llm-ledger-repo.ts).
CREATE TABLE llm_ledger (
  id              INTEGER PRIMARY KEY,
  at              INTEGER NOT NULL,
  -- UTC day (YYYY-MM-DD) the daily caps count against.
  day             TEXT NOT NULL,
  session_id      TEXT,
  project_id      TEXT,
  provider        TEXT NOT NULL,
  model           TEXT NOT NULL,
  input_tokens    INTEGER NOT NULL DEFAULT 0,
  output_tokens   INTEGER NOT NULL DEFAULT 0,
  -- US dollars from the price table; NULL when the model has no price.
  cost_usd        REAL,
  latency_ms      INTEGER NOT NULL DEFAULT 0,
  outcome         TEXT NOT NULL
                  CHECK (outcome IN ('ok', 'malformed', 'timeout', 'http_error', 'network_error',
                                     'unavailable', 'budget_skip')),
  detail          TEXT,
  input_chars     INTEGER NOT NULL DEFAULT 0,
  -- Observations stored from this call (set in the turn's write transaction).
  observations    INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX llm_ledger_by_day ON llm_ledger (day);
CREATE INDEX llm_ledger_by_session ON llm_ledger (session_id);
