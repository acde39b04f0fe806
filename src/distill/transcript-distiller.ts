/**
 * Transcripts → memories. A session's entries are split into turns (a new turn at each prompt typed
 * as such; a prompt typed while the agent worked joins the running turn); each turn becomes the same
 * events the hooks would have captured, with the assistant's words between them, and goes through the
 * heuristic distiller (backfill); the typed extractors add what only a transcript shows: the user's
 * words read by their role in the dialogue (corrections, choices, approvals, preferences and
 * conventions, links), the assistant's decisions the evidence supports, the project's rules (hooks,
 * git hooks, rules files), the host's compaction digest (gotchas from its errors and fixes), tool
 * versions. In live use the hooks already captured the tool events, so only the extractors run (no
 * duplicate observations).
 */
import type { ObservationDraft, QueuedEvent, SummaryDraft } from '../core/model.ts';
import { isRejection, rejectionReason, type TranscriptEntry } from '../core/transcript.ts';
import { digestGotchas } from './compact-summary.ts';
import { floorOfEntries, floorOfEvents, relayedTrust } from './evidence-trust.ts';
import { extractDecisions } from './extractors/decisions.ts';
import type { Extracted } from './extractors/extracted.ts';
import { extractCodeNotes } from './extractors/code-notes.ts';
import { extractEnvExample } from './extractors/env-example.ts';
import { extractCiWorkflows } from './extractors/ci-workflow.ts';
import { extractReadmeUsage } from './extractors/readme-usage.ts';
import { extractShellScripts } from './extractors/shell-scripts.ts';
import { extractSlashCommands } from './extractors/slash-commands.ts';
import { extractTaskRecipes } from './extractors/task-recipes.ts';
import { extractPackageScripts } from './extractors/package-scripts.ts';
import { extractProjectFacts } from './extractors/project-facts.ts';
import { extractPastedReports } from './extractors/pasted-report.ts';
import { extractProjectRules } from './extractors/project-rules.ts';
import { chosenSettings } from './extractors/settings-chosen.ts';
import { extractUserLanguage } from './extractors/user-language.ts';
import { readUserWords } from './extractors/user-words.ts';
import type { Resolution } from './gotchas.ts';
import type { Distiller, DroppedText } from './heuristic-distiller.ts';
import type { TodoItem } from './todo-list.ts';
import { responseText } from './text.ts';
import { entryTimes, splitTranscriptTurns, turnEvents, turnNarration, branchOf } from './transcript-turns.ts';

export interface TranscriptMemory {
  draft: ObservationDraft;
  /** Transcript record uuids it came from. */
  provenance: string[];
  at: number;
  /** The assistant's statements it refutes (see `Extracted.refutes`). */
  refutes?: string[];
}

export interface TranscriptDistillation {
  memories: TranscriptMemory[];
  /** Commands that ended a turn working (they close failures left open earlier), oldest first. */
  resolutions: Resolution[];
  /** Task lists finished (their memories are closed), with when. */
  finishedTasks: { subject: string; at: number; done?: string[] }[];
  /**
   * Project files removed (the session's earlier work on them is no longer part of it), or renamed
   * (`to`: that work is told under the new name), with when.
   */
  removedFiles: { path: string; at: number; to?: string }[];
  /** Documents a turn edited and the word pairs they stopped saying, with when. */
  droppedText: TimedDroppedText[];
  /** The user's words saying the work before did not do it, with when (see `not-fixed.ts`). */
  notFixed: { said: string; at: number }[];
  summary: SummaryDraft | null;
  turns: number;
}

/** A document's dropped word pairs (see `dropped-text.ts`) and when the turn that dropped them ended. */
export interface TimedDroppedText extends DroppedText {
  at: number;
}

/**
 * The gotchas of the host's compaction digests among the entries — only of a digest whose earlier
 * part was not read (a transcript that starts with it, a session seen only from then on): where the
 * conversation before it was read, its errors and fixes were read first-hand.
 */
