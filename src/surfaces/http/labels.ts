/**
 * How the viewer names things, shared by the server pages and the browser script: a change-log entry,
 * and why a memory was injected.
 */
const MEMORY_OPS: Readonly<Record<string, string>> = {
  create: 'new',
  merge: 'seen again',
  edit: 'edited',
  supersede: 'superseded',
  invalidate: 'invalidated',
  archive: 'archived',
  restore: 'restored',
  pin: 'pinned',
  unpin: 'unpinned',
  forget: 'forgotten',
  redact: 'redacted',
  stale: 'stale',
  fresh: 'current again',
};

export function opLabel(entity: string, op: string): string {
  if (entity === 'summary') return op === 'final' ? 'session ended' : 'summary updated';
  if (entity === 'link') return op === 'add' ? 'linked' : 'unlinked';
  return MEMORY_OPS[op] ?? op;
}

/** Why a memory was in an injection. */
export function whyLabel(why: string): string {
  if (why === 'match') return 'matches the prompt';
  if (why === 'stale') return 'stale (listed apart)';
  if (why === 'standing') return 'standing (pinned)';
  return 'recent';
}
