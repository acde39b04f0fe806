/**
 * Read one turn's events — with the assistant's words between them, when the transcript gave them —
 * into the facts the distiller writes about: prompts, files read and changed (with the symbols
 * touched), commands and their outcomes, commits, dependency changes, errors and what resolved them,
 * subagent findings, the task list as it changed, tickets created, and the turn cut into tasks (a
 * commit or a finished todo item ends one). Every field of every event is treated as untrusted.
 */
import type { QueuedEvent } from '../core/model.ts';
import { createBackgroundTasks } from './background-runs.ts';
import { patchOldText } from './code-symbols.ts';
import { commandRun, resolveErrors, type CommandRun } from './command-runs.ts';
import { recordCommandEffects, type EffectContext } from './command-effects.ts';
import { ciCommands } from './ci-config.ts';
import { errorHeadline } from './diagnostics.ts';
import { cleanCompactSummary } from './compact-summary.ts';
import { applyEdit, dependencyEdits, type DependencyChanges } from './dependency-edits.ts';
import { createFileChanges } from './file-changes.ts';
import {
  EDITING_TOOLS,
  EVERYDAY_TOOLS as EVERYDAY,
  READ_ONLY_TOOLS,
  REJECTED_CALL as REJECTED,
} from './tool-kinds.ts';
import { userRemovedFiles } from './removed-files.ts';
import { reportedRun } from './reported-run.ts';
import { shellReads } from './shell-reads.ts';
import { turnEdit, type EditText } from './turn-edits.ts';
import { createTaskCutter } from './turn-tasks.ts';
import {
  asArray,
  asRecord,
  asString,
  clip,
  cleanPrompt,
  isHostFile,
  isScratchPath,
  isTrivialPrompt,
  lineCount,
  relativePath,
  responseText,
} from './text.ts';
import { createTodoList, type TodoItem } from './todo-list.ts';
import type { Narration, TurnAnalysis } from './turn-analysis.ts';

export type { Segment } from './turn-tasks.ts';
export type { CommandRun, PartRun, TurnError } from './command-runs.ts';
export type { TurnEdit } from './turn-edits.ts';

export type { Commit, Narration, SubagentFinding, TurnAnalysis } from './turn-analysis.ts';

const READ_ONLY = READ_ONLY_TOOLS;
const EDITING = EDITING_TOOLS;

function pushUnique(list: string[], values: readonly string[]): void {
  for (const v of values) if (v !== '' && !list.includes(v)) list.push(v);
}

type Item = { event: QueuedEvent } | { narration: Narration };

/** Events and narration in time order (narration before the first event that came after it). */
function timeline(events: readonly QueuedEvent[], narration: readonly Narration[]): Item[] {
  const out: Item[] = [];
  const said = [...narration].sort((a, b) => a.at - b.at);
  let n = 0;
  for (const event of events) {
    const at = typeof asRecord(event)['at'] === 'number' ? event.at : 0;
    while (n < said.length && (said[n]?.at ?? 0) < at) out.push({ narration: said[n++] as Narration });
    out.push({ event });
  }
  while (n < said.length) out.push({ narration: said[n++] as Narration });
  return out;
}

/**
 * `earlierEdits`: files the session changed in earlier turns (the code it is writing), so a fix that
 * touches only them is progress on that work rather than a pitfall. `earlierTasks`: the numbered tasks
 * the session's list still had open before the turn (see `createTodoList`).
 */
