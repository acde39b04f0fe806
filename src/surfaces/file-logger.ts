/**
 * A logger that appends one line per entry to a file, synchronously (short-lived processes exit right
 * after logging). Messages and fields are scrubbed: a log must never hold a secret.
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { LogFields, Logger } from '../core/ports.ts';
import { scrubText } from '../core/scrub.ts';

const LEVELS = { debug: 10, info: 20, warn: 30, error: 40 } as const;
export type LogLevel = keyof typeof LEVELS;

export function createFileLogger(path: string, levelName: string, component: string): Logger {
  const level: LogLevel = levelName in LEVELS ? (levelName as LogLevel) : 'info';
  let dirReady = false;
  const write = (lvl: LogLevel) => (message: string, fields?: LogFields) => {
    if (LEVELS[lvl] < LEVELS[level]) return;
    const line = `${new Date().toISOString()} ${lvl.toUpperCase()} ${component}[${process.pid}] ${message}${
      fields ? ` ${JSON.stringify(fields)}` : ''
    }`;
    try {
      if (!dirReady) {
        mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
        dirReady = true;
      }
      appendFileSync(path, `${scrubText(line.length > 4000 ? `${line.slice(0, 4000)}…` : line)}\n`, {
        mode: 0o600,
      });
    } catch {
      // Nowhere left to report a failed log write (disk full, read-only home); the caller carries on.
    }
  };
  return { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') };
}
