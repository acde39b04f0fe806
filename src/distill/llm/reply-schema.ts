/**
 * What the LLM must answer, validated with zod: a few observations and a checkpoint summary. Small
 * slips are repaired (code fences, prose around the JSON object, an unknown type, missing lists);
 * anything else is malformed and the caller retries or falls back to the heuristic result.
 */
import { z } from 'zod';
import { OBSERVATION_TYPES, type ObservationDraft } from '../../core/model.ts';

const text = (max: number) =>
  z
    .string()
    .catch('')
    .transform((s) => s.trim().slice(0, max));
const list = (max: number) =>
  z
    .array(z.unknown())
    .catch([])
    .transform((xs) =>
      xs
        .filter((x): x is string => typeof x === 'string' && x.trim() !== '')
        .map((x) => x.trim().slice(0, 300))
        .slice(0, max),
    );

const observationSchema = z.object({
  type: z.enum(OBSERVATION_TYPES).catch('change'),
  title: z
    .string()
    .transform((s) => s.trim().slice(0, 160))
    .refine((s) => s !== '', 'empty title'),
  subtitle: text(240).optional().default(''),
  narrative: text(2000).optional().default(''),
  facts: list(12).optional().default([]),
  concepts: list(8).optional().default([]),
  filesRead: list(20).optional().default([]),
  filesModified: list(20).optional().default([]),
  supersedes: z.string().trim().min(1).nullish().catch(null),
});

const summarySchema = z.object({
  request: text(600).optional().default(''),
  investigated: text(800).optional().default(''),
  learned: text(800).optional().default(''),
  completed: text(800).optional().default(''),
  nextSteps: text(600).optional().default(''),
  notes: text(600).optional().default(''),
});

export const replySchema = z.object({
  observations: z.array(observationSchema).max(8),
  summary: summarySchema.nullish().catch(null),
});

export interface LlmObservation extends ObservationDraft {
  /** The id of an existing memory this one replaces. */
  supersedes: string | null;
}

export interface LlmDistillation {
  observations: LlmObservation[];
  summary: z.infer<typeof summarySchema> | null;
}

/** The first balanced `{…}` in `text` (strings and escapes respected), or null. */
export function extractJsonObject(text: string): string | null {
  const start = text.indexOf('{');
  if (start < 0) return null;
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return text.slice(start, i + 1);
  }
  return null;
}

export type ParsedReply = { ok: true; value: LlmDistillation } | { ok: false; reason: string };

export function parseReply(reply: string): ParsedReply {
  const unfenced = reply.replace(/```(?:json)?/gi, '');
  const candidate = extractJsonObject(unfenced);
  if (candidate === null) return { ok: false, reason: 'no JSON object in the reply' };
  let raw: unknown;
  try {
    raw = JSON.parse(candidate);
  } catch (error) {
    return { ok: false, reason: `invalid JSON: ${(error as Error).message}` };
  }
  const parsed = replySchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      ok: false,
      reason: `schema: ${issue?.path.join('.') || '(root)'} ${issue?.message ?? ''}`.trim(),
    };
  }
  return {
    ok: true,
    value: {
      observations: parsed.data.observations.map((o) => ({ ...o, supersedes: o.supersedes ?? null })),
      summary: parsed.data.summary ?? null,
    },
  };
}
