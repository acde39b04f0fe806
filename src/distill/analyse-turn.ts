/**
 * Read one turn's events into the facts the distiller writes about: prompts, files read and changed
 * (with the symbols touched), commands and their outcomes, commits, dependency changes, errors and
 * whether they were fixed, subagent findings, the task list, the compaction summary, and the
 * assistant's final message. Every field of every event is treated as untrusted.
 */
import type { QueuedEvent } from '../core/model.ts';
import { patchOldText } from './code-symbols.ts';
import {
  classifyCommand,
  commitMessage,
  commitOutput,
  describeCounts,
  errorHeadline,
  outputLooksFailed,
  packagesOf,
  testCounts,
  type CommandKind,
} from './commands.ts';
import { applyEdit, dependencyEdits, type DependencyChanges } from './dependency-edits.ts';
import { createFileChanges, type FileChanges } from './file-changes.ts';
import { cleanCompactSummary } from './compact-summary.ts';
import {
  asArray,
  asRecord,
  asString,
  clip,
  cleanPrompt,
  lineCount,
  relativePath,
  responseText,
} from './text.ts';
import { createTodoList, type TodoItem } from './todo-list.ts';

export interface CommandRun {
  command: string;
  kind: CommandKind;
  ok: boolean;
  /** "12 passed, 1 failed" for tests, else the error headline when it failed. */
  detail: string;
  index: number;
}

export interface TurnError {
  /** The command, or "Tool path". */
  what: string;
  message: string;
  fixed: boolean;
  /** A tool hiccup (a failed read or search, an edit whose old text was not found), not a real error. */
  minor: boolean;
  index: number;
  key: string;
}

export interface Commit {
  message: string;
  hash: string;
  branch: string;
}

export interface SubagentFinding {
  /** The task description given to the subagent, or its type. */
  label: string;
  agentType: string;
  findings: string;
}

export interface TurnAnalysis {
  prompts: string[];
  filesRead: string[];
  searches: string[];
  files: FileChanges;
  commands: CommandRun[];
  commits: Commit[];
  pushed: boolean;
  dependencies: DependencyChanges;
  errors: TurnError[];
  subagents: SubagentFinding[];
  todos: TodoItem[] | null;
  compactSummary: string;
  compacted: boolean;
  lastMessage: string;
  plan: string;
  toolCount: number;
  /** Tools other than the everyday ones (MCP tools, skills…), by name. */
  otherTools: string[];
  sessionEnded: boolean;
}

const READ_ONLY = new Set([
  'Read',
  'Glob',
  'Grep',
  'LS',
  'WebFetch',
  'WebSearch',
  'NotebookRead',
  'TaskOutput',
  'ToolSearch',
]);
const EDITING = new Set(['Write', 'Edit', 'MultiEdit', 'NotebookEdit']);
const EVERYDAY = new Set([
  ...READ_ONLY,
  ...EDITING,
  'Bash',
  'BashOutput',
  'KillShell',
  'KillBash',
  'Task',
  'Agent',
  'TodoWrite',
  'TaskCreate',
  'TaskUpdate',
  'TaskGet',
  'TaskList',
  'ExitPlanMode',
  'EnterPlanMode',
  'AskUserQuestion',
]);
const REJECTED =
  /doesn't want to proceed|user (?:denied|rejected|declined)|was rejected|permission .* (?:was|has been) denied|interrupted by user/i;

function commandKey(command: string, kind: CommandKind): string {
  return kind === 'test' || kind === 'build' || kind === 'lint' || kind === 'typecheck'
    ? `kind:${kind}`
    : `cmd:${command.trim().replace(/\s+/g, ' ')}`;
}

function pushUnique(list: string[], values: readonly string[]): void {
  for (const v of values) if (v !== '' && !list.includes(v)) list.push(v);
}

