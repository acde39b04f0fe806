/**
 * A scripted Claude Code session, written the way the host writes it: the transcript records
 * (2.1.3x shape: `parentUuid` chains, one content block per assistant record, tool results with
 * `toolUseResult`, hook progress records, `isMeta` skill expansions, compaction boundaries, system
 * records) and the hook payloads the host sends at the same moments. Tests and the quality benchmark
 * use it for sessions of their own (the real fixture transcripts are in `test/fixtures/transcripts`).
 *
 * The session is a list of steps in time order; each step appends records and may carry one hook
 * payload, so a run can replay it as it happened: the transcript written so far, then the hook.
 */
import { createHash } from 'node:crypto';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Rec = Record<string, Json>;

export interface SessionStep {
  /** Transcript lines appended at this step (JSON records). */
  records: Rec[];
  /** The hook payload sent at this step, if any (without `transcript_path`, filled in by the runner). */
  hook: Rec | null;
  at: number;
  /**
   * A subagent's own file, relative to the session's folder (`subagents/agent-<id>.jsonl`), where the
   * records go instead of the session's transcript; absent for the session's own records.
   */
  file?: string;
}

export interface TodoSpec {
  content: string;
  status: 'pending' | 'in_progress' | 'completed';
  activeForm?: string;
}

export interface BashResult {
  stdout?: string;
  stderr?: string;
  /** A non-zero exit: the host sends PostToolUseFailure and writes an error result. */
  exit?: number;
  background?: boolean;
}

export interface SessionOptions {
  sessionId: string;
  cwd: string;
  /** ISO time of the first record. */
  start: string;
  gitBranch?: string;
  version?: string;
  model?: string;
}

