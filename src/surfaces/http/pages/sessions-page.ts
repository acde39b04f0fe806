/**
 * Sessions: the list (newest activity first), and one session — its summary, and in time order what
 * Claude was told at each SessionStart and with each prompt (the exact text; each memory with its
 * score and token cost; the lines the injection gate kept out, and why), the memories each turn left, and a "test recall" box showing what a prompt
 * would bring now.
 */
import { html } from 'hono/html';
import type { SessionListItem } from '../../../store/session-list-repo.ts';
import type { InjectionView, SessionDetail, SessionMoment } from '../../../app/session-view.ts';
import { whyLabel } from '../labels.ts';
import type { Html } from './layout.ts';
import { badge, empty, memoryHref, number, pager, sessionHref, when, table } from './parts.ts';

export function sessionsPage(
  list: { items: SessionListItem[]; next: string | null },
  projects: { id: string; name: string }[],
  project: string | null,
  isFirst: boolean,
  now: number,
): Html {
  return html`<h1>Sessions</h1>
    <form class="inline" action="/sessions" method="get">
      <label class="field"
        ><span>Project</span
        ><select name="project">
          <option value="">all projects</option>
          ${projects.map((p) => html`<option value="${p.id}" ${p.id === project ? html` selected` : ''}>${p.name}</option>`)}
        </select></label
      >
      <button type="submit" class="secondary">Show</button>
    </form>
    ${list.items.length === 0 ? empty('No sessions captured yet.') : ''}
    ${table(
      'Sessions, newest activity first',
      ['Session', 'Project', 'Last activity', 'Prompts', 'Memories', 'Status'],
      list.items.map(
        (s) =>
          html`<tr>
            <td><a href="${sessionHref(s.id)}">${s.request ? s.request.slice(0, 120) : s.id}</a></td>
            <td>${s.projectName}</td>
            <td>${when(s.lastEventAt, now)}</td>
            <td>${number(s.prompts)}</td>
            <td>${number(s.memories)}</td>
            <td>${s.status}</td>
          </tr>`,
      ),
    )}
    ${pager('/sessions', project ? { project } : {}, list.next, isFirst)}`;
}

const pct = (n: number | null) => (n === null ? '—' : `${Math.round(n * 100)}%`);

/** Lines the injection gate kept out of this call's text, and why (the context log's `dropped`). */
function keptOut(view: InjectionView): Html | string {
  const dropped = view.dropped ?? [];
  if (dropped.length === 0) return '';
  return html`<h4>Kept out by the injection gate</h4>
    <p class="meta">Text that reads as an instruction, from below your trust: not shown to the agent.</p>
    ${table(
      'Lines kept out, in order',
      ['Line', 'Why'],
      dropped.map(
        (d) =>
          html`<tr>
            <td>
              ${d.id ? html`<a href="${memoryHref(d.id)}">${d.id}</a>: ` : 'a summary or team line: '}“${d.excerpt}”
            </td>
            <td>${d.category} (${d.rule})</td>
          </tr>`,
      ),
    )}`;
}

function injection(view: InjectionView, label: string): Html {
  const out = view.dropped?.length ?? 0;
  const keptNote = out > 0 ? ` · ${out} ${out === 1 ? 'line' : 'lines'} kept out` : '';
  if (view.text === '') {
    return html`<p class="meta">
        ${label}: nothing
        injected${view.latencyMs !== null ? html` (hook ${view.latencyMs} ms)` : ''}${keptNote}.
      </p>
      ${keptOut(view)}`;
  }
  return html`<details class="injection">
    <summary>
      ${label}: ${view.items.length} ${view.items.length === 1 ? 'memory' : 'memories'},
      ~${number(view.tokens)}
      tokens${view.latencyMs !== null ? html` · hook ${view.latencyMs} ms` : ''}${keptNote}
    </summary>
    ${table(
      'Memories injected, in order',
      ['Memory', 'Why', 'Score', 'Tokens'],
      view.items.map(
        (i) =>
          html`<tr>
            <td>
              ${i.memory ? html`<a href="${memoryHref(i.id)}">${i.memory.title}</a>` : html`<code>${i.id}</code> (gone)`}
            </td>
            <td>${whyLabel(i.why)}</td>
            <td>${pct(i.score)}</td>
            <td>${i.tokens}</td>
          </tr>`,
      ),
    )}
    ${keptOut(view)}
    <h4>Exact text</h4>
    <pre class="context">${view.text}</pre>
  </details>`;
}

function moment(m: SessionMoment, now: number): Html {
  if (m.kind === 'start') {
    return html`<li class="moment start">
      <h3>Session start (${m.injection.startSource ?? 'startup'}) · ${when(m.at, now)}</h3>
      ${injection(m.injection, 'Told at SessionStart')}
    </li>`;
  }
  return html`<li class="moment turn">
    ${
      m.prompt !== null
        ? html`<h3>Prompt · ${when(m.at, now)}</h3>
            <blockquote class="prompt">${m.prompt}</blockquote>`
        : html`<h3>
            ${m.injection ? html`Prompt (text not kept) · ${when(m.at, now)}` : 'Before the first prompt'}
          </h3>`
    }
    ${m.injection ? injection(m.injection, 'Told with this prompt') : ''}
    ${
      m.memories.length > 0
        ? html`<p class="meta">Remembered from this turn:</p>
            <ul class="plain">
              ${m.memories.map((o) => html`<li><a href="${memoryHref(o.id)}">${o.title}</a> ${badge('type', o.type)}${o.status !== 'active' ? badge('status', o.status) : ''}</li>`)}
            </ul>`
        : ''
    }
  </li>`;
}

export function sessionPage(d: SessionDetail, now: number): Html {
  const s = d.session;
  const sum = d.summary;
  const field = (label: string, value: string) =>
    value.trim()
      ? html`<dt>${label}</dt>
          <dd>${value}</dd>`
      : '';
  return html`<h1>Session ${s.request ? html`· ${s.request.slice(0, 100)}` : s.id}</h1>
    <p class="meta">
      ${s.projectName} · <code>${s.cwd}</code> · started ${when(s.startedAt, now)} · last activity
      ${when(s.lastEventAt, now)} · ${s.status}${s.endReason ? html` (${s.endReason})` : ''} ·
      <code>${s.id}</code>
    </p>
    <section aria-labelledby="sum-h">
      <h2 id="sum-h">Summary${sum && !sum.final ? ' (in progress)' : ''}</h2>
      ${sum ? html`<dl class="summary">${field('Request', sum.request)}${field('Investigated', sum.investigated)}${field('Learned', sum.learned)}${field('Completed', sum.completed)}${field('Next steps', sum.nextSteps)}${field('Files edited', sum.filesEdited.join(', '))}${field('Notes', sum.notes)}</dl>` : empty('No summary yet.')}
    </section>
    <section aria-labelledby="moments-h">
      <h2 id="moments-h">What Claude was told, turn by turn</h2>
      ${d.moments.length === 0 ? empty('Nothing recorded for this session.') : ''}
      <ol class="moments">
        ${d.moments.map((m) => moment(m, now))}
      </ol>
    </section>
    <section aria-labelledby="test-h">
      <h2 id="test-h">Test recall</h2>
      <form class="recall-test" data-recall-test data-project="${s.projectId}">
        <label class="field"
          ><span>A prompt (empty: what a new session would be told)</span
          ><textarea name="prompt" rows="3"></textarea>
        </label>
        <button type="submit">Show what it would inject now</button>
      </form>
      <div id="recall-result" aria-live="polite"></div>
    </section>`;
}
