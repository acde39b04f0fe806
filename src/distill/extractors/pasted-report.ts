/**
 * A report the user pasted into a prompt: an earlier session's hand-off or progress report (its
 * decisions with their reasons, how to run the project, errors and fixes, the rules it kept),
 * recognised by its structure — sections under headings, each opening a list — never by its words.
 * It is an earlier agent's account, not the user's statement: it is read section by section with the
 * readers of the host's compaction digest (errors and fixes → gotchas) and of the assistant's report
 * (a decision keeps its reason and the alternative it rejects), at the trust of the assistant's own
 * words, and none of it is standing knowledge except a rule it states. Its next steps and pending
 * items are the earlier session's (this one may well have done them): not read. A file list is not
 * read. The report ends where the paste turns into a log (a shell prompt, output lines): a pasted
 * log or stack trace has no headed lists and gives nothing.
 */
import { hash32Hex } from '../../core/ids.ts';
import type { ObservationDraft } from '../../core/model.ts';
import type { TranscriptEntry } from '../../core/transcript.ts';
import { classifyCommand } from '../commands.ts';
import { errorGotchas, errorItems, kindOf, plain } from '../compact-summary.ts';
import { clip } from '../text.ts';
import { decisionParts, REASON } from './decisions.ts';
import { clipWords, extracted, type Extracted } from './extracted.ts';
import { contrasts, isStandingNorm, moodOf } from './mood.ts';
import { contentWords } from './shared-words.ts';
import { OUTPUT_LINE } from './user-prose.ts';

/** The fact every memory read from a pasted report carries (it keeps a decision from standing). */
export const PASTED_REPORT = "source: a report the user pasted (an earlier session's account)";

type ReportKind = 'lead' | 'decisions' | 'errors' | 'files' | 'stale' | 'context';

export interface ReportSection {
  heading: string;
  kind: ReportKind;
  items: string[];
}

const BULLET = /^(\s*)(?:[-*•]|\d{1,2}[.)])\s+(\S.*)$/;
/** A heading's own line: markdown, bold, numbered bold, or a short title standing alone. */
const HEADING_LINE =
  /^\s{0,3}(?:#{1,4}\s+(.{2,80}?)|(?:\d{1,2}[.)]\s+)?\*\*([^*]{2,60})\*\*:?|([A-Z][^.!?;:|`$#]{1,58}?):?)\s*$/;

function kindOfHeading(heading: string): ReportKind {
  const h = heading.toLowerCase();
  const digest = kindOf(heading);
  if (digest === 'errors') return 'errors';
  if (digest !== 'other') return 'stale';
  if (/\bdecisions?\b|\bchoices?\b|\bdesign\b|\bapproach\b|\btrade-?offs?\b/.test(h)) return 'decisions';
  if (/\bfiles?\b|\bdirector(?:y|ies)\b|\blayout\b|\btree\b/.test(h)) return 'files';
  return 'context';
}

/** The heading a line is when the next line opens a list under it, else null. */
function headingOf(line: string, next: string | undefined): string | null {
  if (next === undefined || !BULLET.test(next)) return null;
  // A numbered title over a deeper list ("2. Key Technical Concepts:" as the host's digest numbers them).
  const numbered = /^(\s{0,3})\d{1,2}[.)]\s+\*{0,2}([A-Z][^.!?:]{1,60}?)\*{0,2}:\s*$/.exec(line);
  if (numbered) {
    const deeper = (BULLET.exec(next)?.[1] ?? '').length > (numbered[1] ?? '').length;
    return deeper && (numbered[2] ?? '').split(/\s+/).length <= 8 ? (numbered[2] ?? '').trim() : null;
  }
  if (BULLET.test(line)) return null;
  const m = HEADING_LINE.exec(line);
  const name = (m?.[1] ?? m?.[2] ?? m?.[3] ?? '').replace(/[*:#]+$/g, '').trim();
  if (name === '' || name.split(/\s+/).length > 8) return null;
  // A fragment ("ION_ON_CHAIN env var)", the cut start of a paste) is no heading.
  if ((name.match(/\(/g) ?? []).length !== (name.match(/\)/g) ?? []).length) return null;
  return name;
}

/**
 * The sections of a report at the top of `text`, each with the first-level items of its list (deeper
 * items and indented lines join their item). The report ends at the first line of output (a prompt,
 * a log line) outside a list; a line of prose outside a list ends that list.
 */
export function reportSections(text: string): ReportSection[] {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const nonEmpty = (from: number) => lines.slice(from).find((l) => l.trim() !== '');
  const sections: ReportSection[] = [{ heading: '', kind: 'lead', items: [] }];
  let open = true;
  let indent = -1;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line.trim() === '') continue;
    const current = sections[sections.length - 1];
    const heading = headingOf(line, nonEmpty(i + 1));
    if (heading !== null) {
      sections.push({ heading, kind: kindOfHeading(heading), items: [] });
      open = true;
      indent = -1;
      continue;
    }
    const bullet = BULLET.exec(line);
    if (bullet && open && current) {
      const depth = (bullet[1] ?? '').length;
      if (indent < 0 || depth <= indent) {
        indent = depth;
        current.items.push(bullet[2] ?? '');
      } else current.items[current.items.length - 1] += ` ${line.trim()}`;
      continue;
    }
    if (/^\s+\S/.test(line) && open && current && current.items.length > 0) {
      current.items[current.items.length - 1] += ` ${line.trim()}`;
      continue;
    }
    // Output, not prose: the report is over (what follows is a pasted log).
    if (OUTPUT_LINE.test(line.trimStart()) || /^\s*(?:\$|PS\s+\S+>)\s/.test(line)) break;
    // A line of prose after a list ends it; one before it introduces it.
    if (current && current.items.length > 0) open = false;
  }
  return sections.filter((s) => s.items.length > 0);
}

