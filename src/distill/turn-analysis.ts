/** What one turn's events say (`analyse-turn.ts` reads them into it): the facts the distiller writes about. */
import type { CommandRun, TurnError } from './command-runs.ts';
import type { DependencyChanges } from './dependency-edits.ts';
import type { FileChanges } from './file-changes.ts';
import type { Ticket } from './tickets.ts';
import type { TodoItem } from './todo-list.ts';
import type { TurnEdit } from './turn-edits.ts';
import type { Segment, TaskCommit } from './turn-tasks.ts';

/** What the assistant said between tool calls (from the transcript), with its time. */
export interface Narration {
  at: number;
  text: string;
}

export type Commit = TaskCommit;

export interface SubagentFinding {
  /** The task description given to the subagent, or its type. */
  label: string;
  agentType: string;
  findings: string;
  index: number;
}

export interface TurnAnalysis {
  prompts: string[];
  filesRead: string[];
  searches: string[];
  files: FileChanges;
  commands: CommandRun[];
  commits: Commit[];
  pushed: boolean;
  /** Project files the turn removed (`rm`, `git rm`, or the user says they did), relative to the root. */
  removed: { path: string; index: number; byUser?: boolean }[];
  /** Project files the turn renamed (`mv`, `git mv`), relative to the root. */
  moved: { from: string; to: string; index: number }[];
  dependencies: DependencyChanges;
  errors: TurnError[];
  subagents: SubagentFinding[];
  todos: TodoItem[] | null;
  /** Index of the turn's last task-list call (-1: none): edits after it may do what the list names. */
  todosAt: number;
  tickets: Ticket[];
  narration: (Narration & { index: number })[];
  /** Successful edits and writes, in order: the symbols they touched, imports swapped, characters changed. */
  edits: TurnEdit[];
  /** Files the session changed before this turn. */
  earlierEdits: string[];
  /** The project's root folder (where the session works). */
  root: string;
  /** The git branch the host recorded for the turn ('' : no git repository; null: the host does not say). */
  hostBranch: string | null;
  /** Commands a CI configuration read in the turn runs (`npm run check` from `.github/workflows/ci.yml`). */
  ci: { file: string; commands: string[] }[];
  segments: Segment[];
  compactSummary: string;
  compacted: boolean;
  lastMessage: string;
  plan: string;
  /** The assistant asked to leave plan mode (its plan was up for approval). */
  planned: boolean;
  toolCount: number;
  /** Tools other than the everyday ones (MCP tools, skills…), by name. */
  otherTools: string[];
  sessionEnded: boolean;
  /** The host said the turn ended (its Stop event), whether or not it gave the reply's words. */
  stopped: boolean;
}
