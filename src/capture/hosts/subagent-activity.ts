/**
 * What a session's subagents did, for a host that writes each subagent's records to a file of its own
 * (newer Claude Code versions: `<session>/subagents/agent-<id>.jsonl`). Their tool calls are the session's
 * work as much as the main agent's (the hooks report them in the session too): a read of the session
 * merges them, in time order, into its own entries. Older hosts wrote them inline (`isSidechain`), where
 * the session's read finds them already.
 */
import { statSync } from 'node:fs';
import { basename } from 'node:path';
import type { TranscriptEntry } from '../../core/transcript.ts';
import { readJsonlFrom } from '../transcript/read-jsonl.ts';
import type { TranscriptReader } from './transcript-readers.ts';

/**
 * The subagents' tool calls made after `after` and no later than `until` (the span of the session's
 * records just read), each marked as a subagent's. A file last written before `after` is not opened.
 * An unreadable file is skipped: the session's own read goes on without it.
 */
export function subagentToolCalls(
  reader: TranscriptReader,
  sessionPath: string,
  after: number,
  until: number,
): TranscriptEntry[] {
  const out: TranscriptEntry[] = [];
  for (const file of reader.subagentFiles?.(sessionPath) ?? []) {
    try {
      if (statSync(file).mtimeMs < after) continue;
      const parser = reader.parser([], []);
      for (const line of readJsonlFrom(file, 0, { peek: reader.peek }).lines)
        if (line.skipped !== undefined) parser.skip(line.skipped);
        else parser.add(line.value);
      for (const e of parser.result().entries)
        if (e.kind === 'tool_call' && e.at > after && e.at <= until)
          out.push({ ...e, sidechain: true, agent: e.agent ?? basename(file, '.jsonl') });
    } catch {
      continue;
    }
  }
  return out.sort((a, b) => a.at - b.at);
}

/** `entries` with `calls` (in time order) placed among them by time, each before the first entry after it. */
export function mergeByTime(
  entries: readonly TranscriptEntry[],
  calls: readonly TranscriptEntry[],
): TranscriptEntry[] {
  if (calls.length === 0) return [...entries];
  const out: TranscriptEntry[] = [];
  let c = 0;
  for (const e of entries) {
    while (c < calls.length && (calls[c] as TranscriptEntry).at < e.at)
      out.push(calls[c++] as TranscriptEntry);
    out.push(e);
  }
  while (c < calls.length) out.push(calls[c++] as TranscriptEntry);
  return out;
}
