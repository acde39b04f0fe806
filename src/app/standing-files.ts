/**
 * The agents' own standing knowledge as a source: the rules a project's rules files (CLAUDE.md,
 * AGENTS.md, …) and the user's own files (CLAUDE.local.md, Claude Code's auto memory MEMORY.md) state
 * become standing memories — a convention at the repository's trust, a preference at the user's —
 * each attributed to its file and line, through the mutation path (so screened like any other source:
 * instruction-like text from a file below the user's trust is held for review). Read again, a file
 * that changed updates them: a rule that moved keeps its memory (its line corrected), a rule rewritten
 * in place supersedes the one it replaced, a rule the file no longer states is archived. Nothing is
 * stored twice.
 */
import { hash32Hex } from '../core/ids.ts';
import type { Observation, ObservationDraft, Project } from '../core/model.ts';
import type { TrustClass } from '../core/trust.ts';
import { clipWords } from '../distill/extractors/extracted.ts';
import { rulesWithLines } from '../distill/extractors/project-rules.ts';
import type { MutationContext } from '../store/memory-writer.ts';
import type { Store } from '../store/store.ts';

export interface StandingSource {
  /** Absolute path. */
  path: string;
  /** A short name for the memory's text ("CLAUDE.md", "Claude Code auto memory"). */
  name: string;
  trust: Extract<TrustClass, 'user' | 'repository'>;
  /** The file's text; null when it does not exist (its rules are no longer stated). */
  content: string | null;
}

export interface StandingReport {
  created: number;
  superseded: number;
  archived: number;
  /** Rules that only moved to another line. */
  moved: number;
}

/** The subject every memory read from `path` starts with. */
export const sourceSubject = (path: string): string => `rule:source:${path}#`;

/** The subject of the memory a session's reading of a rules file makes (distill/extractors/project-rules.ts). */
export const readSubject = (path: string): string => `rule:file:${path.toLowerCase()}`;

const ruleKey = (text: string) => hash32Hex(text.replace(/\s+/g, ' ').trim().toLowerCase());

const factOf = (o: Pick<Observation, 'facts'>, key: string) =>
  o.facts.find((f) => f.startsWith(`${key}: `))?.slice(key.length + 2);

function draftOf(source: StandingSource, rule: { line: number; text: string }): ObservationDraft {
  return {
    type: source.trust === 'user' ? 'preference' : 'convention',
    title: clipWords(rule.text, 120),
    subtitle: '',
    narrative: `${source.name} says, at line ${rule.line} of ${source.path}: “${rule.text}”.`,
    facts: [`source: ${source.path}`, `line: ${rule.line}`, `rule: ${rule.text}`],
    concepts: ['rules file', source.name],
    filesRead: [],
    filesModified: [],
    subject: `${sourceSubject(source.path)}${ruleKey(rule.text)}`,
    trust: source.trust,
  };
}

/** Bring the project's memories of each source in line with what the file now says. */
export function syncStandingFiles(
  store: Store,
  project: Project,
  sources: readonly StandingSource[],
  ctx: MutationContext,
): StandingReport {
  const report: StandingReport = { created: 0, superseded: 0, archived: 0, moved: 0 };
  return store.transaction(() => {
    for (const source of sources) {
      // What a session's reading of this file left (one memory listing its rules) is this file's rules
      // again: they are known from the file itself now.
      const read =
        source.content === null ? null : store.observations.bySubject(project.id, readSubject(source.path));
      if (read && store.memory.archive(read.id, `read from ${source.path} itself`, ctx)) report.archived++;
      const held = store.observations.bySubjectPrefix(project.id, sourceSubject(source.path));
      if (source.content === null && held.length === 0) continue;
      const rules = source.content === null ? [] : rulesWithLines(source.content);
      const bySubject = new Map(held.map((o) => [o.subject ?? '', o]));
      const added: { line: number; text: string; draft: ObservationDraft }[] = [];
      const stated = new Set<string>();
      for (const rule of rules) {
        const draft = draftOf(source, rule);
        const subject = draft.subject ?? '';
        stated.add(subject);
        const existing = bySubject.get(subject);
        if (!existing) added.push({ ...rule, draft });
        else if (factOf(existing, 'line') !== String(rule.line)) {
          store.memory.edit(existing.id, { narrative: draft.narrative, facts: draft.facts }, ctx);
          report.moved++;
        }
      }
      const line = (o: Observation) => Number(factOf(o, 'line') ?? 0);
      const gone = held.filter((o) => !stated.has(o.subject ?? '')).sort((a, b) => line(a) - line(b));
      // Rewritten in place: the n-th rule no longer stated is replaced by the n-th new one.
      added.forEach((rule, i) => {
        const replaced = gone[i];
        const written = store.memory.create(
          {
            projectId: project.id,
            sessionId: null,
            source: 'import',
            createdAt: ctx.at,
            provenance: [`file:${source.path}:${rule.line}`],
            draft: rule.draft,
            pinned: true,
            supersedes: replaced?.id ?? null,
          },
          ctx,
        );
        if (written.outcome === 'created') report.created++;
        if (replaced && written.outcome === 'created') report.superseded++;
      });
      for (const o of gone.slice(added.length)) {
        const why = source.content === null ? `${source.path} is gone` : `${source.path} no longer states it`;
        if (store.memory.archive(o.id, why, ctx)) report.archived++;
      }
    }
    return report;
  });
}
