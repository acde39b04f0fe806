/**
 * Stream: memories as they are made and changed, newest first. The page renders the latest changes;
 * the script adds each new one from the live stream (the list is capped, the history never pushed).
 */
import { html } from 'hono/html';
import type { RouteDeps } from '../deps.ts';
import { changeEvent } from '../api-stream.ts';
import { opLabel } from '../labels.ts';
import type { Html } from './layout.ts';
import { badge, memoryHref, sessionHref, when } from './parts.ts';

/** How many changes the page shows (and the script keeps). */
export const STREAM_ITEMS = 50;

export function streamPage(deps: RouteDeps): Html {
  const { store, clock } = deps;
  const now = clock.now();
  const names = new Map<string, string>();
  // The live stream resumes after the log's end as read here; a change read twice shows once (by seq).
  const after = store.changes.lastSeq();
  const changes = store.changes
    .latest(['memory', 'summary'], STREAM_ITEMS)
    .map((c) => changeEvent(store, c, names));
  return html`<h1>Stream</h1>
    <p class="lede">
      What engram remembers, as it is distilled and corrected. New memories appear here while this page is
      open.
    </p>
    <ol
      class="stream"
      id="stream"
      data-cap="${STREAM_ITEMS}"
      data-after="${after}"
      aria-label="Latest memory changes"
    >
      ${changes.map(
        (e) =>
          html`<li class="change" data-seq="${e.seq}">
            ${badge('op', opLabel(e.entity, e.op))}
            ${
              e.memory
                ? html`<a class="title" href="${memoryHref(e.memory.id)}">${e.memory.title}</a>
                    ${badge('type', e.memory.type)}`
                : e.summary
                  ? html`<a class="title" href="${sessionHref(e.summary.sessionId)}"
                      >${e.summary.request || e.entityId}</a
                    >`
                  : html`<span class="title">${e.entityId}</span>`
            }
            <span class="meta">${e.projectName ?? ''} · ${e.origin} · ${when(e.at, now)}</span>
          </li>`,
      )}
    </ol>
    ${changes.length === 0 ? html`<p class="empty" id="stream-empty">Nothing remembered yet. Use Claude Code with engram installed, or run "engram demo".</p>` : ''}`;
}
