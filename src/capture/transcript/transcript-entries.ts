/**
 * Claude Code transcript records → a flat, host-neutral list of entries: prompts, interrupts,
 * assistant text (records of one API message merged), tool calls paired with their results,
 * compaction summaries and boundaries, and token usage per message. Only the user's own words become
 * prompts (see `user-text.ts`: skill expansions, command wrappers, reminders, hook output and
 * notifications never do); subagent records stay out of the conversation; a branch the user rewound
 * away from is dropped (see `record-chain.ts`). Unknown record types and missing fields are counted,
 * never fatal. Every string is scrubbed before it leaves this module.
 */
import { scrubText } from '../../core/scrub.ts';
import {
  isRejection,
  isTaskNotification,
  rejectionReason,
  withoutHostContext,
  type ChainLink,
  type TranscriptEntry,
} from '../../core/transcript.ts';
import { scrubAndLimit } from '../limit-size.ts';
import type { SkippedLine } from './read-jsonl.ts';
import { countRecord, emptyParsed, type ParsedTranscript } from './parsed-transcript.ts';
import { createRecordChain } from './record-chain.ts';
import { keptResult } from './tool-result.ts';
import { readUserText } from './user-text.ts';

const LIMITS = { maxFieldChars: 8000, maxEventBytes: 65_536 };

/**
 * A prompt kept whole up to 8,000 characters; a longer one (a log or an earlier session pasted, the
 * ask often after it) keeps its start and its end, with what was left out in between counted.
 */
export function clipPrompt(text: string): string {
  if (text.length <= 8000) return text;
  const head = text.slice(0, 6000);
  const tail = text.slice(-1500);
  return `${head}\n…[${text.length - head.length - tail.length} characters left out]…\n${tail}`;
}

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

/** The Stop hook's blocking feedback as the host writes it into a user record. */
const HOOK_FEEDBACK = /^(Stop|SubagentStop|TeammateIdle|TaskCompleted) hook feedback:\s*\n?([\s\S]+)$/;

/**
 * Incremental: feed records in file order; tool calls are paired across calls of `add`. `context`:
 * entries read before (the previous read's tail), so a result can pair with an earlier call; they are
 * not part of the result's `entries`. `chain`: the previous read's record chain, so a rewind to a
 * point read before is still recognised (reported in `rewinds`; its entries were stored already).
 */
