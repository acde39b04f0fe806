/**
 * The remember verb: a memory said explicitly (by the agent over MCP, a person on the command line or
 * in the viewer). It is stored as knowledge the user stated (store-knowledge.ts: a newer memory on
 * the same subject supersedes the older, the same memory again is seen again), standing when asked
 * or by its type, and never stored again once it was forgotten on purpose.
 */
import { EngramError } from '../core/errors.ts';
import { OBSERVATION_TYPES, type Observation, type ObservationDraft, type Project } from '../core/model.ts';
import type { TrustClass } from '../core/trust.ts';
import type { MutationContext } from '../store/memory-writer.ts';
import type { Store } from '../store/store.ts';
import { storeKnowledge } from './store-knowledge.ts';

export interface RememberInput {
  project: Project;
  /** The directory the caller works in (the project's root when it has none). */
  cwd: string;
  title: string;
  narrative?: string | undefined;
  /** Default: fact. */
  type?: string | undefined;
  facts?: readonly string[] | undefined;
  /** Files it concerns. */
  files?: readonly string[] | undefined;
  /** Keep it in every SessionStart index (absent: by its type). */
  standing?: boolean | undefined;
  /**
   * The lowest trust of what the caller relays (the agent's turn read a web page: external); absent,
   * the caller's own words.
   */
  trust?: TrustClass | undefined;
  /**
   * The host the caller works in (the agent's MCP client: `codex`, `gemini`, … or `unknown`), recorded
   * on the memory; absent for a person at the CLI or in the viewer.
   */
  host?: string | undefined;
}

export interface Remembered {
  /** created: a new memory; seen-again: the same one existed; forgotten: forgotten on purpose before. */
  outcome: 'created' | 'seen-again' | 'forgotten';
  memory: Observation | null;
  /** The memory of the same subject it replaced. */
  supersedes: string | null;
}

const LIMITS = { title: 200, narrative: 4000, fact: 300, facts: 20, files: 30 } as const;

function checked(input: RememberInput): ObservationDraft {
  const title = input.title.trim();
  if (title.length < 3 || title.length > LIMITS.title)
    throw new EngramError('INPUT_INVALID', `the title takes 3 to ${LIMITS.title} characters`, {
      hint: 'Say the memory in one line.',
    });
  const type = input.type ?? 'fact';
  if (!(OBSERVATION_TYPES as readonly string[]).includes(type))
    throw new EngramError('INPUT_INVALID', `unknown memory type "${type}"`, {
      hint: `Use one of: ${OBSERVATION_TYPES.join(', ')}.`,
    });
  if ((input.narrative ?? '').length > LIMITS.narrative)
    throw new EngramError('INPUT_INVALID', `the narrative is longer than ${LIMITS.narrative} characters`);
  const facts = input.facts ?? [];
  if (facts.length > LIMITS.facts || facts.some((f) => f.length > LIMITS.fact))
    throw new EngramError('INPUT_INVALID', `at most ${LIMITS.facts} facts of ${LIMITS.fact} characters each`);
  const files = input.files ?? [];
  if (files.length > LIMITS.files || files.some((f) => f.length > LIMITS.fact))
    throw new EngramError('INPUT_INVALID', `at most ${LIMITS.files} files`);
  return {
    type: type as ObservationDraft['type'],
    title,
    subtitle: '',
    narrative: input.narrative ?? '',
    facts: [...facts],
    concepts: [],
    filesRead: [],
    filesModified: [...files],
    ...(input.trust ? { trust: input.trust } : {}),
  };
}

/** Remember: store the memory through the mutation path, with the caller's origin. */
export function remember(store: Store, input: RememberInput, ctx: MutationContext): Remembered {
  const draft = checked(input);
  const p = input.project;
  return store.transaction(() => {
    // The project (and the caller, as a pseudo-session of it: `mcp:codex`, `cli`) are known from now on.
    const caller = input.host ? `${ctx.origin}:${input.host}` : ctx.origin;
    store.sessions.touch(
      p,
      { id: caller, cwd: input.cwd, transcriptPath: null, host: input.host ?? ctx.origin },
      ctx.origin,
      ctx.at,
    );
    const r = storeKnowledge(
      store,
      {
        projectId: p.id,
        sessionId: null,
        source: 'manual',
        byUser: true,
        memories: [
          {
            draft,
            createdAt: ctx.at,
            provenance: [`${ctx.origin}:remember`, ...(input.host ? [`host:${input.host}`] : [])],
          },
        ],
      },
      ctx,
    );
    const id = r.ids[0] ?? '';
    const stored = store.observations.get(id);
    if (stored && stored.status === 'active' && input.standing !== undefined)
      store.memory.pin(id, input.standing, ctx);
    const memory = store.observations.get(id);
    if (!memory || memory.status === 'forgotten') return { outcome: 'forgotten', memory, supersedes: null };
    return {
      outcome: r.created === 0 && r.merged > 0 ? 'seen-again' : 'created',
      memory,
      supersedes: r.superseded > 0 && memory.supersedes ? memory.supersedes : null,
    };
  });
}
