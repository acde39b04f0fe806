/**
 * Health: the worker, the queue and its parked turns (with a retry button), files the inbox set aside
 * as unreadable, configuration problems, the database and the viewer itself.
 */
import { html } from 'hono/html';
import type { health } from '../api-system.ts';
import type { Html } from './layout.ts';
import { empty, number, sessionHref, when, table } from './parts.ts';

export function healthPage(h: ReturnType<typeof health>, now: number): Html {
  const q = h.queue;
  const m = h.counts.observations;
  return html`<h1>Health</h1>
    <section aria-labelledby="worker-h">
      <h2 id="worker-h">Worker</h2>
      <p>
        ${h.worker.running ? html`Running (pid ${h.worker.pid}).` : 'Not running: the next hook starts it (or run "engram worker start").'}
      </p>
      <p>
        Queue: ${number(q.inbox + q.pending)} waiting (${number(q.inbox)} not yet imported),
        ${number(q.parked)} parked, ${number(q.done)} distilled.
      </p>
      <p>
        Memories: ${number(m.active)} active, ${number(m.superseded)} superseded, ${number(m.invalidated)}
        invalidated, ${number(m.archived)} archived, ${number(m.forgotten)} forgotten.
      </p>
    </section>
    <section aria-labelledby="parked-h">
      <h2 id="parked-h">Parked turns</h2>
      ${
        h.parked.length === 0
          ? empty('None: every captured turn was distilled.')
          : html`<p>
                These failed every attempt (<code>worker.maxAttempts</code>) and wait with their error.
                Retrying puts them back in the queue.
              </p>
              <button type="button" data-post="/api/health/retry" data-body="{}">Retry parked turns</button>
              ${table(
                null,
                [
                  'Event',
                  'Session',
                  'Hook',
                  'Attempts',
                  'Error',
                  'Captured',
                  html`<span class="visually-hidden">Action</span>`,
                ],
                h.parked.map(
                  (p) =>
                    html`<tr>
                      <td>#${p.seq}</td>
                      <td><a href="${sessionHref(p.sessionId)}">${p.sessionId}</a></td>
                      <td>${p.hook}</td>
                      <td>${p.attempts}</td>
                      <td>${p.error}</td>
                      <td>${when(p.at, now)}</td>
                      <td>
                        <button
                          type="button"
                          class="secondary"
                          data-post="/api/health/retry"
                          data-body="${JSON.stringify({ seqs: [p.seq] })}"
                          aria-label="Retry event ${p.seq}"
                        >
                          Retry
                        </button>
                      </td>
                    </tr>`,
                ),
              )}`
      }
    </section>
    <section aria-labelledby="rej-h">
      <h2 id="rej-h">Rejected inbox files</h2>
      ${
        h.rejectedFiles.length === 0
          ? empty('None.')
          : html`<p>
                Captured events that could not be read, kept in <code>inbox/rejected/</code> for inspection.
              </p>
              <ul class="plain">
                ${h.rejectedFiles.map((r) => html`<li><code>${r.name}</code> · ${number(r.bytes)} bytes · ${when(r.at, now)}</li>`)}
              </ul>`
      }
    </section>
    <section aria-labelledby="hooklog-h">
      <h2 id="hooklog-h">Hook log</h2>
      ${
        h.hookProblems.errors + h.hookProblems.warnings === 0
          ? empty('No errors or warnings since "engram status" last looked.')
          : html`<p>
                ${number(h.hookProblems.errors)} errors and ${number(h.hookProblems.warnings)} warnings in
                <code>logs/hook.log</code> since "engram status" last
                looked${h.hookProblems.last.length > 0 ? '; the latest errors:' : '.'}
              </p>
              <ul class="plain">
                ${h.hookProblems.last.map((line) => html`<li><code>${line}</code></li>`)}
              </ul>`
      }
    </section>
    <section aria-labelledby="cfg-h">
      <h2 id="cfg-h">Configuration</h2>
      ${
        h.config.issues.length === 0
          ? empty('No problems.')
          : html`<p>
                Each value below was ignored (the default, or the file's value, applies instead). Fix it in
                Settings or in the file.
              </p>
              <ul class="plain problems">
                ${h.config.issues.map(
                  (i) => html`<li>${i.severity === 'error' ? 'invalid' : 'unknown'}: ${i.message}</li>`,
                )}
              </ul>`
      }
    </section>
    <section aria-labelledby="db-h">
      <h2 id="db-h">Database and viewer</h2>
      <p>
        <code>${h.database.path}</code> · ${number(Math.round(h.database.bytes / 1024))} KB · schema
        ${h.database.schemaVersion}
      </p>
      <p>
        Viewer pid ${h.viewer.pid}, started ${when(h.viewer.startedAt, now)}, ${h.viewer.streams} open
        ${h.viewer.streams === 1 ? 'tab' : 'tabs'}.
      </p>
    </section>`;
}
