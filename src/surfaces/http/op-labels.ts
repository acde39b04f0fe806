/**
 * How the viewer names a change-log entry (shared by the server pages and the browser script).
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
};

export function opLabel(entity: string, op: string): string {
  if (entity === 'summary') return op === 'final' ? 'session ended' : 'summary updated';
  if (entity === 'link') return op === 'add' ? 'linked' : 'unlinked';
  return MEMORY_OPS[op] ?? op;
}
