/**
 * Claude Code transcript records → a flat, host-neutral list of entries: prompts, interrupts,
 * assistant text (records of one API message merged), tool calls paired with their results,
 * compaction summaries and boundaries, and token usage per message. Unknown record types and
 * missing fields are counted, never fatal. Every string is scrubbed before it leaves this module.
 */
import { scrubText } from '../../core/scrub.ts';
import type { TranscriptEntry, UsageRecord } from '../../core/transcript.ts';
import { scrubAndLimit } from '../limit-size.ts';

export interface ParsedTranscript {
  sessionId: string | null;
  cwd: string | null;
  entries: TranscriptEntry[];
  usage: UsageRecord[];
  /** Record type → how many were seen, and how many of them carried nothing engram keeps. */
  types: Map<string, { seen: number; skipped: number }>;
}

const LIMITS = { maxFieldChars: 8000, maxEventBytes: 65_536 };

function rec(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}
function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}
function num(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}
function timeOf(r: Record<string, unknown>): number {
  const t = Date.parse(str(r['timestamp']));
  return Number.isFinite(t) ? t : 0;
}

function blocksText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((b) => {
      const block = rec(b);
      return block['type'] === 'text' ? str(block['text']) : '';
    })
    .filter(Boolean)
    .join('\n');
}

const READING_TOOLS = new Set(['Read', 'Glob', 'Grep', 'LS', 'WebFetch', 'WebSearch', 'NotebookRead']);

/** The parts of a tool's structured result the distillers use (a Read's file content is not one). */
function usefulResultFields(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value ?? null;
  const v = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of [
    'stdout',
    'stderr',
    'interrupted',
    'type',
    'filePath',
    'originalFile',
    'content',
    'totalTokens',
  ]) {
    if (key in v && !(key === 'content' && typeof v[key] !== 'string')) out[key] = v[key];
  }
  return out;
}

/** Text a user typed (not tool results, not system-generated wrappers). */
function typedPrompt(text: string): boolean {
  const t = text.trimStart();
  return (
    t !== '' &&
    !t.startsWith('<task-notification>') &&
    !t.startsWith('<local-command') &&
    !t.startsWith('<command-name>') &&
    !t.startsWith('<command-message>') &&
    !t.startsWith('Caveat:') &&
    !t.startsWith('<system-reminder>')
  );
}

/**
 * Incremental: feed records in file order; tool calls are paired across calls of `add`. `context`:
 * entries read before (the previous read's tail), so a result can pair with an earlier call; they are
 * not part of the result's `entries`.
 */