export function analyseTurn(
  events: readonly QueuedEvent[],
  root: string,
  narration: readonly Narration[] = [],
  earlierEdits: readonly string[] = [],
  hostBranch: string | null = null,
  earlierTasks: readonly TodoItem[] = [],
): TurnAnalysis {
  const files = createFileChanges();
  const todos = createTodoList(earlierTasks);
  const a: TurnAnalysis = {
    prompts: [],
    filesRead: [],
    searches: [],
    files,
    commands: [],
    commits: [],
    pushed: false,
    removed: [],
    moved: [],
    dependencies: { added: [], removed: [], updated: [] },
    errors: [],
    subagents: [],
    todos: null,
    todosAt: -1,
    tickets: [],
    narration: [],
    edits: [],
    earlierEdits: [...earlierEdits],
    root,
    hostBranch,
    ci: [],
    segments: [],
    compactSummary: '',
    compacted: false,
    lastMessage: '',
    plan: '',
    planned: false,
    toolCount: 0,
    otherTools: [],
    sessionEnded: false,
    stopped: false,
  };
  const rel = (p: unknown) => relativePath(asString(p), root);
  /** tool → index of its last successful call; file → index of its last successful edit. */
  const toolOk = new Map<string, number[]>();
  const fileOk = new Map<string, number[]>();
  const ok = (map: Map<string, number[]>, key: string, index: number) => {
    map.set(key, [...(map.get(key) ?? []), index]);
  };
  const edited = (
    path: string,
    index: number,
    changes: EditText[],
    at: number,
    whole: { before: string; after: string } | null = null,
  ) => {
    ok(fileOk, path, index);
    a.edits.push({ ...turnEdit(path, index, changes, whole), at });
  };
  /** What the assistant said since the last tool call (a prediction about the next command). */
  let said = '';
  const addDeps = (d: DependencyChanges) => {
    pushUnique(a.dependencies.added, d.added);
    pushUnique(a.dependencies.removed, d.removed);
    pushUnique(a.dependencies.updated, d.updated);
  };
  const addFinding = (label: string, agentType: string, text: string, index: number) => {
    const findings = text.trim();
    if (findings.length < 40 || /<summary>|<analysis>/.test(findings)) return;
    const same = a.subagents.find((s) => s.findings.slice(0, 200) === findings.slice(0, 200));
    if (same) {
      if (label !== '' && (same.label === '' || same.label === same.agentType)) same.label = label;
      return;
    }
    a.subagents.push({ label: label || agentType, agentType, findings, index });
  };

  const tasks = createTaskCutter();
  const effects: EffectContext = {
    rel,
    staged: [],
    onCommit: (commit, index) => tasks.commit(commit, index),
    addDependencies: addDeps,
    onMove: (from, to) => {
      for (const f of [files, tasks.files()]) f.rename(from, to);
    },
  };
  const afterRun = (run: CommandRun, command: string, output: string, index: number) =>
    recordCommandEffects(a, effects, run, command, output, index);
  // Commands sent to the background, judged again where they were launched once their verdict is read.
  const background = createBackgroundTasks((l, exit, output) => {
    const { run, errors } = commandRun(l.command, output, { index: l.index, at: l.at }, exit, {
      root,
      said: l.said,
      cwd: l.cwd,
    });
    const i = a.commands.findIndex((c) => c.index === l.index);
    if (i >= 0) a.commands[i] = run;
    a.errors = [
      ...a.errors.filter((x) => x.index !== l.index || !x.key.startsWith('purpose:')),
      ...errors,
    ].sort((x, y) => x.index - y.index);
  });

  const items = timeline(events, narration);
  items.forEach((item, index) => {
    if ('narration' in item) {
      const text = asString(item.narration.text).trim();
      if (text !== '') a.narration.push({ at: item.narration.at, text, index });
      said = `${said} ${text}`.trim();
      return;
    }
    const e = asRecord(item.event)['event'] as QueuedEvent['event'] | undefined;
    if (!e || typeof e !== 'object') return;
    // A subagent's call (the hooks and the transcript name its agent): the main agent's words before
    // it say nothing of it, and it leaves them for the main agent's next call.
    const subagent = 'agentId' in e && asString(e.agentId) !== '';
    const before = subagent ? '' : said;
    if (!subagent) said = '';
    const at = typeof item.event.at === 'number' ? item.event.at : 0;
    // Where the agent's shell was when the call began (the host records it with each call). Not for a
    // subagent's call: parallel subagents' records carry whichever folder one of them moved to last.
    const shell = subagent ? '' : asString(item.event.cwd);
    switch (e.kind) {
      case 'prompt': {
        // The host's note that a background task ended: its verdict, at the launch's place.
        if (background.notice(asString(e.prompt))) return;
        // A failing run the user pasted is a failure of its purpose, as if the agent had run it.
        const reported = reportedRun(asString(e.prompt));
        if (reported) {
          const { run, errors } = commandRun(reported.command, reported.output, { index, at }, 'failed', {
            root,
          });
          if (!run.ok && run.purpose !== 'inspect') {
            // The user ran it in the project on purpose: what it is for is not in doubt.
            a.commands.push({ ...run, parts: run.parts.map((x) => ({ ...x, adhoc: false })) });
            a.errors.push(...errors);
          }
        }
        const p = cleanPrompt(asString(e.prompt));
        if (p === '') return;
        // Files of the session the user says they removed themselves.
        const known = [...a.earlierEdits, ...a.edits.map((x) => x.path)];
        for (const path of userRemovedFiles(p, known))
          if (!a.removed.some((r) => r.path === path)) a.removed.push({ path, index, byUser: true });
        tasks.prompt(p, index, a.prompts.length === 0, isTrivialPrompt(p));
        a.prompts.push(p);
        return;
      }
      case 'stop':
        a.stopped = true;
        if (asString(e.lastMessage).trim() !== '') a.lastMessage = asString(e.lastMessage).trim();
        return;
      case 'subagent_stop':
        if (!asString(e.agentId).startsWith('acompact'))
          addFinding('', asString(e.agentType), asString(e.lastMessage), index);
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
        if (error.trim() === '' && !command && !file) return; // nothing to say about it
        if (command) {
          const { run, errors } = commandRun(command, error, { index, at }, 'failed', {
            root,
            said: before,
            cwd: shell,
          });
          a.commands.push(run);
          a.errors.push(...errors);
          afterRun(run, command, error, index);
          return;
        }
        a.errors.push({
          what: clip(`${tool}${file ? ` ${file}` : ''}`, 80),
          message: errorHeadline(error) || 'failed',
          hint: '',
          fixed: false,
          fixedAt: null,
          minor: READ_ONLY.has(tool) || EDITING.has(tool),
          index,
          key: EDITING.has(tool) ? `file:${file}` : `tool:${tool}`,
        });
        return;
      }
      case 'tool': {
        a.toolCount++;
        const tool = asString(e.tool);
        const input = asRecord(e.input);
        const response = asRecord(e.response);
        ok(toolOk, `tool:${tool}`, index);
        // A subagent's task list is its own plan for its part, not the session's.
        if (subagent) {
          if (createTodoList().take(tool, e.input, e.response)) return;
        } else if (todos.take(tool, e.input, e.response)) {
          tasks.todos(todos.items() ?? []);
          a.todosAt = index;
          return;
        }
        if (!EVERYDAY.has(tool) && tool !== '') pushUnique(a.otherTools, [tool]);
        switch (tool) {
          case 'Read':
          case 'NotebookRead': {
            const file = rel(input['file_path'] ?? input['notebook_path']);
            const content = asString(asRecord(response['file'])['content']) || responseText(e.response);
            if (background.readOutput(asString(input['file_path']), content)) return;
            if (file) pushUnique(a.filesRead, [file]);
            const commands = file ? ciCommands(file, content) : [];
            if (commands.length > 0 && !a.ci.some((c) => c.file === file)) a.ci.push({ file, commands });
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
            if (!file || isScratchPath(file) || isHostFile(file)) return;
            const content = asString(input['content']);
            const original = response['originalFile'];
            const isUpdate = asString(response['type']) === 'update' || typeof original === 'string';
            const before = isUpdate ? asString(original) : null;
            for (const f of [files, tasks.files()]) f.write(file, content, lineCount(content), before);
            edited(
              file,
              index,
              [{ before: before ?? '', after: content }],
              at,
              before !== null ? { before, after: content } : null,
            );
            addDeps(
              dependencyEdits(file, { before: before ?? '', after: content }, { before, after: content }),
            );
            return;
          }
          case 'Edit':
          case 'MultiEdit':
          case 'NotebookEdit': {
            const file = rel(input['file_path'] ?? input['notebook_path']);
            if (!file || isScratchPath(file) || isHostFile(file)) return;
            const edits = Array.isArray(input['edits']) ? asArray(input['edits']).map(asRecord) : [input];
            const original = asString(response['originalFile']);
            const context = original !== '' ? original : patchOldText(response['structuredPatch']);
            let current: string | null = original !== '' ? original : null;
            const start = current;
            for (const edit of edits) {
              const oldText = asString(edit['old_string']);
              const newText = asString(edit['new_string'] ?? edit['new_source']);
              const all = edit['replace_all'] === true;
              for (const f of [files, tasks.files()]) f.edit(file, oldText, newText, context, all);
              current = current !== null ? applyEdit(current, oldText, newText, all) : null;
              if (current === null) addDeps(dependencyEdits(file, { before: oldText, after: newText }));
            }
            if (start !== null && current !== null) {
              addDeps(dependencyEdits(file, { before: '', after: '' }, { before: start, after: current }));
            }
            edited(
              file,
              index,
              edits.map((edit) => ({
                before: asString(edit['old_string']),
                after: asString(edit['new_string'] ?? edit['new_source']),
                context,
              })),
              at,
              start !== null && current !== null ? { before: start, after: current } : null,
            );
            return;
          }
          case 'Task':
          case 'Agent':
            // A background agent's launch notice is not what it found (that arrives later, if at all).
            if (response['isAsync'] === true || asString(response['status']) === 'async_launched') return;
            addFinding(
              clip(asString(input['description']), 80),
              asString(input['subagent_type']),
              responseText(e.response),
              index,
            );
            return;
          case 'ExitPlanMode':
            a.plan = asString(input['plan']).trim();
            a.planned = true;
            return;
          case 'Bash': {
            const command = asString(input['command']);
            if (!command) return;
            const output = responseText(e.response);
            // A look at a background command's output file while it runs: its summary, once there.
            background.readOutput(command, output);
            const { run, errors } = commandRun(
              command,
              output,
              { index, at },
              response['interrupted'] === true ? 'interrupted' : 'ok',
              { root, said: before, cwd: shell },
            );
            background.shellCall(e.response, output, run, { command, index, at, said: before, cwd: shell });
            a.commands.push(run);
            a.errors.push(...errors);
            afterRun(run, command, output, index);
            // Files it printed and what it searched for, as the Read and Grep tools would say.
            const looked = shellReads(command, root, shell);
            if (run.ok) pushUnique(a.filesRead, looked.files);
            a.searches.push(...looked.searches);
            return;
          }
          default: {
            background.report(tool, e.input, e.response);
            return;
          }
        }
      }
      default:
        return;
    }
  });
  a.segments = tasks.finish(items.length - 1);
  a.todos = todos.items();
  resolveErrors(a.errors, a.commands, fileOk, toolOk);
  return a;
}
