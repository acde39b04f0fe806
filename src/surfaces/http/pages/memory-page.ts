/**
 * Memory: the full text, where it came from (session, turn, tool calls, transcript records), what it
 * replaced or what replaced it, the sessions it was injected into, its history with undo, and the
 * corrections: edit, pin, invalidate, archive, restore, forget (hidden at once, erased after the undo
 * window). The actions are buttons and dialogs the script sends to the JSON API.
 */
import { html } from 'hono/html';
import { TRUST_LABELS } from '../../../core/trust.ts';
import { OBSERVATION_TYPES } from '../../../core/model.ts';
import { sessionIdOf, type SessionNodeId } from '../../../graph/node-ids.ts';
import type { MemoryDetail } from '../memory-detail.ts';
import type { GraphNode } from '../../../app/neighbourhood.ts';
import type { Html } from './layout.ts';
import { badge, empty, href, memoryHref, number, sessionHref, when, table } from './parts.ts';

function provenanceItem(p: string): Html {
  const [kind, ...rest] = p.split(':');
  const value = rest.join(':');
  if (kind === 'session' && value) return html`<li>session <a href="${sessionHref(value)}">${value}</a></li>`;
  const turn = /^(\d{10,15})-(\d{10,15})$/.exec(value);
  if (kind === 'turn' && turn) {
    const iso = (ms: string) => new Date(Number(ms)).toISOString().replace('T', ' ').slice(0, 19);
    return html`<li>turn captured ${iso(turn[1] as string)} to ${iso(turn[2] as string)} UTC</li>`;
  }
  const label: Record<string, string> = {
    turn: 'turn',
    tool: 'tool call',
    transcript: 'transcript record',
    mcp: 'MCP tool',
    vault: 'vault note',
  };
  return html`<li>${label[kind ?? ''] ?? kind} <code>${value || p}</code></li>`;
}

function list(
  title: string,
  items: readonly string[],
  item: (s: string) => Html = (s) => html`<li>${s}</li>`,
  style = 'plain',
): Html {
  if (items.length === 0) return html``;
  return html`<h3>${title}</h3>
    <ul class="${style}">
      ${items.map(item)}
    </ul>`;
}

const fileItem = (projectId: string) => (path: string) =>
  html`<li>
    <a href="${href('/graph', { file: path, project: projectId })}"><code>${path}</code></a>
  </li>`;

/** A link or backlink: its kind, said from this memory, and the other end's page. */
function linkItem(kind: string, node: GraphNode, outgoing: boolean): Html {
  const label = kind.replace(/_/g, ' ');
  const target =
    node.kind === 'memory'
      ? memoryHref(node.id)
      : node.kind === 'session'
        ? sessionHref(sessionIdOf(node.id as SessionNodeId))
        : href('/graph', { id: node.id });
  return html`<li>
    ${outgoing ? `${label} →` : `← ${label}`} <a href="${target}">${node.label}</a>
    ${node.kind === 'memory' ? badge('type', node.type ?? '') : html`(${node.kind})`}
  </li>`;
}

function staleBanner(d: MemoryDetail, now: number): Html {
  if (!d.stale || d.memory.status === 'forgotten') return html``;
  return html`<div class="banner warn" role="note">
    <p>
      Stale since ${when(d.stale.since, now)}: ${d.stale.reason}. The code it describes changed; it is ranked
      down and shown apart, never as current truth. Edit it, or invalidate it.
    </p>
  </div>`;
}

function statusBanner(d: MemoryDetail): Html {
  const m = d.memory;
  if (d.pendingForget) {
    return html`<div
      class="banner warn"
      role="alert"
      data-pending-forget="${d.pendingForget.batch}"
      data-due="${d.pendingForget.dueAt}"
    >
      <p>
        This memory is being forgotten: it is hidden now and will be erased
        <span class="countdown">soon</span>.
      </p>
      <button type="button" data-undo-forget="${d.pendingForget.batch}">Undo</button>
    </div>`;
  }
  if (m.status === 'forgotten')
    return html`<div class="banner" role="note">
      <p>
        This memory was forgotten: its text was erased everywhere engram kept it. Only this tombstone remains,
        so it never comes back.
      </p>
    </div>`;
  if (m.status === 'superseded')
    return html`<div class="banner" role="note">
      <p>
        Superseded${d.supersededBy ? html` by <a href="${memoryHref(d.supersededBy.id)}">${d.supersededBy.title}</a>` : ''}:
        no longer recalled.
      </p>
    </div>`;
  if (m.status === 'invalidated' || m.status === 'archived')
    return html`<div class="banner" role="note">
      <p>
        ${m.status === 'invalidated' ? 'Marked wrong or outdated' : 'Archived'}: ${m.statusReason ?? ''}. Not
        recalled; restore brings it back.
      </p>
    </div>`;
  return html``;
}

