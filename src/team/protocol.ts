/**
 * The team wire protocol: what a client pushes and pulls, and what the admin API takes and returns.
 * Shared by the server (which validates every request with these schemas) and the sync client (which
 * validates every answer). Only distilled records travel: memories, session summaries, links and
 * tombstones — never raw events, prompts or transcripts.
 */
import { z } from 'zod';

export const PROTOCOL_VERSION = 1;
/** Largest JSON body of one record, in characters. */
export const MAX_RECORD_CHARS = 64_000;
export const MAX_PUSH_RECORDS = 200;
export const MAX_PULL_RECORDS = 500;

const text = (max: number) => z.string().max(max);
const list = (max: number, each = 2000) => z.array(text(each)).max(max);

export const ENTITY_KINDS = ['memory', 'summary', 'link'] as const;
export type EntityKind = (typeof ENTITY_KINDS)[number];

/**
 * A memory as it travels. A body may carry fields a version does not know (what a newer client adds
 * about a memory): the server keeps the body as sent and passes it on whole; a client ignores what it
 * does not know. So a field added later is optional, and its absence means what older clients meant.
 */
export const memoryBodySchema = z.object({
  type: text(40),
  title: text(2000),
  subtitle: text(4000),
  narrative: text(40_000),
  facts: list(200),
  concepts: list(200, 200),
  filesRead: list(500, 1000),
  filesModified: list(500, 1000),
  sessionId: text(200).nullable(),
  source: text(40),
  status: z.enum(['active', 'superseded', 'invalidated', 'archived']),
  statusReason: text(2000).nullable(),
  supersedes: text(100).nullable(),
  createdAt: z.number().int().nonnegative(),
  /** Set on a memory forked from a conflicting edit: the memory it conflicts with. */
  conflictsWith: text(100).nullable().optional(),
  /** Standing knowledge where it was written (pinned); absent from older clients: not standing. */
  pinned: z.boolean().optional(),
});
export type MemoryBody = z.infer<typeof memoryBodySchema>;

export const summaryBodySchema = z.object({
  sessionId: text(200),
  request: text(8000),
  investigated: text(8000),
  learned: text(8000),
  completed: text(8000),
  nextSteps: text(8000),
  filesRead: list(500, 1000),
  filesEdited: list(500, 1000),
  notes: text(8000),
  final: z.boolean(),
  updatedAt: z.number().int().nonnegative(),
});
export type SummaryBody = z.infer<typeof summaryBodySchema>;

export const linkBodySchema = z.object({
  from: text(100),
  kind: text(40),
  to: text(1000),
});
export type LinkBody = z.infer<typeof linkBodySchema>;

/**
 * A body sealed on the client (an end-to-end encrypted project, `record-seal.ts`): AES-256-GCM under
 * the project key of version `kv`, a random 96-bit nonce `iv`, ciphertext and tag in `ct` (base64).
 * The server stores and hands it on as it is; only members holding the key read what it holds.
 */
export const MAX_SEALED_CHARS = 90_000;
export const sealedBodySchema = z
  .object({
    e2ee: z.literal(1),
    kv: z.number().int().positive(),
    iv: z.string().regex(/^[A-Za-z0-9+/]{16}$/),
    ct: z
      .string()
      .max(MAX_SEALED_CHARS)
      .regex(/^[A-Za-z0-9+/]+={0,2}$/),
  })
  .strict();
export type SealedBody = z.infer<typeof sealedBodySchema>;

/** Whether a record's body is sealed (its shape alone: the server cannot open it). */
export const isSealed = (body: unknown): body is SealedBody =>
  typeof body === 'object' && body !== null && (body as { e2ee?: unknown }).e2ee === 1;

const entityId = z.string().min(1).max(1200);
const hash = z.string().regex(/^[0-9a-f]{64}$/);

/** One record pushed: the entity's current state, or a tombstone (deleted, no body). */
export const pushRecordSchema = z.object({
  kind: z.enum(ENTITY_KINDS),
  id: entityId,
  /** The server version this change was made on; null: unknown (first push, or after a server reset). */
  baseVersion: z.number().int().nonnegative().nullable(),
  hash,
  deleted: z.boolean(),
  body: z.unknown().nullable(),
});
export type PushRecord = z.infer<typeof pushRecordSchema>;

export const pushRequestSchema = z.object({
  records: z.array(pushRecordSchema).min(1).max(MAX_PUSH_RECORDS),
});
export type PushRequest = z.infer<typeof pushRequestSchema>;

export const PUSH_STATUSES = ['accepted', 'duplicate', 'conflict', 'gone', 'rejected'] as const;
export type PushStatus = (typeof PUSH_STATUSES)[number];

