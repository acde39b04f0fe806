/**
 * The viewer's one script (bundled to dist/viewer/viewer.js, loaded with the page's CSP nonce): small
 * islands of behaviour found by data attributes. Text is only ever set with textContent (the CSP's
 * Trusted Types rule makes HTML sinks throw anyway). All URLs are relative to the viewer's origin.
 */

import { opLabel, whyLabel } from '../labels.ts';

type Json = Record<string, unknown>;

const $ = <T extends Element>(selector: string, root: ParentNode = document) =>
  root.querySelector<T>(selector);
const $$ = <T extends Element>(selector: string, root: ParentNode = document) => [
  ...root.querySelectorAll<T>(selector),
];

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string> = {},
  ...children: (Node | string | null)[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  for (const child of children) if (child !== null) node.append(child);
  return node;
}

async function api(method: string, url: string, body?: unknown): Promise<Json> {
  const response = await fetch(url, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? null : JSON.stringify(body),
  });
  const data = (await response.json().catch(() => ({}))) as Json;
  if (!response.ok) {
    const error = (data['error'] ?? {}) as { message?: string; hint?: string };
    throw new Error([error.message ?? `HTTP ${response.status}`, error.hint].filter(Boolean).join(' — '));
  }
  return data;
}

function toast(text: string, action?: { label: string; run: () => void }): HTMLElement {
  const box = el('div', { class: 'toast' }, el('span', {}, text));
  if (action) {
    const button = el('button', { type: 'button' }, action.label);
    button.addEventListener('click', action.run);
    box.append(button);
  }
  $('#toasts')?.append(box);
  return box;
}

const fail = (error: unknown) => toast(error instanceof Error ? error.message : String(error));
const reload = () => window.location.reload();

/** ⌘K / Ctrl-K: the searchbox here, or the search page. */
function keyboard(): void {
  document.addEventListener('keydown', (e) => {
    if ((e.metaKey || e.ctrlKey) && e.key.toLowerCase() === 'k') {
      e.preventDefault();
      const box = $<HTMLInputElement>('[role="searchbox"]');
      if (box) {
        box.focus();
        box.select();
      } else window.location.assign('/search#q');
    }
  });
  if (window.location.hash === '#q') $<HTMLInputElement>('[role="searchbox"]')?.focus();
}

interface ChangeEvent {
  seq: number;
  op: string;
  origin: string;
  at: number;
  entityId: string;
  projectName: string | null;
  entity: string;
  memory: { id: string; type: string; title: string; status: string } | null;
  summary: { sessionId: string; request: string } | null;
}

function changeItem(e: ChangeEvent): HTMLElement {
  const op = opLabel(e.entity, e.op);
  const badge = (kind: string, value: string) =>
    el('span', { class: `badge ${kind} ${kind}-${value.replace(/[^a-z_]/g, '')}` }, value.replace(/_/g, ' '));
  const title = e.memory
    ? el('a', { class: 'title', href: `/memories/${encodeURIComponent(e.memory.id)}` }, e.memory.title)
    : e.summary
      ? el(
          'a',
          { class: 'title', href: `/sessions/${encodeURIComponent(e.summary.sessionId)}` },
          e.summary.request || e.entityId,
        )
      : el('span', { class: 'title' }, e.entityId);
  const time = el('time', { datetime: new Date(e.at).toISOString() }, 'just now');
  return el(
    'li',
    { class: 'change fresh', 'data-seq': String(e.seq) },
    badge('op', op),
    ' ',
    title,
    ' ',
    e.memory ? badge('type', e.memory.type) : null,
    ' ',
    el('span', { class: 'meta' }, `${e.projectName ?? ''} · ${e.origin} · `, time),
  );
}

