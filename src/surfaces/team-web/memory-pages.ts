/**
 * The team web view's sign-in, projects, search and memory pages: the local viewer's shell, parts and
 * stylesheet (surfaces/http/pages) over the team server's rows. Everything is escaped by hono/html.
 */
import { html } from 'hono/html';
import { OBSERVATION_TYPES } from '../../core/model.ts';
import type { WebMemory, WebMemoryLine, WebProject } from '../../team/web-store.ts';
import type { Html } from '../http/pages/layout.ts';
import { linkEnd, sealedNote } from './team-pages.ts';
import {
  badge,
  empty,
  href,
  memoryHref,
  memoryItem,
  number,
  pager,
  sessionHref,
  table,
  when,
} from '../http/pages/parts.ts';

export function loginPage(problem: string | null): Html {
  return html`<h1>Sign in to the team's memory</h1>
    ${problem ? html`<div class="banner warn" role="alert"><p>${problem}</p></div>` : ''}
    <form class="signin" method="post" action="/login">
      <h2>With your user name and password</h2>
      <label class="field"
        ><span>User name</span><input name="name" autocomplete="username" required
      /></label>
      <label class="field"
        ><span>Password</span><input name="password" type="password" autocomplete="current-password" required
      /></label>
      <button type="submit">Sign in</button>
    </form>
    <form class="signin" method="post" action="/login">
      <h2>Or with one of your team tokens</h2>
      <label class="field"
        ><span>Token (egr_…)</span><input name="token" type="password" autocomplete="off" required
      /></label>
      <button type="submit" class="secondary">Sign in with the token</button>
    </form>
    <p class="meta">
      A sign-in lasts 12 hours and only reads: nothing here changes the team's memory. Ask a team admin for a
      password (engram team admin user add NAME --password-stdin) or a token.
    </p>`;
}

export function projectsPage(projects: WebProject[]): Html {
  return html`<h1>Projects</h1>
    ${projects.length === 0 ? empty('You have no role in any project yet: a project admin grants one (engram team admin grant).') : ''}
    ${
      projects.length === 0
        ? ''
        : table(
            'Projects you may read',
            ['Project', 'Key', 'Your role', 'Content', 'Memories', 'Sessions', ''],
            projects.map(
              (p) =>
                html`<tr>
                  <td><a href="${href('/search', { project: p.id })}">${p.name}</a></td>
                  <td><code>${p.key}</code></td>
                  <td>${p.role ?? 'server admin'}</td>
                  <td>${p.encrypted ? 'end-to-end encrypted (not readable here)' : 'readable'}</td>
                  <td>${number(p.memories)}</td>
                  <td><a href="${href('/sessions', { project: p.id })}">${number(p.sessions)}</a></td>
                  <td>${p.movedTo ? html`moved to <code>${p.movedTo}</code>` : ''}</td>
                </tr>`,
            ),
          )
    }`;
}

export interface SearchView {
  projects: WebProject[];
  project: string | null;
  words: string | null;
  type: string | null;
  items: WebMemoryLine[];
  next: number | null;
  isFirst: boolean;
  now: number;
}

function projectSelect(projects: WebProject[], current: string | null): Html {
  return html`<label class="field"
    ><span>Project</span
    ><select name="project">
      <option value="">all your projects</option>
      ${projects.map((p) => html`<option value="${p.id}" ${p.id === current ? html` selected` : ''}>${p.name}</option>`)}
    </select></label
  >`;
}

