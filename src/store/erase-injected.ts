/**
 * A forgotten memory leaves the context log too: each line of injected text that named it (the index
 * line at SessionStart, the line with a prompt) is replaced by a marker. The sessions it was told to
 * come from `injections`, so only their rows are read. Runs inside the forget's transaction, before the
 * memory's `injections` rows go.
 */
import type { Db } from './database.ts';

export const FORGOTTEN_LINE = '- [a forgotten memory]';

/** `text` with every line that names one of `ids` replaced by the marker. */
export function withoutLinesOf(text: string, ids: readonly string[]): string {
  return text
    .split('\n')
    .map((line) => (ids.some((id) => line.includes(id)) ? FORGOTTEN_LINE : line))
    .join('\n');
}

export function eraseInjectedLinesOf(db: Db, id: string): void {
  const rows = db
    .prepare(
      `SELECT l.id, l.text FROM context_log l
       WHERE l.session_id IN (SELECT session_id FROM injections WHERE observation_id = ?) AND instr(l.text, ?) > 0`,
    )
    .all(id, id) as { id: number; text: string }[];
  const update = db.prepare(`UPDATE context_log SET text = ? WHERE id = ?`);
  for (const row of rows) update.run(withoutLinesOf(row.text, [id]), row.id);
}
