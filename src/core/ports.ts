/**
 * Ports: what the inner layers need from the outside world, injected by the composition roots.
 */
export type LogFields = Record<string, string | number | boolean | null | undefined>;

export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A logger that keeps lines in memory (tests, and callers that have nowhere to write). */
export function createMemoryLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const log = (level: string) => (message: string, fields?: LogFields) => {
    lines.push(`${level} ${message}${fields ? ` ${JSON.stringify(fields)}` : ''}`);
  };
  return { lines, debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') };
}

/** What a text is embedded for: some models embed queries and documents differently. */
export type EmbedPurpose = 'document' | 'query';

/**
 * Turns texts into vectors (optional: engram works fully without one). The dimension is whatever the
 * first result has; vectors of different embedders are never compared.
 */
export interface Embedder {
  /** Stable name of the model behind it, e.g. "ollama:nomic-embed-text": vectors are stored under it. */
  readonly id: string;
  embed(texts: string[], purpose: EmbedPurpose, signal?: AbortSignal): Promise<Float32Array[]>;
}
