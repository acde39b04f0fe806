/**
 * The team web view's sessions, graph and audit-log pages, on the local viewer's parts.
 */
import { html } from 'hono/html';
import type { GraphNode, Neighbourhood, NodeKind } from '../../app/neighbourhood.ts';
import type { EdgeKind } from '../../core/graph.ts';
import type { AuditEntry } from '../../team/protocol.ts';
import type { WebLink, WebMemoryLine, WebProject, WebSession } from '../../team/web-store.ts';
import { neighbourhoodSection } from '../http/pages/graph-page.ts';
import type { Html } from '../http/pages/layout.ts';
import { empty, href, memoryHref, memoryItem, pager, sessionHref, table, when } from '../http/pages/parts.ts';

function projectForm(path: string, projects: WebProject[], current: string | null, all: boolean): Html {
  return html`<form class="inline" action="${path}" method="get">
    <label class="field"
      ><span>Project</span
      ><select name="project">
        ${all ? html`<option value="">all your projects</option>` : ''}
        ${projects.map((p) => html`<option value="${p.id}" ${p.id === current ? html` selected` : ''}>${p.name}</option>`)}
      </select></label
    >
    <button type="submit" class="secondary">Show</button>
  </form>`;
}

export function sessionsPage(
  list: { items: WebSession[]; next: number | null },
  projects: WebProject[],
  project: string | null,
  isFirst: boolean,
  now: number,
): Html {
  return html`<h1>Sessions</h1>
    ${projectForm('/sessions', projects, project, true)}
    ${list.items.length === 0 ? empty('No session summaries shared yet.') : ''}
    ${
      list.items.length === 0
        ? ''
        : table(
            'Shared sessions, latest changed first',
            ['Session', 'Project', 'By', 'Updated', 'State'],
            list.items.map(
              (s) =>
                html`<tr>
                  <td>
                    <a href="${sessionHref(s.sessionId)}"
                      >${s.summary.request ? s.summary.request.slice(0, 120) : s.sessionId}</a
                    >
                  </td>
                  <td>${s.projectName}</td>
                  <td>${s.author} (${s.device})</td>
                  <td>${when(s.summary.updatedAt, now)}</td>
                  <td>${s.sealed ? 'encrypted' : s.summary.final ? 'final' : 'checkpoint'}</td>
                </tr>`,
            ),
          )
    }
    ${pager('/sessions', project ? { project } : {}, list.next === null ? null : String(list.next), isFirst)}`;
}

function part(title: string, text: string): Html {
  return text
    ? html`<h3>${title}</h3>
        <div class="text">${text}</div>`
    : html``;
}

function files(title: string, list: readonly string[]): Html {
  if (list.length === 0) return html``;
  return html`<h3>${title}</h3>
    <ul class="plain">
      ${list.map((f) => html`<li><code>${f}</code></li>`)}
    </ul>`;
}

/** Said where a page would show an end-to-end encrypted record's content. */
export function sealedNote(what: string): Html {
  return html`<div class="banner" role="note">
    <p>
      This ${what} belongs to an end-to-end encrypted project: the team server keeps only ciphertext of it, so
      its content cannot be shown here. Read it in engram on a machine that holds the project key.
    </p>
  </div>`;
}

export function sessionPage(s: WebSession, memories: WebMemoryLine[], now: number): Html {
  const sum = s.summary;
  const names = new Map([[s.projectId, s.projectName]]);
  return html`<h1>${sum.request ? sum.request.slice(0, 200) : `Session ${s.sessionId}`}</h1>
    <p class="meta">
      ${s.projectName} · ${s.author} (${s.device}) ·
      ${s.sealed ? 'encrypted summary' : sum.final ? 'final summary' : 'checkpoint'}
      ${when(sum.updatedAt, now)} · <code>${s.sessionId}</code>
    </p>
    ${s.sealed ? sealedNote('session summary') : ''}
    <section aria-labelledby="sum-h">
      <h2 id="sum-h">Summary</h2>
      ${part('Asked', sum.request)} ${part('Investigated', sum.investigated)} ${part('Learned', sum.learned)}
      ${part('Completed', sum.completed)} ${part('Next steps', sum.nextSteps)} ${part('Notes', sum.notes)}
      ${files('Files edited', sum.filesEdited)} ${files('Files read', sum.filesRead)}
    </section>
    <section aria-labelledby="mem-h">
      <h2 id="mem-h">Memories it left</h2>
      ${memories.length === 0 ? empty('No shared memory from this session.') : ''}
      <ol class="list">
        ${memories.map((m) => memoryItem(m, names, now))}
      </ol>
    </section>`;
}

/** A link's end as text and a link: a memory's title, a session, a file or another node's id. */
export function linkEnd(id: string, title: string | null): Html {
  if (title !== null) return html`<a href="${memoryHref(id)}">${title}</a>`;
  if (id.startsWith('ses_')) return html`<a href="${sessionHref(id.slice(4))}">session ${id.slice(4)}</a>`;
  return html`<code>${id}</code>`;
}

