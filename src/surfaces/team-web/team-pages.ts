/**
 * The team web view's sessions, graph and audit-log pages, on the local viewer's parts.
 */
import { html } from 'hono/html';
import type { AuditEntry } from '../../team/protocol.ts';
import type { WebLink, WebMemoryLine, WebProject, WebSession } from '../../team/web-store.ts';
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
                  <td>${s.summary.final ? 'final' : 'checkpoint'}</td>
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

export function sessionPage(s: WebSession, memories: WebMemoryLine[], now: number): Html {
  const sum = s.summary;
  const names = new Map([[s.projectId, s.projectName]]);
  return html`<h1>${sum.request ? sum.request.slice(0, 200) : `Session ${s.sessionId}`}</h1>
    <p class="meta">
      ${s.projectName} · ${s.author} (${s.device}) · ${sum.final ? 'final summary' : 'checkpoint'}
      ${when(sum.updatedAt, now)} · <code>${s.sessionId}</code>
    </p>
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
function end(id: string, title: string | null): Html {
  if (title !== null) return html`<a href="${memoryHref(id)}">${title}</a>`;
  if (id.startsWith('ses_')) return html`<a href="${sessionHref(id.slice(4))}">session ${id.slice(4)}</a>`;
  return html`<code>${id}</code>`;
}

export function graphPage(projects: WebProject[], project: string | null, links: WebLink[] | null): Html {
  return html`<h1>Graph</h1>
    <p class="lede">
      The links the team shares between memories, sessions and files (typed edges; a memory's own page lists
      its links both ways).
    </p>
    ${projectForm('/graph', projects, project, false)}
    ${links === null ? empty('Pick a project to see its links.') : ''}
    ${links !== null && links.length === 0 ? empty('No links shared in this project yet.') : ''}
    ${
      links && links.length > 0
        ? table(
            'Links, newest first',
            ['From', 'Link', 'To'],
            links.map(
              (l) =>
                html`<tr>
                  <td>${end(l.from, l.fromTitle)}</td>
                  <td>${l.kind.replace(/_/g, ' ')}</td>
                  <td>${end(l.to, l.toTitle)}</td>
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
        : table(
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
          )
    }`;
}
