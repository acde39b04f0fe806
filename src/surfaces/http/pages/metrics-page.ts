/**
 * Metrics: memories made per day and by type, prompts and injected context per day, token usage and
 * its estimated cost by day and model (transcripts), the LLM distiller's ledger, the context hooks'
 * recorded latency, and today's budget use. Only what engram recorded; estimates say so.
 */
import { html } from 'hono/html';
import type { Metrics as MetricsReport } from '../../../app/metrics.ts';
import { dayBars, rankBars, seriesBy } from './charts.ts';
import type { Html } from './layout.ts';
import { empty, href, number, table } from './parts.ts';

const money = (usd: number | null) => (usd === null ? 'no price' : `$${usd.toFixed(usd < 1 ? 4 : 2)}`);

function budget(b: MetricsReport['budget']): Html {
  if (b.provider === 'none')
    return html`<p>
      LLM distillation is off (<code>distill.provider</code> = none): the heuristic distiller costs nothing.
    </p>`;
  const t = b.today;
  return html`<p>
      ${b.provider}${b.model ? html` (${b.model})` : ''} · today ${number(t.calls)}
      calls${b.budgetReached ? html` · <strong>cap reached</strong>: ${b.budgetReached.reason}` : ''}
    </p>
    <p>
      <label
        >Tokens today: ${number(t.tokens)} of ${number(t.tokenCap)}
        <meter min="0" max="${t.tokenCap || 1}" value="${t.tokens}">${number(t.tokens)}</meter></label
      >
    </p>
    <p>
      <label
        >Dollars today: ${money(t.costUsd)} of $${t.usdCap}
        <meter min="0" max="${t.usdCap || 1}" value="${t.costUsd}">${money(t.costUsd)}</meter></label
      >
    </p>`;
}

export function metricsPage(r: MetricsReport, days: number): Html {
  const memories = seriesBy(
    r.memoriesPerDay,
    (x) => x.key,
    (x) => x.day,
    (x) => x.count,
  );
  const prompts = seriesBy(
    r.promptsPerDay,
    () => 'prompts',
    (x) => x.day,
    (x) => x.count,
  );
  const injected = seriesBy(
    r.context.perDay,
    () => 'tokens injected',
    (x) => x.day,
    (x) => x.tokens,
  );
  const usage = seriesBy(
    r.usage.byDay,
    (x) => x.model,
    (x) => x.key,
    (x) => x.input + x.output + x.cacheRead + x.cacheWrite,
  );
  const byType = new Map<string, number>();
  for (const t of r.memoriesByType)
    if (t.status === 'active') byType.set(t.type, (byType.get(t.type) ?? 0) + t.count);
  return html`<h1>Metrics</h1>
    <nav class="inline" aria-label="Period">
      ${[7, 30, 90].map((d) => html`<a href="${href('/metrics', { days: d })}" ${d === days ? html` aria-current="page"` : ''}>${d} days</a>`)}
    </nav>
    <section aria-labelledby="mem-h">
      <h2 id="mem-h">Memories</h2>
      ${dayBars('Memories made per day, by source', r.days, memories, 'memories')}
      ${
        byType.size > 0
          ? rankBars(
              'Active memories by type',
              [...byType].map(([label, value]) => ({ label: label.replace(/_/g, ' '), value })),
              'memories',
            )
          : empty('No active memories.')
      }
    </section>
    <section aria-labelledby="ctx-h">
      <h2 id="ctx-h">Prompts and context</h2>
      ${dayBars('Prompts per day', r.days, prompts, 'prompts')}
      ${dayBars('Context injected per day (SessionStart and prompts)', r.days, injected, 'tokens')}
      <h3>Context hook latency</h3>
      ${
        r.context.latency.length === 0
          ? empty('No context hook calls recorded in this period.')
          : html`${table(
                null,
                ['Hook', 'Calls', 'Median', '95th percentile'],
                r.context.latency.map(
                  (l) =>
                    html`<tr>
                      <th scope="row">${l.hook}</th>
                      <td>${number(l.calls)}</td>
                      <td>${l.p50} ms</td>
                      <td>${l.p95} ms</td>
                    </tr>`,
                ),
              )}
              <p class="meta">
                Measured by each SessionStart / UserPromptSubmit hook from its process start to its database
                write. Capture hooks (tool events) write a file and record no time.
              </p>`
      }
    </section>
    <section aria-labelledby="tok-h">
      <h2 id="tok-h">Claude Code token usage</h2>
      ${usage.length === 0 ? empty('No usage read from transcripts in this period.') : dayBars('Tokens per day, by model (input, output and cache)', r.days, usage, 'tokens')}
      ${
        r.usage.byModel.length > 0
          ? html`${table(
              null,
              ['Model', 'Tokens', 'Estimated cost'],
              r.usage.byModel.map(
                (m) =>
                  html`<tr>
                    <th scope="row">${m.model}</th>
                    <td>${number(m.tokens)}</td>
                    <td>${money(m.costUsd)}</td>
                  </tr>`,
              ),
            )}`
          : ''
      }
      <p class="meta">
        Read from the session transcripts. Costs are estimates from the price table
        (<code>${r.usage.pricesFile}</code>, or the defaults); a model without a price shows none.
      </p>
    </section>
    <section aria-labelledby="llm-h">
      <h2 id="llm-h">LLM distillation</h2>
      ${budget(r.budget)}
      ${
        r.llm.byModel.length === 0
          ? empty('No LLM calls recorded.')
          : html`${table(
                null,
                ['Provider and model', 'Calls', 'Tokens in / out', 'Cost', 'Memories stored'],
                r.llm.byModel.map(
                  (m) =>
                    html`<tr>
                      <th scope="row">${m.key}</th>
                      <td>${number(m.calls)}</td>
                      <td>${number(m.inputTokens)} / ${number(m.outputTokens)}</td>
                      <td>${money(m.costUsd)}</td>
                      <td>${number(m.observations)}</td>
                    </tr>`,
                ),
              )}
              <p class="meta">
                From the ledger of every call (cost from the price table at the time of the call).
              </p>`
      }
    </section>`;
}
