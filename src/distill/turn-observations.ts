/**
 * What the observation builders share: the request a turn answered, the files it changed, the errors
 * that mattered, the checks it ran (by purpose), and dependency changes.
 */
import type { TurnAnalysis } from './analyse-turn.ts';
import { withEnvironment } from './canonical-command.ts';
import { CHECKS } from './commands.ts';
import { clip, isTrivialPrompt } from './text.ts';

/** The prompt that says what the turn was for: the last one that is more than "ok" or "continue". */
export function requestOf(a: TurnAnalysis): string {
  return [...a.prompts].reverse().find((p) => !isTrivialPrompt(p)) ?? '';
}

export const modifiedFiles = (a: TurnAnalysis) => a.files.files().map((f) => f.path);

/** "test `npm test`: passed (21 passed)" — the last outcome of each check run in the project (where `within`). */
export function checkFacts(a: TurnAnalysis, within: (index: number) => boolean = () => true): string[] {
  const last = new Map<string, string>();
  for (const c of a.commands) {
    if (!within(c.index)) continue;
    for (const p of c.parts) {
      if (
        !CHECKS.has(p.purpose) ||
        p.where !== 'project' ||
        (p.outcome !== 'passed' && p.outcome !== 'failed')
      )
        continue;
      const label = clip(p.canonical, 60);
      last.delete(label);
      // As it ran: with the environment it was given (`COREPACK_ENABLE_PROJECT_SPEC=0 pnpm build`).
      const shown = clip(withEnvironment(p.canonical, [p]), 90);
      last.set(label, `${p.purpose} \`${shown}\`: ${p.outcome}${p.detail ? ` (${clip(p.detail, 80)})` : ''}`);
    }
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

export { isSetupError } from './diagnostics.ts';
