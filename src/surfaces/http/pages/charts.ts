/**
 * Tiny charts as inline SVG (no library, no script): stacked bars per day and horizontal bars. Each
 * chart is an image with a text label, followed by its numbers as a table for screen readers and
 * copying. Colours come from the stylesheet (series classes s0…s7).
 */
import { html } from 'hono/html';
import type { Html } from './layout.ts';
import { number, table } from './parts.ts';

export interface Series {
  label: string;
  values: ReadonlyMap<string, number>;
}

const W = 640;
const H = 160;
const PAD = 24;

/** Stacked bars, one per day; the days with nothing are drawn as gaps. */
export function dayBars(
  title: string,
  days: readonly string[],
  series: readonly Series[],
  unit: string,
): Html {
  const totals = days.map((d) => series.reduce((sum, s) => sum + (s.values.get(d) ?? 0), 0));
  const max = Math.max(1, ...totals);
  const step = (W - PAD) / Math.max(1, days.length);
  const barW = Math.max(2, step * 0.7);
  const y = (v: number) => ((H - PAD) * v) / max;
  const sum = totals.reduce((a, b) => a + b, 0);
  const bars = days.map((day, i) => {
    let base = H - PAD;
    return series.map((s, k) => {
      const v = s.values.get(day) ?? 0;
      if (v === 0) return '';
      const h = y(v);
      base -= h;
      return html`<rect
        class="s${k % 8}"
        x="${(PAD + i * step).toFixed(1)}"
        y="${base.toFixed(1)}"
        width="${barW.toFixed(1)}"
        height="${Math.max(0.5, h).toFixed(1)}"
        ><title>${day} · ${s.label}: ${number(v)} ${unit}</title></rect
      >`;
    });
  });
  return html`<figure class="chart">
    <figcaption>
      ${title}
      <span class="meta"
        >(${number(sum)} ${unit} in ${days.length} days; most in a day
        ${number(Math.max(0, ...totals))})</span
      >
    </figcaption>
    <svg
      viewBox="0 0 ${W} ${H}"
      role="img"
      aria-label="${title}: ${number(sum)} ${unit} over ${days.length} days"
    >
      <line class="axis" x1="${PAD}" y1="${H - PAD}" x2="${W}" y2="${H - PAD}"></line>
      <text class="tick" x="${PAD}" y="${H - 6}">${days[0] ?? ''}</text>
      <text class="tick" x="${W}" y="${H - 6}" text-anchor="end">${days[days.length - 1] ?? ''}</text>
      <text class="tick" x="0" y="12">${number(max)}</text>
      ${bars}
    </svg>
    ${
      series.length > 1
        ? html`<ul class="legend">
            ${series.map((s, k) => html`<li><span class="swatch s${k % 8}" aria-hidden="true"></span>${s.label}</li>`)}
          </ul>`
        : ''
    }
    <details>
      <summary>Numbers</summary>
      ${table(
        null,
        ['Day', ...series.map((s) => s.label)],
        days
          .filter((_, i) => (totals[i] ?? 0) > 0)
          .map(
            (day) =>
              html`<tr>
                <th scope="row">${day}</th>
                ${series.map((s) => html`<td>${number(s.values.get(day) ?? 0)}</td>`)}
              </tr>`,
          ),
      )}
    </details>
  </figure>`;
}

/** Horizontal bars, largest first. */
export function rankBars(
  title: string,
  rows: readonly { label: string; value: number }[],
  unit: string,
): Html {
  const sorted = [...rows].sort((a, b) => b.value - a.value);
  const max = Math.max(1, ...sorted.map((r) => r.value));
  const rowH = 18;
  const labelW = 150;
  const height = Math.max(rowH, sorted.length * rowH);
  return html`<figure class="chart">
    <figcaption>${title}</figcaption>
    <svg
      viewBox="0 0 ${W} ${height}"
      role="img"
      aria-label="${title}: ${sorted.map((r) => `${r.label} ${r.value}`).join(', ')}"
    >
      ${sorted.map(
        (r, i) =>
          html`<text class="tick" x="${labelW - 6}" y="${i * rowH + 13}" text-anchor="end">${r.label}</text>
            <rect
              class="s0"
              x="${labelW}"
              y="${i * rowH + 3}"
              width="${(((W - labelW - 60) * r.value) / max).toFixed(1)}"
              height="${rowH - 6}"
              ><title>${r.label}: ${number(r.value)} ${unit}</title></rect
            >
            <text
              class="tick"
              x="${(labelW + 4 + ((W - labelW - 60) * r.value) / max).toFixed(1)}"
              y="${i * rowH + 13}"
              >${number(r.value)}</text
            >`,
      )}
    </svg>
  </figure>`;
}

/** Group rows into one series per key: day → value. */
export function seriesBy<T>(
  rows: readonly T[],
  key: (r: T) => string,
  day: (r: T) => string,
  value: (r: T) => number,
): Series[] {
  const out = new Map<string, Map<string, number>>();
  for (const r of rows) {
    const m = out.get(key(r)) ?? new Map<string, number>();
    m.set(day(r), (m.get(day(r)) ?? 0) + value(r));
    out.set(key(r), m);
  }
  return [...out].map(([label, values]) => ({ label, values }));
}
