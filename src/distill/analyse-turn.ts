/**
 * Read one turn's events into the facts the distiller writes about: prompts, files read and changed
 * (with the symbols touched), commands and their outcomes, errors and whether they were fixed,
 * subagent findings, the todo list, the compaction summary, and the assistant's final message.
 */
import type { QueuedEvent } from '../core/model.ts';
import { describeEdit, summariseEdit } from './code-symbols.ts';
import {
  classifyCommand,
  commitMessage,
  errorHeadline,
  installedPackages,
  outputLooksFailed,
  testCounts,
  type CommandKind,
} from './commands.ts';
import { asRecord, asString, clip, relativePath, responseText } from './text.ts';

export interface CommandRun {
  command: string;
  kind: CommandKind;
  ok: boolean;
  detail: string;
  index: number;
}

export interface TurnError {
  what: string;
  message: string;
  fixed: boolean;
  index: number;
  key: string;
}

export interface TodoItem {
  content: string;
  status: string;
}

export interface TurnAnalysis {
  prompts: string[];
  filesRead: string[];
  searches: string[];
  /** file → descriptions of what changed, in order */
  modified: Map<string, string[]>;
  created: Set<string>;
  commands: CommandRun[];
  commits: string[];
  dependencies: string[];
  errors: TurnError[];
  subagents: { label: string; findings: string }[];
  todos: TodoItem[] | null;
  compactSummary: string;
  lastMessage: string;
  toolCount: number;
  sessionEnded: boolean;
}

function addChange(a: TurnAnalysis, file: string, change: string): void {
  const list = a.modified.get(file) ?? [];
  if (change !== '' && !list.includes(change)) list.push(change);
  a.modified.set(file, list);
}

function commandKey(command: string, kind: CommandKind): string {
  return kind === 'test' || kind === 'build' || kind === 'lint' ? `kind:${kind}` : `cmd:${command.trim()}`;
}

