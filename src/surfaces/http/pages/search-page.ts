/**
 * Search: a searchbox (⌘K / Ctrl-K) over ranked search with filters, all kept in the URL so a view can
 * be bookmarked; each hit says why it ranks where it does. Without words it lists the filter's
 * memories newest first, a page at a time, with export and bulk forget (a dry-run count first).
 */
import { html } from 'hono/html';
import { filterParams, type MemoryFilter } from '../../../core/memory-filter.ts';
import { OBSERVATION_SOURCES, OBSERVATION_STATUSES, OBSERVATION_TYPES } from '../../../core/model.ts';
import type { RouteDeps } from '../deps.ts';
import { decodeCursor, listMemories } from '../../../app/memory-list.ts';
import { search, type ScoreParts } from '../../../app/search.ts';
import type { Html } from './layout.ts';
import { empty, href, memoryItem, number, pager, projectNamesOf } from './parts.ts';

function select(
  name: string,
  label: string,
  current: string | undefined,
  options: readonly { value: string; label: string }[],
): Html {
  const known = current === undefined || options.some((o) => o.value === current);
  return html`<label class="field"
    ><span>${label}</span
    ><select name="${name}">
      ${options.map((o) => html`<option value="${o.value}" ${o.value === (current ?? '') ? html` selected` : ''}>${o.label}</option>`)}
      ${known ? '' : html`<option value="${current}" selected>${current}</option>`}
    </select></label
  >`;
}

const plain = (values: readonly string[]) => values.map((v) => ({ value: v, label: v.replace(/_/g, ' ') }));

function filtersForm(filter: MemoryFilter, projects: { id: string; name: string }[]): Html {
  const p = filterParams(filter);
  return html`<form class="search" role="search" action="/search" method="get">
    <div class="searchrow">
      <label for="q" class="visually-hidden">Search memories</label>
      <input
        id="q"
        name="q"
        type="search"
        role="searchbox"
        value="${filter.query ?? ''}"
        placeholder="Search memories (Ctrl-K)"
        aria-keyshortcuts="Control+K Meta+K"
        autocomplete="off"
      />
      <button type="submit">Search</button>
    </div>
    <fieldset class="filters">
      <legend>Filters</legend>
      ${select('project', 'Project', p['project'], [{ value: '', label: 'all projects' }, ...projects.map((x) => ({ value: x.id, label: x.name }))])}
      ${select('type', 'Type', p['type'], [{ value: '', label: 'any type' }, ...plain(OBSERVATION_TYPES)])}
      ${select('status', 'Status', p['status'], [{ value: '', label: 'active' }, ...plain(OBSERVATION_STATUSES.filter((s) => s !== 'active')), { value: 'active,superseded,invalidated,archived', label: 'all but forgotten' }])}
      ${select('source', 'Source', p['source'], [{ value: '', label: 'any source' }, ...plain(OBSERVATION_SOURCES)])}
      ${select('stale', 'Staleness', p['stale'], [
        { value: '', label: 'stale or current' },
        { value: 'yes', label: 'stale only' },
        { value: 'no', label: 'current only' },
      ])}
      <label class="field"
        ><span>Session</span><input name="session" value="${p['session'] ?? ''}" size="14"
      /></label>
      <label class="field"
        ><span>From</span><input name="from" type="date" value="${p['from'] ?? ''}"
      /></label>
      <label class="field"><span>To</span><input name="to" type="date" value="${p['to'] ?? ''}" /></label>
      <button type="submit" class="secondary">Apply</button>
      ${Object.keys(p).some((k) => k !== 'q') ? html`<a href="${href('/search', { q: p['q'] })}">Clear filters</a>` : ''}
    </fieldset>
  </form>`;
}

const f2 = (n: number) => (Math.round(n * 100) / 100).toString();

function why(parts: ScoreParts): Html {
  return html`<p class="why">
      score <strong>${f2(parts.score)}</strong> = relevance ${f2(parts.relevance)} × recency
      ${f2(parts.recency)} × type ${f2(parts.typeWeight)} × status
      ${f2(parts.statusWeight)}${parts.stale ? html` × stale ${f2(parts.staleWeight)}` : ''} · holds
      ${Math.round(parts.coverage * 100)}% of the words · BM25 ${f2(parts.bm25)} · via
      ${parts.via}${parts.distance !== null ? html` · distance ${f2(parts.distance)}` : ''}
    </p>
    ${parts.stale ? html`<p class="why stale">stale: ${parts.stale.reason}</p>` : ''}`;
}

export async function searchPage(
  deps: RouteDeps,
  filter: MemoryFilter,
  cursor: string | undefined,
): Promise<Html> {
  const { store, clock } = deps;
  const now = clock.now();
  const names = projectNamesOf(store);
  const projects = [...names].map(([id, name]) => ({ id, name }));
  const form = filtersForm(filter, projects);
  const params = filterParams(filter);
  if (filter.query) {
    const result = await search(
      { store, embedder: deps.embedder, queryTimeoutMs: deps.config()['embed.queryTimeoutMs'] },
      { query: filter.query, projectId: filter.projectId ?? null, limit: 30, now, filter },
    );
    return html`<h1>Search</h1>
      ${form}
      <section aria-labelledby="hits-h">
        <h2 id="hits-h">
          ${result.hits.length} best matches
          <span class="meta"
            >(${result.mode}${result.vectorError && deps.embedder ? html`: ${result.vectorError}` : ''})</span
          >
        </h2>
        ${result.hits.length === 0 ? empty('No memory matches those words with these filters.') : ''}
        <ol class="hits">
          ${result.hits.map((h) => memoryItem({ ...h.memory, stale: h.parts.stale !== null }, names, now, why(h.parts)))}
        </ol>
      </section>`;
  }
  const { query: _query, ...listFilter } = filter;
  const page = listMemories(store, listFilter, { cursor: decodeCursor(cursor), limit: 50 });
  const stale = store.anchors.staleOf(page.items.map((o) => o.id));
  const total = `${number(page.total)}${page.capped ? '+' : ''}`;
  return html`<h1>Search</h1>
    ${form}
    <section aria-labelledby="list-h">
      <h2 id="list-h">${total} ${page.total === 1 ? 'memory' : 'memories'}, newest first</h2>
      <p class="actions">
        <a href="${href('/api/memories/export', { ...params, format: 'json' })}" download>Export JSON</a>
        <a href="${href('/api/memories/export', { ...params, format: 'markdown' })}" download
          >Export markdown</a
        >
        ${page.total > 0 ? html`<button type="button" class="danger" data-bulk-forget="${JSON.stringify(params)}">Forget these memories…</button>` : ''}
      </p>
      ${page.items.length === 0 ? empty('No memories with these filters.') : ''}
      <ol class="list">
        ${page.items.map((o) => memoryItem({ ...o, stale: stale.has(o.id) }, names, now))}
      </ol>
      ${pager('/search', params, page.next, !cursor)}
    </section>`;
}
