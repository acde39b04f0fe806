/**
 * What the observation builders share: the request a turn answered, the files it changed, the errors
 * that mattered, the checks it ran, dependency changes, and which errors are setup problems (a
 * missing import, dependency, config key, service or flag) rather than the code's own test failures.
 */
import type { TurnAnalysis } from './analyse-turn.ts';
import { clip, isTrivialPrompt } from './text.ts';

const CHECKS = new Set(['test', 'build', 'typecheck', 'lint']);

/** The prompt that says what the turn was for: the last one that is more than "ok" or "continue". */
export function requestOf(a: TurnAnalysis): string {
  return [...a.prompts].reverse().find((p) => !isTrivialPrompt(p)) ?? '';
}

export const modifiedFiles = (a: TurnAnalysis) => a.files.files().map((f) => f.path);
export const significantErrors = (a: TurnAnalysis) => a.errors.filter((e) => !e.minor);

/** "test `npm test`: passed (21 passed)" — the last outcome of each check run (where `within`). */
export function checkFacts(a: TurnAnalysis, within: (index: number) => boolean = () => true): string[] {
  const last = new Map<string, string>();
  for (const c of a.commands) {
    if (!CHECKS.has(c.kind) || !within(c.index)) continue;
    const label = clip(c.canonical, 60);
    last.delete(label);
    last.set(
      label,
      `${c.kind} \`${label}\`: ${c.ok ? 'passed' : 'failed'}${c.detail ? ` (${clip(c.detail, 80)})` : ''}`,
    );
  }
  return [...last.values()].slice(-4);
}

export function dependencyFacts(a: TurnAnalysis): string[] {
  const d = a.dependencies;
  return [
    d.added.length > 0 ? `dependencies added: ${d.added.slice(0, 8).join(', ')}` : '',
    d.removed.length > 0 ? `dependencies removed: ${d.removed.slice(0, 8).join(', ')}` : '',
    d.updated.length > 0 ? `dependencies updated: ${d.updated.slice(0, 8).join(', ')}` : '',
  ].filter(Boolean);
}

/** A test that ran and found the code wrong: never a gotcha, the code's own bug (fixed by the change). */
const ASSERTION =
  /AssertionError|Assertion (?:with|failed)|\bassert(?:ion)?\b.*\bfailed\b|expected \S+ to (?:be|equal|have|contain|match)\b|\btoBe\b|\btoEqual\b|\bExpected\b.*\bReceived\b/i;
/** What a setup problem says: something missing, undefined, unconfigured, unreachable or refused. */
const SETUP =
  /\bnot (?:defined|found|installed|configured|set|supported|available|running)\b|\bundefined (?:function|variable|method|reference|module)\b|\b(?:cannot|can't|could not|couldn't|unable to) (?:find|resolve|import|load|connect|open|locate)|\bno such (?:file|module|command|table)|\bmissing\b|\brequires?\b|\bconfiguration\b|\bno upstream\b|ECONNREFUSED|EADDRINUSE|ENOENT|EACCES|\bpermission denied\b|command not found|\bunknown (?:option|command|flag|argument)\b|\bis not a function\b|ModuleNotFoundError|ImportError|\bfailed to (?:load|resolve|connect)\b|\bdaemon\b|\bincompatible\b|doesn't exist|does not exist|\bnot supported\b/i;

/** Whether an error is about the setup (imports, dependencies, config, services, flags), not a wrong result. */
export function isSetupError(message: string): boolean {
  return !ASSERTION.test(message) && SETUP.test(message);
}
