-- 0015: one counter that every change to what a SessionStart index of an unshared project reads
-- (memories, summaries, anchors, file nodes, which projects and summaries are the team's) raises, in the
-- same transaction as the change: triggers, so every writer is covered (the worker, the CLI, MCP, the
-- viewer, team sync, a person's sqlite3). The worker keeps a per-project snapshot of the index's inputs
-- with the counter it read them at; the hook uses a snapshot only while the counter still says that.
-- The counter takes a random 64-bit value at each change, never the next number: a database restored from
-- a backup, or made anew, never comes back to a value a snapshot of another state was taken at.
CREATE TABLE context_epoch (
  id    INTEGER PRIMARY KEY CHECK (id = 1),
  n     INTEGER NOT NULL
);
INSERT INTO context_epoch (id, n) VALUES (1, random());

CREATE TRIGGER context_epoch_obs_i AFTER INSERT ON observations BEGIN UPDATE context_epoch SET n = random(); END;
CREATE TRIGGER context_epoch_obs_u AFTER UPDATE ON observations BEGIN UPDATE context_epoch SET n = random(); END;
CREATE TRIGGER context_epoch_obs_d AFTER DELETE ON observations BEGIN UPDATE context_epoch SET n = random(); END;
CREATE TRIGGER context_epoch_sum_i AFTER INSERT ON summaries BEGIN UPDATE context_epoch SET n = random(); END;
CREATE TRIGGER context_epoch_sum_u AFTER UPDATE ON summaries BEGIN UPDATE context_epoch SET n = random(); END;
CREATE TRIGGER context_epoch_sum_d AFTER DELETE ON summaries BEGIN UPDATE context_epoch SET n = random(); END;
CREATE TRIGGER context_epoch_anc_i AFTER INSERT ON anchors BEGIN UPDATE context_epoch SET n = random(); END;
CREATE TRIGGER context_epoch_anc_u AFTER UPDATE ON anchors BEGIN UPDATE context_epoch SET n = random(); END;
CREATE TRIGGER context_epoch_anc_d AFTER DELETE ON anchors BEGIN UPDATE context_epoch SET n = random(); END;
CREATE TRIGGER context_epoch_gf_i AFTER INSERT ON graph_files BEGIN UPDATE context_epoch SET n = random(); END;
CREATE TRIGGER context_epoch_gf_u AFTER UPDATE ON graph_files BEGIN UPDATE context_epoch SET n = random(); END;
CREATE TRIGGER context_epoch_gf_d AFTER DELETE ON graph_files BEGIN UPDATE context_epoch SET n = random(); END;
CREATE TRIGGER context_epoch_tp_i AFTER INSERT ON team_projects BEGIN UPDATE context_epoch SET n = random(); END;
CREATE TRIGGER context_epoch_tp_u AFTER UPDATE ON team_projects BEGIN UPDATE context_epoch SET n = random(); END;
CREATE TRIGGER context_epoch_tp_d AFTER DELETE ON team_projects BEGIN UPDATE context_epoch SET n = random(); END;
CREATE TRIGGER context_epoch_te_i AFTER INSERT ON team_entities BEGIN UPDATE context_epoch SET n = random(); END;
CREATE TRIGGER context_epoch_te_u AFTER UPDATE ON team_entities BEGIN UPDATE context_epoch SET n = random(); END;
CREATE TRIGGER context_epoch_te_d AFTER DELETE ON team_entities BEGIN UPDATE context_epoch SET n = random(); END;
