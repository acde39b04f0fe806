/**
 * The last check before anything reaches the agent: every line a context hook is about to inject is
 * screened again with the current instruction screen (core/instruction-screen.ts) at the trust of what
 * it shows; a line that breaks it is dropped and recorded (the context log and `engram status` say
 * what and why). Memories a person approved after review pass; the user's own words always do. A
 * memory the current screen version already judged clear (its stored verdict: the same rules over the
 * same text at the same trust) is not screened again — that keeps the hook's cost down, since a fresh
 * process compiles each expression it runs; one judged by an earlier version (the worker has not
 * re-screened it yet) is. Summary lines and teammates' state are always screened.
 */
import { SCREEN_VERSION, screenText } from '../core/instruction-screen.ts';
import type { DroppedLine } from '../core/model.ts';
import type { TrustClass } from '../core/trust.ts';

export interface InjectionGate {
  /** What was dropped so far, in order. */
  readonly dropped: DroppedLine[];
  /** Whether `line` may be injected; a line that breaks the screen is recorded and kept out. */
  pass(line: string, trust: TrustClass, id?: string | null, approved?: boolean): boolean;
  /** `pass` for a memory's line: its stored verdict stands when the current screen made it. */
  passMemory(
    line: string,
    o: { id: string; trust: TrustClass; review: string; screenVersion: number },
  ): boolean;
}

/**
 * Lines the current screen version already judged clear at a trust (a SessionStart snapshot's summary
 * lines, screened by the worker when it wrote the snapshot): the same rules over the same text at the
 * same trust say the same, so they pass without being screened again; any other line is screened.
 */
export interface ScreenMemo {
  clear(line: string, trust: TrustClass): boolean;
}

export function createInjectionGate(memo?: ScreenMemo): InjectionGate {
  const dropped: DroppedLine[] = [];
  const gate: InjectionGate = {
    dropped,
    passMemory(line, o) {
      // Approved by a person; or judged clear by this very screen version at this trust (the same
      // rules over the same text: screening it again would say the same). Otherwise screened now.
      if (o.review === 'approved' || (o.review === 'clear' && o.screenVersion === SCREEN_VERSION))
        return true;
      return gate.pass(line, o.trust, o.id);
    },
    pass(line, trust, id = null, approved = false) {
      if (approved || memo?.clear(line, trust)) return true;
      const hit = screenText(line, trust);
      if (!hit) return true;
      // A memory in two sections (standing, then recent) is reported once.
      if (id === null || !dropped.some((d) => d.id === id))
        dropped.push({ id, rule: hit.rule, category: hit.category, excerpt: hit.excerpt });
      return false;
    },
  };
  return gate;
}

/** How the source of a memory reads at the end of its injected line. */
export const SOURCE_LABELS: Readonly<Record<TrustClass, string>> = {
  user: 'you',
  repository: 'repo',
  tool: 'tool',
  external: 'external',
};
