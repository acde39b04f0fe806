/**
 * Small pieces the pages share: times, badges, a memory's line in a list, links with query strings,
 * the pager, and the project name lookup. Everything is escaped by hono/html.
 */
import { html } from 'hono/html';
import { formatAge } from '../../../recall/format-age.ts';
import type { Store } from '../../../store/store.ts';
import type { Html } from './layout.ts';

/** A link target: a path and its query (empty values left out). */
export function href(path: string, params: Record<string, string | number | undefined | null> = {}): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params))
    if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  const text = q.toString();
  return text ? `${path}?${text}` : path;
}

export function when(at: number, now: number): Html {
  const iso = new Date(at).toISOString();
  return html`<time datetime="${iso}" title="${iso}">${formatAge(now - at)}</time>`;
}

export function badge(kind: 'type' | 'status' | 'op' | 'source', value: string): Html {
  return html`<span class="badge ${kind} ${kind}-${value.replace(/[^a-z_]/g, '')}"
    >${value.replace(/_/g, ' ')}</span
  >`;
}

export const memoryHref = (id: string) => `/memories/${encodeURIComponent(id)}`;
export const sessionHref = (id: string) => `/sessions/${encodeURIComponent(id)}`;

/** Project names by id, read once per page. */
export function projectNamesOf(store: Store): Map<string, string> {
  return new Map(store.sessions.projectStats().map((p) => [p.id as string, p.name]));
}

export interface MemoryLine {
  id: string;
  type: string;
  status: string;
  title: string;
  projectId: string;
  createdAt: number;
  pinned?: boolean;
  source?: string;
  /** The code it describes changed since. */
  stale?: boolean;
}

/** One memory in a list: its title (a link), type, status when not active, project and age. */
export function memoryItem(o: MemoryLine, names: Map<string, string>, now: number, extra?: Html): Html {
  return html`<li class="mem" data-id="${o.id}">
    <a class="title" href="${memoryHref(o.id)}">${o.title}</a>
    <span class="meta"
      >${badge('type', o.type)}${o.status !== 'active' ? badge('status', o.status) : ''}${o.pinned ? badge('status', 'pinned') : ''}${o.stale ? badge('status', 'stale') : ''}
      <span>${names.get(o.projectId) ?? o.projectId}</span> ·
      ${when(o.createdAt, now)}${o.source ? html` · ${o.source}` : ''}</span
    >
    ${extra ?? ''}
  </li>`;
}

/** "Next page" (keyset paging has no page numbers; the first page is one click away). */
export function pager(
  path: string,
  params: Record<string, string>,
  next: string | null,
  isFirst: boolean,
): Html {
  if (!next && isFirst) return html``;
  return html`<nav class="pager" aria-label="Pages">
    ${isFirst ? '' : html`<a href="${href(path, { ...params, cursor: undefined })}">First page</a>`}
    ${next ? html`<a rel="next" href="${href(path, { ...params, cursor: next })}">Next page</a>` : ''}
  </nav>`;
}

export function number(n: number): string {
  return n.toLocaleString('en-US');
}

/** An empty-state paragraph. */
export function empty(text: string): Html {
  return html`<p class="empty">${text}</p>`;
}

/** A data table: column headers, the rows as given (`<tr>…</tr>`), a caption for screen readers. */
export function table(
  caption: string | null,
  headers: readonly (string | Html)[],
  rows: Html | Html[],
): Html {
  return html`<table>
    ${
      caption
        ? html`<caption class="visually-hidden">
            ${caption}
          </caption>`
        : ''
    }
    <thead>
      <tr>
        ${headers.map((h) => html`<th scope="col">${h}</th>`)}
      </tr>
    </thead>
    <tbody>
      ${rows}
    </tbody>
  </table>`;
}