export function createTranscriptParser(context: readonly TranscriptEntry[] = []) {
  const parsed: ParsedTranscript = { sessionId: null, cwd: null, entries: [], usage: [], types: new Map() };
  const calls = new Map<string, Extract<TranscriptEntry, { kind: 'tool_call' }>>();
  for (const e of context) if (e.kind === 'tool_call' && !e.result) calls.set(e.id, e);
  const usageSeen = new Set<string>();
  let lastText: Extract<TranscriptEntry, { kind: 'assistant_text' }> | null = null;

  const count = (type: string, skipped: boolean) => {
    const c = parsed.types.get(type) ?? { seen: 0, skipped: 0 };
    c.seen++;
    if (skipped) c.skipped++;
    parsed.types.set(type, c);
  };

  function add(value: unknown): void {
    const r = rec(value);
    const type = str(r['type']) || '(no type)';
    const uuid = str(r['uuid']);
    const at = timeOf(r);
    parsed.sessionId ??= str(r['sessionId']) || null;
    parsed.cwd ??= str(r['cwd']) || null;
    const sidechain = r['isSidechain'] === true;
    const message = rec(r['message']);
    switch (type) {
      case 'user': {
        const content = message['content'];
        if (r['isCompactSummary'] === true) {
          parsed.entries.push({
            kind: 'compact_summary',
            uuid,
            at,
            text: scrubText(blocksText(content)).slice(0, 8000),
          });
          count(type, false);
          return;
        }
        let kept = false;
        if (Array.isArray(content)) {
          for (const b of content) {
            const block = rec(b);
            if (block['type'] === 'tool_result') {
              const call = calls.get(str(block['tool_use_id']));
              const text =
                typeof block['content'] === 'string' ? block['content'] : blocksText(block['content']);
              if (/^The user doesn't want to proceed with this tool use/.test(text)) {
                // The user rejected the tool call: a redirect, not a failure of the tool.
                if (call) calls.delete(call.id);
                const at0 = call ? parsed.entries.indexOf(call) : -1;
                if (at0 >= 0) parsed.entries.splice(at0, 1);
                parsed.entries.push({ kind: 'interrupt', uuid, at });
                kept = true;
              } else if (call && !call.result) {
                // What a reading tool returned is not kept (only that it ran, and its errors): it is the
                // bulk of a transcript and no distiller uses it.
                const keep = block['is_error'] === true || !READING_TOOLS.has(call.name) ? 8000 : 300;
                call.result = {
                  text: scrubText(text.slice(0, keep)),
                  isError: block['is_error'] === true,
                  structured: scrubAndLimit(usefulResultFields(r['toolUseResult']), LIMITS),
                  uuid,
                };
                kept = true;
              }
            } else if (block['type'] === 'text') {
              const text = str(block['text']);
              if (/^\[Request interrupted by user/.test(text)) {
                parsed.entries.push({ kind: 'interrupt', uuid, at });
                kept = true;
              } else if (!sidechain && typedPrompt(text)) {
                parsed.entries.push({ kind: 'prompt', uuid, at, text: scrubText(text).slice(0, 8000) });
                kept = true;
              }
            }
          }
        } else if (typeof content === 'string' && !sidechain) {
          if (/^\[Request interrupted by user/.test(content)) {
            parsed.entries.push({ kind: 'interrupt', uuid, at });
            kept = true;
          } else if (typedPrompt(content)) {
            parsed.entries.push({ kind: 'prompt', uuid, at, text: scrubText(content).slice(0, 8000) });
            kept = true;
          }
        }
        count(type, !kept);
        return;
      }
      case 'assistant': {
        const messageId = str(message['id']) || uuid;
        const usage = rec(message['usage']);
        if (!usageSeen.has(messageId) && Object.keys(usage).length > 0) {
          usageSeen.add(messageId);
          parsed.usage.push({
            messageId,
            model: str(message['model']) || 'unknown',
            at,
            input: num(usage['input_tokens']),
            output: num(usage['output_tokens']),
            cacheRead: num(usage['cache_read_input_tokens']),
            cacheWrite: num(usage['cache_creation_input_tokens']),
          });
        }
        let kept = false;
        const content = Array.isArray(message['content']) ? message['content'] : [];
        for (const b of content) {
          const block = rec(b);
          if (block['type'] === 'text' && str(block['text']).trim() !== '' && !sidechain) {
            const text = scrubText(str(block['text']));
            if (lastText && lastText.messageId === messageId) {
              lastText.text = `${lastText.text}\n${text}`.slice(0, 8000);
            } else {
              lastText = { kind: 'assistant_text', uuid, at, messageId, text: text.slice(0, 8000) };
              parsed.entries.push(lastText);
            }
            kept = true;
          } else if (block['type'] === 'tool_use') {
            const call: Extract<TranscriptEntry, { kind: 'tool_call' }> = {
              kind: 'tool_call',
              uuid,
              at,
              id: str(block['id']),
              name: str(block['name']) || 'unknown',
              input: scrubAndLimit(block['input'] ?? null, LIMITS),
              result: null,
              sidechain,
            };
            calls.set(call.id, call);
            parsed.entries.push(call);
            kept = true;
          }
        }
        count(type, !kept);
        return;
      }
      case 'system': {
        if (str(r['subtype']) === 'compact_boundary') {
          parsed.entries.push({ kind: 'compact_boundary', uuid, at });
          lastText = null;
          count(`system:${str(r['subtype'])}`, false);
        } else {
          count(`system:${str(r['subtype']) || '?'}`, true);
        }
        return;
      }
      default:
        count(type, true);
    }
  }

  return { add, skip: (type: string) => count(type, true), result: (): ParsedTranscript => parsed };
}

/**
 * Record types engram never reads, recognised from the raw line so they need not be parsed (in a long
 * session most lines are progress records). Only an exact top-level shape counts; anything unsure is
 * parsed as usual.
 */
export function peekSkippedType(line: string): string | null {
  if (line.startsWith('{"type":"file-history-snapshot"')) return 'file-history-snapshot';
  if (line.startsWith('{"type":"queue-operation"')) return 'queue-operation';
  // The envelope comes first: a progress record names its type within its first few hundred bytes, so
  // only that much is searched (lastIndexOf from a bound) instead of scanning long lines to the end.
  if (line.lastIndexOf('"type":"progress","data":{', 1024) !== -1) return 'progress';
  return null;
}