/** Whether the text is a pasted report: at least two headed lists, four items in all. */
export function isPastedReport(text: string): boolean {
  if (text.length < 400) return false;
  const sections = reportSections(text);
  const headed = sections.filter((s) => s.kind !== 'lead');
  return headed.length >= 2 && sections.reduce((n, s) => n + s.items.length, 0) >= 4;
}

/** A command line an item gives: marked as code, or opening with environment assignments. */
function commandOf(item: string): { label: string; command: string } | null {
  const m = /^([^:`]{2,60}):\s+(.+)$/.exec(item);
  const label = m ? plain(m[1] ?? '') : '';
  const rest = (m?.[2] ?? item).trim();
  const code = /^`([^`]{3,300})`[.;,]?$/.exec(rest)?.[1] ?? /`([^`]{3,300})`/.exec(rest)?.[1];
  const env = /^(?:[A-Z_][A-Z0-9_]*=\S+\s+)+[a-z][\w.-]*(?:\s+\S+)*$/.exec(rest)?.[0];
  const command = (env ?? code ?? '').trim();
  if (command === '') return null;
  const purpose = classifyCommand(command);
  if (purpose === 'other' || purpose === 'inspect') return null;
  return { label, command };
}

const key = (s: string) =>
  hash32Hex(
    s
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, ' ')
      .trim(),
  );

/** What one item of a section says, as a memory draft (null: nothing to keep). */
function readItem(
  raw: string,
  kind: ReportKind,
): (Partial<ObservationDraft> & { type: ObservationDraft['type'] }) | null {
  const text = plain(raw);
  if (text.length < 12 || /\?\s*$/.test(text)) return null;
  const from = "an earlier session's report, pasted by the user";
  const command = commandOf(raw);
  if (command)
    return {
      type: 'fact',
      title: clipWords(`${command.label ? `${command.label}: ` : ''}${command.command}`, 120),
      narrative: `${text} (${from})`,
      facts: [`command: ${command.command}`, `purpose: ${classifyCommand(command.command)}`],
      concepts: ['command', 'pasted report'],
      subject: `paste:command:${key(command.command)}`,
    };
  const mood = moodOf(text);
  // "Label: what it is" describes the thing it names; a rule is a sentence of its own.
  const described = /^[^:]{2,60}:\s/.test(text);
  if (mood === 'norm' && isStandingNorm(text) && !described)
    return {
      type: 'convention',
      title: clipWords(text, 110),
      narrative: `A rule stated in ${from}: ${text}.`,
      facts: [`rule: ${text}`],
      concepts: ['convention', 'pasted report'],
      subject: `paste:rule:${key(text)}`,
    };
  // A report's items are terse ("Streams the rows with a cursor, because …"): one that reads as a
  // request is still a decision when it gives its reason; a question or a premise never is.
  if (mood === 'question' || mood === 'hypothesis') return null;
  if (kind === 'decisions' || REASON.test(text) || contrasts(text)) {
    const { reason, rejected } = decisionParts(text);
    const against = rejected || (/,\s*not\s+(.+)$/i.exec(text)?.[1] ?? '').replace(/[.!]$/, '');
    return {
      type: 'decision',
      title: clipWords(text, 110),
      narrative: `${text} (${from})`,
      facts: [...(reason ? [`reason: ${reason}`] : []), ...(against ? [`instead of: ${against}`] : [])],
      concepts: ['decision', 'pasted report'],
      subject: `paste:decision:${key(text)}`,
    };
  }
  return null;
}

const LIMIT = 12;

/** The statements of a report's section that made no memory of their own, as one fact. */
function sectionFact(heading: string, said: readonly string[], at: { uuid: string; at: number }): Extracted {
  const kept = said.slice(0, 10);
  // Titled by its most specific statement (the most content words), not merely the first.
  const lead = [...kept].sort((a, b) => contentWords(b).size - contentWords(a).size)[0] ?? '';
  return extracted(
    'fact',
    clipWords(`${heading || 'Pasted report'}: ${lead}`, 120),
    `Reported by an earlier session (a report the user pasted)${heading ? `, under "${heading}"` : ''}: ${kept.join('; ')}.`,
    at,
    0.6,
    {
      title: clipWords(`${heading || 'Pasted report'}: ${lead}`, 120),
      facts: [...kept.map((s) => `reported: ${clip(s, 240)}`), PASTED_REPORT],
      concepts: ['pasted report'],
      subject: `paste:section:${key(`${heading} ${kept[0] ?? ''}`)}`,
    },
  );
}

/** An item telling work done ("Added …", "✅ …", "… was fixed"), as a report's items do. */
const DONE_ITEM =
  /^(?:✅|✓|\[x\]|(?:added|implemented|created|fixed|updated|removed|refactored|moved|renamed|wrote|built|switched|replaced|changed|deployed|merged|committed|resolved|migrated|tested|verified|configured|installed|shipped|completed|done)\b)|\b(?:was|were|is now|are now|has been|have been)\b/i;

/**
 * The user's own request written as a list (`Build all the components … Components needed: 1. …`):
 * it opens by asking for work and none of its items tells work done — a spec, not an earlier
 * session's account.
 */
function isSpec(text: string, sections: readonly ReportSection[]): boolean {
  const opening =
    text
      .trim()
      .split(/\n/)[0]
      ?.split(/(?<=[.!?])\s+/)[0] ?? '';
  return (
    moodOf(opening) === 'request' && !sections.some((s) => s.items.some((i) => DONE_ITEM.test(i.trim())))
  );
}

/** The memories of the reports pasted into the entries' prompts (see the module comment). */
export function extractPastedReports(entries: readonly TranscriptEntry[]): Extracted[] {
  const out: Extracted[] = [];
  for (const e of entries) {
    if (e.kind !== 'prompt' || e.command !== undefined || !isPastedReport(e.text)) continue;
    if (isSpec(e.text, reportSections(e.text))) continue;
    const found: Extracted[] = [];
    for (const section of reportSections(e.text)) {
      if (section.kind === 'files' || section.kind === 'stale') continue;
      if (section.kind === 'errors') {
        const gotchas = errorGotchas(errorItems(section.items), {
          source: 'pasted report',
          from: "an earlier session's report, pasted by the user",
        });
        for (const draft of gotchas)
          found.push({
            draft: { ...draft, facts: [...draft.facts, PASTED_REPORT] },
            uuid: e.uuid,
            at: e.at,
            confidence: 0.6,
          });
        continue;
      }
      const rest: string[] = [];
      for (const item of section.items) {
        const read = readItem(item, section.kind);
        if (!read) {
          const said = plain(item);
          if (said.length >= 12 && moodOf(said) === 'statement') rest.push(said);
          continue;
        }
        const { type, title, narrative, ...fields } = read;
        const x = extracted(type, title ?? '', narrative ?? '', e, 0.6, {
          ...fields,
          title: title ?? '',
          facts: [
            ...(read.facts ?? []),
            ...(section.heading ? [`section: ${section.heading}`] : []),
            PASTED_REPORT,
          ],
        });
        x.draft.narrative = clip(x.draft.narrative, 800);
        found.push(x);
      }
      // The section's other statements: what the earlier session reported, as one fact of it.
      if (rest.length >= 2 && (section.kind === 'context' || section.kind === 'lead'))
        found.push(sectionFact(section.heading, rest, e));
    }
    out.push(...found.slice(0, LIMIT));
  }
  return out;
}
