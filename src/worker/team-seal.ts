/**
 * The client's side of an end-to-end encrypted project: records sealed after they are built (so the
 * last secret check of `buildRecord` runs on the plain text first) and opened before they are applied
 * through the mutation path. A link's id names its ends, so it travels as an opaque id (its own
 * entity on the server); this machine keeps which link each opaque id stands for. The same content
 * sealed again reuses its last sealing, so a push repeated after a crash is a duplicate, not a new
 * version; that sealing is kept only until the server answers (`forgetSealing`), and never for a
 * tombstone, so no copy of a forgotten or erased text outlives its push here. Project state (branch,
 * commit, changed files) is sealed too.
 */
import type { Store } from '../store/store.ts';
import {
  isSealed,
  MAX_RECORD_CHARS,
  sealedBodySchema,
  type MemberState,
  type ProjectState,
  type PulledRecord,
  type PushRecord,
  type SealedBody,
} from '../team/protocol.ts';
import { recordHash } from '../team/record-hash.ts';
import { currentVersion, opaqueId, open, seal, type Keyring, type SealPlace } from '../team/record-seal.ts';
import { SINCE_KEY } from './team-seal-since.ts';

const SEALED_KEY = (kind: string, id: string) => `e2ee_sealed:${kind} ${id}`;
const ALIAS_KEY = (opaque: string) => `e2ee_alias:${opaque}`;

/** The id the server sees for an entity of an encrypted project. */
const serverId = (ring: Keyring, kind: string, id: string) =>
  kind === 'link' ? opaqueId(ring, kind, id) : id;

export type Sealed = { ok: true; rec: PushRecord } | { ok: false; reason: string };

/**
 * A built record as it leaves for an encrypted project. `remember` false (a dry run) writes nothing
 * here: the record shown is sealed afresh.
 */
export function sealRecord(store: Store, ring: Keyring, rec: PushRecord, remember = true): Sealed {
  const id = serverId(ring, rec.kind, rec.id);
  if (id !== rec.id && remember) store.team.setMeta(ALIAS_KEY(id), rec.id);
  if (rec.deleted) {
    if (remember) store.team.dropMeta(SEALED_KEY(rec.kind, rec.id));
    return { ok: true, rec: { ...rec, id, hash: recordHash(rec.kind, id, true, null) } };
  }
  if (JSON.stringify(rec.body).length > MAX_RECORD_CHARS)
    return { ok: false, reason: `larger than ${MAX_RECORD_CHARS} characters` };
  const version = currentVersion(ring).version;
  const cached = store.team.meta(SEALED_KEY(rec.kind, rec.id));
  let body: SealedBody | null = null;
  if (cached) {
    const c = JSON.parse(cached) as { plain: string; body: unknown };
    const parsed = sealedBodySchema.safeParse(c.body);
    if (c.plain === rec.hash && parsed.success && parsed.data.kv === version) body = parsed.data;
  }
  if (!body) {
    body = seal(ring, { project: ring.projectId, kind: rec.kind, id }, rec.body);
    if (remember) store.team.setMeta(SEALED_KEY(rec.kind, rec.id), JSON.stringify({ plain: rec.hash, body }));
  }
  return { ok: true, rec: { ...rec, id, body, hash: recordHash(rec.kind, id, false, body) } };
}


/** The server answered a push of this entity: its sealing is not needed again. */
export function forgetSealing(store: Store, kind: string, id: string): void {
  store.team.dropMeta(SEALED_KEY(kind, id));
}

export type OpenedRecord =
  | { ok: true; rec: PulledRecord; reseal?: boolean }
  | { ok: false; skip: true }
  | { ok: false; skip: false; message: string };

/**
 * A pulled record as this machine applies it: opened, its real id back. A plain record in a project
 * encrypted here predates its encryption (the server refuses plain records once a project is
 * encrypted, so every plain row is numbered below every sealed one): it is applied and `reseal`ed (the
 * caller queues it, so the server's copy gets sealed) — unless it comes after a sealed one.
 */