export const pushResultSchema = z.object({
  kind: z.enum(ENTITY_KINDS),
  id: entityId,
  status: z.enum(PUSH_STATUSES),
  /** The server's version of the entity after this push (0 when rejected and unknown). */
  version: z.number().int().nonnegative(),
  reason: z.string().optional(),
  /** For a conflict: who wrote the version the server keeps. */
  by: z.string().optional(),
});
export type PushResult = z.infer<typeof pushResultSchema>;

export const pushResponseSchema = z.object({
  epoch: z.string(),
  results: z.array(pushResultSchema),
});
export type PushResponse = z.infer<typeof pushResponseSchema>;

function movedToSchema() {
  return z.object({ id: z.string(), key: z.string(), name: z.string() });
}

/** Move a project into another the caller may write (by its key, remote or `prj_` id). */
export const moveRequestSchema = z.object({ to: z.string().min(1).max(1000) });
export const moveResponseSchema = z.object({
  from: z.string(),
  to: movedToSchema(),
  /** Records copied into the new project (those it held already kept as they were). */
  copied: z.number().int().nonnegative(),
});
export type MoveResponse = z.infer<typeof moveResponseSchema>;

export const pulledRecordSchema = z.object({
  seq: z.number().int().positive(),
  kind: z.enum(ENTITY_KINDS),
  id: entityId,
  version: z.number().int().positive(),
  hash,
  deleted: z.boolean(),
  body: z.unknown().nullable(),
  /** Who pushed this version, from which machine. */
  author: z.string(),
  device: z.string(),
  /** Who first shared the entity, from which machine (absent from older servers: the pusher). */
  origin: z.object({ author: z.string(), device: z.string() }).optional(),
  at: z.number().int(),
});
export type PulledRecord = z.infer<typeof pulledRecordSchema>;

export const pullResponseSchema = z.object({
  epoch: z.string(),
  /** The project's newest sequence number when this page was read. */
  head: z.number().int().nonnegative(),
  records: z.array(pulledRecordSchema),
  more: z.boolean(),
  /** The project moved into another (absent from older servers): its records are there now. */
  movedTo: movedToSchema().nullable().optional(),
  /** The project is end-to-end encrypted: the server takes only sealed records (absent: older server). */
  encrypted: z.boolean().optional(),
});
export type PullResponse = z.infer<typeof pullResponseSchema>;

export const projectStateSchema = z.object({
  branch: text(300).nullable(),
  commit: text(64).nullable(),
  files: list(50, 1000),
  fileCount: z.number().int().nonnegative(),
  at: z.number().int().nonnegative(),
});
export type ProjectState = z.infer<typeof projectStateSchema>;

export const memberStateSchema = projectStateSchema.extend({ user: z.string(), device: z.string() });
export type MemberState = z.infer<typeof memberStateSchema>;

export const statesResponseSchema = z.object({ states: z.array(memberStateSchema) });

/**
 * A person's decision on a quarantined memory, for the project's audit chain (`POST …/reviews`):
 * which memory, approve or reject, the memory's version it was made on, the instruction screen's
 * version the memory was judged under, when (the deciding machine's clock), and the surface and local
 * actor it was made with. Who made it is the token's user and device, which the server records. No
 * text of the memory and no reason travel, so an encrypted project's audit holds no content.
 */
export const MAX_REVIEWS = 200;
export const REVIEW_VERDICTS = ['approve', 'reject'] as const;
export const reviewEventSchema = z.object({
  memory: entityId,
  verdict: z.enum(REVIEW_VERDICTS),
  version: z.number().int().nonnegative().nullable(),
  screen: z.number().int().nonnegative(),
  at: z.number().int().nonnegative(),
  via: z.enum(['cli', 'viewer', 'vault']),
  actor: text(200).nullable(),
});
export type ReviewEvent = z.infer<typeof reviewEventSchema>;
export const reviewsRequestSchema = z.object({ reviews: z.array(reviewEventSchema).min(1).max(MAX_REVIEWS) });
export const reviewsResponseSchema = z.object({ recorded: z.number().int().nonnegative() });

export const ROLES = ['reader', 'writer', 'admin'] as const;
export type Role = (typeof ROLES)[number];
export const SCOPES = ['read', 'write', 'admin'] as const;
export type Scope = (typeof SCOPES)[number];

export const meResponseSchema = z.object({
  epoch: z.string(),
  user: z.object({ id: z.string(), name: z.string(), admin: z.boolean() }),
  token: z.object({ id: z.string(), device: z.string(), scopes: z.array(z.enum(SCOPES)) }),
  projects: z.array(z.object({ id: z.string(), key: z.string(), name: z.string(), role: z.enum(ROLES) })),
});
export type MeResponse = z.infer<typeof meResponseSchema>;

