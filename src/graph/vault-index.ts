/**
 * A project's entry points in the vault, made anew at every sync: `index.md` (the seed's sections:
 * project context, active decisions, current focus, recent sessions, key files, active tasks, user
 * preferences — and stale memories) and `graph.json` (nodes with their links both ways, tags, types,
 * the recent ones). Both are pure functions of the store's state, so an unchanged store rewrites
 * nothing.
 */
import { joinNote } from './frontmatter.ts';
import { noteTime, tagOf, type RenderContext } from './note-render.ts';
import {
  nodeStatus,
  nodeTags,
  nodeUpdatedAt,
  type MemoryNode,
  type SessionGraphNode,
} from './project-graph.ts';
import { taskItems } from './task-status.ts';
import { emitFrontmatter } from './yaml-emit.ts';

export function indexNoteId(projectId: string): string {
  return `idx_${projectId.replace(/^prj_/, '')}`;
}

const oneLine = (s: string, max = 140) => {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
};

/** The project's index note. `keyFiles` are file node ids, best first. */
export function renderIndexNote(ctx: RenderContext, keyFiles: readonly string[]): string {
  const g = ctx.graph;
  const nodes = [...g.nodes.values()];
  const memories = nodes.filter((n): n is MemoryNode => n.kind === 'memory');
  const live = memories.filter((m) => m.memory.status === 'active');
  const sessions = nodes
    .filter((n): n is SessionGraphNode => n.kind === 'session')
    .sort((a, b) => b.session.startedAt - a.session.startedAt);
  const name = (id: string) => ctx.nameOf(id);
  const item = (id: string, extra = '') => {
    const n = name(id);
    return n === null ? null : `- [[${n}]]${extra}`;
  };
  const lines = (items: (string | null)[]) => items.filter((l): l is string => l !== null);
  const newest = (list: MemoryNode[]) => [...list].sort((a, b) => b.memory.createdAt - a.memory.createdAt);
  const fresh = (m: MemoryNode) => m.stale === null;
  const updated = nodes.reduce((max, n) => Math.max(max, nodeUpdatedAt(n)), 0);
  const yaml = emitFrontmatter({
    id: indexNoteId(g.project.id),
    type: 'index',
    project: ctx.projectName,
    updated: noteTime(updated),
    tags: [],
    aliases: [],
  });
  const out: string[] = [
    `# ${ctx.projectName}`,
    '',
    '%% Made by engram at every sync: edits to this file are overwritten. %%',
    '',
    '## Project context',
    `- Root: \`${g.project.root}\``,
    `- ${live.length} active memories (${live.filter((m) => !fresh(m)).length} stale), ${nodes.filter((n) => n.kind === 'file').length} files, ${sessions.length} sessions`,
  ];
  const section = (heading: string, items: string[], empty: string) => {
    out.push('', `## ${heading}`, ...(items.length > 0 ? items : [empty]));
  };
  section(
    'Active decisions',
    lines(
      newest(live.filter((m) => m.type === 'decision' && fresh(m)))
        .slice(0, 12)
        .map((m) => item(m.id, m.memory.subtitle ? ` — ${oneLine(m.memory.subtitle)}` : '')),
    ),
    '- (none yet)',
  );
  const current = sessions[0];
  const lastTask = newest(live.filter((m) => m.type === 'task'))[0];
  const openItems = lastTask ? taskItems(lastTask.memory).filter((i) => i.status !== 'completed') : [];
  const focus: string[] = [];
  if (current?.summary?.request) focus.push(`- ${oneLine(current.summary.request, 200)}`);
  for (const i of openItems.filter((i) => i.status === 'in_progress'))
    focus.push(`- In progress: ${oneLine(i.text)}`);
  if (current?.summary?.nextSteps) focus.push(`- Next: ${oneLine(current.summary.nextSteps, 200)}`);
  section('Current focus', focus, '- (nothing recorded)');
  section(
    'Recent sessions',
    lines(
      sessions
        .slice(0, 8)
        .map((s) =>
          item(s.id, ` (${new Date(s.session.startedAt).toISOString().slice(0, 10)}, ${s.session.status})`),
        ),
    ),
    '- (none yet)',
  );
  section(
    'Key files',
    lines(
      keyFiles.slice(0, 10).map((id) => {
        const f = g.nodes.get(id);
        return item(id, f?.kind === 'file' && f.file.purpose ? ` — ${oneLine(f.file.purpose, 100)}` : '');
      }),
    ),
    '- (none yet)',
  );
  section(
    'Active tasks',
    openItems.map((i) => `- [ ] ${oneLine(i.text)}${i.status === 'in_progress' ? ' (in progress)' : ''}`),
    '- (none)',
  );
  section(
    'User preferences',
    lines(
      newest(live.filter((m) => (m.type === 'preference' || m.type === 'correction') && fresh(m)))
        .slice(0, 12)
        .map((m) => item(m.id)),
    ),
    '- (none yet)',
  );
  const stale = newest(live.filter((m) => !fresh(m))).slice(0, 20);
  if (stale.length > 0)
    section(
      'Stale memories',
      lines(stale.map((m) => item(m.id, ` — stale since ${noteTime(m.stale?.since ?? 0).slice(0, 10)}`))),
      '',
    );
  return joinNote(yaml, `${out.join('\n')}\n`);
}

/** The project's graph.json: every node with its links both ways, and indexes by tag, type and time. */
export function renderGraphJson(ctx: RenderContext): string {
  const g = ctx.graph;
  const nodes: Record<string, unknown> = {};
  const tags: Record<string, string[]> = {};
  const types: Record<string, string[]> = {};
  const sorted = [...g.nodes.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  for (const n of sorted) {
    const note = ctx.nameOf(n.id);
    if (note === null) continue;
    const nodeTagsList = nodeTags(n)
      .map(tagOf)
      .filter((t) => t !== '');
    nodes[n.id] = {
      type: n.type,
      title: n.title,
      note,
      status: nodeStatus(n),
      stale: n.kind === 'memory' && n.stale !== null,
      tags: nodeTagsList,
      links_to: (g.out.get(n.id) ?? [])
        .filter((e) => ctx.nameOf(e.to) !== null)
        .map((e) => ({ id: e.to, kind: e.kind })),
      linked_from: (g.in.get(n.id) ?? [])
        .filter((e) => ctx.nameOf(e.from) !== null)
        .map((e) => ({ id: e.from, kind: e.kind })),
    };
    for (const t of nodeTagsList) (tags[t] ??= []).push(n.id);
    (types[n.type] ??= []).push(n.id);
  }
  const recent = [...g.nodes.values()]
    .filter((n): n is MemoryNode => n.kind === 'memory' && ctx.nameOf(n.id) !== null)
    .sort((a, b) => b.memory.createdAt - a.memory.createdAt || (a.id < b.id ? -1 : 1))
    .slice(0, 20)
    .map((n) => n.id);
  return `${JSON.stringify({ project: ctx.projectName, nodes, tags, types, recent }, null, 2)}\n`;
}