function digestMemories(
  entries: readonly TranscriptEntry[],
  context: readonly TranscriptEntry[],
): Extracted[] {
  const out: Extracted[] = [];
  let seen = context.some(
    (e) => e.kind === 'prompt' || e.kind === 'tool_call' || e.kind === 'assistant_text',
  );
  for (const e of entries) {
    if (e.kind === 'compact_summary' && !seen)
      out.push(...digestGotchas(e.text).map((draft) => ({ draft, uuid: e.uuid, at: e.at, confidence: 0.7 })));
    if (e.kind === 'prompt' || e.kind === 'tool_call' || e.kind === 'assistant_text') seen = true;
  }
  return out;
}

/**
 * Run every extractor over the entries read now (`context`: entries read before, which the new ones
 * are read against; nothing is produced from them again); keep what passes `minConfidence`.
 * `unverified`: also the assistant's decisions nothing acted on yet (candidates shown to the LLM
 * distiller, never stored as such).
 */
export function extractAll(
  entries: readonly TranscriptEntry[],
  context: readonly TranscriptEntry[] = [],
  options: { minConfidence?: number; unverified?: boolean; projectRoot?: string } = {},
): Extracted[] {
  const minConfidence = options.minConfidence ?? 0.5;
  const readings = readUserWords(entries, context);
  return withEvidenceTrust(
    [
      ...readings.flatMap((r) => r.memories),
      ...extractUserLanguage(entries),
      ...chosenSettings(readings.map((r) => r.utterance)),
      ...extractDecisions(entries, context, readings, { unverified: options.unverified === true }),
      ...extractProjectRules(entries),
      ...digestMemories(entries, context),
      ...extractPastedReports(entries),
      ...extractProjectFacts(entries),
      ...extractCodeNotes(entries, options.projectRoot),
      ...extractEnvExample(entries, options.projectRoot),
      ...extractPackageScripts(entries, options.projectRoot),
      ...extractTaskRecipes(entries, options.projectRoot),
      ...extractCiWorkflows(entries, options.projectRoot),
      ...extractReadmeUsage(entries, options.projectRoot),
      ...extractSlashCommands(entries),
      ...extractShellScripts(entries, options.projectRoot),
    ].filter((x) => x.confidence >= minConfidence),
    entries,
    options.projectRoot,
  );
}

/**
 * Each memory's trust from its evidence (see distill/evidence-trust): what an extractor read verbatim
 * keeps the trust it gave; the assistant's words (what they relay, else local tool output) fall to
 * external when their turn took in external content.
 */
function withEvidenceTrust(
  found: Extracted[],
  entries: readonly TranscriptEntry[],
  projectRoot?: string,
): Extracted[] {
  const floors = new Map<string, ReturnType<typeof floorOfEntries>>();
  for (const turn of splitTranscriptTurns(entries)) {
    const floor = floorOfEntries(turn, projectRoot);
    for (const e of turn) {
      floors.set(e.uuid, floor);
      if (e.kind === 'tool_call' && e.result) floors.set(e.result.uuid, floor);
    }
  }
  for (const x of found)
    if (!x.draft.trust) x.draft.trust = relayedTrust(x.relayed ?? 'tool', floors.get(x.uuid) ?? 'repository');
  return found;
}

/**
 * `context`: entries read before (already distilled); extractors see them so a new prompt can be read
 * against what preceded it, but nothing is produced from them again.
 */
