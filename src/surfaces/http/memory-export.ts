/**
 * A memory as markdown, for the export: a heading, its facts as a list, its files and where it came
 * from. The text is the user's own (scrubbed at capture) and is written as it is.
 */
import type { Observation } from '../../core/model.ts';

export function exportMarkdown(o: Observation): string {
  const lines = [
    '',
    `## ${o.title.replace(/\s+/g, ' ')}`,
    '',
    `- id: ${o.id} · ${o.type} · ${o.status}${o.pinned ? ' · pinned' : ''} · source ${o.source}`,
    `- project: ${o.projectId}${o.sessionId ? ` · session ${o.sessionId}` : ''}`,
    `- created: ${new Date(o.createdAt).toISOString()} · version ${o.version}`,
  ];
  if (o.subtitle) lines.push('', o.subtitle);
  if (o.narrative) lines.push('', o.narrative);
  if (o.facts.length > 0) lines.push('', ...o.facts.map((f) => `- ${f}`));
  if (o.filesModified.length > 0) lines.push('', `Files modified: ${o.filesModified.join(', ')}`);
  if (o.filesRead.length > 0) lines.push(`Files read: ${o.filesRead.join(', ')}`);
  if (o.concepts.length > 0) lines.push(`Concepts: ${o.concepts.join(', ')}`);
  if (o.provenance.length > 0) lines.push(`Provenance: ${o.provenance.join(', ')}`);
  return `${lines.join('\n')}\n`;
}
