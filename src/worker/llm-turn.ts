/**
 * The LLM step of the drain: for one turn, outside any transaction, check the budgets, ask the LLM
 * distiller (with the heuristic draft, the session summary and the project's recent memories), and
 * record every call in the ledger as it ends. Returns null (heuristic) when there is nothing worth a
 * call, a cap is reached, or the provider failed `distill.maxFailures` times.
 */
import type { Config } from '../core/config.ts';
import { describeError } from '../core/errors.ts';
import type { ProjectId } from '../core/ids.ts';
import { summaryDraft, type QueuedEvent, type SummaryDraft } from '../core/model.ts';
import type { Clock, Logger } from '../core/ports.ts';
import { costOf, type Prices } from '../core/prices.ts';
import { scrubValue } from '../core/scrub.ts';
import type { Distiller, TurnResult } from '../distill/heuristic-distiller.ts';
import type { LlmCall, LlmDistiller } from '../distill/llm/llm-distiller.ts';
import type { LlmDistillation } from '../distill/llm/reply-schema.ts';
import { searchMemories } from '../recall/search.ts';
import { floorOfEvents } from '../distill/evidence-trust.ts';
import { isTaskNotification } from '../core/transcript.ts';
import type { Store } from '../store/store.ts';
import type { PreparedTurn, TurnPreparer } from './drain.ts';
import { transcriptExtracts } from './transcript-extracts.ts';

export interface LlmTurnDeps {
  store: Store;
  heuristic: Distiller;
  llm: LlmDistiller;
  logger: Logger;
  clock: Clock;
  config: Config;
  prices: Prices;
  signal?: AbortSignal;
  /** After a turn's calls all failed, no call for this long (an outage must not slow every turn). */
  cooldownMs?: number;
}

const OUTAGE_COOLDOWN_MS = 5 * 60_000;

/** `YYYY-MM-DD` in UTC: the day the daily caps count against. */
export function utcDay(at: number): string {
  return new Date(at).toISOString().slice(0, 10);
}

const ACTIVE = new Set(['tool', 'tool_failure', 'subagent_stop', 'post_compact']);

/** A turn with no tool activity whose heuristic draft is empty (a greeting, a bare start/end) costs nothing. */
function worthAsking(events: readonly QueuedEvent[], heuristic: TurnResult): boolean {
  return heuristic.observations.length > 0 || events.some((e) => ACTIVE.has(e.event.kind));
}

function mergeSummary(h: SummaryDraft | null, l: LlmDistillation['summary']): SummaryDraft | null {
  if (!l) return h;
  const pick = (a: string, b: string | undefined) => (b && b.trim() !== '' ? b : a);
  const base: SummaryDraft = h ?? summaryDraft();
  return {
    ...base,
    request: pick(base.request, l.request),
    investigated: pick(base.investigated, l.investigated),
    learned: pick(base.learned, l.learned),
    completed: pick(base.completed, l.completed),
    nextSteps: pick(base.nextSteps, l.nextSteps),
    notes: pick(base.notes, l.notes),
  };
}

/**
 * What the model should know exists, so it updates or supersedes instead of repeating: the memories
 * that match the turn's prompts best, then the most recent ones (ids, types and titles only).
 */
function memoriesFor(store: Store, projectId: ProjectId, events: readonly QueuedEvent[], now: number) {
  const asked = events
    .map((e) => (e.event.kind === 'prompt' && !isTaskNotification(e.event.prompt) ? e.event.prompt : ''))
    .join(' ')
    .slice(0, 500);
  const relevant =
    asked.trim() === ''
      ? []
      : searchMemories(store, { query: asked, projectId, limit: 6, now, context: false }).map(
          (h) => h.observation,
        );
  const seen = new Set<string>();
  return [...relevant, ...store.observations.recent(projectId, 8)]
    .filter((o) => !seen.has(o.id) && seen.add(o.id))
    .slice(0, 12)
    .map((o) => ({ id: o.id as string, type: o.type, title: o.title }));
}

/** Transcript extracts are a bonus: an unreadable transcript leaves them out. */
function readExtracts(store: Store, events: readonly QueuedEvent[], logger: Logger): string[] {
  try {
    return transcriptExtracts(store, events);
  } catch (error) {
    logger.warn('could not read the transcript for the LLM prompt', { error: describeError(error) });
    return [];
  }
}