// ---- admin -------------------------------------------------------------------------------------

export const USER_NAME_RE = /^[a-z0-9][a-z0-9._-]{0,62}$/;
const userName = z.string().regex(USER_NAME_RE, 'a user name is 1–63 of a-z 0-9 . _ - (lower case)');
const device = z.string().min(1).max(100);

export const addUserSchema = z.object({
  name: userName,
  admin: z.boolean().default(false),
  password: z.string().min(12).max(1000).optional(),
  device: device.default('default'),
});
export const createTokenSchema = z.object({
  user: userName,
  device: device.default('default'),
  scopes: z.array(z.enum(SCOPES)).min(1).default(['read', 'write']),
  expiresInDays: z.number().int().positive().max(3650).nullable().default(null),
});
export const grantSchema = z.object({
  user: userName,
  /** A git remote (any form), a `prj_` id, or `name:<project>` for a project named by override. */
  project: z.string().min(1).max(1000),
  role: z.enum(ROLES),
});
export const revokeGrantSchema = grantSchema.omit({ role: true });
/** A machine names the device of the token it uses (by default its host name, at login). */
export const DEVICE_NAME_RE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/;
export const deviceNameSchema = z.object({
  device: z.string().regex(DEVICE_NAME_RE, 'a device name is 1–63 of A-Z a-z 0-9 . _ -'),
});
export const loginSchema = z.object({
  name: userName,
  password: z.string().min(1).max(1000),
  device: device.default('viewer'),
});

export interface UserInfo {
  id: string;
  name: string;
  admin: boolean;
  createdAt: number;
  projects: { project: string; role: Role }[];
  tokens: number;
}

export interface TokenInfo {
  id: string;
  user: string;
  device: string;
  scopes: Scope[];
  createdAt: number;
  expiresAt: number | null;
  lastUsedAt: number | null;
  revokedAt: number | null;
}

export interface AuditEntry {
  chain: string;
  seq: number;
  at: number;
  user: string | null;
  device: string | null;
  action: string;
  target: string | null;
  detail: string | null;
  requestId: string | null;
  hash: string;
}

export interface AuditVerifyReport {
  ok: boolean;
  chains: { chain: string; rows: number; head: string; ok: boolean; problems: string[] }[];
}

/** The error body every failed request answers with. */
export interface ErrorBody {
  error: { code: string; message: string; requestId: string };
}

/** A device's id: `dk_` and 32 hex digits of SHA-256 of its X25519 public key (key-wrap.ts). */
const deviceId = z.string().regex(/^dk_[0-9a-f]{32}$/);
const b64url = (bytes: number) =>
  z.string().regex(new RegExp(`^[A-Za-z0-9_-]{${Math.ceil((bytes * 4) / 3)}}$`));

/** A machine enrols its device public key in a project it may read, so members can wrap the key for it. */
export const enrolDeviceSchema = z.object({ publicKey: b64url(32) }).strict();

/**
 * One version of a project key wrapped for one device (key-wrap.ts): X25519 + HKDF-SHA-256 +
 * AES-256-GCM; `eph` the sender's ephemeral public key, `iv` the nonce, `ct` the key and the tag.
 * The server stores it and hands it only to the recipient's user; it cannot open it.
 */
export const wrappedKeySchema = z
  .object({
    project: z.string().regex(/^prj_[0-9a-f]{16}$/),
    version: z.number().int().positive().max(1_000_000),
    to: deviceId,
    from: deviceId,
    eph: b64url(32),
    iv: b64url(12),
    ct: b64url(48),
  })
  .strict();
export type WrappedKey = z.infer<typeof wrappedKeySchema>;

export const putWrapsSchema = z.object({ wraps: z.array(wrappedKeySchema).min(1).max(500) }).strict();

/** A device enrolled in a project: whose, its name, its public key, and the key versions wrapped for it. */
export const projectDeviceSchema = z.object({
  id: deviceId,
  user: z.string(),
  device: z.string(),
  publicKey: b64url(32),
  versions: z.array(z.number().int().positive()),
  enrolledAt: z.number().int(),
});
export type ProjectDevice = z.infer<typeof projectDeviceSchema>;

export const projectKeysResponseSchema = z.object({
  devices: z.array(projectDeviceSchema),
  /** The wraps addressed to the device asked about (only when it is the caller's own). */
  wraps: z.array(wrappedKeySchema),
});
export type ProjectKeysResponse = z.infer<typeof projectKeysResponseSchema>;
