/**
 * Turning local memories, summaries and links into team records (with the last secret check before
 * they leave the machine), and applying records pulled from the team through the mutation path,
 * origin `team`. Personal preferences stay private unless marked; forgotten memories travel only as
 * tombstones; a pulled memory never overwrites one of another project (a crafted id) nor brings back
 * one forgotten here.
 */
import type { ObservationId, ProjectId } from '../core/ids.ts';
import { contentOf, type Observation, type ObservationDraft, type ObservationType } from '../core/model.ts';
import { scrubTextWithCount } from '../core/scrub.ts';
import type { MutationContext } from '../store/memory-writer.ts';
import type { Store } from '../store/store.ts';
import type { OutboxEntry, SyncEntity } from '../store/team-repo.ts';
import {
  linkBodySchema,
  memoryBodySchema,
  summaryBodySchema,
  type MemoryBody,
  type PulledRecord,
  type PushRecord,
} from '../team/protocol.ts';
import { inCanonicalOrder, recordHash } from '../team/record-hash.ts';
import { erasePhraseHere, erasureBetween, memoryTexts, summaryTexts } from './team-erasure.ts';
import { forget } from '../app/forget.ts';

export type BuiltRecord =
  | { kind: 'record'; record: PushRecord; title: string }
  | { kind: 'skip'; reason: string }
  | { kind: 'blocked'; reason: string };

const REDACTED = /\[REDACTED:([\w-]+)\]/g;

/** Why a body may not leave the machine (a secret the scrubber finds now), or null. */
export function secretIn(body: Record<string, unknown>): string | null {
  for (const [field, value] of Object.entries(body)) {
    const texts =
      typeof value === 'string'
        ? [value]
        : Array.isArray(value)
          ? value.filter((v) => typeof v === 'string')
          : [];
    for (const text of texts as string[]) {
      const out = scrubTextWithCount(text);
      if (out.redactions === 0) continue;
      const before = new Set([...text.matchAll(REDACTED)].map((m) => m[1]));
      const kinds = [...new Set([...out.text.matchAll(REDACTED)].map((m) => m[1]))].filter(
        (k) => !before.has(k),
      );
      return `holds what looks like a secret (${kinds.join(', ') || 'secret'}) in its ${field}; edit or forget it, then it syncs again`;
    }
  }
  return null;
}

export function memoryBody(o: Observation, conflictsWith: string | null): MemoryBody {
  return {
    ...contentOf(o),
    sessionId: o.sessionId,
    source: o.source,
    // (A forgotten memory travels as a tombstone, never as a body: that status is never sent.)
    status: o.status === 'forgotten' ? 'invalidated' : o.status,
    statusReason: o.statusReason,
    supersedes: o.supersedes,
    createdAt: o.createdAt,
    conflictsWith,
    pinned: o.pinned,
  };
}

function record(
  kind: SyncEntity,
  id: string,
  baseVersion: number | null,
  unordered: unknown,
  title: string,
): BuiltRecord {
  // Sent with its keys in canonical order: the server then writes its canonical JSON without sorting.
  const body = inCanonicalOrder(unordered);
  const deleted = body === null;
  if (!deleted) {
    const secret = secretIn(body as Record<string, unknown>);
    if (secret) return { kind: 'blocked', reason: secret };
  }
  return {
    kind: 'record',
    record: { kind, id, baseVersion, hash: recordHash(kind, id, deleted, body), deleted, body },
    title,
  };
}

