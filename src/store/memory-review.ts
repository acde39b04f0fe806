/**
 * Trust and quarantine on the mutation path. Every write of a memory's text derives its trust from
 * the evidence (what the distiller says the draft came from) capped by who makes the change (a
 * person: the user's; MCP: the agent; the team: external), takes the lowest of that and what the
 * memory had (mixed evidence), and screens the text (core/instruction-screen.ts): instruction-like
 * text from below the user's trust is held for review. Here too the review verbs a person uses
 * (approve, reject) and the re-screening of memories judged by an earlier screen version.
 */
import { EngramError } from '../core/errors.ts';
import { describeHit, SCREEN_VERSION, screenTexts } from '../core/instruction-screen.ts';
import type { ChangeOrigin, MemoryOp, MemorySnapshot, Observation, ObservationDraft } from '../core/model.ts';
import { lowestTrust, type ReviewState, type TrustClass } from '../core/trust.ts';
import type { Db } from './database.ts';
import type { MutationContext, MutationKit } from './mutation-kit.ts';
import { lazyStatement } from './statements.ts';

/** Origins that are a person acting (a command, the viewer, a note edited in the vault). */
export const PERSON_ORIGINS: ReadonlySet<ChangeOrigin> = new Set(['cli', 'viewer', 'vault']);

/**
 * The trust of a write: a person's is the user's; the team's external; the agent's (MCP) at most
 * local tool output; a distiller's what its draft says (else tool output). `current`: the memory's
 * trust before (mixed evidence takes the lowest).
 */
export function trustOfWrite(
  ctx: MutationContext,
  claimed: TrustClass | undefined,
  current?: TrustClass,
): TrustClass {
  if (PERSON_ORIGINS.has(ctx.origin)) return 'user';
  if (ctx.origin === 'team') return 'external';
  const own = ctx.origin === 'mcp' ? lowestTrust([claimed, 'tool']) : (claimed ?? current ?? 'tool');
  return lowestTrust([own, current]);
}

export interface Judgement {
  trust: TrustClass;
  review: ReviewState;
  reason: string | null;
}

/** The texts of a memory the screen reads. */
export const screenedTexts = (d: Pick<ObservationDraft, 'title' | 'subtitle' | 'narrative' | 'facts'>) => [
  d.title,
  d.subtitle,
  d.narrative,
  ...d.facts,
];

/** Memory types that tell the agent how to act: what a later session follows, not only knows. */
const RULE_TYPES: ReadonlySet<string> = new Set(['convention', 'preference', 'correction', 'decision']);

/** Why a rule relayed from external content is held, whatever its words. */
export const RELAYED_RULE =
  'a rule relayed from external content (a web page, a package, another repository): a person decides';

/**
 * The review state of a memory's text at `trust`: the user's words are clear; an approval stands
 * while the text it approved stands (`sameText`) and the trust did not fall; a rule whose own evidence
 * is external content (`relayed`: the distiller or the agent said so, not a teammate's pull) is held
 * by its shape, since a planted instruction need not look like one; else the screen decides.
 */
export function judge(
  texts: readonly string[],
  trust: TrustClass,
  before?: { review: ReviewState; reason: string | null; trust: TrustClass; sameText: boolean },
  shape?: { type: string; relayed: boolean },
): Judgement {
  if (trust === 'user') return { trust, review: 'clear', reason: null };
  if (before?.review === 'approved' && before.sameText && before.trust === trust)
    return { trust, review: 'approved', reason: before.reason };
  const hit = screenTexts(texts, trust);
  if (hit) return { trust, review: 'held', reason: describeHit(hit) };
  const relayedRule =
    trust === 'external' &&
    (shape
      ? shape.relayed && RULE_TYPES.has(shape.type)
      : before?.review === 'held' && before.reason === RELAYED_RULE);
  return relayedRule
    ? { trust, review: 'held', reason: RELAYED_RULE }
    : { trust, review: 'clear', reason: null };
}

/** The approve / reject / re-screen verbs (`store.memory.*`), through the mutation kit. */
export function createReviewOps(
  db: Db,
  kit: MutationKit,
  deps: {
    mustLoad: (id: string) => Observation;
    invalidate: (id: string, reason: string, ctx: MutationContext, op: MemoryOp) => boolean;
  },
) {
  const { tx, log } = kit;
  const setReview = lazyStatement(
    db,
    `UPDATE observations SET trust = ?, review = ?, review_reason = ?, screen_version = ? WHERE id = ?`,
  );
  const person = (ctx: MutationContext, verb: string) => {
    if (!PERSON_ORIGINS.has(ctx.origin))
      throw new EngramError('INPUT_INVALID', `only a person may ${verb} a quarantined memory`, {
        hint: 'Use "engram review" or the viewer\u2019s Review page.',
      });
  };
  return {
    /**
     * A person lets a quarantined memory through: it may be injected, stand and sync from now on (its
     * trust stays what its evidence was). Logged as `approve`, with the person's origin and actor.
     */
    approve(id: string, ctx: MutationContext): boolean {
      person(ctx, 'approve');
      return tx(() => {
        const cur = deps.mustLoad(id);
        if (cur.review !== 'held') return false;
        const by = ctx.actor ? ` by ${ctx.actor}` : '';
        setReview().run(
          cur.trust,
          'approved',
          `approved${by} (${ctx.origin}); was ${cur.reviewReason ?? 'held'}`,
          SCREEN_VERSION,
          id,
        );
        log('memory', id, cur.projectId, 'approve', ctx, cur.version);
        return true;
      });
    },

    /** A person rejects a quarantined memory: it is invalidated (restorable), logged as `reject`. */
    reject(id: string, reason: string, ctx: MutationContext): boolean {
      person(ctx, 'reject');
      return tx(() => {
        const cur = deps.mustLoad(id);
        if (cur.review !== 'held') return false;
        return deps.invalidate(id, `rejected in review${reason ? `: ${reason}` : ''}`, ctx, 'reject');
      });
    },

    /**
     * Judge a memory again with the current screen (it was judged by an earlier version, or never):
     * newly held is logged as `quarantine`, released as `release`; otherwise only its screen version moves.
     */
    rescreen(id: string, ctx: MutationContext): ReviewState | null {
      return tx(() => {
        const cur = deps.mustLoad(id);
        if (cur.screenVersion >= SCREEN_VERSION) return null;
        const next = judge(screenedTexts(cur), cur.trust, {
          review: cur.review,
          reason: cur.reviewReason,
          trust: cur.trust,
          sameText: true,
        });
        setReview().run(next.trust, next.review, next.reason, SCREEN_VERSION, id);
        if (next.review === 'held' && cur.review !== 'held')
          log('memory', id, cur.projectId, 'quarantine', ctx, cur.version);
        else if (next.review !== 'held' && cur.review === 'held')
          log('memory', id, cur.projectId, 'release', ctx, cur.version);
        return next.review;
      });
    },
  };
}

/** Whether two states of a memory hold the same text (what an approval approved). */
export const sameText = (a: MemorySnapshot | Observation, b: MemorySnapshot | Observation) =>
  JSON.stringify(screenedTexts(a)) === JSON.stringify(screenedTexts(b));
