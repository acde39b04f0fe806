/**
 * Shell commands the host ran in the background (asked for, or moved there when they ran long). The
 * launch returns at once with the task's id and the file its output goes to: it says nothing of how the
 * command went. What does is the task's own report, read later in the turn — the host's `TaskOutput`
 * (or, in older versions, `BashOutput`) result with the task's status, exit code and output, or the
 * host's note that it ended (status and exit code; its output then read from the file) — or the
 * output file read back while it ran, when what was read shows a test runner's summary.
 */
import type { CommandRun } from './command-runs.ts';
import { testSummary } from './test-summary.ts';
import { isTaskNotification } from '../core/transcript.ts';
import { asRecord, asString } from './text.ts';

export interface Launch {
  /** The host's id for the task. */
  id: string;
  /** Where its output goes ('' when the host did not say). */
  outputFile: string;
}

const LAUNCHED = /^Command running in background with ID: ([\w-]+)\.(?: Output is being written to: (\S+))?/;

/** The background task a shell call's response started, or null when the command ran to its end. */
export function launchOf(response: unknown, output: string): Launch | null {
  const r = asRecord(response);
  const said = LAUNCHED.exec(output.trim());
  const id = asString(r['backgroundTaskId']) || said?.[1] || '';
  if (id === '') return null;
  return { id, outputFile: said?.[2]?.replace(/[.,]$/, '') ?? '' };
}

/** A path or command naming the task's output file (the host names it by the task's id). */
export function readsOutputOf(launch: Launch, text: string): boolean {
  if (launch.outputFile !== '' && text.includes(launch.outputFile)) return true;
  return new RegExp(`[\\\\/]${launch.id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.output\\b`).test(text);
}

export interface TaskReport {
  id: string;
  exit: 'ok' | 'failed';
  output: string;
}

/**
 * A finished background command's report: `TaskOutput`'s `{ task: { task_id, status, exitCode,
 * output } }`, or `BashOutput`'s `{ status, exitCode, stdout, stderr }` for the `bash_id` asked about.
 * null while it still runs, or when the report is of something else.
 */
export function taskReport(tool: string, input: unknown, response: unknown): TaskReport | null {
  const r = asRecord(response);
  const task = asRecord(r['task']);
  const fromTask = tool === 'TaskOutput' && Object.keys(task).length > 0;
  const record = fromTask ? task : r;
  const id = fromTask
    ? asString(task['task_id']) || asString(asRecord(input)['task_id'])
    : tool === 'BashOutput'
      ? asString(asRecord(input)['bash_id'])
      : '';
  if (id === '') return null;
  const status = asString(record['status']);
  const code = record['exitCode'] ?? record['exit_code'];
  if (!/^(?:completed|failed|killed)$/.test(status) && typeof code !== 'number') return null;
  const output = fromTask
    ? asString(task['output'])
    : [asString(record['stdout']), asString(record['stderr'])].filter(Boolean).join('\n');
  const failed = status === 'failed' || status === 'killed' || (typeof code === 'number' && code !== 0);
  return { id, exit: failed ? 'failed' : 'ok', output };
}

/**
 * What a read of a running task's output file shows: a test runner's summary is the verdict (the suite
 * finished); anything else (compiler progress, the first lines) says nothing yet.
 */
export function readOfOutput(output: string): Pick<TaskReport, 'exit' | 'output'> | null {
  const summary = testSummary(output);
  if (!summary || summary.passed + summary.failed === 0) return null;
  return { exit: summary.failed > 0 ? 'failed' : 'ok', output };
}

/**
 * The host's note that a background task ended (`<task-notification>` with `<task-id>`, `<status>`
 * and a `<summary>` naming the exit code): its verdict, without the output (the output file holds
 * it). null for other text, and for a task that was stopped (`killed`: a server the agent ended).
 */
export function taskNotification(text: string): { id: string; exit: TaskReport['exit'] } | null {
  if (!isTaskNotification(text)) return null;
  const tag = (name: string) => new RegExp(`<${name}>([^<]*)</${name}>`).exec(text)?.[1]?.trim() ?? '';
  const id = tag('task-id');
  const status = tag('status');
  const code = /\bexit code:? (-?\d+)/i.exec(tag('summary'))?.[1];
  if (id === '' || !/^(?:completed|failed)$/.test(status)) return null;
  const failed = status === 'failed' || (code !== undefined && Number(code) !== 0);
  return { id, exit: failed ? 'failed' : 'ok' };
}

/** A command sent to the background, with what is needed to judge it where it was launched. */
export interface PendingLaunch extends Launch {
  command: string;
  index: number;
  at: number;
  /** What the assistant said before it (a failure it predicted is expected). */
  said: string;
  /** Where the agent's shell was. */
  cwd: string;
}

/**
 * A turn's background commands: each launch kept until its verdict arrives — the task's report, or a
 * read of its output file showing the suite's summary — which `judge` applies at the launch's place.
 */
export function createBackgroundTasks(
  judge: (launch: PendingLaunch, exit: TaskReport['exit'], output: string) => void,
) {
  const running = new Map<string, PendingLaunch>();
  /** Verdicts the host's notes gave, without the output: a later read of the output file tells it. */
  const notified = new Map<string, TaskReport['exit']>();
  /** Tasks judged with their output (a report, a read of the file): a later note adds nothing. */
  const told = new Set<string>();
  const verdict = (id: string, exit: TaskReport['exit'], output: string) => {
    const launch = running.get(id);
    if (!launch) return;
    judge(launch, exit, output);
    if (output !== '') told.add(id);
  };
  return {
    /**
     * A shell call's result: when the host sent it to the background, nothing says yet how a check it
     * ran went (a program it started did start), and it is kept until its verdict.
     */
    shellCall(
      response: unknown,
      output: string,
      run: CommandRun,
      call: Omit<PendingLaunch, keyof Launch>,
    ): void {
      const launch = launchOf(response, output);
      if (!launch) return;
      for (const p of run.parts) if (p.outcome === 'passed' && p.purpose !== 'run') p.outcome = 'unknown';
      if (run.outcome === 'passed' && run.purpose !== 'run') run.outcome = 'unknown';
      running.set(launch.id, { ...launch, ...call });
    },
    /**
     * A read (a shell line or the Read tool, `path` what it names) of a running task's output file:
     * judged when it shows the summary. True when it was such a read.
     */
    readOutput(path: string, output: string): boolean {
      const task = [...running.values()].find((l) => readsOutputOf(l, path));
      if (!task) return false;
      const exit = notified.get(task.id);
      const read = readOfOutput(output) ?? (exit !== undefined ? { exit, output } : null);
      if (read) verdict(task.id, read.exit, read.output);
      return true;
    },
    /** A message from the host (a user-role one): true when it was the note that a task ended. */
    notice(text: string): boolean {
      const n = taskNotification(text);
      if (!n) return false;
      notified.set(n.id, n.exit);
      if (!told.has(n.id)) verdict(n.id, n.exit, '');
      return true;
    },
    /** A tool call that may be a task's report (`TaskOutput`, `BashOutput`). */
    report(tool: string, input: unknown, response: unknown): void {
      const r = taskReport(tool, input, response);
      if (r) verdict(r.id, r.exit, r.output);
    },
  };
}