/** The record an outbox entry stands for now, or why it does not leave the machine. */
export function buildRecord(store: Store, entry: OutboxEntry, me: string): BuiltRecord {
  const known = store.team.entity(entry.entity, entry.entityId);
  // After a server reset the base is unknown (version 0): the push then carries none.
  const base = known && known.version > 0 ? known.version : null;
  if (entry.entity === 'memory') {
    const o = store.observations.get(entry.entityId);
    if (!o) return { kind: 'skip', reason: 'no such memory' };
    if (o.projectId !== entry.projectId) return { kind: 'skip', reason: 'moved to another project' };
    if (o.status === 'forgotten') return record('memory', o.id, base, null, '[forgotten]');
    // Quarantined text never leaves the machine; approving it (`engram review`) queues it again.
    if (o.review === 'held')
      return { kind: 'skip', reason: 'quarantined until a person approves it (engram review)' };
    // Another member's preference came from the team already: sending it back reveals nothing new.
    const fromTeam = known !== null && known.author !== me;
    if (o.type === 'preference' && !fromTeam && !store.team.isMarked(o.id)) {
      return { kind: 'skip', reason: 'a personal preference (engram team mark <id> shares it)' };
    }
    const conflictsWith = store.team.conflictsOf([o.id]).get(o.id)?.[0] ?? null;
    return record('memory', o.id, base, memoryBody(o, conflictsWith), o.title);
  }
  if (entry.entity === 'summary') {
    const s = store.summaries.get(entry.entityId);
    if (!s) return { kind: 'skip', reason: 'no such summary' };
    const { projectId: _p, ...body } = s;
    // One machine writes a session's summary: the newest state simply wins (no base).
    return record('summary', s.sessionId, null, body, s.request || `session ${s.sessionId}`);
  }
  const [from = '', kind = '', to = ''] = entry.entityId.split(' ');
  const exists = store.team.linkExists(from, kind, to);
  return record('link', entry.entityId, null, exists ? { from, kind, to } : null, `${from} ${kind} ${to}`);
}

/** `erased`: it took text out that this machine still had (a teammate's forget --match): compact after. */
export type ApplyOutcome =
  'created' | 'updated' | 'merged' | 'forgotten' | 'erased' | 'unchanged' | 'skipped';

export interface ApplyContext {
  projectId: ProjectId;
  /** This machine's user on the team server. */
  me: string;
  at: number;
}

/**
 * A memory changed here and on the server at once: the local version becomes a new memory (flagged
 * as conflicting with the original), and the original takes the server's version. Nothing is lost.
 */
export function forkConflict(store: Store, local: Observation, other: string, at: number): string {
  const ctx = { origin: 'team' as const, actor: 'sync', at };
  const fork = store.memory.create(
    {
      projectId: local.projectId,
      sessionId: local.sessionId,
      source: local.source,
      createdAt: local.createdAt,
      provenance: [...local.provenance, `conflict:${local.id}`],
      draft: {
        ...local,
        facts: [...local.facts, `conflicting edit of ${local.id} (the team kept ${other}'s)`],
      },
    },
    ctx,
  );
  // Made by the sync, but it is this machine's content: it must be pushed like a local change.
  store.team.enqueue('memory', fork.id, local.projectId, at);
  store.team.dropFromOutbox('memory', local.id);
  store.team.addConflict(local.id, fork.id, `changed by you and by ${other} at the same time`, at);
  return fork.id;
}

/** The memory's content as a draft (the mutation path checks the type and scrubs every text). */
const draftOf = (b: MemoryBody): ObservationDraft => ({
  type: b.type as ObservationType,
  title: b.title,
  subtitle: b.subtitle,
  narrative: b.narrative,
  facts: b.facts,
  concepts: b.concepts,
  filesRead: b.filesRead,
  filesModified: b.filesModified,
});

/** A memory's content without its status: a status change alone never conflicts with an edit. */
export function contentKey(b: MemoryBody | Observation): string {
  const d = draftOf(b as MemoryBody);
  return recordHash('content', '', false, d);
}

/** This machine changed only the memory's status since the server's version (an edit would differ). */
export function onlyStatusChanged(store: Store, local: Observation): boolean {
  const known = store.team.entity('memory', local.id);
  return (
    known?.contentHash !== null && known?.contentHash !== undefined && known.contentHash === contentKey(local)
  );
}

