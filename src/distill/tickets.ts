/**
 * Tickets a command created (beads `bd create`, GitHub `gh issue create`, Linear/Jira CLIs print
 * similar lines): the task state a session leaves behind for the next one.
 */

export interface Ticket {
  id: string;
  title: string;
}

const CREATE = /\b(?:bd|beads)\s+create\b|\bgh\s+issue\s+create\b|\b(?:jira|linear)\s+issue\s+create\b/;

function titleArg(command: string): string {
  const m =
    /--title[=\s]+(["'])((?:(?!\1)[\s\S])*)\1/.exec(command) ??
    /\s-t\s+(["'])((?:(?!\1)[\s\S])*)\1/.exec(command);
  return m?.[2]?.trim().split('\n')[0] ?? '';
}

/** The tickets a successful command created, from what it printed. */
export function ticketsCreated(command: string, output: string): Ticket[] {
  if (!CREATE.test(command)) return [];
  const out: Ticket[] = [];
  const title = titleArg(command);
  // beads: "✓ Created issue: spotter-0p7\n  Title: Setup …"
  for (const m of output.matchAll(/Created issue:\s*([\w.-]+)(?:[\s\S]*?Title:\s*([^\n]+))?/g)) {
    if (m[1]) out.push({ id: m[1], title: (m[2] ?? title).trim() });
  }
  // GitHub: the new issue's URL
  for (const m of output.matchAll(/https:\/\/github\.com\/[^/\s]+\/[^/\s]+\/issues\/(\d+)/g)) {
    if (m[1]) out.push({ id: `#${m[1]}`, title });
  }
  return out;
}

/** A tracker command that closes tickets: beads `bd close a b`, GitHub `gh issue close 41`. */
const CLOSE = /\b(?:bd|beads)\s+close\s+((?:[\w.-]+\s*)+)|\bgh\s+issue\s+close\s+#?(\d+)/;

/** The tickets a command closed (ids as the tracker names them: `spotter-4te.4`, `#41`). */
export function ticketsClosed(command: string): string[] {
  const m = CLOSE.exec(command);
  if (!m) return [];
  if (m[2]) return [`#${m[2]}`];
  return (m[1] ?? '')
    .trim()
    .split(/\s+/)
    .filter((id) => id !== '' && !id.startsWith('-'));
}

/** A command of an issue tracker (beads, GitHub issues and PRs, Jira, Linear): bookkeeping, never code. */
const TRACKER = /^(?:bd|beads)\b|^gh\s+(?:issue|pr)\b|^(?:jira|linear)\b/;
export const isTrackerCommand = (command: string) => TRACKER.test(command.trim());

/**
 * A sentence about the tracker's breakdown of the work, with no code in it ("The epic has 3 tasks —
 * task 3 depends on both", "There are 4 new tasks under the epic", "spotter-fum.5 is a refinement
 * found in testing"): the tickets' own record says that, and it explains nothing of the code.
 */
const TRACKER_UNITS =
  /\b(?:epics?|tickets?|subtasks?|beads?)\b|\btasks?\s+(?:#?\d+|[a-z]+-[\w.]+)\b|\b\d+\s+(?:(?:new|open|ready|remaining|more)\s+)?tasks\b|\b[a-z][a-z0-9]*-[a-z0-9]+\.\d+\b/i;
export const isTrackerTalk = (sentence: string) => !sentence.includes('`') && TRACKER_UNITS.test(sentence);
