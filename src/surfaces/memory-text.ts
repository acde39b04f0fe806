/**
 * A memory in full as text: what `engram show` prints and MCP's get_observations answers (the viewer
 * renders the same memory view as a page). For the agent, a quarantined memory's text is never shown:
 * it awaits a person's review.
 */
import type { Observation } from '../core/model.ts';
import { TRUST_LABELS } from '../core/trust.ts';
import { formatAge } from '../recall/render-context.ts';

export function memoryText(
  o: Observation,
  now: number,
  options: { host?: string | null; forAgent?: boolean } = {},
): string {
  if (options.forAgent && o.review === 'held')
    return `${o.id} [${o.type}] (quarantined: its text awaits a person's review in "engram review" and is not shown)`;
  const host = options.host ? ` (${options.host})` : '';
  const review =
    o.review === 'held'
      ? ` · QUARANTINED (never injected until approved: engram review approve ${o.id}): ${o.reviewReason ?? ''}`
      : o.review === 'approved'
        ? ` · ${o.reviewReason ?? 'approved after review'}`
        : '';
  const lines = [
    `${o.id} [${o.type}] ${o.title}`,
    `  ${o.status} · ${o.source} · ${formatAge(now - o.createdAt)} · session ${o.sessionId ?? '-'}${host}`,
    `  trust: ${TRUST_LABELS[o.trust]}${review}`,
  ];
  if (o.subtitle) lines.push(`  ${o.subtitle}`);
  if (o.narrative) lines.push('', o.narrative);
  if (o.facts.length > 0) lines.push('', 'Facts:', ...o.facts.map((f) => `- ${f}`));
  if (o.filesModified.length > 0) lines.push('', `Files modified: ${o.filesModified.join(', ')}`);
  if (o.filesRead.length > 0) lines.push(`Files read: ${o.filesRead.join(', ')}`);
  if (o.concepts.length > 0) lines.push(`Concepts: ${o.concepts.join(', ')}`);
  return lines.join('\n');
}