/** Deterministic uuid-shaped ids from a seed (the same script always writes the same file). */
function uuidFrom(seed: string): string {
  const h = createHash('sha1').update(seed).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export function createClaudeSession(options: SessionOptions) {
  const version = options.version ?? '2.1.39';
  const model = options.model ?? 'claude-opus-4-6';
  let clock = Date.parse(options.start);
  if (!Number.isFinite(clock)) throw new Error(`bad start time ${options.start}`);
  let counter = 0;
  const steps: SessionStep[] = [];
  /** The record the next one attaches to. */
  let head: string | null = null;
  let gitBranch = options.gitBranch ?? 'main';
  /** Each typed prompt's parent, so a rewind can attach a new prompt where an old one was. */
  const promptParents: (string | null)[] = [];
  let lastText = '';
  let todos: TodoSpec[] = [];
  let turnStart = clock;
  /** The shell's working directory: the host writes it in every record and hook payload. */
  let shellCwd = options.cwd;
  /** The subagent whose records and hooks are being written (null: the main agent's). */
  let agent: { id: string; type: string; file: string | null } | null = null;

  const id = (kind: string) => uuidFrom(`${options.sessionId}/${kind}/${++counter}`);
  const now = () => new Date(clock).toISOString();
  const tick = (ms: number) => {
    clock += ms;
  };
  const envelope = (type: string, extra: Rec = {}): Rec => ({
    parentUuid: head,
    isSidechain: agent !== null,
    ...(agent ? { agentId: agent.id } : {}),
    userType: 'external',
    cwd: shellCwd,
    sessionId: options.sessionId,
    version,
    gitBranch,
    type,
    ...extra,
  });
  const push = (records: Rec[], hook: Rec | null = null) => {
    steps.push({ records, hook, at: clock, ...(agent?.file ? { file: agent.file } : {}) });
  };
  const queued: { text: string; at: string | null }[] = [];
  const queueOp = (operation: string, extra: Rec = {}): Rec => ({
    type: 'queue-operation',
    operation,
    timestamp: now(),
    sessionId: options.sessionId,
    ...extra,
  });
  const hookBase = (event: string): Rec => ({
    session_id: options.sessionId,
    cwd: shellCwd,
    hook_event_name: event,
    // Inside a subagent the host names it in every hook it sends.
    ...(agent ? { agent_id: agent.id, agent_type: agent.type } : {}),
  });
  const userRecord = (content: Json, extra: Rec = {}): Rec => {
    const uuid = id('user');
    const r = { ...envelope('user'), message: { role: 'user', content }, uuid, timestamp: now(), ...extra };
    head = uuid;
    return r;
  };
  const assistantRecord = (block: Rec, messageId: string): Rec => {
    const uuid = id('assistant');
    const r = {
      ...envelope('assistant'),
      message: {
        model,
        id: messageId,
        type: 'message',
        role: 'assistant',
        content: [block],
        stop_reason: null,
        stop_sequence: null,
        usage: {
          input_tokens: 3,
          cache_creation_input_tokens: 400,
          cache_read_input_tokens: 18000,
          output_tokens: 40,
        },
      },
      requestId: `req_${uuid.slice(0, 12)}`,
      uuid,
      timestamp: now(),
    };
    head = uuid;
    return r;
  };
  const progress = (parent: string, toolUseId: string, hookEvent: string, tool: string): Rec => {
    const uuid = id('progress');
    return {
      ...envelope('progress'),
      parentUuid: parent,
      data: { type: 'hook_progress', hookEvent, hookName: `${hookEvent}:${tool}`, command: 'engram hook' },
      parentToolUseID: toolUseId,
      toolUseID: toolUseId,
      timestamp: now(),
      uuid,
    };
  };

  /**
   * One tool call: the assistant's tool_use record, the PreToolUse hook's progress record (a side
   * branch, as the host writes it), then the result record, and the PostToolUse(Failure) payload.
   */
  const toolCall = (
    name: string,
    input: Rec,
    result: { text: string; isError: boolean; structured: Json; response: Json },
  ) => {
    const toolUseId = `toolu_${id('tool').replace(/-/g, '').slice(0, 24)}`;
    const messageId = `msg_${id('msg').replace(/-/g, '').slice(0, 24)}`;
    tick(900);
    const call = assistantRecord({ type: 'tool_use', id: toolUseId, name, input }, messageId);
    const callUuid = String(call['uuid']);
    const pre = progress(callUuid, toolUseId, 'PreToolUse', name);
    tick(1200);
    head = callUuid;
    const res = userRecord(
      [
        {
          type: 'tool_result',
          tool_use_id: toolUseId,
          content: result.text,
          ...(result.isError ? { is_error: true } : {}),
        },
      ],
      { toolUseResult: result.structured, sourceToolAssistantUUID: callUuid },
    );
    const post = progress(
      String(res['uuid']),
      toolUseId,
      result.isError ? 'PostToolUseFailure' : 'PostToolUse',
      name,
    );
    const hook: Rec = result.isError
      ? {
          ...hookBase('PostToolUseFailure'),
          tool_name: name,
          tool_input: input,
          tool_use_id: toolUseId,
          error: result.text,
          is_interrupt: false,
          duration_ms: 1100,
        }
      : {
          ...hookBase('PostToolUse'),
          tool_name: name,
          tool_input: input,
          tool_response: result.response,
          tool_use_id: toolUseId,
          duration_ms: 1100,
        };
    push([call, pre, res, post], hook);
    head = String(res['uuid']);
  };

  const session = {
    sessionId: options.sessionId,
    cwd: options.cwd,
    steps,
    /** Move the clock (between turns, between sessions of a scenario). */
    wait(ms: number) {
      tick(ms);
      return session;
    },
    /**
     * `cd dir` in the agent's shell: a Bash call, after which the host records the new working
     * directory with every record and hook (the shell keeps it from one call to the next).
     */
    cd(dir: string) {
      session.bash(`cd ${dir}`);
      shellCwd = dir.startsWith('/') ? dir : `${shellCwd}/${dir}`;
      return session;
    },
    branch(name: string) {
      gitBranch = name;
      return session;
    },
    start(source = 'startup') {
      push([], { ...hookBase('SessionStart'), source, model });
      return session;
    },
    /** A prompt the user typed (with an optional system reminder the host appends). */
    prompt(text: string, opts: { reminder?: string } = {}) {
      tick(4000);
      turnStart = clock;
      promptParents.push(head);
      const content = opts.reminder
        ? [
            { type: 'text', text },
            { type: 'text', text: `<system-reminder>\n${opts.reminder}\n</system-reminder>` },
          ]
        : text;
      push([userRecord(content)], {
        ...hookBase('UserPromptSubmit'),
        prompt: text,
        permission_mode: 'default',
      });
      return session;
    },
    /**
     * A slash command or skill: the command wrapper the user's words arrive in, then the expansion
     * the host adds as an `isMeta` record (not the user's words). The hook sees what was typed.
     */
    skill(name: string, args: string, expansion: string) {
      tick(4000);
      turnStart = clock;
      promptParents.push(head);
      const wrapper = userRecord(
        `<command-message>${name.replace(/^\//, '')}</command-message>\n<command-name>${name}</command-name>\n<command-args>${args}</command-args>`,
      );
      const meta = userRecord([{ type: 'text', text: expansion }], { isMeta: true });
      push([wrapper, meta], { ...hookBase('UserPromptSubmit'), prompt: `${name} ${args}`.trim() });
      return session;
    },
    /**
     * Rewind: the next prompt replaces prompt number `index` (0-based): it attaches where that prompt
     * did, and everything after it is an abandoned branch left in the file.
     */
    rewindTo(index: number) {
      const parent = promptParents[index];
      if (parent === undefined) throw new Error(`no prompt ${index} to rewind to`);
      head = parent;
      promptParents.length = index;
      return session;
    },
    /** Assistant text (one record; a long reply may be split over several records of one message). */
    say(text: string) {
      tick(1500);
      const messageId = `msg_${id('msg').replace(/-/g, '').slice(0, 24)}`;
      const parts = text.split(/\n\n(?=\S)/);
      const records = parts.length > 1 && text.length > 400 ? parts : [text];
      push(records.map((t) => assistantRecord({ type: 'text', text: t }, messageId)));
      if (agent === null) lastText = text;
      return session;
    },
    bash(command: string, result: BashResult = {}, description = '') {
      const stdout = result.stdout ?? '';
      const stderr = result.stderr ?? '';
      const input: Rec = {
        command,
        ...(description ? { description } : {}),
        ...(result.background ? { run_in_background: true } : {}),
      };
      if (result.exit && result.exit !== 0) {
        const text = `Exit code ${result.exit}\n${[stdout, stderr].filter(Boolean).join('\n')}`.trimEnd();
        toolCall('Bash', input, { text, isError: true, structured: `Error: ${text}`, response: null });
      } else {
        const text = [stdout, stderr].filter(Boolean).join('\n');
        const structured: Rec = {
          stdout,
          stderr,
          interrupted: false,
          isImage: false,
          noOutputExpected: false,
        };
        toolCall('Bash', input, { text, isError: false, structured, response: structured });
      }
      return session;
    },
    read(path: string, content: string) {
      const filePath = path.startsWith('/') ? path : `${options.cwd}/${path}`;
      const numbered = content
        .split('\n')
        .map((l, i) => `${String(i + 1).padStart(6)}→${l}`)
        .join('\n');
      const lines = content.split('\n').length;
      const file = {
        type: 'text',
        file: { filePath, content, numLines: lines, startLine: 1, totalLines: lines },
      };
      toolCall(
        'Read',
        { file_path: filePath },
        { text: numbered, isError: false, structured: file, response: file },
      );
      return session;
    },
    /** WebFetch of a page: the host's result is the fetch model's answer about the page's content. */
    webFetch(url: string, prompt: string, answer: string) {
      const response: Rec = {
        bytes: answer.length,
        code: 200,
        codeText: 'OK',
        result: answer,
        durationMs: 900,
        url,
      };
      toolCall('WebFetch', { url, prompt }, { text: answer, isError: false, structured: response, response });
      return session;
    },
    grep(pattern: string, output: string) {
      toolCall(
        'Grep',
        { pattern, output_mode: 'content' },
        {
          text: output,
          isError: false,
          structured: {
            mode: 'content',
            numFiles: 1,
            filenames: [],
            content: output,
            numLines: output.split('\n').length,
          },
          response: {
            mode: 'content',
            numFiles: 1,
            filenames: [],
            content: output,
            numLines: output.split('\n').length,
          },
        },
      );
      return session;
    },
    /** Edit `old` into `next` in a file whose content before was `original`. */
    edit(path: string, old: string, next: string, original: string) {
      const filePath = path.startsWith('/') ? path : `${options.cwd}/${path}`;
      if (!original.includes(old)) throw new Error(`edit of ${path}: old text not in the file`);
      const structured: Rec = {
        filePath,
        oldString: old,
        newString: next,
        originalFile: original,
        structuredPatch: [],
        userModified: false,
        replaceAll: false,
      };
      toolCall(
        'Edit',
        { file_path: filePath, old_string: old, new_string: next, replace_all: false },
        {
          text: `The file ${filePath} has been updated successfully.`,
          isError: false,
          structured,
          response: structured,
        },
      );
      return session;
    },
    /** A failed edit (old text not found): a tool hiccup. */
    editMiss(path: string, old: string, next: string) {
      const filePath = path.startsWith('/') ? path : `${options.cwd}/${path}`;
      const text =
        '<tool_use_error>String to replace not found in file.\nString: ' + old + '</tool_use_error>';
      toolCall(
        'Edit',
        { file_path: filePath, old_string: old, new_string: next, replace_all: false },
        {
          text,
          isError: true,
          structured: `Error: String to replace not found in file.`,
          response: null,
        },
      );
      return session;
    },
    write(path: string, content: string, original: string | null = null) {
      const filePath = path.startsWith('/') ? path : `${options.cwd}/${path}`;
      const structured: Rec = {
        type: original === null ? 'create' : 'update',
        filePath,
        content,
        structuredPatch: [],
        originalFile: original,
      };
      toolCall(
        'Write',
        { file_path: filePath, content },
        {
          text:
            original === null
              ? `File created successfully at: ${filePath}`
              : `The file ${filePath} has been updated.`,
          isError: false,
          structured,
          response: structured,
        },
      );
      return session;
    },
    todo(list: TodoSpec[]) {
      const newTodos = list.map((t) => ({
        content: t.content,
        status: t.status,
        activeForm: t.activeForm ?? t.content,
      }));
      const structured: Rec = {
        oldTodos: todos.map((t) => ({
          content: t.content,
          status: t.status,
          activeForm: t.activeForm ?? t.content,
        })),
        newTodos,
      };
      todos = list;
      toolCall(
        'TodoWrite',
        { todos: newTodos },
        {
          text: 'Todos have been modified successfully. Ensure that you continue to use the todo list to track your progress. Please proceed with the current tasks if applicable',
          isError: false,
          structured,
          response: structured,
        },
      );
      return session;
    },
    /**
     * Claude Code's numbered task tools (2.1.x), as its transcripts record them: TaskCreate answers
     * "Task #N created successfully: …" with `{ task: { id, subject } }`; TaskUpdate names the number only.
     */
    taskCreate(id: string, subject: string) {
      const structured: Rec = { task: { id, subject } };
      toolCall(
        'TaskCreate',
        { subject, description: subject, activeForm: subject },
        {
          text: `Task #${id} created successfully: ${subject}`,
          isError: false,
          structured,
          response: structured,
        },
      );
      return session;
    },
    taskUpdate(id: string, status: 'in_progress' | 'completed') {
      const structured: Rec = { success: true, taskId: id, updatedFields: ['status'] };
      toolCall(
        'TaskUpdate',
        { taskId: id, status },
        { text: `Updated task #${id} status`, isError: false, structured, response: structured },
      );
      return session;
    },
    /** The parent side of a subagent run: the Task/Agent call and its result (the agent's final reply). */
    task(description: string, subagentType: string, prompt: string, finding: string, tool = 'Task') {
      const agentId = id('agent').slice(0, 7);
      const structured: Rec = {
        status: 'completed',
        prompt,
        agentId,
        content: [{ type: 'text', text: finding }],
        totalDurationMs: 30000,
        totalTokens: 40000,
        totalToolUseCount: 3,
      };
      toolCall(
        tool,
        { description, subagent_type: subagentType, prompt },
        { text: finding, isError: false, structured, response: structured },
      );
      return session;
    },
    /**
     * A subagent run: the parent's Task call, then what the subagent does (`work` calls this session's
     * own methods — bash, read, write… — which are then the subagent's: sidechain records with its
     * `agentId`, hooks naming it), its SubagentStop, and the Task result (its final reply). Its records
     * go to `subagents/agent-<id>.jsonl` beside the transcript, or into the transcript itself
     * (`inline`: older hosts).
     */
    subagent(
      spec: { description: string; type: string; prompt: string; finding: string; inline?: boolean },
      work: () => void,
    ) {
      const agentId = `a${id('agent').replace(/-/g, '').slice(0, 16)}`;
      const toolUseId = `toolu_${id('tool').replace(/-/g, '').slice(0, 24)}`;
      const input: Rec = { description: spec.description, subagent_type: spec.type, prompt: spec.prompt };
      tick(900);
      const call = assistantRecord(
        { type: 'tool_use', id: toolUseId, name: 'Task', input },
        `msg_${id('msg').replace(/-/g, '').slice(0, 24)}`,
      );
      const callUuid = String(call['uuid']);
      push([call, progress(callUuid, toolUseId, 'PreToolUse', 'Task')]);
      agent = { id: agentId, type: spec.type, file: spec.inline ? null : `subagents/agent-${agentId}.jsonl` };
      head = null;
      tick(500);
      push([userRecord(spec.prompt)]);
      work();
      tick(500);
      push([], { ...hookBase('SubagentStop'), last_assistant_message: spec.finding });
      agent = null;
      head = callUuid;
      const structured: Rec = {
        status: 'completed',
        prompt: spec.prompt,
        agentId,
        content: [{ type: 'text', text: spec.finding }],
        totalDurationMs: 30000,
        totalTokens: 40000,
        totalToolUseCount: 3,
      };
      tick(1200);
      const res = userRecord([{ type: 'tool_result', tool_use_id: toolUseId, content: spec.finding }], {
        toolUseResult: structured,
        sourceToolAssistantUUID: callUuid,
      });
      push([res], {
        ...hookBase('PostToolUse'),
        tool_name: 'Task',
        tool_input: input,
        tool_response: structured,
        tool_use_id: toolUseId,
        duration_ms: 30000,
      });
      head = String(res['uuid']);
      return session;
    },
    /** AskUserQuestion with the user's picks. */
    ask(questions: { question: string; options: string[]; answer: string }[]) {
      const input: Rec = {
        questions: questions.map((q) => ({
          question: q.question,
          header: q.question.slice(0, 12),
          options: q.options.map((label) => ({ label, description: label })),
          multiSelect: false,
        })),
      };
      const answers = questions.map((q) => `"${q.question}"="${q.answer}"`).join(', ');
      const text = `User has answered your questions: ${answers}. You can now continue with the user's answers in mind.`;
      const structured: Rec = {
        questions: input['questions'] as Json,
        answers: Object.fromEntries(questions.map((q) => [q.question, q.answer])),
      };
      toolCall('AskUserQuestion', input, { text, isError: false, structured, response: structured });
      return session;
    },
    /** ExitPlanMode with a plan the user approves. */
    plan(text: string) {
      toolCall(
        'ExitPlanMode',
        { plan: text },
        {
          text: 'User has approved your plan. You can now start coding.',
          isError: false,
          structured: { plan: text, isAgent: false },
          response: { plan: text, isAgent: false },
        },
      );
      return session;
    },
    /**
     * The user rejects a tool call at the permission prompt, typing a reason or not: the host answers
     * the call with its rejection text (the reason after "the user said:", then a note for the model in
     * newer versions) and writes the interrupt marker. No PostToolUse fires for a call that never ran.
     */
    reject(name: string, input: Rec, reason = '') {
      const toolUseId = `toolu_${id('tool').replace(/-/g, '').slice(0, 24)}`;
      const messageId = `msg_${id('msg').replace(/-/g, '').slice(0, 24)}`;
      tick(900);
      const call = assistantRecord({ type: 'tool_use', id: toolUseId, name, input }, messageId);
      tick(5000);
      const lead =
        "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file).";
      const text = reason
        ? `${lead} To tell you how to proceed, the user said:\n${reason}\n\nNote: The user's next message may contain a correction or preference. Pay close attention — if they explain what went wrong or how they'd prefer you to work, consider saving that to memory for future sessions.`
        : `${lead} STOP what you are doing and wait for the user to tell you how to proceed.`;
      const res = userRecord(
        [{ type: 'tool_result', tool_use_id: toolUseId, content: text, is_error: true }],
        {
          toolUseResult: `Error: ${text}`,
        },
      );
      const marker = userRecord([{ type: 'text', text: '[Request interrupted by user for tool use]' }]);
      push([call, res, marker]);
      return session;
    },
    /**
     * The user types while the agent works: the host queues the words (`queue-operation` enqueue).
     * Then `absorb` hands them to the running turn (`remove`; newer versions also write a
     * `queued_command` attachment), or `submitQueued` sends them as the next prompt once the turn ends —
     * a user record attached where they were typed, not where the conversation is.
     */
    queue(text: string) {
      tick(1000);
      queued.push({ text, at: head });
      push([queueOp('enqueue', { content: text })]);
      return session;
    },
    absorb(attachment = false) {
      tick(500);
      const q = queued.shift();
      const records: Rec[] = [];
      if (q && attachment) {
        const uuid = id('attachment');
        records.push({
          ...envelope('attachment'),
          attachment: {
            type: 'queued_command',
            prompt: q.text,
            commandMode: 'prompt',
            origin: { kind: 'human' },
          },
          uuid,
          timestamp: now(),
        });
        head = uuid;
      }
      records.push(queueOp('remove'));
      push(records);
      return session;
    },
    submitQueued() {
      tick(3000);
      const q = queued.shift();
      if (!q) return session;
      head = q.at;
      const r = userRecord(q.text);
      push([queueOp('dequeue'), r], { ...hookBase('UserPromptSubmit'), prompt: q.text });
      return session;
    },
    /** A Stop hook refuses to end the turn: its summary record, and its feedback sent back as a meta user record. */
    stopBlocked(command: string, feedback: string) {
      tick(500);
      const uuid = id('system');
      const rec: Rec = {
        ...envelope('system'),
        subtype: 'stop_hook_summary',
        hookCount: 1,
        hookInfos: [{ command }],
        hookErrors: [feedback],
        preventedContinuation: true,
        stopReason: '',
        hasOutput: true,
        level: 'suggestion',
        timestamp: now(),
        uuid,
      };
      head = uuid;
      const fed = userRecord(`Stop hook feedback:\n[${command}]: ${feedback}`, { isMeta: true });
      push([rec, fed], { ...hookBase('Stop'), stop_hook_active: false, last_assistant_message: lastText });
      return session;
    },
    /** The user presses Esc: the host writes the interrupt marker. */
    interrupt() {
      tick(2000);
      push([userRecord([{ type: 'text', text: '[Request interrupted by user]' }])]);
      return session;
    },
    /** A background task finished: the host injects a notification as a user record (not the user's words). */
    notification(taskId: string, summary: string) {
      tick(3000);
      push([
        userRecord(
          `<task-notification>\n<task-id>${taskId}</task-id>\n<status>completed</status>\n<summary>${summary}</summary>\n</task-notification>\nRead the output file to retrieve the result.`,
        ),
      ]);
      return session;
    },
    /** A local command (`/mcp`, `/clear`…): caveat, wrapper and its output, none of them user statements. */
    localCommand(name: string, output: string) {
      tick(3000);
      push([
        userRecord(
          '<local-command-caveat>Caveat: The messages below were generated by the user while running local commands. DO NOT respond to these messages or otherwise consider them in your response unless the user explicitly asks you to.</local-command-caveat>',
          { isMeta: true },
        ),
        userRecord(
          `<command-name>${name}</command-name>\n            <command-message>${name.slice(1)}</command-message>\n            <command-args></command-args>`,
        ),
        userRecord(`<local-command-stdout>${output}</local-command-stdout>`),
      ]);
      return session;
    },
    /** The turn ends: the Stop hook fires (with the last assistant text), and the host logs it. */
    stop() {
      tick(500);
      const uuid = id('system');
      const rec: Rec = {
        ...envelope('system'),
        subtype: 'stop_hook_summary',
        hookCount: 1,
        hookInfos: [{ command: 'engram hook' }],
        hookErrors: [],
        preventedContinuation: false,
        stopReason: '',
        hasOutput: false,
        level: 'suggestion',
        timestamp: now(),
        uuid,
      };
      head = uuid;
      const dur = {
        ...envelope('system'),
        subtype: 'turn_duration',
        durationMs: clock - turnStart,
        timestamp: now(),
        uuid: id('system'),
        isMeta: false,
      };
      head = String(dur['uuid']);
      push([rec, dur], { ...hookBase('Stop'), stop_hook_active: false, last_assistant_message: lastText });
      return session;
    },
    /** Context compaction: PreCompact, the boundary (a new root) and the summary record, then PostCompact. */
    compact(summary: string, trigger: 'auto' | 'manual' = 'auto') {
      tick(2000);
      push([], { ...hookBase('PreCompact'), trigger, custom_instructions: '' });
      const boundary: Rec = {
        ...envelope('system'),
        parentUuid: null,
        logicalParentUuid: head,
        subtype: 'compact_boundary',
        content: 'Conversation compacted',
        compactMetadata: { trigger, preTokens: 160000 },
        timestamp: now(),
        uuid: id('system'),
      };
      head = String(boundary['uuid']);
      const text = `This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.\n\n${summary}\n\nPlease continue the conversation from where we left it off without asking the user any further questions. Continue with the last task that you were asked to work on.`;
      push([boundary, userRecord(text, { isCompactSummary: true, isVisibleInTranscriptOnly: true })], {
        ...hookBase('PostCompact'),
        trigger,
        compact_summary: summary,
      });
      return session;
    },
    end(reason = 'prompt_input_exit') {
      tick(1000);
      push([], { ...hookBase('SessionEnd'), reason });
      return session;
    },
    /** The whole transcript as JSONL (the session's own records, not its subagents' files). */
    jsonl(): string {
      return steps
        .filter((s) => s.file === undefined)
        .flatMap((s) => s.records)
        .map((r) => JSON.stringify(r))
        .join('\n')
        .concat('\n');
    },
    /** Each subagent file (relative to the session's folder) with its JSONL. */
    subagentFiles(): Record<string, string> {
      const out: Record<string, string> = {};
      for (const step of steps)
        if (step.file !== undefined)
          out[step.file] =
            `${out[step.file] ?? ''}${step.records.map((r) => `${JSON.stringify(r)}\n`).join('')}`;
      return out;
    },
    time: () => clock,
  };
  return session;
}

export type ClaudeSession = ReturnType<typeof createClaudeSession>;
