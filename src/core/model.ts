/**
 * Domain model shared by every layer. Pure types: no I/O, no runtime dependencies.
 */
import type { ObservationId, ProjectId } from './ids.ts';
import type { ReviewState, TrustClass } from './trust.ts';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Hook events engram registers for (Claude Code names). */
export const HOOK_EVENTS = [
  'SessionStart',
  'UserPromptSubmit',
  'PostToolUse',
  'PostToolUseFailure',
  'Stop',
  'SubagentStop',
  'PreCompact',
  'PostCompact',
  'SessionEnd',
] as const;
export type HookEventName = (typeof HOOK_EVENTS)[number];

/** A hook payload normalised into what engram keeps: scrubbed, size-capped, host-neutral. */
export type CapturedEvent =
  | { kind: 'session_start'; source: string; model?: string }
  | { kind: 'prompt'; prompt: string }
  | {
      kind: 'tool';
      tool: string;
      toolUseId?: string;
      input: Json;
      response: Json;
      durationMs?: number;
      agentId?: string;
    }
  | {
      kind: 'tool_failure';
      tool: string;
      toolUseId?: string;
      input: Json;
      error: string;
      interrupted: boolean;
      durationMs?: number;
      agentId?: string;
    }
  | { kind: 'stop'; lastMessage: string }
  | { kind: 'subagent_stop'; agentId: string; agentType: string; lastMessage: string }
  | { kind: 'pre_compact'; trigger: string; instructions: string }
  | { kind: 'post_compact'; trigger: string; summary: string }
  | { kind: 'session_end'; reason: string };

export type CapturedEventKind = CapturedEvent['kind'];

/** One row of the durable queue as the worker sees it. */
export interface QueuedEvent {
  seq: number;
  sessionId: string;
  projectId: ProjectId;
  cwd: string;
  transcriptPath: string | null;
  at: number;
  event: CapturedEvent;
  attempts: number;
}

export const OBSERVATION_TYPES = [
  'decision',
  'bugfix',
  'feature',
  'refactor',
  'change',
  'discovery',
  'error',
  'correction',
  'preference',
  'task',
  'failed_attempt',
  'fact',
  'gotcha',
  'convention',
] as const;
export type ObservationType = (typeof OBSERVATION_TYPES)[number];

export const OBSERVATION_SOURCES = ['hook', 'transcript', 'llm', 'manual', 'import', 'team'] as const;
export type ObservationSource = (typeof OBSERVATION_SOURCES)[number];
export const OBSERVATION_STATUSES = ['active', 'superseded', 'invalidated', 'archived', 'forgotten'] as const;
export type ObservationStatus = (typeof OBSERVATION_STATUSES)[number];

/** Where a change to memory came from: recorded with every mutation in the change log. */
export const CHANGE_ORIGINS = ['hook', 'transcript', 'llm', 'mcp', 'cli', 'viewer', 'vault', 'team'] as const;
export type ChangeOrigin = (typeof CHANGE_ORIGINS)[number];

/** What a distiller produces; the store adds identity, provenance and bookkeeping. */
export interface ObservationDraft {
  type: ObservationType;
  title: string;
  subtitle: string;
  narrative: string;
  facts: string[];
  concepts: string[];
  filesRead: string[];
  filesModified: string[];
  /**
   * What it is knowledge about, when that has a name (`command:test`, `fail:<command>`,
   * `env:port:dev`): a later memory of the same subject merges into it, supersedes it or closes it.
   */
  subject?: string;
  /**
   * The trust of the evidence it was distilled from, when the distiller knows it (the user's words,
   * the repository, tool output, external content); the mutation path takes the lowest of this and
   * what the change's origin allows.
   */
  trust?: TrustClass;
}

/** A memory's content fields (everything a draft holds but its subject), in one place for every projection. */
export function contentOf(o: ObservationDraft): Omit<ObservationDraft, 'subject'> {
  return {
    type: o.type,
    title: o.title,
    subtitle: o.subtitle,
    narrative: o.narrative,
    facts: o.facts,
    concepts: o.concepts,
    filesRead: o.filesRead,
    filesModified: o.filesModified,
  };
}

export interface Observation extends ObservationDraft {
  id: ObservationId;
  projectId: ProjectId;
  sessionId: string | null;
  source: ObservationSource;
  status: ObservationStatus;
  /** When what it records happened. */
  createdAt: number;
  /** When the memory last changed. */
  modifiedAt: number;
  contentHash: string;
  tokens: number;
  /**
   * What it came from, by durable names: `session:<id>`, `turn:<first>-<last>` (capture times within
   * the session), `tool:<tool call id>`, `transcript:<record uuid>`, `mcp:remember`, `vault:<path>`.
   */
  provenance: string[];
  /** Why it is not active (superseded by …, the reason given to invalidate or archive). */
  statusReason: string | null;
  /** The memory this one replaced. */
  supersedes: string | null;
  /** 1 at creation; each mutation of its content, status or pin adds one (earlier versions are kept). */
  version: number;
  /** Standing knowledge: always in the SessionStart index until superseded or invalidated. */
  pinned: boolean;
  /** How many times the same memory was distilled again (merged into this one), and the last time. */
  seenCount: number;
  lastSeenAt: number;
  /** The trust of its evidence (the lowest when mixed); a person's edit makes it the user's. */
  trust: TrustClass;
  /** `held`: quarantined (never injected, standing or pushed) until a person approves it. */
  review: ReviewState;
  /** Why it is held (the screen's rule and the text it matched), or who approved it. */
  reviewReason: string | null;
  /** The version of the instruction screen that last judged it (0: not yet). */
  screenVersion: number;
}