/** A quarantined memory: why it is held, and the person's choice. */
function reviewBanner(d: MemoryDetail): Html {
  const m = d.memory;
  if (m.review !== 'held' || m.status !== 'active') return html``;
  const api = `/api/memories/${m.id}`;
  return html`<div class="banner warn" role="note">
    <p>
      Quarantined: its text tells the agent or its tools what to do and it comes from
      ${TRUST_LABELS[m.trust]}, not your own words. It is never injected, never standing and never pushed to
      the team until you approve it. Held: ${m.reviewReason ?? 'instruction-like text'}.
    </p>
    <div class="toolbar" role="toolbar" aria-label="Review">
      <button type="button" data-post="${api}/approve" data-body="{}">Approve</button>
      <button type="button" class="danger" data-post="${api}/reject" data-body="{}">Reject</button>
    </div>
  </div>`;
}

function actions(d: MemoryDetail): Html {
  const m = d.memory;
  if (m.status === 'forgotten' || d.pendingForget) return html``;
  const api = `/api/memories/${m.id}`;
  return html`<div class="toolbar" role="toolbar" aria-label="Memory actions">
      ${m.status === 'active' ? html`<button type="button" data-open="edit-dialog">Edit</button>` : ''}
      ${m.status === 'active' ? html`<button type="button" data-post="${api}/pin" data-body="${JSON.stringify({ pinned: !m.pinned })}">${m.pinned ? 'Unpin' : 'Pin'}</button>` : ''}
      ${m.status === 'active' ? html`<button type="button" data-open="invalidate-dialog">Invalidate…</button>` : ''}
      ${m.status === 'active' ? html`<button type="button" data-post="${api}/archive" data-body="{}">Archive</button>` : ''}
      ${d.versions.length > 0 ? html`<button type="button" data-post="${api}/restore" data-body="{}">Undo last change</button>` : ''}
      <button type="button" class="danger" data-forget="${api}/forget">Forget</button>
    </div>
    <dialog id="edit-dialog" aria-labelledby="edit-h">
      <form data-patch="${api}">
        <h2 id="edit-h">Edit this memory</h2>
        <label class="field"
          ><span>Type</span
          ><select name="type">
            ${OBSERVATION_TYPES.map((t) => html`<option value="${t}" ${t === m.type ? html` selected` : ''}>${t.replace(/_/g, ' ')}</option>`)}
          </select></label
        >
        <label class="field"><span>Title</span><input name="title" value="${m.title}" required /></label>
        <label class="field"><span>Subtitle</span><input name="subtitle" value="${m.subtitle}" /></label>
        <label class="field"
          ><span>Narrative</span><textarea name="narrative" rows="8">${m.narrative}</textarea>
        </label>
        <label class="field"
          ><span>Facts (one per line)</span
          ><textarea name="facts" data-lines rows="5">${m.facts.join('\n')}</textarea>
        </label>
        <label class="field"
          ><span>Concepts (one per line)</span
          ><textarea name="concepts" data-lines rows="3">${m.concepts.join('\n')}</textarea>
        </label>
        <p class="form-error" role="alert"></p>
        <div class="buttons">
          <button type="submit">Save</button
          ><button type="button" class="secondary" data-close>Cancel</button>
        </div>
      </form>
    </dialog>
    <dialog id="invalidate-dialog" aria-labelledby="inv-h">
      <form data-post-form="${api}/invalidate">
        <h2 id="inv-h">Mark it wrong or outdated</h2>
        <label class="field"><span>Why?</span><textarea name="reason" rows="3" required></textarea></label>
        <p class="form-error" role="alert"></p>
        <div class="buttons">
          <button type="submit">Invalidate</button
          ><button type="button" class="secondary" data-close>Cancel</button>
        </div>
      </form>
    </dialog>`;
}