/** The live stream: the header's indicator on every page, the list on the stream page. */
function live(): void {
  // The team server's web view has no change feed (and no indicator).
  if (!$('#live')) return;
  const text = $('#live-text');
  const list = $<HTMLOListElement>('#stream');
  const cap = Number(list?.dataset['cap'] ?? 50);
  let fresh = 0;
  const after = list?.dataset['after'];
  const source = new EventSource(after ? `/api/stream?after=${encodeURIComponent(after)}` : '/api/stream');
  const say = (state: string) => {
    if (text) text.textContent = fresh > 0 ? `${state} · ${fresh} new` : state;
    $('#live')?.setAttribute('data-state', state);
  };
  source.addEventListener('hello', () => say('live'));
  source.addEventListener('error', () => say('reconnecting…'));
  source.addEventListener('reset', () => {
    if (list) reload();
  });
  source.addEventListener('change', (message) => {
    const e = JSON.parse((message as MessageEvent<string>).data) as ChangeEvent;
    if (e.entity === 'memory' && e.op === 'create') fresh++;
    say('live');
    if (!list || e.entity === 'link' || list.querySelector(`[data-seq="${e.seq}"]`)) return;
    $('#stream-empty')?.remove();
    list.prepend(changeItem(e));
    while (list.children.length > cap) list.lastElementChild?.remove();
  });
  window.addEventListener('pagehide', () => source.close());
}

function fieldsOf(form: HTMLFormElement): Json {
  const out: Json = {};
  for (const field of $$<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>(
    'input, textarea, select',
    form,
  )) {
    if (!field.name) continue;
    out[field.name] =
      field instanceof HTMLTextAreaElement && field.dataset['lines'] !== undefined
        ? field.value
            .split('\n')
            .map((s) => s.trim())
            .filter(Boolean)
        : field.value;
  }
  return out;
}

function formError(form: HTMLFormElement, error: unknown): void {
  const slot = $('.form-error', form);
  if (slot) slot.textContent = error instanceof Error ? error.message : String(error);
  else fail(error);
}

/** Buttons and dialogs of the memory, health and settings pages. */
function actions(): void {
  for (const button of $$<HTMLButtonElement>('button[data-post]')) {
    button.addEventListener('click', () => {
      button.disabled = true;
      api('POST', button.dataset['post'] ?? '', JSON.parse(button.dataset['body'] ?? '{}')).then(
        reload,
        (error: unknown) => {
          button.disabled = false;
          fail(error);
        },
      );
    });
  }
  for (const button of $$<HTMLButtonElement>('button[data-open]')) {
    button.addEventListener('click', () =>
      $<HTMLDialogElement>(`#${button.dataset['open'] ?? ''}`)?.showModal(),
    );
  }
  for (const button of $$<HTMLButtonElement>('dialog [data-close]')) {
    button.addEventListener('click', () => button.closest('dialog')?.close());
  }
  for (const form of $$<HTMLFormElement>('form[data-patch], form[data-post-form]')) {
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      const patch = form.dataset['patch'];
      const request = patch
        ? api('PATCH', patch, fieldsOf(form))
        : api('POST', form.dataset['postForm'] ?? '', fieldsOf(form));
      request.then(reload, (error: unknown) => formError(form, error));
    });
  }
  for (const button of $$<HTMLButtonElement>('button[data-forget]')) {
    button.addEventListener('click', () => {
      button.disabled = true;
      api('POST', button.dataset['forget'] ?? '').then(reload, fail);
    });
  }
  for (const button of $$<HTMLButtonElement>('button[data-undo-forget]')) {
    button.addEventListener('click', () => {
      api('POST', `/api/forgets/${encodeURIComponent(button.dataset['undoForget'] ?? '')}/undo`).then(
        reload,
        fail,
      );
    });
  }
  const pending = $<HTMLElement>('[data-pending-forget]');
  if (pending) {
    const due = Number(pending.dataset['due']);
    const countdown = $('.countdown', pending);
    const tick = () => {
      const left = Math.ceil((due - Date.now()) / 1000);
      if (countdown) countdown.textContent = left > 0 ? `in ${left} s` : 'now';
      if (left < -1) reload();
      else setTimeout(tick, 500);
    };
    tick();
  }
}