export function distilTranscript(
  entries: readonly TranscriptEntry[],
  context: readonly TranscriptEntry[],
  options: {
    distiller: Distiller | null;
    projectRoot: string;
    sessionId: string;
    previousSummary: SummaryDraft | null;
    /** The session's numbered tasks still open before these entries (see `TurnInput.earlierTasks`). */
    earlierTasks?: TodoItem[];
  },
): TranscriptDistillation {
  const memories: TranscriptMemory[] = [];
  const resolutions: Resolution[] = [];
  const finishedTasks: { subject: string; at: number; done?: string[] }[] = [];
  const removedFiles: { path: string; at: number; to?: string }[] = [];
  const droppedText: TimedDroppedText[] = [];
  const notFixed: { said: string; at: number }[] = [];
  let summary = options.previousSummary;
  // The task list as each turn leaves it: a later turn's TaskUpdate finds the tasks an earlier one made.
  let tasks = options.earlierTasks ?? [];
  const turns = splitTranscriptTurns(entries);
  const times = entryTimes(entries);
  if (options.distiller) {
    for (const turn of turns) {
      const events = turnEvents(turn, times);
      if (events.length === 0) continue;
      const queued: QueuedEvent[] = events.map((e, i) => ({
        seq: i,
        sessionId: options.sessionId,
        projectId: '' as never,
        // Where the call ran, as the hooks would have said (the shell keeps a `cd` between calls).
        cwd: e.cwd ?? options.projectRoot,
        transcriptPath: null,
        at: e.at,
        event: e.event,
        attempts: 0,
      }));
      const result = options.distiller.distilTurn({
        projectRoot: options.projectRoot,
        events: queued,
        previousSummary: summary,
        narration: turnNarration(turn, times),
        ...branchOf(turn),
        earlierTasks: tasks,
      });
      // What the next turn may still finish: a done task named again would be done again.
      if (result.tasks) tasks = result.tasks.filter((t) => t.status !== 'completed');
      const at = events[events.length - 1]?.at ?? 0;
      const provenance = [...new Set(events.map((e) => e.uuid))].slice(0, 20);
      // What the distiller made of the turn relays its tool results and the assistant's words.
      const floor = floorOfEntries(turn, options.projectRoot);
      for (const draft of result.observations)
        memories.push({
          draft: { ...draft, trust: draft.trust ?? relayedTrust('tool', floor) },
          provenance,
          at,
        });
      resolutions.push(...(result.resolutions ?? []));
      for (const path of result.removedFiles ?? []) removedFiles.push({ path, at });
      for (const m of result.movedFiles ?? []) removedFiles.push({ path: m.from, at, to: m.to });
      for (const d of result.droppedText ?? []) droppedText.push({ ...d, at });
      // Said as the turn opened: the work it speaks of was stored before the turn's own.
      if (result.notFixed) notFixed.push({ said: result.notFixed, at: events[0]?.at ?? at });
      for (const subject of result.finishedTasks ?? [])
        finishedTasks.push({ subject, at, ...(result.doneTasks ? { done: result.doneTasks } : {}) });
      if (result.summary) summary = result.summary;
    }
  }
  for (const x of extractAll(entries, context, { projectRoot: options.projectRoot }))
    memories.push({
      draft: x.draft,
      provenance: [x.uuid],
      at: x.at,
      ...(x.refutes ? { refutes: x.refutes } : {}),
    });
  return {
    memories,
    resolutions,
    finishedTasks,
    removedFiles,
    droppedText,
    notFixed,
    summary: options.distiller ? summary : null,
    turns: turns.length,
  };
}

/** A tool's response as text; an AskUserQuestion's answers in the host's `"question"="answer"` form. */
function toolText(tool: string, response: unknown): string {
  const answers = (response as { answers?: unknown } | null)?.answers;
  if (
    tool === 'AskUserQuestion' &&
    answers !== null &&
    typeof answers === 'object' &&
    !Array.isArray(answers)
  )
    return `User has answered your questions: ${Object.entries(answers as Record<string, unknown>)
      .map(([q, a]) => `"${q}"="${String(a)}"`)
      .join(', ')}.`;
  // A file read: its text is the file's content (Claude Code's Read result), as a transcript has it.
  const file = (response as { file?: { content?: unknown } } | null)?.file;
  if (tool === 'Read' && typeof file?.content === 'string') return file.content;
  return responseText(response);
}