export function createTranscriptParser(
  context: readonly TranscriptEntry[] = [],
  chain: readonly ChainLink[] = [],
) {
  const records = createRecordChain(chain);
  const parsed = emptyParsed();
  const calls = new Map<string, Extract<TranscriptEntry, { kind: 'tool_call' }>>();
  for (const e of context) if (e.kind === 'tool_call' && !e.result) calls.set(e.id, e);
  const usageSeen = new Set<string>();
  let lastText: Extract<TranscriptEntry, { kind: 'assistant_text' }> | null = null;

  const count = (type: string, skipped: boolean) => countRecord(parsed, type, skipped);
  const push = (entry: TranscriptEntry, recordUuid: string) => {
    parsed.entries.push(entry);
    records.markEntry(recordUuid);
  };

  /** A new prompt that went back to an earlier point: drop the abandoned branch's entries. */
  const followRewind = (parent: string | null, at: number) => {
    const rewind = records.rewindBy(parent, at);
    if (!rewind) return;
    parsed.rewinds.push(rewind);
    const gone = new Set(rewind.abandoned);
    parsed.entries = parsed.entries.filter(
      (e) => !gone.has(e.uuid) && !(e.kind === 'tool_call' && e.result && gone.has(e.result.uuid)),
    );
    for (const [id, call] of calls) if (gone.has(call.uuid)) calls.delete(id);
    if (lastText && gone.has(lastText.uuid)) lastText = null;
  };

  const sameWords = (a: string, b: string) => a.replace(/\s+/g, ' ').trim() === b.replace(/\s+/g, ' ').trim();
  /** A prompt queued earlier and now submitted as a prompt of its own: one utterance, not two. */
  const dropQueued = (text: string) => {
    const before = parsed.entries.length;
    parsed.entries = parsed.entries.filter(
      (e) => !(e.kind === 'prompt' && e.queued && sameWords(e.text, text)),
    );
    return parsed.entries.length < before;
  };
  /**
   * Words the user typed while the agent worked: the host queues them (`queue-operation` enqueue) and
   * hands them to the running turn (newer hosts write a `queued_command` attachment then), or submits
   * them as the next prompt (a user record follows, which replaces the queued one).
   */
  const queuedTexts: string[] = [];
  /** A background task's end as the host tells it (see `task_notification`). */
  const taskNotice = (raw: string, uuid: string, at: number) => {
    const text = withoutHostContext(raw).trim();
    if (!isTaskNotification(text)) return false;
    push({ kind: 'task_notification', uuid, at, text: scrubText(text).slice(0, 2000) }, uuid);
    return true;
  };
  const queuedPrompt = (raw: string, uuid: string, at: number) => {
    if (taskNotice(raw, uuid, at)) return true;
    const said = readUserText(raw);
    if (said.kind !== 'words') return false;
    const text = clipPrompt(scrubText(said.text));
    queuedTexts.push(said.text);
    if (queuedTexts.length > 50) queuedTexts.shift();
    dropQueued(text);
    push({ kind: 'prompt', uuid, at, text, queued: true }, uuid);
    return true;
  };

  /** A Stop hook that would not let the turn end: its summary record names it and what it said. */
  const stopHookSummary = (r: Record<string, unknown>, uuid: string, at: number): boolean => {
    const errors = Array.isArray(r['hookErrors']) ? r['hookErrors'].map(str).filter(Boolean) : [];
    const reason = str(r['stopReason']);
    if (r['preventedContinuation'] !== true && errors.length === 0 && reason === '') return false;
    const infos = Array.isArray(r['hookInfos']) ? r['hookInfos'] : [];
    const command = infos.map((i) => str(rec(i)['command'])).find(Boolean) ?? '';
    const text = [reason, ...errors].join('\n').trim();
    if (text === '') return false;
    // The feedback record that follows says the same: keep one.
    push(
      {
        kind: 'hook_feedback',
        uuid,
        at,
        event: 'Stop',
        command: scrubText(command),
        text: scrubText(text).slice(0, 2000),
      },
      uuid,
    );
    return true;
  };

  const userRecord = (r: Record<string, unknown>, uuid: string, at: number, sidechain: boolean): boolean => {
    const content = rec(r['message'])['content'];
    if (r['isCompactSummary'] === true) {
      // Its code listings are the bulk; the sections after them (errors and fixes, the user's
      // messages, pending tasks, next step) are what is read.
      const text = blocksText(content).replace(/```[\s\S]*?```/g, '[code]');
      push({ kind: 'compact_summary', uuid, at, text: scrubText(text).slice(0, 24_000) }, uuid);
      return true;
    }
    const feedback = HOOK_FEEDBACK.exec(blocksText(content).trim());
    if (feedback && !sidechain) {
      const body = (feedback[2] ?? '').trim();
      // Older hosts name the hook's command first: "[command]: what it printed".
      const named = /^\[([^\]\n]{1,300})\]:\s*([\s\S]*)$/.exec(body);
      push(
        {
          kind: 'hook_feedback',
          uuid,
          at,
          event: feedback[1] ?? 'Stop',
          command: scrubText(named?.[1] ?? ''),
          text: scrubText((named?.[2] ?? body).trim()).slice(0, 2000),
        },
        uuid,
      );
      return true;
    }
    // A skill's or slash command's expansion, a local command's caveat: the host's text. A slash
    // command's expansion (its record's parent is the command's) is kept with the command's prompt: it
    // says what the command is for, never the user's words.
    if (r['isMeta'] === true) {
      const invoked = parsed.entries.findLast((e) => e.kind === 'prompt');
      if (invoked?.kind !== 'prompt' || !invoked.command || invoked.uuid !== r['parentUuid']) return false;
      const text = typeof content === 'string' ? content : blocksText(content);
      if (text.trim() === '') return false;
      invoked.expansion = scrubText(text.trim()).slice(0, 4000);
      return true;
    }
    let kept = false;
    const texts: string[] = [];
    if (typeof content === 'string') texts.push(content);
    for (const b of Array.isArray(content) ? content : []) {
      const block = rec(b);
      if (block['type'] === 'text') texts.push(str(block['text']));
      if (block['type'] !== 'tool_result') continue;
      const call = calls.get(str(block['tool_use_id']));
      const text = typeof block['content'] === 'string' ? block['content'] : blocksText(block['content']);
      if (isRejection(text)) {
        // The user rejected the tool call: a redirect, not a failure of the tool. What they typed as
        // the reason is their words about it.
        if (call) calls.delete(call.id);
        parsed.entries = parsed.entries.filter((e) => e !== call);
        const reason = scrubText(rejectionReason(text)).slice(0, 8000);
        push(
          {
            kind: 'interrupt',
            uuid,
            at,
            ...(call ? { rejected: { tool: call.name, input: call.input } } : {}),
            ...(reason !== '' ? { reason } : {}),
          },
          uuid,
        );
        kept = true;
      } else if (call && !call.result) {
        call.result = {
          ...keptResult(call.name, call.input, text, block['is_error'] === true, r['toolUseResult']),
          uuid,
        };
        records.markEntry(uuid);
        kept = true;
      }
    }
    if (texts.length === 0) return kept;
    const said = readUserText(texts.join('\n'));
    if (said.kind === 'interrupt') {
      push({ kind: 'interrupt', uuid, at }, uuid);
      return true;
    }
    if (!sidechain && said.kind === 'host' && taskNotice(texts.join('\n'), uuid, at)) return true;
    // A subagent's prompt (its first sidechain record) is the parent agent's words, never the user's.
    if (sidechain || said.kind === 'host') return kept;
    const text = said.kind === 'command' ? `${said.name} ${said.args}`.trim() : said.text;
    // A prompt that waited in the queue is attached where it was typed, not where the conversation
    // went back to: not a rewind.
    const wasQueued = queuedTexts.some((q) => sameWords(q, text));
    if ('parentUuid' in r && !wasQueued)
      followRewind(typeof r['parentUuid'] === 'string' ? r['parentUuid'] : null, at);
    dropQueued(text);
    push(
      {
        kind: 'prompt',
        uuid,
        at,
        text: clipPrompt(scrubText(text)),
        ...(said.kind === 'command' ? { command: said.name } : {}),
        ...(typeof r['gitBranch'] === 'string' ? { branch: r['gitBranch'].slice(0, 200) } : {}),
      },
      uuid,
    );
    return true;
  };

  /** Each subagent record's agent: the id the host writes, else the first record of its chain. */
  const agents = new Map<string, string>();
  const agentOf = (r: Record<string, unknown>, uuid: string, parent: string | null): string => {
    const agent = str(r['agentId']) || (parent !== null ? agents.get(parent) : undefined) || uuid;
    agents.set(uuid, agent);
    return agent;
  };

  const assistantRecord = (r: Record<string, unknown>, uuid: string, at: number, agent: string | null) => {
    const sidechain = agent !== null;
    const message = rec(r['message']);
    // A message the host wrote in the assistant's place ("You've hit your limit", "No response
    // requested.", an API error): no model said it and no tokens were spent.
    if (str(message['model']) === '<synthetic>') return false;
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
          records.markEntry(uuid);
        } else {
          lastText = { kind: 'assistant_text', uuid, at, messageId, text: text.slice(0, 8000) };
          push(lastText, uuid);
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
          ...(agent !== null ? { agent } : {}),
          ...(str(r['cwd']) ? { cwd: str(r['cwd']).slice(0, 1000) } : {}),
        };
        calls.set(call.id, call);
        push(call, uuid);
        kept = true;
      }
    }
    return kept;
  };

  function add(value: unknown): void {
    const r = rec(value);
    const type = str(r['type']) || '(no type)';
    const uuid = str(r['uuid']);
    const at = timeOf(r);
    parsed.sessionId ??= str(r['sessionId']) || null;
    parsed.cwd ??= str(r['cwd']) || null;
    const sidechain = r['isSidechain'] === true;
    // A compaction boundary starts a new root; it continues its logical parent.
    const parent =
      typeof r['parentUuid'] === 'string'
        ? r['parentUuid']
        : typeof r['logicalParentUuid'] === 'string'
          ? r['logicalParentUuid']
          : null;
    // Records without the envelope's chain (hand-written or very old) take no part in it.
    const chained = !sidechain && 'parentUuid' in r;
    const agent = sidechain ? agentOf(r, uuid, parent) : null;
    const conversation = type === 'user' || type === 'assistant' || type === 'system';
    if (chained && conversation && !(type === 'user' && r['isMeta'] === true)) {
      if (type !== 'user') records.add(uuid, parent, at);
    } else if (chained) records.pass(uuid, parent);
    switch (type) {
      case 'user': {
        // Added to the chain after a rewind check: the new prompt is not part of the branch it leaves.
        const kept = userRecord(r, uuid, at, sidechain);
        if (chained && r['isMeta'] !== true) records.add(uuid, parent, at);
        if (kept && chained) records.markEntry(uuid);
        count(type, !kept);
        return;
      }
      case 'assistant':
        count(type, !assistantRecord(r, uuid, at, agent));
        return;
      case 'system': {
        if (str(r['subtype']) === 'compact_boundary') {
          push({ kind: 'compact_boundary', uuid, at }, uuid);
          lastText = null;
          count(`system:${str(r['subtype'])}`, false);
        } else if (str(r['subtype']) === 'stop_hook_summary' && !sidechain) {
          count('system:stop_hook_summary', !stopHookSummary(r, uuid, at));
        } else {
          count(`system:${str(r['subtype']) || '?'}`, true);
        }
        return;
      }
      case 'queue-operation': {
        const enqueued = str(r['operation']) === 'enqueue' && typeof r['content'] === 'string';
        // No uuid of its own: named by its time, so reading it again names it the same.
        count(type, !(enqueued && queuedPrompt(str(r['content']), `queue:${str(r['timestamp'])}`, at)));
        return;
      }
      case 'attachment': {
        const a = rec(r['attachment']);
        const origin = str(rec(a['origin'])['kind']);
        const typed =
          a['type'] === 'queued_command' &&
          a['isMeta'] !== true &&
          (str(a['commandMode']) || 'prompt') === 'prompt' &&
          (origin === '' || origin === 'human') &&
          !sidechain;
        count(
          `attachment:${str(a['type']) || '?'}`,
          !(typed && queuedPrompt(blocksText(a['prompt']), uuid, at)),
        );
        return;
      }
      default:
        count(type, true);
    }
  }

  return {
    add,
    /** A line recognised without parsing (see `peekSkippedType`): counted, and kept in the chain. */
    skip: (line: SkippedLine) => {
      if (line.uuid) records.pass(line.uuid, line.parentUuid ?? null);
      count(line.type, true);
    },
    result: (): ParsedTranscript => {
      parsed.chain = records.tail();
      return parsed;
    },
  };
}
