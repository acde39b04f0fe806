/**
 * The metrics verb's result as text: what `engram metrics` prints and MCP's metrics tool answers.
 */
import { existsSync } from 'node:fs';
import type { Metrics } from '../app/metrics.ts';

const fmt = (n: number) => n.toLocaleString('en-US');
const money = (c: number | null) => (c === null ? 'no price' : `$${c.toFixed(2)}`);

export function metricsText(data: Metrics): string {
  const lines = ['Token usage by model (from transcripts):'];
  for (const m of data.usage.byModel) {
    lines.push(
      `  ${m.model}: in ${fmt(m.input)}, out ${fmt(m.output)}, cache read ${fmt(m.cacheRead)}, cache write ${fmt(m.cacheWrite)} · ${money(m.costUsd)}`,
    );
  }
  lines.push('By project:');
  for (const p of data.usage.byProject)
    lines.push(
      `  ${p.name} (${p.model}): ${fmt(p.input + p.output + p.cacheRead + p.cacheWrite)} tokens · ${money(p.costUsd)}`,
    );
  lines.push('By day:');
  for (const d of data.usage.byDay.slice(-14))
    lines.push(
      `  ${d.key} ${d.model}: ${fmt(d.input + d.output + d.cacheRead + d.cacheWrite)} tokens · ${money(d.costUsd)}`,
    );
  const llm = data.llm;
  if (llm.total) {
    const t = llm.total;
    const perObs =
      t.observations > 0 ? fmt(Math.round((t.inputTokens + t.outputTokens) / t.observations)) : 'n/a';
    lines.push(
      'LLM distillation (ledger):',
      `  ${fmt(t.calls)} calls, in ${fmt(t.inputTokens)}, out ${fmt(t.outputTokens)} tokens · $${t.costUsd.toFixed(4)} · ${fmt(t.observations)} observations stored · ${perObs} tokens per stored observation`,
      `  outcomes: ${Object.entries(t.outcomes)
        .map(([k, n]) => `${k} ${n}`)
        .join(', ')}`,
    );
    for (const m of llm.byModel)
      lines.push(
        `  ${m.key}: ${fmt(m.calls)} calls, ${fmt(m.inputTokens + m.outputTokens)} tokens · $${m.costUsd.toFixed(4)}`,
      );
    for (const d of llm.byDay.slice(-14))
      lines.push(
        `  ${d.key}: ${fmt(d.calls)} calls, ${fmt(d.inputTokens + d.outputTokens)} tokens · $${d.costUsd.toFixed(4)}`,
      );
  } else lines.push('LLM distillation (ledger): no calls');
  lines.push(`Prices: ${data.prices.file}${existsSync(data.prices.file) ? '' : ' (not present: defaults)'}`);
  const t = data.capture.transcripts;
  lines.push(
    'Capture health:',
    `  hooks seen: ${data.capture.hooks.map((h) => `${h.hook} ${h.count}`).join(', ') || 'none'}`,
    `  transcripts read: ${t.files} files, ${fmt(t.records)} records, ${t.badLines} unreadable lines`,
  );
  for (const p of data.capture.projects) {
    lines.push(
      `  ${p.name}: last capture ${p.lastCaptureAt ? new Date(p.lastCaptureAt).toISOString() : 'never'}`,
    );
  }
  return `${lines.join('\n')}\n`;
}
