/**
 * What of a tool call's result a transcript read keeps. A reading tool's output is the bulk of a
 * transcript and no distiller uses it: only its start is kept (that it ran, and its errors) — except a
 * file of rules for agents, the project's example environment, manifest and CI configuration (kept
 * whole), and the comments of a file read that cite an upstream issue (the code's notes of known bugs).
 * Of the structured result, only the fields the distillers read. Every string is scrubbed, as the file
 * the call names (`scrubResultText`: a config file's text as config).
 */
import { CI_CONFIG_FILE, ENV_EXAMPLE_FILE, PACKAGE_MANIFEST } from '../../core/example-env.ts';
import type { Json } from '../../core/model.ts';
import { linesAroundTrackerLinks } from '../../core/tracker-links.ts';
import { cutMiddle, namesConfigFile, scrubAndLimit, scrubResultText } from '../limit-size.ts';

const LIMITS = { maxFieldChars: 8000, maxEventBytes: 65_536 };

const READING_TOOLS = new Set(['Read', 'Glob', 'Grep', 'LS', 'WebFetch', 'WebSearch', 'NotebookRead']);

/** Files whose text states the project's rules for agents: kept whole when read (see project-rules). */
const RULE_FILE = /(?:^|[\\/])(?:CLAUDE|AGENTS|GEMINI)(?:\.local)?\.md$/i;

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
    // A background agent's launch: its notice is not what it found.
    'isAsync',
    'status',
    // A shell command sent to the background, and how a finished one ended (`BashOutput`).
    'backgroundTaskId',
    'exitCode',
  ]) {
    if (key in v && !(key === 'content' && typeof v[key] !== 'string')) out[key] = v[key];
  }
  // A background task's report (`TaskOutput`); a long output keeps its end, where its verdict is, as
  // every command output does (`scrubAndLimit`).
  const task = v['task'];
  if (task !== null && typeof task === 'object' && !Array.isArray(task)) {
    const t = task as Record<string, unknown>;
    out['task'] = {
      task_id: t['task_id'] ?? null,
      status: t['status'] ?? null,
      exitCode: t['exitCode'] ?? null,
      output: typeof t['output'] === 'string' ? t['output'] : '',
    };
  }
  // Where a part of a file read starts (its text is the result's own): parts read apart fit together.
  const file = v['file'];
  if (
    file !== null &&
    typeof file === 'object' &&
    typeof (file as Record<string, unknown>)['startLine'] === 'number'
  )
    out['startLine'] = (file as Record<string, unknown>)['startLine'];
  return out;
}

/** The result kept for a call of tool `name` with `input` that returned `text` (and `structured`). */
export function keptResult(
  name: string,
  input: Json,
  text: string,
  isError: boolean,
  structured: unknown,
): { text: string; isError: boolean; structured: Json } {
  const path =
    input !== null &&
    typeof input === 'object' &&
    !Array.isArray(input) &&
    typeof input['file_path'] === 'string'
      ? input['file_path']
      : '';
  const whole =
    RULE_FILE.test(path) ||
    ENV_EXAMPLE_FILE.test(path) ||
    PACKAGE_MANIFEST.test(path) ||
    CI_CONFIG_FILE.test(path);
  const keep = isError || !READING_TOOLS.has(name) || whole ? 8000 : 300;
  const notes = keep < text.length && name === 'Read' ? linesAroundTrackerLinks(text) : '';
  return {
    // A result is scrubbed as the file its call names: a config file's text as config (as the hook does).
    // A command's output keeps its end too (how it ended: a test runner's summary, the error).
    text:
      keep < text.length && !READING_TOOLS.has(name)
        ? cutMiddle(text, keep, namesConfigFile(input))
        : scrubResultText(notes === '' ? text.slice(0, keep) : `${text.slice(0, keep)}\n…\n${notes}`, input),
    isError,
    structured: scrubAndLimit(usefulResultFields(structured), LIMITS, input),
  };
}