export function analyseTurn(events: readonly QueuedEvent[], root: string): TurnAnalysis {
  const files = createFileChanges();
  const todos = createTodoList();
  const a: TurnAnalysis = {
    prompts: [],
    filesRead: [],
    searches: [],
    files,
    commands: [],
    commits: [],
    pushed: false,
    dependencies: { added: [], removed: [], updated: [] },
    errors: [],
    subagents: [],
    todos: null,
    compactSummary: '',
    compacted: false,
    lastMessage: '',
    plan: '',
    toolCount: 0,
    otherTools: [],
    sessionEnded: false,
  };
  const rel = (p: unknown) => relativePath(asString(p), root);
  /** tool → indexes of successful calls; file → indexes of successful edits. */
  const toolOk = new Map<string, number>();
  const fileOk = new Map<string, number>();
  const addDeps = (d: DependencyChanges) => {
    pushUnique(a.dependencies.added, d.added);
    pushUnique(a.dependencies.removed, d.removed);
    pushUnique(a.dependencies.updated, d.updated);
  };
  const addFinding = (label: string, agentType: string, text: string) => {
    const findings = text.trim();
    if (findings.length < 40 || /<summary>|<analysis>/.test(findings)) return;
    const same = a.subagents.find((s) => s.findings.slice(0, 200) === findings.slice(0, 200));
    if (same) {
      if (label !== '' && (same.label === '' || same.label === same.agentType)) same.label = label;
      return;
    }
    a.subagents.push({ label: label || agentType, agentType, findings });
  };

  events.forEach((queued, index) => {
    const e = asRecord(queued)['event'] as QueuedEvent['event'] | undefined;
    if (!e || typeof e !== 'object') return;
    switch (e.kind) {
      case 'prompt': {
        const p = cleanPrompt(asString(e.prompt));
        if (p !== '') a.prompts.push(p);
        return;
      }
      case 'stop':
        if (asString(e.lastMessage).trim() !== '') a.lastMessage = asString(e.lastMessage).trim();
        return;
      case 'subagent_stop':
        if (!asString(e.agentId).startsWith('acompact'))
          addFinding('', asString(e.agentType), asString(e.lastMessage));
        return;
      case 'pre_compact':
        a.compacted = true;
        return;
      case 'post_compact':
        a.compacted = true;
        if (asString(e.summary).trim() !== '') a.compactSummary = cleanCompactSummary(asString(e.summary));
        return;
      case 'session_end':
        a.sessionEnded = true;
        return;
      case 'tool_failure': {
        a.toolCount++;
        const tool = asString(e.tool);
        const error = asString(e.error);
        if (e.interrupted === true || REJECTED.test(error)) return;
        const input = asRecord(e.input);
        const command = asString(input['command']);
        const file = rel(input['file_path'] ?? input['notebook_path'] ?? input['path']);
        const kind = command ? classifyCommand(command) : 'other';
        if (error.trim() === '' && !command && !file) return; // nothing to say about it
        const headline = errorHeadline(error) || 'failed';
        if (command) {
          const counts = kind === 'test' ? describeCounts(testCounts(error)) : '';
          a.commands.push({ command, kind, ok: false, detail: counts || headline, index });
        }
        a.errors.push({
          what: command ? clip(command, 80) : clip(`${tool}${file ? ` ${file}` : ''}`, 80),
          message: headline,
          fixed: false,
          minor: command ? kind === 'inspect' : READ_ONLY.has(tool) || EDITING.has(tool),
          index,
          key: command ? commandKey(command, kind) : EDITING.has(tool) ? `file:${file}` : `tool:${tool}`,
        });
        return;
      }
      case 'tool': {
        a.toolCount++;
        const tool = asString(e.tool);
        const input = asRecord(e.input);
        const response = asRecord(e.response);
        toolOk.set(`tool:${tool}`, index);
        if (todos.take(tool, e.input, e.response)) return;
        if (!EVERYDAY.has(tool) && tool !== '') pushUnique(a.otherTools, [tool]);
        switch (tool) {
          case 'Read':
          case 'NotebookRead': {
            const file = rel(input['file_path'] ?? input['notebook_path']);
            if (file) pushUnique(a.filesRead, [file]);
            return;
          }
          case 'Glob':
          case 'Grep': {
            const pattern = clip(asString(input['pattern']), 60);
            const where = rel(input['path']);
            if (pattern) a.searches.push(`${tool.toLowerCase()} ${pattern}${where ? ` in ${where}` : ''}`);
            return;
          }
          case 'WebSearch': {
            const q = clip(asString(input['query']), 80);
            if (q) a.searches.push(`web search "${q}"`);
            return;
          }
          case 'WebFetch': {
            const url = clip(asString(input['url']), 80);
            if (url) a.searches.push(`fetched ${url}`);
            return;
          }
          case 'Write': {
            const file = rel(input['file_path']);
            if (!file) return;
            const content = asString(input['content']);
            const original = response['originalFile'];
            const isUpdate = asString(response['type']) === 'update' || typeof original === 'string';
            const before = isUpdate ? asString(original) : null;
            files.write(file, content, lineCount(content), before);
            fileOk.set(file, index);
            addDeps(
              dependencyEdits(file, { before: before ?? '', after: content }, { before, after: content }),
            );
            return;
          }
          case 'Edit':
          case 'MultiEdit':
          case 'NotebookEdit': {
            const file = rel(input['file_path'] ?? input['notebook_path']);
            if (!file) return;
            const edits = Array.isArray(input['edits']) ? asArray(input['edits']).map(asRecord) : [input];
            const original = asString(response['originalFile']);
            const context = original !== '' ? original : patchOldText(response['structuredPatch']);
            let current: string | null = original !== '' ? original : null;
            const start = current;
            for (const edit of edits) {
              const oldText = asString(edit['old_string']);
              const newText = asString(edit['new_string'] ?? edit['new_source']);
              const all = edit['replace_all'] === true;
              files.edit(file, oldText, newText, context, all);
              current = current !== null ? applyEdit(current, oldText, newText, all) : null;
              if (current === null) addDeps(dependencyEdits(file, { before: oldText, after: newText }));
            }
            if (start !== null && current !== null) {
              addDeps(dependencyEdits(file, { before: '', after: '' }, { before: start, after: current }));
            }
            fileOk.set(file, index);
            return;
          }
          case 'Task':
          case 'Agent':
            addFinding(
              clip(asString(input['description']), 80),
              asString(input['subagent_type']),
              responseText(e.response),
            );
            return;
          case 'ExitPlanMode':
            a.plan = asString(input['plan']).trim();
            return;
          case 'Bash': {
            const command = asString(input['command']);
            if (!command) return;
            const kind = classifyCommand(command);
            const output = responseText(e.response);
            const ok = response['interrupted'] !== true && !outputLooksFailed(kind, output, command);
            const detail =
              kind === 'test' ? describeCounts(testCounts(output)) : ok ? '' : errorHeadline(output);
            a.commands.push({ command, kind, ok, detail, index });
            if (!ok) {
              a.errors.push({
                what: clip(command, 80),
                message: errorHeadline(output) || 'failed',
                fixed: false,
                minor: false,
                index,
                key: commandKey(command, kind),
              });
              return;
            }
            const out = commitOutput(output);
            const message = kind === 'commit' ? (commitMessage(command) ?? out?.subject ?? '') : '';
            if (message) a.commits.push({ message, hash: out?.hash ?? '', branch: out?.branch ?? '' });
            if (/\bgit\s+push\b/.test(command)) a.pushed = true;
            const pkgs = packagesOf(command);
            addDeps({ added: pkgs.added, removed: pkgs.removed, updated: [] });
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
  a.todos = todos.items();
  // An error is fixed when the same command (or a test/build/lint/typecheck run of the same kind)
  // later succeeded; a failed edit when the file was later edited; a failed read or other tool call
  // when the same tool later worked.
  for (const err of a.errors) {
    if (err.key.startsWith('file:')) err.fixed = (fileOk.get(err.key.slice(5)) ?? -1) > err.index;
    else if (err.key.startsWith('tool:')) err.fixed = (toolOk.get(err.key) ?? -1) > err.index;
    else
      err.fixed = a.commands.some(
        (c) => c.ok && c.index > err.index && commandKey(c.command, c.kind) === err.key,
      );
  }
  return a;
}