function applyStatus(store: Store, id: string, body: MemoryBody, ctx: MutationContext): void {
  const cur = store.observations.get(id);
  if (!cur || cur.status === body.status || cur.status === 'forgotten') return;
  const reason = body.statusReason ?? 'changed by the team';
  if (body.status === 'superseded') {
    const by = /superseded by (obs_\w+)/.exec(reason)?.[1];
    // The replacement may come later; applying it (its `supersedes`) then completes this.
    if (by && store.observations.get(by)) store.memory.supersede(id, by, ctx);
  } else if (body.status === 'invalidated') store.memory.invalidate(id, reason, ctx);
  else if (body.status === 'archived') store.memory.archive(id, reason, ctx);
}

/** Who a pulled entity is attributed to: who first shared it (a teammate's edit or pin keeps it theirs). */
const authorOf = (rec: PulledRecord) => rec.origin ?? { author: rec.author, device: rec.device };

function applyMemory(store: Store, rec: PulledRecord, c: ApplyContext): ApplyOutcome {
  const known = store.team.entity('memory', rec.id);
  const localId = known?.localId ?? rec.id;
  const local = store.observations.get(localId);
  const ctx = { origin: 'team' as const, actor: rec.author, at: c.at };
  const parsedBody = rec.deleted ? null : memoryBodySchema.safeParse(rec.body);
  const remember = (id: string) =>
    store.team.putEntity({
      entity: 'memory',
      entityId: rec.id,
      projectId: c.projectId,
      version: rec.version,
      hash: rec.hash,
      contentHash: parsedBody?.success ? contentKey(parsedBody.data) : null,
      author: authorOf(rec).author,
      device: authorOf(rec).device,
      at: rec.at,
      localId: id === rec.id ? null : id,
    });
  if (local && local.projectId !== c.projectId) return 'skipped'; // an id of another project: never touched
  if (rec.deleted) {
    // As every forget: its vault notes go at once (the backup scheduler drops the backups holding it).
    if (local) forget({ store, backupDir: null }, [localId], () => ctx);
    store.team.dropFromOutbox('memory', localId);
    remember(localId);
    return local && local.status !== 'forgotten' ? 'forgotten' : 'unchanged';
  }
  if (!parsedBody?.success) return 'skipped';
  const body = parsedBody.data;
  if (known && known.hash === rec.hash && local) {
    remember(localId);
    return 'unchanged';
  }
  if (local?.status === 'forgotten') {
    remember(localId);
    return 'unchanged';
  }
  let outcome: ApplyOutcome;
  let id = localId;
  if (!local) {
    const created = store.memory.create(
      {
        id: rec.id as ObservationId,
        projectId: c.projectId,
        sessionId: body.sessionId,
        source: 'team',
        createdAt: body.createdAt,
        provenance: [`team:${authorOf(rec).author}@${authorOf(rec).device}`],
        draft: draftOf(body),
        supersedes: body.supersedes,
        // Standing here exactly when it was standing where it was written.
        pinned: body.pinned === true,
      },
      ctx,
    );
    id = created.id;
    // The same memory existed here (merged): it becomes standing if the author's was.
    if (created.outcome === 'merged' && body.pinned === true) store.memory.pin(id, true, ctx);
    outcome =
      created.outcome === 'created' ? 'created' : created.outcome === 'merged' ? 'merged' : 'unchanged';
  } else {
    // Text erased where it was written: the phrase goes from everything here, or no version keeps it.
    const erasure = erasureBetween(memoryTexts(local), memoryTexts(body));
    if (erasure?.kind === 'phrase') erasePhraseHere(store, c.projectId, erasure.phrase, ctx);
    const here = store.observations.get(localId) ?? local;
    const pending = store.team.isQueued('memory', localId);
    // Changed here too: only its status (keep that, take their content, push again on their version),
    // or its content (keep ours as a new memory, flagged, and take theirs) — unless theirs erased
    // text this machine cannot name: ours may hold it, and an erasure wins.
    const keepStatus = pending && onlyStatusChanged(store, here);
    if (pending && !keepStatus && erasure?.kind !== 'unknown') forkConflict(store, here, rec.author, c.at);
    if (!keepStatus && body.status === 'active' && here.status !== 'active')
      store.memory.restore(localId, ctx);
    store.memory.edit(localId, draftOf(body), ctx);
    if (!keepStatus) applyStatus(store, id, body, ctx);
    if (!keepStatus) store.memory.pin(localId, body.pinned === true, ctx);
    if (erasure?.kind === 'unknown') store.memory.dropHistory(localId, ctx);
    outcome = erasure ? 'erased' : 'updated';
  }
  if (!local) applyStatus(store, id, body, ctx);
  if (body.supersedes && store.observations.get(body.supersedes)?.status === 'active') {
    store.memory.supersede(body.supersedes, id, ctx);
  }
  if (body.conflictsWith && store.observations.get(body.conflictsWith)) {
    store.team.addConflict(
      id,
      body.conflictsWith,
      `changed by ${rec.author} and someone else at the same time`,
      c.at,
    );
  }
  if (authorOf(rec).author !== c.me) flagSameSubject(store, id, authorOf(rec).author, c);
  remember(id);
  return outcome;
}