export function openRecord(
  store: Store,
  ring: Keyring | null,
  projectId: string,
  rec: PulledRecord,
): OpenedRecord {
  if (rec.deleted) {
    if (!ring || !rec.id.startsWith('e2e_')) return { ok: true, rec };
    const real = store.team.meta(ALIAS_KEY(rec.id));
    // A link removed before this machine ever saw it: nothing here to remove.
    return real ? { ok: true, rec: { ...rec, id: real } } : { ok: false, skip: true };
  }
  const since = SINCE_KEY(projectId);
  const first = store.team.meta(since);
  if (!isSealed(rec.body)) {
    // Plain rows all predate the first sealed one (pulls run in sequence order): a plain record after
    // a sealed one was written by the server itself.
    if (first !== null && rec.seq > Number(first))
      return {
        ok: false,
        skip: false,
        message: `a plain ${rec.kind} came after sealed ones in an end-to-end encrypted project: refused (no member can push one)`,
      };
    return ring ? { ok: true, rec, reseal: true } : { ok: true, rec };
  }
  if (first === null || rec.seq < Number(first)) store.team.setMeta(since, String(rec.seq));
  const sealed = sealedBodySchema.safeParse(rec.body);
  if (!sealed.success) return { ok: false, skip: false, message: `a malformed sealed ${rec.kind}` };
  const opened = open(ring, { project: projectId, kind: rec.kind, id: rec.id }, sealed.data);
  if (!opened.ok) return { ok: false, skip: false, message: opened.message };
  if (rec.kind !== 'link' || !ring) return { ok: true, rec: { ...rec, body: opened.value } };
  const b = opened.value as { from?: unknown; kind?: unknown; to?: unknown };
  const real = `${String(b.from)} ${String(b.kind)} ${String(b.to)}`;
  // The opaque id is bound into the tag; it must also be the one these ends make.
  if (opaqueId(ring, 'link', real) !== rec.id)
    return { ok: false, skip: false, message: 'a sealed link whose ends do not match its id: refused' };
  store.team.setMeta(ALIAS_KEY(rec.id), real);
  return { ok: true, rec: { ...rec, id: real, body: opened.value } };
}

/** The fields of a sealed state: branch and commit withheld, the sealed text in `files` pieces. */
const STATE_MARK = 'e2ee:';
const PIECE = 1000;
/** Files named in a sealed state, at most (the sealed text must fit the state's 50 pieces). */
const STATE_PLAIN_MAX = 30_000;

const statePlace = (projectId: string, user: string): SealPlace => ({
  project: projectId,
  kind: 'state',
  id: user,
});

/** This member's project state as the server may see it: the file count and time, nothing else. */
export function sealState(ring: Keyring, me: string, s: ProjectState): ProjectState {
  const files = [...s.files];
  while (files.length > 0 && JSON.stringify({ ...s, files }).length > STATE_PLAIN_MAX) files.pop();
  const text = STATE_MARK + JSON.stringify(seal(ring, statePlace(ring.projectId, me), { ...s, files }));
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += PIECE) pieces.push(text.slice(i, i + PIECE));
  return { branch: null, commit: null, files: pieces, fileCount: s.fileCount, at: s.at };
}

/** A teammate's state opened (a sealed one that does not open keeps only its count and time). */
export function openState(ring: Keyring | null, projectId: string, s: MemberState): MemberState {
  if (!s.files[0]?.startsWith(STATE_MARK)) return s;
  const bare = { ...s, branch: null, commit: null, files: [] };
  let sealed: unknown;
  try {
    sealed = JSON.parse(s.files.join('').slice(STATE_MARK.length));
  } catch {
    return bare;
  }
  const parsed = sealedBodySchema.safeParse(sealed);
  if (!parsed.success) return bare;
  const opened = open(ring, statePlace(projectId, s.user), parsed.data);
  if (!opened.ok) return bare;
  const v = opened.value as Partial<ProjectState>;
  return {
    ...s,
    branch: typeof v.branch === 'string' ? v.branch : null,
    commit: typeof v.commit === 'string' ? v.commit : null,
    files: Array.isArray(v.files) ? v.files.filter((f): f is string => typeof f === 'string') : [],
  };
}