/** The reason a call of `estimate` tokens would break a cap, or null. */
export function budgetRefusal(
  store: Store,
  config: Config,
  prices: Prices,
  at: { day: string; sessionId: string; model: string },
  estimate: { inputTokens: number; outputTokens: number },
): string | null {
  const tokens = estimate.inputTokens + estimate.outputTokens;
  const session = store.llmLedger.spentOnSession(at.sessionId);
  const sessionCap = config['distill.sessionTokenCap'];
  if (session.tokens + tokens > sessionCap)
    return `session token cap reached (${session.tokens} spent + up to ${tokens} > ${sessionCap})`;
  const day = store.llmLedger.spentOnDay(at.day);
  const dayCap = config['distill.dailyTokenCap'];
  if (day.tokens + tokens > dayCap)
    return `daily token cap reached (${day.tokens} spent + up to ${tokens} > ${dayCap})`;
  const cost = costOf(
    { model: at.model, input: estimate.inputTokens, output: estimate.outputTokens },
    prices,
  );
  const usdCap = config['distill.dailyUsdCap'];
  // An unpriced model cannot be held to a dollar cap: rather than spend blind, it does not run.
  if (cost === null && usdCap > 0)
    return `no price for model "${at.model}" in the price table, so the daily dollar cap cannot be kept: add it to $ENGRAM_HOME/prices.json`;
  if (cost !== null && usdCap > 0 && day.costUsd + cost > usdCap)
    return `daily spend cap reached ($${day.costUsd.toFixed(4)} spent + up to $${cost.toFixed(4)} > $${usdCap})`;
  return null;
}

export function createLlmTurnPreparer(deps: LlmTurnDeps): TurnPreparer {
  const { store, logger, clock, config, prices } = deps;
  let downUntil = 0;
  return async (events) => {
    const first = events[0];
    if (!first) return null;
    if (clock.now() < downUntil) return null;
    const sessionId = first.sessionId;
    const projectId = first.projectId as ProjectId;
    try {
      const project = store.sessions.project(projectId);
      const projectRoot = project?.root ?? first.cwd;
      const previousSummary = store.summaries.get(sessionId);
      const heuristic = deps.heuristic.distilTurn({ projectRoot, events, previousSummary });
      if (!worthAsking(events, heuristic)) return null;
      const memories = memoriesFor(store, projectId, events, clock.now());
      const extracts = readExtracts(store, events, logger);
      const day = utcDay(clock.now());
      const model = deps.llm.provider.model;
      const outcome = await deps.llm.distilTurn(
        {
          projectName: project?.name ?? projectRoot,
          projectRoot,
          events,
          previousSummary,
          heuristic,
          memories,
          extracts,
        },
        {
          signal: deps.signal,
          budget: (estimate) => budgetRefusal(store, config, prices, { day, sessionId, model }, estimate),
          record: (call: LlmCall) =>
            store.transaction(() =>
              store.llmLedger.add({
                ...call,
                at: clock.now(),
                day,
                sessionId,
                projectId,
                costUsd: costOf(
                  { model: call.model, input: call.inputTokens, output: call.outputTokens },
                  prices,
                ),
              }),
            ),
        },
      );
      if (!outcome.ok) {
        if (!outcome.budget) downUntil = clock.now() + (deps.cooldownMs ?? OUTAGE_COOLDOWN_MS);
        logger[outcome.budget ? 'info' : 'warn'](
          'LLM distillation skipped; the turn is distilled heuristically',
          {
            sessionId,
            reason: outcome.reason,
          },
        );
        return null;
      }
      // The model may only replace a memory it was shown in this call: any other id is dropped.
      const shown = new Set(memories.map((m) => m.id));
      const observations = outcome.distillation.observations.map((o) =>
        o.supersedes && !shown.has(o.supersedes) ? { ...o, supersedes: null } : o,
      );
      const prepared: PreparedTurn = {
        // The model only saw scrubbed text; the mutation path scrubs what it writes again.
        observations: scrubValue(observations),
        // A model that read external content relays it: its summary is not injected unreviewed.
        summary: scrubValue(
          floorOfEvents(events, projectRoot) === 'external'
            ? heuristic.summary
            : mergeSummary(heuristic.summary, outcome.distillation.summary),
        ),
        ledgerId: outcome.ledgerId,
      };
      return prepared;
    } catch (error) {
      // The LLM is an upgrade: whatever goes wrong here, the turn is still distilled heuristically.
      logger.error('LLM distillation failed; the turn is distilled heuristically', {
        sessionId,
        error: describeError(error),
      });
      return null;
    }
  };
}
