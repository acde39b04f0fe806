/**
 * The last check before anything reaches the agent: every line a context hook is about to inject is
 * screened again with the current instruction screen (core/instruction-screen.ts) at the trust of what
 * it shows; a line that breaks it is dropped and recorded (the context log and `engram status` say
 * what and why). Memories a person approved after review pass; the user's own words always do.
 */
import { screenText } from '../core/instruction-screen.ts';
import type { DroppedLine } from '../core/model.ts';
import type { TrustClass } from '../core/trust.ts';

export interface InjectionGate {
  /** What was dropped so far, in order. */
  readonly dropped: DroppedLine[];
  /** Whether `line` may be injected; a line that breaks the screen is recorded and kept out. */
  pass(line: string, trust: TrustClass, id?: string | null, approved?: boolean): boolean;
}

export function createInjectionGate(): InjectionGate {
  const dropped: DroppedLine[] = [];
  return {
    dropped,
    pass(line, trust, id = null, approved = false) {
      if (approved) return true;
      const hit = screenText(line, trust);
      if (!hit) return true;
      // A memory in two sections (standing, then recent) is reported once.
      if (id === null || !dropped.some((d) => d.id === id))
        dropped.push({ id, rule: hit.rule, category: hit.category, excerpt: hit.excerpt });
      return false;
    },
  };
}

/** How the source of a memory reads at the end of its injected line. */
export const SOURCE_LABELS: Readonly<Record<TrustClass, string>> = {
  user: 'you',
  repository: 'repo',
  tool: 'tool',
  external: 'external',
};