/**
 * A turn's hook events as the entries a transcript would have given (the prompt, the tool calls with
 * their results, a rejected call with the reason typed, the assistant's last message), so the user's
 * words can be read the same way when no transcript can be read. `before`: the assistant's last
 * message before the turn (what its prompt answers).
 */
export function entriesOfEvents(events: readonly QueuedEvent[], before: string): TranscriptEntry[] {
  const out: TranscriptEntry[] = [];
  const first = events[0];
  if (before.trim() !== '' && first)
    out.push({
      kind: 'assistant_text',
      uuid: `event:${first.seq}:before`,
      at: first.at - 1,
      messageId: 'before',
      text: before,
    });
  for (const q of events) {
    const e = q.event;
    const uuid = `event:${q.seq}`;
    if (e.kind === 'prompt') {
      const text = e.prompt.trim();
      if (text === '') continue;
      const command = /^\/[\w:-]+/.exec(text)?.[0];
      out.push({ kind: 'prompt', uuid, at: q.at, text, ...(command ? { command } : {}) });
    } else if (e.kind === 'tool' || e.kind === 'tool_failure') {
      const error = e.kind === 'tool_failure' ? e.error : '';
      if (isRejection(error)) {
        const reason = rejectionReason(error);
        out.push({
          kind: 'interrupt',
          uuid,
          at: q.at,
          rejected: { tool: e.tool, input: e.input },
          ...(reason ? { reason } : {}),
        });
        continue;
      }
      out.push({
        kind: 'tool_call',
        uuid,
        at: q.at,
        id: e.toolUseId ?? uuid,
        name: e.tool,
        input: e.input,
        result: {
          text: e.kind === 'tool' ? toolText(e.tool, e.response).slice(0, 8000) : error.slice(0, 8000),
          isError: e.kind === 'tool_failure',
          structured: e.kind === 'tool' ? e.response : null,
          uuid,
        },
        sidechain: false,
      });
    } else if (e.kind === 'stop' && e.lastMessage.trim() !== '') {
      out.push({ kind: 'assistant_text', uuid, at: q.at, messageId: uuid, text: e.lastMessage });
    } else if (e.kind === 'post_compact' && e.summary.trim() !== '') {
      out.push({ kind: 'compact_summary', uuid, at: q.at, text: e.summary });
    }
  }
  return out;
}

/**
 * The user's words of a turn read from its hook events alone (no transcript could be read): the same
 * reading as from a transcript, and the same subjects, so a transcript read later merges into them.
 */
export function userWordsOfTurn(events: readonly QueuedEvent[], before: string): Extracted[] {
  const entries = entriesOfEvents(events, before);
  const context = entries.filter((e) => e.uuid.endsWith(':before'));
  const fresh = entries.filter((e) => !e.uuid.endsWith(':before'));
  const floor = floorOfEvents(events);
  const readings = readUserWords(fresh, context);
  return [
    ...readings.flatMap((r) => r.memories),
    ...extractUserLanguage(fresh),
    ...chosenSettings(readings.map((r) => r.utterance)),
    ...extractProjectRules(fresh),
    ...extractCodeNotes(fresh),
    ...extractEnvExample(fresh),
    ...extractPackageScripts(fresh),
    ...extractTaskRecipes(fresh),
    ...extractCiWorkflows(fresh),
    ...extractReadmeUsage(fresh, events[0]?.cwd ?? undefined),
    ...extractShellScripts(fresh, events[0]?.cwd ?? undefined),
    ...digestMemories(fresh, context),
    ...extractPastedReports(fresh),
  ]
    .filter((x) => x.confidence >= 0.5)
    .map((x) =>
      x.draft.trust ? x : { ...x, draft: { ...x.draft, trust: relayedTrust(x.relayed ?? 'tool', floor) } },
    );
}
