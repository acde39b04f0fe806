/**
 * How the viewer names a change-log operation (shared by the server pages and the browser script).
 */
const OP_LABELS: Readonly<Record<string, string>> = {
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

export function opLabel(op: string): string {
  return OP_LABELS[op] ?? op;
}
