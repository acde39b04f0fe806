/**
 * How the project is installed, run, built and tested, as its README says: the shell blocks under the
 * README's sections about that (install, usage, running, development, testing, quick start …), each
 * with the line that introduces it ("Run the scenario (starts the test server):"). Read from the
 * README as the session read, wrote or edited it — the document's structure (headings and code
 * blocks), not its sentences. One fact per README, replaced when the file changes.
 */
import type { TranscriptEntry } from '../../core/transcript.ts';
import { clip, isScratchPath, unique } from '../text.ts';
import { extracted, type Extracted } from './extracted.ts';
import { filePath, fileText, inFolder, isDependencyPath } from './whole-file.ts';

const README = /(?:^|[\\/])readme(?:\.(?:md|markdown|rst|txt))?$/i;
/** Sections about getting the project going. */
const HOW_TO =
  /\b(?:install\w*|usage|use|using|run\w*|start\w*|quick ?start|getting started|develop\w*|build\w*|test\w*|setup|set up|deploy\w*|commands?|scripts?|local\w*)\b/i;
const SHELL_FENCE = /^\s*(`{3,}|~{3,})\s*(bash|sh|shell|console|zsh|fish|terminal)?\s*$/i;

export interface UsageSection {
  heading: string;
  commands: { line: string; label: string }[];
}

/** The README's how-to sections and the commands in their shell blocks. */
export function readmeUsage(text: string): UsageSection[] {
  const lines = text.split('\n').map((l) => l.replace(/^\s*\d+(?:→|\t)/, ''));
  const headings: string[] = [];
  const out = new Map<string, UsageSection>();
  let lastProse = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const h = /^(#{1,6})\s+(.+?)\s*#*\s*$/.exec(line);
    if (h?.[1] && h[2]) {
      headings.length = h[1].length - 1;
      headings[h[1].length - 1] = h[2].replace(/[*_`]/g, '').trim();
      lastProse = '';
      continue;
    }
    const fence = SHELL_FENCE.exec(line);
    if (!fence) {
      if (line.trim() !== '') lastProse = line.trim();
      continue;
    }
    // A fenced block: its lines up to the closing fence.
    const close = fence[1] as string;
    const body: string[] = [];
    for (i++; i < lines.length && !(lines[i] as string).trim().startsWith(close); i++)
      body.push(lines[i] as string);
    const path = headings.filter(Boolean);
    // The document's title (a lone top heading) says nothing about the section.
    const heading = (headings[0] && path.length > 1 ? path.slice(1) : path).slice(-2).join(' › ');
    if (fence[2] === undefined && !body.some((l) => /^\s*\$ /.test(l))) continue;
    if (!path.some((p) => HOW_TO.test(p))) continue;
    const prompted = body.some((l) => /^\s*\$ /.test(l));
    // Each command with the comment line right above it ("# Watch mode"), else the block's lead-in.
    const commands: { line: string; label: string }[] = [];
    let comment = '';
    for (const raw of body) {
      const l = raw.trim();
      if (l.startsWith('#')) comment = l.replace(/^#+\s*/, '');
      else if (l === '' || (prompted && !/^\$ /.test(l))) comment = '';
      else {
        const line = l.replace(/^\$ /, '');
        if (!/^export\s+\w+=/.test(line) && line.length <= 160) commands.push({ line, label: comment });
        comment = '';
      }
    }
    const label = /:\s*$/.test(lastProse)
      ? lastProse
          .replace(/^(?:\d+[.)]|[-*])\s+/, '')
          .replace(/:\s*$/, '')
          .replace(/[*_`]/g, '')
      : '';
    if (commands.length === 0) continue;
    const section = out.get(heading) ?? { heading, commands: [] };
    for (const c of commands)
      section.commands.push({ line: c.line, label: c.label || (commands.length === 1 ? label : '') });
    out.set(heading, section);
    lastProse = '';
  }
  return [...out.values()];
}

const said = (c: { line: string; label: string }) =>
  `\`${clip(c.line, 90)}\`${c.label ? ` (${clip(c.label, 70)})` : ''}`;

/**
 * `projectRoot`, when known: only the README at the project's root says how the project is run (one
 * in a sub-folder documents that folder).
 */
export function extractReadmeUsage(entries: readonly TranscriptEntry[], projectRoot?: string): Extracted[] {
  const latest = new Map<string, { sections: UsageSection[]; uuid: string; at: number; read: boolean }>();
  for (const e of entries) {
    if (e.kind !== 'tool_call' || !e.result || e.result.isError) continue;
    const path = filePath(e);
    if (!README.test(path) || isDependencyPath(path) || isScratchPath(path, projectRoot ?? '')) continue;
    if (projectRoot && !inFolder(path, projectRoot)) continue;
    const text = fileText(e);
    if (text === '') continue;
    const sections = readmeUsage(text);
    if (sections.length > 0)
      latest.set(path, { sections, uuid: e.result.uuid || e.uuid, at: e.at, read: e.name === 'Read' });
    // A README rewritten without them no longer says how (a read may show only part of the file).
    else if (e.name !== 'Read') latest.delete(path);
  }
  return [...latest.entries()].flatMap(([path, { sections, uuid, at, read }]) => {
    const name = path.split(/[\\/]/).pop() ?? path;
    const all = unique(sections.flatMap((s) => s.commands.map((c) => c.line)));
    const title = clip(
      `How to run, as ${name} says: ${all.map((c) => `\`${clip(c, 40)}\``).join(', ')}`,
      120,
    );
    const parts = sections.map((s) => `${s.heading}: ${s.commands.map(said).join(', ')}`);
    return [
      extracted(
        'fact',
        title,
        `The project's ${name} says how to run it — ${parts.join('; ')}.`,
        { uuid, at },
        0.7,
        {
          title,
          facts: [`source: ${path}`, ...parts.slice(0, 9).map((p) => clip(p, 240))],
          concepts: ['project command', 'readme', 'how to run'],
          filesRead: [path],
          subject: `env:readme:${path.toLowerCase()}`,
          ...(read ? { trust: 'repository' as const } : {}),
        },
      ),
    ];
  });
}