export function searchPage(v: SearchView): Html {
  const names = new Map(v.projects.map((p) => [p.id, p.name]));
  const by = (m: WebMemoryLine) => html`<p class="why">shared by ${m.author}</p>`;
  // Words are searched in what the server can read: never in an end-to-end encrypted project.
  const sealed = v.projects.filter((p) => p.encrypted && (v.project === null || v.project === p.id));
  const params: Record<string, string> = {};
  if (v.project) params['project'] = v.project;
  if (v.type) params['type'] = v.type;
  return html`<h1>Search</h1>
    <form class="search" role="search" action="/search" method="get">
      <div class="searchrow">
        <label for="q" class="visually-hidden">Search the team's memories</label>
        <input
          id="q"
          name="q"
          type="search"
          role="searchbox"
          value="${v.words ?? ''}"
          placeholder="Search the team's memories (Ctrl-K)"
          aria-keyshortcuts="Control+K Meta+K"
          autocomplete="off"
        />
        <button type="submit">Search</button>
      </div>
      <fieldset class="filters">
        <legend>Filters</legend>
        ${projectSelect(v.projects, v.project)}
        <label class="field"
          ><span>Type</span
          ><select name="type">
            <option value="">any type</option>
            ${OBSERVATION_TYPES.map((t) => html`<option value="${t}" ${t === v.type ? html` selected` : ''}>${t.replace(/_/g, ' ')}</option>`)}
          </select></label
        >
        <button type="submit" class="secondary">Apply</button>
      </fieldset>
    </form>
    ${
      sealed.length > 0
        ? html`<div class="banner" role="note">
            <p>
              ${sealed.map((p) => p.name).join(', ')}: end-to-end encrypted. The server holds only ciphertext
              of ${sealed.length > 1 ? 'their' : 'its'} memories, so search cannot find words in them and they
              are listed without content. Search them in engram on a machine that holds the project key.
            </p>
          </div>`
        : ''
    }
    <section aria-labelledby="hits-h">
      <h2 id="hits-h">${v.words ? `${v.items.length} best matches` : 'Latest shared or changed first'}</h2>
      ${v.items.length === 0 ? empty(v.words ? 'No shared memory holds those words.' : 'No memories shared here yet.') : ''}
      <ol class="${v.words ? 'hits' : 'list'}">
        ${v.items.map((m) => memoryItem(m, names, v.now, by(m)))}
      </ol>
      ${v.words ? '' : pager('/search', params, v.next === null ? null : String(v.next), v.isFirst)}
    </section>`;
}

function list(title: string, items: readonly string[], code = false): Html {
  if (items.length === 0) return html``;
  return html`<h3>${title}</h3>
    <ul class="plain">
      ${items.map((s) => (code ? html`<li><code>${s}</code></li>` : html`<li>${s}</li>`))}
    </ul>`;
}

export function memoryPage(m: WebMemory, now: number): Html {
  const b = m.body;
  const id = m.line.id;
  return html`<article class="memory" data-id="${id}">
      <h1>${m.line.title}</h1>
      ${m.line.sealed ? sealedNote('memory') : ''}
      <p class="meta">
        ${badge('type', m.line.type)}${m.line.status !== 'active' ? badge('status', m.line.status) : ''}${m.line.pinned ? badge('status', 'pinned') : ''}
        ${m.projectName} · ${m.line.source} · shared by ${m.line.author} (${m.originDevice}) · made
        ${when(m.line.createdAt, now)} · version ${m.version}, last pushed by ${m.lastBy} (${m.lastDevice})
        ${when(m.updatedAt, now)} · <code>${id}</code>
      </p>
      ${b.statusReason ? html`<div class="banner warn" role="note"><p>${m.line.status}: ${b.statusReason}</p></div>` : ''}
      ${b.subtitle ? html`<p class="subtitle">${b.subtitle}</p>` : ''}
      ${b.narrative ? html`<div class="text">${b.narrative}</div>` : ''} ${list('Facts', b.facts ?? [])}
      ${list('Files modified', b.filesModified ?? [], true)} ${list('Files read', b.filesRead ?? [], true)}
      ${list('Concepts', b.concepts ?? [])}
    </article>
    <section aria-labelledby="prov-h">
      <h2 id="prov-h">Where it came from</h2>
      <ul class="plain">
        ${b.sessionId ? html`<li>session <a href="${sessionHref(b.sessionId)}">${b.sessionId}</a></li>` : ''}
        ${b.supersedes ? html`<li>replaces <a href="${memoryHref(b.supersedes)}">${b.supersedes}</a></li>` : ''}
        ${b.conflictsWith ? html`<li>conflicts with <a href="${memoryHref(b.conflictsWith)}">${b.conflictsWith}</a></li>` : ''}
      </ul>
      ${b.sessionId || b.supersedes || b.conflictsWith ? '' : empty('No session recorded.')}
    </section>
    <section aria-labelledby="links-h">
      <h2 id="links-h">Links</h2>
      ${m.links.length === 0 ? empty('No links shared for this memory.') : ''}
      <ul class="plain">
        ${m.links.map((l) =>
          l.from === id
            ? html`<li>${l.kind.replace(/_/g, ' ')} → ${linkEnd(l.to, l.toTitle)}</li>`
            : html`<li>← ${l.kind.replace(/_/g, ' ')} ${linkEnd(l.from, l.fromTitle)}</li>`,
        )}
      </ul>
      <p>
        <a href="${href('/graph', { id })}">Its neighbourhood in the graph</a> ·
        <a href="${href('/graph', { project: m.line.projectId })}">the project's links</a>
      </p>
    </section>`;
}