/** Two people's memories on one subject (type and title) with different content: both kept, both flagged. */
function flagSameSubject(store: Store, id: string, author: string, c: ApplyContext): void {
  const o = store.observations.get(id);
  if (!o || o.status !== 'active') return;
  const others = store.team.sameSubject(c.projectId, o.type, o.title, o.id, o.contentHash);
  if (others.length === 0) return;
  const authors = store.team.attributions(others);
  for (const other of others) {
    const by = authors.get(other)?.author ?? c.me;
    if (by !== author)
      store.team.addConflict(id, other, `${author} and ${by} remember this differently`, c.at);
  }
}

/** Apply one pulled record (inside the caller's transaction). */
export function applyPulled(store: Store, rec: PulledRecord, c: ApplyContext): ApplyOutcome {
  if (rec.kind === 'memory') return applyMemory(store, rec, c);
  const ctx = { origin: 'team' as const, actor: rec.author, at: c.at };
  const remember = () =>
    store.team.putEntity({
      entity: rec.kind,
      entityId: rec.id,
      projectId: c.projectId,
      version: rec.version,
      hash: rec.hash,
      contentHash: null,
      author: authorOf(rec).author,
      device: authorOf(rec).device,
      at: rec.at,
      localId: null,
    });
  if (rec.kind === 'summary') {
    const parsed = summaryBodySchema.safeParse(rec.body);
    if (rec.deleted || !parsed.success) return 'skipped';
    const existing = store.summaries.get(parsed.data.sessionId);
    if (existing && existing.projectId !== c.projectId) return 'skipped';
    const erasure = existing ? erasureBetween(summaryTexts(existing), summaryTexts(parsed.data)) : null;
    if (erasure?.kind === 'phrase') erasePhraseHere(store, c.projectId, erasure.phrase, ctx);
    // At the session's own time, not the pull's: a teammate's old session is not "the latest".
    store.memory.saveSummary(
      parsed.data.sessionId,
      c.projectId,
      parsed.data,
      parsed.data.final,
      ctx,
      parsed.data.updatedAt,
    );
    remember();
    return erasure ? 'erased' : existing ? 'updated' : 'created';
  }
  const [from = '', kind = '', to = ''] = rec.id.split(' ');
  if (rec.deleted) {
    const removed = store.memory.unlink(from, kind, to, c.projectId, ctx);
    remember();
    return removed ? 'forgotten' : 'unchanged';
  }
  if (!linkBodySchema.safeParse(rec.body).success) return 'skipped';
  const added = store.memory.link(from, kind, to, c.projectId, ctx);
  remember();
  return added ? 'created' : 'unchanged';
}