/** One memory in an injection: its id, what its line cost, and why it was chosen. */
export interface InjectedItem {
  id: string;
  /** Tokens its line in the injected text cost. */
  tokens: number;
  /** The share of the prompt's distinctive words it holds (prompt recall); null for the SessionStart index. */
  score: number | null;
  /**
   * `standing`: pinned knowledge at SessionStart; `recent`: in the SessionStart index; `stale`: listed
   * there apart, its code changed; `match`: with a prompt.
   */
  why: 'standing' | 'recent' | 'stale' | 'match';
}

/** A line the injection gate kept out of a context hook's text, and why. */
export interface DroppedLine {
  /** The memory the line showed, or null for a line of the session summary or the team's state. */
  id: string | null;
  rule: string;
  category: string;
  /** The part of the line that matched (at most 120 characters). */
  excerpt: string;
}

/** What a context hook injected with its event (recorded when the worker imports the event). */
export interface InjectedContext {
  text: string;
  tokens: number;
  observationIds: string[];
  items: InjectedItem[];
  /** Lines the injection gate dropped (absent: none). */
  dropped?: DroppedLine[];
  /** The hook's own time until it had rendered, in milliseconds. */
  latencyMs: number;
}

/** What a memory was at one version: enough to show it and to restore it. */
export interface MemorySnapshot extends ObservationDraft {
  status: ObservationStatus;
  statusReason: string | null;
  supersedes: string | null;
  pinned: boolean;
}

/** An earlier version of a memory and the mutation that replaced it. */
export interface MemoryVersion {
  version: number;
  snapshot: MemorySnapshot;
  replacedByOp: MemoryOp;
  origin: ChangeOrigin;
  replacedAt: number;
}

/** What the change log records of a memory (each is one mutation of `store.memory`). */
export const MEMORY_OPS = [
  'create',
  'edit',
  'merge',
  'supersede',
  'invalidate',
  'archive',
  'restore',
  'pin',
  'unpin',
  'forget',
  'redact',
  'stale',
  'fresh',
  'quarantine',
  'approve',
  'reject',
  'release',
  'move',
] as const;
export type MemoryOp = (typeof MEMORY_OPS)[number];
/** Of a session's summary: saved at a Stop, final at SessionEnd, a phrase erased, moved to another project. */
export type SummaryOp = 'save' | 'final' | 'redact' | 'move';
/** Of a link between memories (`move`: its project changed, `engram project move`). */
export type LinkOp = 'add' | 'remove' | 'move';

/** The operation of a change-log row, by the kind of thing it changed. */
export type ChangeOp =
  { entity: 'memory'; op: MemoryOp } | { entity: 'summary'; op: SummaryOp } | { entity: 'link'; op: LinkOp };

/** One row of the change log: every tailer (vault, graph step, team push, viewer stream) reads these. */
export type Change = ChangeOp & {
  seq: number;
  /** A memory id, a session id (summaries), or "<from> <kind> <to>" (links). */
  entityId: string;
  projectId: string | null;
  origin: ChangeOrigin;
  actor: string | null;
  at: number;
  /** The memory's version after the change (memories only). */
  version: number | null;
};

/** A session's rolling summary, checkpointed at each Stop and finalised at SessionEnd. */
export interface SummaryDraft {
  request: string;
  investigated: string;
  learned: string;
  completed: string;
  nextSteps: string;
  filesRead: string[];
  filesEdited: string[];
  notes: string;
}

/** A summary draft with every field empty but those given. */
export const summaryDraft = (fields: Partial<SummaryDraft> = {}): SummaryDraft => ({
  request: '',
  investigated: '',
  learned: '',
  completed: '',
  nextSteps: '',
  filesRead: [],
  filesEdited: [],
  notes: '',
  ...fields,
});

export interface Summary extends SummaryDraft {
  sessionId: string;
  projectId: ProjectId;
  updatedAt: number;
  final: boolean;
}

export type SessionStatus = 'active' | 'completed' | 'interrupted';

export interface Session {
  id: string;
  projectId: ProjectId;
  host: string;
  startedAt: number;
  endedAt: number | null;
  status: SessionStatus;
}

/** What a project is, before its id is derived (the id is a hash of `key`). */
export interface ProjectIdentity {
  name: string;
  /** The identity key the id is derived from (normalised remote URL, git common dir or cwd). */
  key: string;
  root: string;
  /**
   * The repository's `.engram.json` asks to share memory with this project name, but the user has not
   * confirmed it (`engram project link`): the project keeps its own identity meanwhile.
   */
  pendingLink?: string;
}

/** Confirmed `.engram.json` overrides: a repository's own identity key → the project name it joins. */
export type ProjectLinks = Readonly<Record<string, string>>;

export interface Project extends ProjectIdentity {
  id: ProjectId;
}
