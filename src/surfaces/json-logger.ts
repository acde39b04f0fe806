/**
 * Structured logs for the team server: one JSON object per line on a stream (stdout), for journald,
 * docker logs or any collector. Messages and fields are scrubbed like every other log.
 */
import type { LogFields, Logger } from '../core/ports.ts';
import { scrubText } from '../core/scrub.ts';

const LEVELS = { debug: 10, info: 20, warn: 30, error: 40 } as const;

export function createJsonLogger(write: (line: string) => void, levelName: string, clock = Date.now): Logger {
  const min = LEVELS[levelName as keyof typeof LEVELS] ?? LEVELS.info;
  const log = (level: keyof typeof LEVELS) => (msg: string, fields?: LogFields) => {
    if (LEVELS[level] < min) return;
    write(`${scrubText(JSON.stringify({ time: new Date(clock()).toISOString(), level, msg, ...fields }))}\n`);
  };
  return { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') };
}
