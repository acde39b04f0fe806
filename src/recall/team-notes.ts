/**
 * What recall adds for a shared project: who on the team wrote a memory ("from alice, 3d ago"), which
 * memories disagree (both kept, flagged), and where teammates stand (branch, commit, changed files per
 * member and machine). Nothing for a project that is not shared: one cheap lookup.
 */
import type { ProjectId } from '../core/ids.ts';
import type { MemberStateRow } from '../store/team-notes-repo.ts';
import type { ReadStore } from '../store/read-store.ts';
import { formatAge } from './format-age.ts';

export interface TeamNote {
  /** Another member wrote it (never shown for one's own memories). */
  author: string | null;
  /** Memories it disagrees with. */
  conflicts: string[];
}

export interface TeamView {
  note(id: string): TeamNote | undefined;
  /** Teammates' (and this user's other machines') last known state of the project, newest first. */
  states: MemberStateRow[];
  /** Their latest session summaries, a line each under their name ("alice on laptop-2, 1d ago: …"). */
  sessions(now: number): string[];
}

const flat = (text: string, max: number) => {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length <= max ? one : `${one.slice(0, max - 1).trimEnd()}…`;
};

/** "- alice on laptop-2, 1d ago: <request> (State: …); their next steps: …", or '' when empty. */
function sessionLine(
  s: { request: string; completed: string; nextSteps: string; updatedAt: number },
  who: string,
  now: number,
): string {
  const first = s.completed.split(' | ')[0] ?? '';
  const state = first.startsWith('State: ') ? first.slice('State: '.length) : '';
  if (s.request.trim() === '' && state === '') return '';
  const next = s.nextSteps.trim() ? `; their next steps: ${flat(s.nextSteps, 120)}` : '';
  return `- ${who}, ${formatAge(now - s.updatedAt)}: ${flat(s.request, 120)}${state ? ` (State: ${flat(state, 140)})` : ''}${next}`;
}

/** Team notes for `ids` of `projectId`, or null when the project is not shared. */
export function teamView(store: ReadStore, projectId: string, ids: readonly string[]): TeamView | null {
  if (!store.team.project(projectId)) return null;
  const me = store.team.meta('user');
  const myDevice = store.team.meta('device');
  const authors = store.team.attributions(ids);
  const conflicts = store.team.conflictsOf(ids);
  const notes = new Map<string, TeamNote>();
  for (const id of ids) {
    const author = authors.get(id)?.author ?? null;
    const note = {
      author: author !== null && author !== me ? author : null,
      conflicts: conflicts.get(id) ?? [],
    };
    if (note.author !== null || note.conflicts.length > 0) notes.set(id, note);
  }
  return {
    note: (id) => notes.get(id),
    states: store.team.memberStates(projectId).filter((s) => !(s.user === me && s.device === myDevice)),
    sessions: (now) =>
      store.summaries
        .latestOfTeam(projectId as ProjectId, 3)
        .map((s) => sessionLine(s, `${s.author === me ? 'you' : s.author} on ${s.device}`, now))
        .filter((line) => line !== ''),
  };
}

/** Team notes for memories of any projects (search results), by id. */
export function teamNotesOf(
  store: ReadStore,
  memories: readonly { id: string; projectId: string }[],
): Map<string, TeamNote> {
  const notes = new Map<string, TeamNote>();
  for (const projectId of new Set(memories.map((m) => m.projectId))) {
    const ids = memories.filter((m) => m.projectId === projectId).map((m) => m.id);
    const view = teamView(store, projectId, ids);
    for (const id of ids) {
      const note = view?.note(id);
      if (note) notes.set(id, note);
    }
  }
  return notes;
}
