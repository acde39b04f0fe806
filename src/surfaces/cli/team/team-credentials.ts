/**
 * The team login kept on this machine: server URL, token, user and device, in `$ENGRAM_HOME/team.json`
 * (mode 0600; the token is never printed again nor written anywhere else).
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { EngramError } from '../../../core/errors.ts';

export interface TeamCredentials {
  server: string;
  token: string;
  user: string;
  device: string;
}

export function readTeamCredentials(path: string): TeamCredentials | null {
  if (!existsSync(path)) return null;
  try {
    const value = JSON.parse(readFileSync(path, 'utf8')) as Partial<TeamCredentials>;
    if (typeof value.server !== 'string' || typeof value.token !== 'string') return null;
    return { server: value.server, token: value.token, user: value.user ?? '', device: value.device ?? '' };
  } catch (error) {
    throw new EngramError('CONFIG_INVALID', `${path} is not valid JSON: ${(error as Error).message}`, {
      hint: 'Log in again: engram team login --server URL --token T',
    });
  }
}

export function writeTeamCredentials(path: string, c: TeamCredentials): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  writeFileSync(path, `${JSON.stringify(c, null, 2)}\n`, { mode: 0o600 });
  chmodSync(path, 0o600); // an older file keeps its mode on overwrite
}

export function requireTeamCredentials(path: string): TeamCredentials {
  const c = readTeamCredentials(path);
  if (!c) {
    throw new EngramError('NOT_FOUND', 'not logged in to a team server', {
      hint: 'Run: engram team login --server URL --token T',
    });
  }
  return c;
}
