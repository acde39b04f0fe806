/**
 * Settings: every configuration key with its description, its value and where it comes from; each
 * saved on its own, validated by the same rules as `engram config set` (the error shows beside it).
 */
import { html } from 'hono/html';
import type { SettingRow } from '../settings.ts';
import type { Html } from './layout.ts';

const shown = (v: unknown) => (Array.isArray(v) ? v.join(', ') : String(v));

function input(r: SettingRow, id: string): Html {
  if (r.kind === 'bool') {
    return html`<select id="${id}" name="value">
      ${['true', 'false'].map((v) => html`<option${String(r.value) === v ? html` selected` : ''}>${v}</option>`)}
    </select>`;
  }
  if (r.kind === 'enum') {
    return html`<select id="${id}" name="value">
      ${(r.values ?? []).map((v) => html`<option${r.value === v ? html` selected` : ''}>${v}</option>`)}
    </select>`;
  }
  const numeric = r.kind === 'int' || r.kind === 'number';
  return html`<input
    id="${id}"
    name="value"
    value="${shown(r.value)}"
    ${numeric ? html` inputmode="decimal"` : ''}
    aria-describedby="${id}-d"
  />`;
}

export function settingsPage(rows: readonly SettingRow[]): Html {
  const groups = new Map<string, SettingRow[]>();
  for (const r of rows) {
    const g = r.key.split('.')[0] as string;
    groups.set(g, [...(groups.get(g) ?? []), r]);
  }
  return html`<h1>Settings</h1>
    <p class="lede">
      Saved in <code>config.json</code> in engram's home. A value set by an environment variable wins over the
      file. The worker reads settings when it starts.
    </p>
    ${[...groups].map(
      ([group, list]) =>
        html`<section aria-labelledby="g-${group}">
          <h2 id="g-${group}">${group}</h2>
          ${list.map((r) => {
            const id = `k-${r.key.replace(/\./g, '-')}`;
            const bounds = r.min !== null || r.max !== null ? ` (${r.min ?? '…'} to ${r.max ?? '…'})` : '';
            return html`<form class="setting" data-setting="${r.key}">
              <div class="setting-text">
                <label for="${id}"><code>${r.key}</code></label>
                <p class="meta" id="${id}-d">
                  ${r.description} ${r.kind}${bounds}; default ${shown(r.default)}; now from
                  ${r.source}${r.source === 'env' ? html` (<code>${r.env}</code> overrides the file)` : ''}.
                </p>
                <p class="form-error" role="alert">${r.problem ? `Ignored: ${r.problem}` : ''}</p>
              </div>
              <div class="setting-input">
                ${input(r, id)}
                <button type="submit">Save</button>
                ${r.source === 'file' ? html`<button type="button" class="secondary" data-reset>Reset</button>` : ''}
              </div>
            </form>`;
          })}
        </section>`,
    )}`;
}
