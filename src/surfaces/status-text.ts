/**
 * The status verb's result as text: what `engram status` prints and MCP's status tool answers.
 */
import { join } from 'node:path';
import type { DroppedCall, DroppedView } from '../app/dropped-lines.ts';
import type { Health } from '../app/health.ts';
import type { EngramPaths } from '../core/paths.ts';
import { formatAge } from '../recall/render-context.ts';

/**
 * `forAgent`: the text goes to the agent (MCP's status tool), so a line the injection gate kept out of
 * its context is named by id and rule only — never quoted back to it.
 */
export function statusText(
  report: Health,
  paths: EngramPaths,
  now: number,
  options: { forAgent?: boolean } = {},
): string {
  const lines: string[] = [];
  for (const issue of report.config.issues)
    lines.push(
      `${issue.severity === 'error' ? 'CONFIG PROBLEM' : 'config warning'}: ${issue.message}${issue.severity === 'error' ? ' — using the default instead' : ''}`,
    );
  lines.push(
    `engram home: ${report.home}`,
    `worker: ${report.worker.running ? `running (pid ${report.worker.pid})` : 'not running (the next hook starts it)'}`,
    `queue: ${report.queue.inbox + report.queue.pending} pending (${report.queue.inbox} not yet imported), ${report.queue.parked} parked, ${report.queue.done} distilled`,
  );
  for (const p of report.parked.slice(0, 10))
    lines.push(`  parked #${p.seq} ${p.hook} after ${p.attempts} attempts: ${p.error}`);
  if (report.parked.length > 0)
    lines.push('  retry them with "engram retry --all" (or "engram retry <seq>")');
  if (report.queue.rejected > 0)
    lines.push(
      `  ${report.queue.rejected} unreadable captured events set aside in ${join(paths.inboxDir, 'rejected')} (see the worker log for why)`,
    );
  const hp = report.hookProblems;
  if (hp.errors > 0) {
    lines.push(`hook errors since the last status: ${hp.errors} (see ${paths.hookLog})`);
    for (const l of hp.last) lines.push(`  ${l}`);
  }
  if (report.missed.sessions > 0)
    lines.push(
      `${report.missed.sessions} Claude Code sessions in ${report.missed.root} are not in memory yet: read them with "engram backfill"`,
    );
  for (const f of report.transcripts)
    lines.push(`${f.severity === 'fail' ? 'TRANSCRIPTS' : 'transcripts'}: ${f.message}`, `  ${f.fix}`);
  const o = report.counts.observations;
  lines.push(
    `memories: ${o.active} active (${o.superseded} superseded, ${o.invalidated} invalidated, ${o.forgotten} forgotten); ${report.counts.summaries} session summaries; ${report.counts.prompts} prompts`,
  );
  const t = report.trust;
  if (t.held > 0)
    lines.push(
      `quarantined: ${t.held} memories hold instruction-like text from below your trust; never injected until you approve them ("engram review")`,
    );
  if (t.dropped.length > 0) lines.push(...droppedText(t.dropped, now, options.forAgent === true));
  lines.push(
    report.vectors
      ? `vectors: ${report.vectors.embedder} · ${report.vectors.embedded} memories embedded, ${report.vectors.pending} pending (the worker embeds them in the background)`
      : 'vectors: off (embed.provider is none: search is lexical only)',
  );
  if (report.projects.length === 0) lines.push('projects: none captured yet');
  for (const p of report.projects) {
    const last = p.lastCaptureAt ? formatAge(now - p.lastCaptureAt) : 'never';
    lines.push(
      `  ${p.name} (${p.id}) · ${p.sessions} sessions · ${p.observations} memories · last capture ${last} · ${p.root}`,
    );
  }
  for (const n of report.sameRoot)
    lines.push(
      `  ${n.from.name} (${n.from.id}, ${n.from.observations} memories) has the same root as ${n.into.name} (${n.into.id}): ` +
        `a rename or a changed remote started a new project. Merge the old one into it with:`,
      `    ${n.command}`,
    );
  for (const t of report.team) {
    const synced = t.lastSyncAt === null ? 'never synced' : `synced ${formatAge(now - t.lastSyncAt)}`;
    lines.push(
      `team: ${t.name} ${synced} · ${t.queued} to push${t.lastError ? ` · last error: ${t.lastError}` : ''}`,
    );
  }
  if (report.hosts.length > 0)
    lines.push(
      `hosts: ${report.hosts.map((h) => `${h.host} ${h.sessions} sessions, ${h.events} events (last ${h.lastAt ? formatAge(now - h.lastAt) : 'never'})`).join(' · ')}`,
    );
  const d = report.distill;
  if (d.provider === 'none')
    lines.push('distiller: heuristic (LLM distillation off: distill.provider = none)');
  else {
    lines.push(
      `distiller: LLM ${d.provider}${d.model ? ` (${d.model})` : ''} · today ${d.today.calls} calls, ${d.today.tokens}/${d.today.tokenCap} tokens, $${d.today.costUsd.toFixed(4)}/$${d.today.usdCap}`,
    );
    if (d.budgetReached)
      lines.push(`  budget reached: ${d.budgetReached.reason}; falling back to the heuristic distiller`);
    else if (d.lastCall && d.lastCall.outcome !== 'ok')
      lines.push(`  last call: ${d.lastCall.outcome}${d.lastCall.detail ? ` (${d.lastCall.detail})` : ''}`);
  }
  if (report.hooks.length > 0) {
    lines.push(`hooks seen: ${report.hooks.map((h) => `${h.hook} ${h.count}`).join(', ')}`);
  }
  return `${lines.join('\n')}\n`;
}

/** What became of a dropped line's memory, and what a person may do about it. */
function afterwards(d: DroppedView): string {
  if (!d.memory) return '';
  switch (d.memory.state) {
    case 'quarantined':
      return 'quarantined now: approve or reject it with "engram review"';
    case 'approved':
      return 'approved since: injected again';
    case 'rescreen':
      return 'judged clear by an earlier screen version: the worker screens it again at its next round, then "engram review" lists it';
    case 'clear':
      return `its own text passes the screen, its line did not: read it with "engram show ${d.id}"`;
    case 'gone':
      return 'no longer active';
  }
}

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** What the injection gate kept out this past week: each line, why, and what became of its memory. */
function droppedText(calls: readonly DroppedCall[], now: number, withheld: boolean): string[] {
  const total = calls.reduce((n, d) => n + d.dropped.length, 0);
  const out = [
    `injection gate: ${total} ${total === 1 ? 'line' : 'lines'} kept out of the agent's context in the last 7 days, newest first (text that reads as an instruction, from below your trust):`,
  ];
  let shown = 0;
  for (const call of calls.slice(0, 5))
    for (const d of call.dropped.slice(0, 3)) {
      const quoted = d.memory ? clip(d.memory.title, 100) : d.excerpt;
      const what = `${d.memory ? `memory ${d.id}` : 'a session summary or team line'}${withheld ? '' : ` “${quoted}”`}`;
      const then = afterwards(d);
      out.push(
        `  ${formatAge(now - call.at)} at ${call.hook}: ${what} — ${d.category} (${d.rule})${then ? `; ${then}` : ''}`,
      );
      shown++;
    }
  if (shown < total) out.push(`  (+${total - shown} more: "engram status --json")`);
  return out;
}
