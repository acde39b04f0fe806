/**
 * Review: the memories held in quarantine — text that addresses the agent or its tools (run, fetch,
 * send, disable, ignore instructions, change permissions, hidden or encoded text) from below the
 * user's own words. Each says where it came from and why it is held; a person approves it (it may be
 * injected, stand and sync from then on) or rejects it (invalidated, restorable).
 */
import { html } from 'hono/html';
import type { Observation } from '../../../core/model.ts';
import { TRUST_LABELS } from '../../../core/trust.ts';
import type { Html } from './layout.ts';
import { badge, empty, memoryHref, when } from './parts.ts';

function heldItem(o: Observation, project: string, now: number): Html {
  const api = `/api/memories/${o.id}`;
  const head = `review-${o.id}`;
  return html`<li class="held" data-held="${o.id}" aria-labelledby="${head}">
    <h2 id="${head}"><a href="${memoryHref(o.id)}">${o.title}</a></h2>
    <p class="meta">
      ${badge('type', o.type)}${badge('status', 'quarantined')} from ${TRUST_LABELS[o.trust]} · ${o.source} ·
      ${project} · made ${when(o.createdAt, now)}${o.pinned ? ' · would be standing knowledge' : ''}
    </p>
    <p class="reason"><strong>Held:</strong> ${o.reviewReason ?? 'instruction-like text'}</p>
    ${o.narrative ? html`<pre class="context">${o.narrative}</pre>` : ''}
    <div class="toolbar" role="toolbar" aria-label="Decide on ${o.id}">
      <button type="button" data-post="${api}/approve" data-body="{}">Approve</button>
      <button type="button" class="danger" data-post="${api}/reject" data-body="{}">Reject</button>
    </div>
  </li>`;
}

export function reviewPage(
  list: { total: number; held: Observation[] },
  projects: ReadonlyMap<string, string>,
  now: number,
): Html {
  return html`<h1>Review</h1>
    <p class="lede">
      Memories whose text tells the agent or its tools what to do, from somewhere other than your own words
      (the repository, tool output, a web page, a dependency, a teammate). They are quarantined: never
      injected, never standing, never pushed to the team, until you approve them. Approving or rejecting is
      recorded in the change log and, for a project shared with a team, in the team's audit log under your
      name. A teammate's approval does not release a memory here: what comes from the team waits for yours.
    </p>
    ${
      list.held.length === 0
        ? empty('Nothing is quarantined.')
        : html`<p class="meta">${list.total} quarantined, newest first.</p>
            <ul class="list review">
              ${list.held.map((o) => heldItem(o, projects.get(o.projectId) ?? o.projectId, now))}
            </ul>`
    }`;
}