/** Bulk forget: a dry-run count, a confirmation, then an undo window in a toast. */
function bulkForget(): void {
  const button = $<HTMLButtonElement>('button[data-bulk-forget]');
  if (!button) return;
  const filter = JSON.parse(button.dataset['bulkForget'] ?? '{}') as Json;
  button.addEventListener('click', () => {
    api('POST', '/api/memories/forget', { filter, dryRun: true })
      .then((dry) => {
        const count = Number(dry['count']);
        const dialog = el(
          'dialog',
          { 'aria-labelledby': 'bulk-h', class: 'bulk' },
          el('h2', { id: 'bulk-h' }, `Forget ${count} ${count === 1 ? 'memory' : 'memories'}?`),
          el(
            'p',
            {},
            dry['capped']
              ? 'More memories match than one request may forget: narrow the filter.'
              : 'They are hidden at once and erased for good after a short undo window.',
          ),
        );
        const confirm = el('button', { type: 'button', class: 'danger' }, `Forget ${count}`);
        const cancel = el('button', { type: 'button', class: 'secondary' }, 'Cancel');
        confirm.disabled = Boolean(dry['capped']) || count === 0;
        dialog.append(el('div', { class: 'buttons' }, confirm, cancel));
        document.body.append(dialog);
        cancel.addEventListener('click', () => dialog.remove());
        confirm.addEventListener('click', () => {
          dialog.remove();
          api('POST', '/api/memories/forget', { filter, expectCount: count })
            .then((done) => {
              const batch = String(done['batch']);
              // The list changes once the memories are erased; undo reloads at once instead.
              const later = setTimeout(reload, Math.max(1000, Number(done['dueAt']) - Date.now() + 1000));
              const box = toast(`${String(done['count'])} memories forgotten; erased in a few seconds.`, {
                label: 'Undo',
                run: () => {
                  clearTimeout(later);
                  box.remove();
                  api('POST', `/api/forgets/${encodeURIComponent(batch)}/undo`).then(reload, fail);
                },
              });
            })
            .catch(fail);
        });
        dialog.showModal();
      })
      .catch(fail);
  });
}

interface RecallItem {
  id: string;
  tokens: number;
  score: number | null;
  why: string;
  memory: { title: string } | null;
}

/** Test recall: what a prompt (or a new session) would be told now. */
function recallTest(): void {
  const form = $<HTMLFormElement>('form[data-recall-test]');
  const out = $('#recall-result');
  if (!form || !out) return;
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const prompt = $<HTMLTextAreaElement>('textarea', form)?.value ?? '';
    api('POST', '/api/recall/test', { project: form.dataset['project'], prompt })
      .then((r) => {
        const items = r['items'] as RecallItem[];
        const rows = items.map((i) =>
          el(
            'tr',
            {},
            el('td', {}, el('a', { href: `/memories/${encodeURIComponent(i.id)}` }, i.memory?.title ?? i.id)),
            el('td', {}, whyLabel(i.why)),
            el('td', {}, i.score === null ? '—' : `${Math.round(i.score * 100)}%`),
            el('td', {}, String(i.tokens)),
          ),
        );
        const head = el(
          'tr',
          {},
          ...['Memory', 'Why', 'Score', 'Tokens'].map((h) => el('th', { scope: 'col' }, h)),
        );
        out.replaceChildren(
          el(
            'p',
            { class: 'meta' },
            items.length === 0
              ? `${String(r['hook'])}: nothing would be injected.`
              : `${String(r['hook'])}: ${items.length} memories, ~${String(r['tokens'])} tokens.`,
          ),
          ...(items.length > 0
            ? [
                el('table', {}, el('thead', {}, head), el('tbody', {}, ...rows)),
                el('pre', { class: 'context' }, String(r['text'])),
              ]
            : []),
        );
      })
      .catch((error: unknown) =>
        out.replaceChildren(
          el('p', { class: 'form-error' }, String(error instanceof Error ? error.message : error)),
        ),
      );
  });
}

/** Settings: save one key (validated by the server), or reset it. */
function settings(): void {
  for (const form of $$<HTMLFormElement>('form[data-setting]')) {
    const key = form.dataset['setting'] ?? '';
    const url = `/api/config/${encodeURIComponent(key)}`;
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      const value = $<HTMLInputElement | HTMLSelectElement>('[name="value"]', form)?.value ?? '';
      api('PUT', url, { value }).then(reload, (error: unknown) => formError(form, error));
    });
    $('[data-reset]', form)?.addEventListener('click', () => {
      api('DELETE', url).then(reload, (error: unknown) => formError(form, error));
    });
  }
}

function start(): void {
  keyboard();
  live();
  actions();
  bulkForget();
  recallTest();
  settings();
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
else start();
