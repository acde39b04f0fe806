/**
 * Erasing a memory's text (`store.memory.forget`, `redact`, `dropHistory`), part of the mutation path:
 * what a forget or a `forget --match` must leave nowhere — the row's text, its earlier versions, its
 * links, its lines in the context log, its turn's raw events and prompt — each logged once.
 */
import type { MemorySnapshot } from '../core/model.ts';
import { erasePhrase, phrasePattern } from '../core/phrase.ts';
import type { Db } from './database.ts';
import { eraseInjectedLinesOf } from './erase-injected.ts';
import { eraseTurnOf } from './erase-turn.ts';
import { snapshotOf } from './memory-draft.ts';
import type { MemoryRewrite } from './memory-rewrite.ts';
import type { MutationContext, MutationKit } from './mutation-kit.ts';
import { lazyStatement } from './statements.ts';
import type { SummaryWriter } from './summary-writer.ts';

/** The erasing verbs, through the mutation kit. */
export function createErasureOps(
  db: Db,
  kit: MutationKit,
  { load, rewrite }: Pick<MemoryRewrite, 'load' | 'rewrite'>,
  summaries: SummaryWriter,
) {
  const { tx, log } = kit;
  const erase = lazyStatement(
    db,
    `UPDATE observations SET status = 'forgotten', status_reason = 'forgotten', title = '[forgotten]',
       subtitle = '', narrative = '', facts = '[]', concepts = '[]', files_read = '[]', files_modified = '[]',
       search_terms = '', tokens = 0, provenance = '[]', supersedes = NULL, pinned = 0,
       version = version + 1, modified_at = ?
     WHERE id = ? AND status <> 'forgotten'`,
  );
  const dropVersions = lazyStatement(db, `DELETE FROM observation_versions WHERE observation_id = ?`);
  const dropLinksOf = lazyStatement(db, `DELETE FROM links WHERE from_id = ? OR to_id = ?`);
  const dropInjections = lazyStatement(db, `DELETE FROM injections WHERE observation_id = ?`);
  const versionsOf = lazyStatement(
    db,
    `SELECT version, snapshot FROM observation_versions WHERE observation_id = ?`,
  );
  const setSnapshot = lazyStatement(
    db,
    `UPDATE observation_versions SET snapshot = ? WHERE observation_id = ? AND version = ?`,
  );

  return {
    /**
     * Erase a memory's text everywhere engram keeps it: the row (and so its full-text and vector
     * entries), its earlier versions, its links, its lines in the context log, and the raw events and
     * prompt of the turn it came from. A tombstone stays (id, project, time, source) so it never comes back nor re-syncs.
     */
    forget(id: string, ctx: MutationContext): boolean {
      return tx(() => {
        const cur = load(id);
        if (!cur || cur.status === 'forgotten') return false;
        const prompts = eraseTurnOf(db, cur);
        // The session summary retells the turn: its title and prompts are taken out of it too.
        if (cur.sessionId)
          for (const text of [cur.title, ...prompts]) {
            const start = text.replace(/\s+/g, ' ').trim().slice(0, 60);
            if (start.length >= 8) summaries.redactSummary(cur.sessionId, phrasePattern(start), ctx);
          }
        erase().run(ctx.at, id);
        dropVersions().run(id);
        dropLinksOf().run(id, id);
        eraseInjectedLinesOf(db, id);
        dropInjections().run(id);
        log('memory', id, cur.projectId, 'forget', ctx, cur.version + 1);
        return true;
      });
    },

    /**
     * Drop every earlier version of a memory: text erased elsewhere, that this machine cannot name
     * (a teammate's `forget --match`), must not survive in its history. Logged as `redact`.
     */
    dropHistory(id: string, ctx: MutationContext): boolean {
      return tx(() => {
        const cur = load(id);
        if (!cur || cur.status === 'forgotten') return false;
        if (dropVersions().run(id).changes === 0) return false;
        log('memory', id, cur.projectId, 'redact', ctx, cur.version);
        return true;
      });
    },

    /**
     * Erase a phrase (a leaked secret, a name) from a memory: every text field and every earlier
     * version, in place — no version keeps the old text. False when the memory did not hold it.
     */
    redact(id: string, pattern: RegExp, ctx: MutationContext, words: RegExp | null = null): boolean {
      return tx(() => {
        const cur = load(id);
        if (!cur || cur.status === 'forgotten') return false;
        let touched = false;
        for (const v of versionsOf().all(id) as { version: number; snapshot: string }[]) {
          const snapshot = JSON.parse(erasePhrase(v.snapshot, pattern)) as MemorySnapshot;
          // Earlier versions' keywords lose the phrase's words too (as the current ones below).
          if (words !== null) snapshot.concepts = snapshot.concepts.filter((c) => !words.test(c));
          const erased = JSON.stringify(snapshot);
          if (erased !== v.snapshot) {
            setSnapshot().run(erased, id, v.version);
            touched = true;
          }
        }
        const text = (t: string) => erasePhrase(t, pattern);
        const list = (l: string[]) => l.map(text);
        const next: MemorySnapshot = {
          ...snapshotOf(cur),
          title: text(cur.title),
          subtitle: text(cur.subtitle),
          narrative: text(cur.narrative),
          facts: list(cur.facts),
          // Keywords derived from the text lose every one that holds a word of the phrase.
          concepts: list(cur.concepts).filter((c) => words === null || !words.test(c)),
          filesRead: list(cur.filesRead),
          filesModified: list(cur.filesModified),
          statusReason: cur.statusReason === null ? null : text(cur.statusReason),
          ...(cur.subject ? { subject: text(cur.subject) } : {}),
        };
        const changed = JSON.stringify(next) !== JSON.stringify(snapshotOf(cur));
        if (!changed && !touched) return false;
        // No version is kept: it would keep the phrase.
        rewrite(cur, next, 'redact', ctx, false);
        return true;
      });
    },
  };
}
