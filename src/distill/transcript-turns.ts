/**
 * A transcript's entries as turns (a typed prompt starts one; one typed while the agent worked joins
 * the running turn; the host's note that a background task ended joins the turn that launched it),
 * each entry's time kept in order, and a turn read as the hooks would have reported it: its events (the subagents' tool calls among them, named by agent, each with the folder the shell
 * was in), the assistant's words between them, and the git branch the host recorded.
 */
import type { CapturedEvent } from '../core/model.ts';
import type { TranscriptEntry } from '../core/transcript.ts';
import type { Narration } from './analyse-turn.ts';
import { launchOf, taskNotification } from './background-runs.ts';

export function splitTranscriptTurns(entries: readonly TranscriptEntry[]): TranscriptEntry[][] {
  const turns: TranscriptEntry[][] = [];
  let current: TranscriptEntry[] = [];
  // The turn each background task was launched in: the host's note that it ended, come after the
  // user's next prompt, is that turn's (it judges the command launched there).
  const launchedIn = new Map<string, TranscriptEntry[]>();
  for (const e of entries) {
    // A prompt typed while the agent worked joins the running turn.
    if (e.kind === 'prompt' && !e.queued && current.some((c) => c.kind !== 'compact_boundary')) {
      turns.push(current);
      current = [];
    }
    if (e.kind === 'tool_call' && e.result) {
      const launch = launchOf(e.result.structured, e.result.text);
      if (launch) launchedIn.set(launch.id, current);
    }
    const note = e.kind === 'task_notification' ? taskNotification(e.text) : null;
    (note ? (launchedIn.get(note.id) ?? current) : current).push(e);
  }
  if (current.length > 0) turns.push(current);
  return turns;
}

/**
 * Each entry's time, kept in the transcript's order: an entry stamped no later than the one before
 * it (records written in the same millisecond, or rewritten with one time) comes 1 ms after it, so
 * the assistant's words stay between the tool calls they were said between.
 */
export function entryTimes(turn: readonly TranscriptEntry[]): Map<TranscriptEntry, number> {
  const out = new Map<TranscriptEntry, number>();
  let previous = -Infinity;
  for (const e of turn) {
    const at = e.at > previous ? e.at : previous + 1;
    out.set(e, at);
    previous = at;
  }
  return out;
}

/** What the assistant said during a turn (the words between its tool calls). */
export function turnNarration(
  turn: readonly TranscriptEntry[],
  times: ReadonlyMap<TranscriptEntry, number> = entryTimes(turn),
): Narration[] {
  return turn.flatMap((e) =>
    e.kind === 'assistant_text' ? [{ at: times.get(e) ?? e.at, text: e.text }] : [],
  );
}

/** The git branch the host recorded with the turn's last prompt (see `TurnInput.branch`), if it did. */
export function branchOf(entries: readonly TranscriptEntry[]): { branch?: string } {
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i];
    if (e?.kind === 'prompt' && e.branch !== undefined) return { branch: e.branch };
  }
  return {};
}

/** The events the hooks would have captured for one transcript turn. */
export function turnEvents(
  turn: readonly TranscriptEntry[],
  times: ReadonlyMap<TranscriptEntry, number> = entryTimes(turn),
): { event: CapturedEvent; at: number; uuid: string; cwd?: string }[] {
  const out: { event: CapturedEvent; at: number; uuid: string; cwd?: string }[] = [];
  let last: Extract<TranscriptEntry, { kind: 'assistant_text' }> | null = null;
  for (const original of turn) {
    const e = { ...original, at: times.get(original) ?? original.at } as TranscriptEntry;
    if (e.kind === 'prompt') out.push({ event: { kind: 'prompt', prompt: e.text }, at: e.at, uuid: e.uuid });
    else if (e.kind === 'assistant_text') last = e;
    // The host's note that a background task ended reaches the agent as a user-role message: so it is
    // passed on (never read as the user's words: see `taskNotification`).
    else if (e.kind === 'task_notification')
      out.push({ event: { kind: 'prompt', prompt: e.text }, at: e.at, uuid: e.uuid });
    else if (e.kind === 'compact_summary')
      out.push({ event: { kind: 'post_compact', trigger: 'auto', summary: e.text }, at: e.at, uuid: e.uuid });
    else if (e.kind === 'tool_call' && e.result) {
      // A subagent's tool calls are the session's work too, as the hooks report them (with its id).
      const base = {
        tool: e.name,
        toolUseId: e.id,
        input: e.input,
        ...(e.sidechain ? { agentId: e.agent ?? 'subagent' } : {}),
      };
      const structured = e.result.structured;
      const fields =
        structured !== null && typeof structured === 'object' && !Array.isArray(structured) ? structured : {};
      // The tool's structured result where there is one; its text result fills in what it lacks.
      const response =
        'stdout' in fields || 'content' in fields ? fields : { ...fields, content: e.result.text };
      out.push({
        event: e.result.isError
          ? { kind: 'tool_failure', ...base, error: e.result.text, interrupted: false }
          : { kind: 'tool', ...base, response },
        at: e.at,
        uuid: e.uuid,
        ...(e.cwd ? { cwd: e.cwd } : {}),
      });
    }
  }
  if (last) out.push({ event: { kind: 'stop', lastMessage: last.text }, at: last.at, uuid: last.uuid });
  return out;
}