function history(d: MemoryDetail, now: number): Html {
  if (d.changes.length === 0) return html``;
  return html`<section aria-labelledby="history-h">
    <h2 id="history-h">History</h2>
    ${table(
      'Changes to this memory, oldest first',
      ['Version', 'Change', 'By', 'When', 'Text before'],
      d.changes.map((c) => {
        const before = d.versions.find((v) => v.version === (c.version ?? 0) - 1 && v.replacedByOp === c.op);
        return html`<tr>
          <td>${c.version ?? ''}</td>
          <td>${badge('op', c.op)}</td>
          <td>${c.origin}</td>
          <td>${when(c.at, now)}</td>
          <td>${before ? before.snapshot.title : ''}</td>
        </tr>`;
      }),
    )}
    ${d.versions.length > 0 ? html`<p class="meta">"Undo last change" brings back version ${d.versions[0]?.version ?? ''} (as a new version, so it can be undone too).</p>` : ''}
  </section>`;
}

export function memoryPage(d: MemoryDetail, projectName: string, now: number): Html {
  const m = d.memory;
  return html`${statusBanner(d)}${reviewBanner(d)}${staleBanner(d, now)}
    <article class="memory" data-id="${m.id}">
      <h1>${m.title}</h1>
      <p class="meta">
        ${badge('type', m.type)}${m.status !== 'active' ? badge('status', m.status) : ''}${m.pinned ? badge('status', 'pinned') : ''}
        ${projectName} · ${m.source} · from
        ${TRUST_LABELS[m.trust]}${m.review === 'approved' ? ' (approved after review)' : ''} · made
        ${when(m.createdAt, now)} · changed ${when(m.modifiedAt, now)} · version ${m.version}
        ${m.seenCount > 1 ? html` · seen ${m.seenCount} times` : ''} · ~${number(m.tokens)} tokens ·
        <code>${m.id}</code>
      </p>
      ${actions(d)} ${m.subtitle ? html`<p class="subtitle">${m.subtitle}</p>` : ''}
      ${m.narrative ? html`<div class="text">${m.narrative}</div>` : ''} ${list('Facts', m.facts)}
      ${list('Files modified', m.filesModified, fileItem(m.projectId))}
      ${list('Files read', m.filesRead, fileItem(m.projectId))}
      ${list('Concepts', m.concepts, undefined, 'inline')}
    </article>
    <section aria-labelledby="prov-h">
      <h2 id="prov-h">Where it came from</h2>
      ${m.provenance.length === 0 && !d.session ? empty('No provenance recorded.') : ''}
      <ul class="plain">
        ${d.session ? html`<li>session <a href="${sessionHref(d.session.id)}">${d.session.request || d.session.id}</a> (${d.session.cwd})</li>` : ''}
        ${m.provenance.filter((p) => !(d.session && p === `session:${d.session.id}`)).map(provenanceItem)}
      </ul>
    </section>
    <section aria-labelledby="links-h">
      <h2 id="links-h">Links</h2>
      ${d.links.length + d.backlinks.length === 0 ? empty('No links in the memory graph yet.') : ''}
      <ul class="plain">
        ${d.links.map((l) => linkItem(l.kind, l.node, true))}
        ${d.backlinks.map((l) => linkItem(l.kind, l.node, false))}
      </ul>
      <p><a href="${href('/graph', { id: m.id })}">Show its neighbourhood in the graph</a></p>
    </section>
    <section aria-labelledby="told-h">
      <h2 id="told-h">Injected into</h2>
      ${d.injectedInto.length === 0 ? empty('Not injected into any session yet.') : ''}
      <ul class="plain">
        ${d.injectedInto.map((s) => html`<li><a href="${sessionHref(s.sessionId)}">${s.sessionId}</a> · ${when(s.at, now)}</li>`)}
      </ul>
    </section>
    ${history(d, now)}`;
}