export function analyseTurn(events: readonly QueuedEvent[], root: string): TurnAnalysis {
  const a: TurnAnalysis = {
    prompts: [],
    filesRead: [],
    searches: [],
    modified: new Map(),
    created: new Set(),
    commands: [],
    commits: [],
    dependencies: [],
    errors: [],
    subagents: [],
    todos: null,
    compactSummary: '',
    lastMessage: '',
    toolCount: 0,
    sessionEnded: false,
  };
  const rel = (p: unknown) => relativePath(asString(p), root);
  events.forEach((queued, index) => {
    const e = queued.event;
    switch (e.kind) {
      case 'prompt':
        if (e.prompt.trim() !== '') a.prompts.push(e.prompt.trim());
        return;
      case 'stop':
        if (e.lastMessage.trim() !== '') a.lastMessage = e.lastMessage.trim();
        return;
      case 'subagent_stop':
        if (e.lastMessage.trim().length >= 40) {
          a.subagents.push({ label: e.agentType || 'subagent', findings: e.lastMessage.trim() });
        }
        return;
      case 'post_compact':
        if (e.summary.trim() !== '') {
          // The host's summary is the model's raw answer: keep its <summary> part, not the <analysis>.
          const inner = /<summary>([\s\S]*?)(?:<\/summary>|$)/.exec(e.summary)?.[1];
          a.compactSummary = (inner ?? e.summary.replace(/<analysis>[\s\S]*?<\/analysis>/, '')).trim();
        }
        return;
      case 'session_end':
        a.sessionEnded = true;
        return;
      case 'tool_failure': {
        a.toolCount++;
        if (e.interrupted) return;
        const input = asRecord(e.input);
        const command = asString(input['command']);
        const file = rel(input['file_path'] ?? input['notebook_path'] ?? input['path']);
        const kind = command ? classifyCommand(command) : 'other';
        const what = command ? clip(command, 80) : `${e.tool}${file ? ` ${file}` : ''}`;
        if (command) a.commands.push({ command, kind, ok: false, detail: errorHeadline(e.error), index });
        a.errors.push({
          what,
          message: errorHeadline(e.error),
          fixed: false,
          index,
          key: command ? commandKey(command, kind) : `tool:${e.tool}:${file}`,
        });
        return;
      }
      case 'tool': {
        a.toolCount++;
        const input = asRecord(e.input);
        const response = asRecord(e.response);
        switch (e.tool) {
          case 'Read':
            if (input['file_path']) a.filesRead.push(rel(input['file_path']));
            return;
          case 'Glob':
          case 'Grep':
            a.searches.push(
              `${e.tool.toLowerCase()} ${clip(asString(input['pattern']), 60)}${input['path'] ? ` in ${rel(input['path'])}` : ''}`,
            );
            return;
          case 'Write': {
            const file = rel(input['file_path']);
            if (!file) return;
            const content = asString(input['content']);
            const lines = content === '' ? 0 : content.split('\n').length;
            const isUpdate = asString(response['type']) === 'update';
            if (!isUpdate) a.created.add(file);
            addChange(a, file, isUpdate ? `rewrote it (${lines} lines)` : `created (${lines} lines)`);
            return;
          }
          case 'Edit':
          case 'MultiEdit':
          case 'NotebookEdit': {
            const file = rel(input['file_path'] ?? input['notebook_path']);
            if (!file) return;
            const edits = Array.isArray(input['edits'])
              ? (input['edits'] as unknown[]).map(asRecord)
              : [input];
            const original = asString(response['originalFile']);
            for (const edit of edits) {
              const summary = summariseEdit(
                asString(edit['old_string']),
                asString(edit['new_string'] ?? edit['new_source']),
                file,
                original,
              );
              addChange(a, file, describeEdit(summary));
            }
            return;
          }
          case 'TodoWrite': {
            const todos = Array.isArray(input['todos']) ? (input['todos'] as unknown[]).map(asRecord) : [];
            a.todos = todos
              .map((t) => ({
                content: clip(asString(t['content']), 120),
                status: asString(t['status']) || 'pending',
              }))
              .filter((t) => t.content !== '');
            return;
          }
          case 'Task':
          case 'Agent': {
            const findings = responseText(e.response).trim();
            if (findings.length >= 40) {
              const label = asString(input['description']) || asString(input['subagent_type']) || 'subagent';
              a.subagents.push({ label, findings });
            }
            return;
          }
          case 'Bash': {
            const command = asString(input['command']);
            if (!command) return;
            const kind = classifyCommand(command);
            const output = responseText(e.response);
            const ok = !outputLooksFailed(kind, output);
            let detail = '';
            if (kind === 'test') {
              const c = testCounts(output);
              detail = [c.passed !== null ? `${c.passed} passed` : '', c.failed ? `${c.failed} failed` : '']
                .filter(Boolean)
                .join(', ');
            }
            a.commands.push({ command, kind, ok, detail, index });
            if (kind === 'commit') {
              const msg = commitMessage(command);
              if (msg) a.commits.push(msg);
            }
            if (kind === 'install') a.dependencies.push(...installedPackages(command));
            if (!ok) {
              a.errors.push({
                what: clip(command, 80),
                message: errorHeadline(output),
                fixed: false,
                index,
                key: commandKey(command, kind),
              });
            }
            return;
          }
          default:
            return;
        }
      }
      default:
        return;
    }
  });
  // An error is fixed when the same command (or the same kind of test/build/lint run) later succeeded,
  // or, for a failed file edit, the same file was later edited successfully.
  for (const err of a.errors) {
    err.fixed =
      a.commands.some((c) => c.ok && c.index > err.index && commandKey(c.command, c.kind) === err.key) ||
      (err.key.startsWith('tool:') && [...a.modified.keys()].some((f) => err.key.endsWith(`:${f}`)));
  }
  a.filesRead = [...new Set(a.filesRead)];
  return a;
}