const kindOf = (id: string): NodeKind =>
  id.startsWith('ses_') ? 'session' : id.startsWith('fil_') ? 'file' : 'memory';

/** Most neighbours drawn around one node (as the local viewer). */
const CAP = 24;

/** The shared links of one node as the local viewer's neighbourhood (its drawing and list). */
export function neighbourhoodOfLinks(
  id: string,
  memory: WebMemoryLine | null,
  links: WebLink[],
): Neighbourhood {
  const node = (nodeId: string, title: string | null, type: string | null): GraphNode => {
    const kind = kindOf(nodeId);
    const label = title ?? (kind === 'session' ? `session ${nodeId.slice(4)}` : nodeId);
    return { id: nodeId, kind, label, ...(type ? { type } : {}) };
  };
  const center = memory
    ? { id, kind: 'memory' as const, label: memory.title, type: memory.type, status: memory.status }
    : node(id, null, null);
  const nodes = new Map<string, GraphNode>();
  for (const l of links) {
    const out = l.from === id;
    const other = out ? node(l.to, l.toTitle, l.toType) : node(l.from, l.fromTitle, l.fromType);
    if (other.id !== id && !nodes.has(other.id)) nodes.set(other.id, other);
  }
  const shown = [...nodes.values()].slice(0, CAP);
  const ids = new Set(shown.map((n) => n.id));
  return {
    center,
    nodes: shown,
    edges: links
      .filter((l) => ids.has(l.from) || ids.has(l.to))
      .map((l) => ({ from: l.from, to: l.to, kind: l.kind as EdgeKind })),
    more: nodes.size - shown.length,
  };
}

export interface GraphView {
  projects: WebProject[];
  project: string | null;
  /** The node asked for (`?id=`), its neighbourhood, or null when it has none the member may read. */
  id: string | null;
  around: Neighbourhood | null;
  /** The project's links when no node is asked for. */
  links: WebLink[] | null;
}

export function graphPage(v: GraphView): Html {
  return html`<h1>Graph</h1>
    <p class="lede">
      The links the team shares between memories, sessions and files. A memory's page links to its
      neighbourhood here.
    </p>
    <form class="inline" action="/graph" method="get">
      <label class="field"
        ><span>Memory or session node id</span
        ><input name="id" value="${v.id ?? ''}" placeholder="obs_…, ses_…"
      /></label>
      <button type="submit" class="secondary">Show</button>
    </form>
    ${v.id !== null && v.around === null ? empty('Nothing shared there: no such node, or not in a project of yours.') : ''}
    ${v.around ? neighbourhoodSection(v.around) : ''}
    ${v.id === null ? projectForm('/graph', v.projects, v.project, false) : ''}
    ${v.id === null && v.links === null ? empty('Pick a project to see its links.') : ''}
    ${v.links !== null && v.links.length === 0 ? empty('No links shared in this project yet.') : ''}
    ${
      v.links && v.links.length > 0
        ? table(
            'Links, newest first',
            ['From', 'Link', 'To'],
            v.links.map(
              (l) =>
                html`<tr>
                  <td>${linkEnd(l.from, l.fromTitle)}</td>
                  <td>${l.kind.replace(/_/g, ' ')}</td>
                  <td>${linkEnd(l.to, l.toTitle)}</td>
                </tr>`,
            ),
          )
        : ''
    }`;
}

export function auditPage(
  entries: AuditEntry[],
  projects: WebProject[],
  project: string | null,
  now: number,
): Html {
  const names = new Map(projects.map((p) => [p.id, p.name]));
  return html`<h1>Audit log</h1>
    <p class="lede">
      Every read and write on the team server, newest first, hash-chained per project. Server admins see every
      chain; project admins see their projects'; other members see none.
    </p>
    ${projectForm('/audit', projects, project, true)}
    ${entries.length === 0 ? empty('No audit entries you may read.') : ''}
    ${
      entries.length === 0
        ? ''
        : html`<div class="audit">
            ${table(
              'Audit entries, newest first',
              ['When', 'Chain', 'Who', 'Action', 'Target', 'Detail'],
              entries.map(
                (e) =>
                  html`<tr>
                    <td>${when(e.at, now)}</td>
                    <td>
                      ${e.chain === 'server' ? 'server' : html`<a href="${href('/audit', { project: e.chain })}">${names.get(e.chain) ?? e.chain}</a>`}
                      #${e.seq}
                    </td>
                    <td>${e.user ?? '—'}${e.device ? html` (${e.device})` : ''}</td>
                    <td>${e.action}</td>
                    <td>${e.target ?? ''}</td>
                    <td><code>${e.detail ?? ''}</code></td>
                  </tr>`,
              ),
            )}
          </div>`
    }`;
}
