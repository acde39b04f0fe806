/**
 * End-to-end encryption of a team project's records: AES-256-GCM from `node:crypto` (no primitive of
 * our own), a random 256-bit project key per key version, a random 96-bit nonce per sealing, and the
 * record's place — project, kind, entity id and key version — as additional authenticated data, so
 * the server cannot move a ciphertext to another record or project: opening it there fails. The
 * server only ever sees `SealedBody` values; the client seals before a push and opens after a pull.
 */
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { EngramError } from '../core/errors.ts';
import type { SealedBody } from './protocol.ts';
import { canonicalJson } from './record-hash.ts';

export const KEY_BYTES = 32;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

/** One version of a project's key. */
export interface KeyVersion {
  version: number;
  key: Buffer;
}

/** Every version of a project's key this machine holds; the highest seals new records. */
export interface Keyring {
  projectId: string;
  versions: KeyVersion[];
}

/** Where a sealed value belongs: bound into the ciphertext's tag. */
export interface SealPlace {
  project: string;
  kind: string;
  id: string;
}

export const newKey = (): Buffer => randomBytes(KEY_BYTES);

export function currentVersion(ring: Keyring): KeyVersion {
  const top = ring.versions.reduce<KeyVersion | null>((a, v) => (a && a.version > v.version ? a : v), null);
  if (!top) throw new EngramError('KEY_MISSING', `no key is held for project ${ring.projectId}`);
  return top;
}

const aad = (place: SealPlace, version: number) =>
  Buffer.from(
    canonicalJson({ e2ee: 1, project: place.project, kind: place.kind, id: place.id, kv: version }),
  );

/** Seal a JSON value for one place under the ring's current key. */
export function seal(ring: Keyring, place: SealPlace, value: unknown): SealedBody {
  const { version, key } = currentVersion(ring);
  const iv = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(aad(place, version));
  const ct = Buffer.concat([
    cipher.update(JSON.stringify(value), 'utf8'),
    cipher.final(),
    cipher.getAuthTag(),
  ]);
  // (Members in canonical order: the server writes its canonical JSON without sorting.)
  return { ct: ct.toString('base64'), e2ee: 1, iv: iv.toString('base64'), kv: version };
}

export type Opened =
  { ok: true; value: unknown } | { ok: false; why: 'no-key' | 'wrong-key'; version: number; message: string };

/** Open a sealed value for the place it claims; never throws for a key that does not fit. */
export function open(ring: Keyring | null, place: SealPlace, sealed: SealedBody): Opened {
  const held = ring?.versions.find((v) => v.version === sealed.kv);
  if (!held) {
    const message = ring
      ? `sealed with key version ${sealed.kv}, which this machine does not hold (it holds ${ring.versions.map((v) => v.version).join(', ')}): import the project's current key`
      : 'the project is end-to-end encrypted and this machine holds no key for it: import the project key (engram team key import)';
    return { ok: false, why: 'no-key', version: sealed.kv, message };
  }
  const raw = Buffer.from(sealed.ct, 'base64');
  if (raw.length < TAG_BYTES) return wrong(sealed.kv);
  try {
    const decipher = createDecipheriv('aes-256-gcm', held.key, Buffer.from(sealed.iv, 'base64'), {
      authTagLength: TAG_BYTES,
    });
    decipher.setAAD(aad(place, sealed.kv));
    decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
    const text = Buffer.concat([decipher.update(raw.subarray(0, raw.length - TAG_BYTES)), decipher.final()]);
    return { ok: true, value: JSON.parse(text.toString('utf8')) as unknown };
  } catch {
    // GCM's tag check failed (or the plaintext is not JSON, which only a wrong key produces here).
    return wrong(sealed.kv);
  }
}

const wrong = (version: number): Opened => ({
  ok: false,
  why: 'wrong-key',
  version,
  message: `the key this machine holds for version ${version} does not open it: a wrong key (or a record altered on the server)`,
});

/**
 * An entity id the server may see for one whose own text would tell it something (a link's ends):
 * HMAC-SHA-256 of the id under a key derived from the project's first key version, which every
 * holder keeps, so every member names the same link alike across rotations.
 */
export function opaqueId(ring: Keyring, kind: string, id: string): string {
  const first = ring.versions.reduce<KeyVersion | null>((a, v) => (a && a.version < v.version ? a : v), null);
  if (!first) throw new EngramError('KEY_MISSING', `no key is held for project ${ring.projectId}`);
  const idKey = createHmac('sha256', first.key).update('engram e2ee entity ids').digest();
  return `e2e_${createHmac('sha256', idKey).update(`${kind}\u0000${id}`).digest('hex').slice(0, 40)}`;
}

const EXPORT_PREFIX = 'engram-key:v1:';

/** The ring as one line to hand to a teammate out of band (every version: old records stay readable). */
export function exportKeyring(ring: Keyring): string {
  const parts = [...ring.versions]
    .sort((a, b) => a.version - b.version)
    .map((v) => `${v.version}.${v.key.toString('base64url')}`);
  return `${EXPORT_PREFIX}${ring.projectId}:${parts.join(':')}`;
}

/** A line `exportKeyring` printed, checked; a clear refusal for anything else. */
export function parseKeyring(text: string): Keyring {
  const s = text.trim();
  const bad = (why: string) =>
    new EngramError('INPUT_INVALID', `not a project key: ${why}`, {
      hint: 'Paste the whole line "engram team key export" printed (it starts with engram-key:v1:).',
    });
  if (!s.startsWith(EXPORT_PREFIX)) throw bad('it does not start with engram-key:v1:');
  const [projectId = '', ...parts] = s.slice(EXPORT_PREFIX.length).split(':');
  if (!/^prj_[0-9a-f]{16}$/.test(projectId)) throw bad('it names no project');
  if (parts.length === 0) throw bad('it holds no key');
  const versions = parts.map((p) => {
    const m = /^(\d{1,6})\.([A-Za-z0-9_-]{43})$/.exec(p);
    const key = m ? Buffer.from(m[2] as string, 'base64url') : null;
    if (!m || !key || key.length !== KEY_BYTES || Number(m[1]) < 1)
      throw bad(`"${p.slice(0, 12)}…" is not a key version`);
    return { version: Number(m[1]), key };
  });
  if (new Set(versions.map((v) => v.version)).size !== versions.length) throw bad('a version appears twice');
  return { projectId, versions };
}
