/**
 * The viewer's per-install secret: 32 random bytes in a file only its owner can read (0600), created on
 * first use. Launch tokens and session cookies are signed with it; it never leaves this machine and is
 * never sent in a response.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { EngramError } from '../../core/errors.ts';

const SECRET = /^[0-9a-f]{64}$/;

function create(path: string): string {
  const secret = randomBytes(32).toString('hex');
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  try {
    // O_EXCL: two processes starting at once agree on one secret (the loser reads the winner's).
    writeFileSync(path, `${secret}\n`, { mode: 0o600, flag: 'wx' });
    return secret;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return read(path);
    throw new EngramError('STORE_FAILED', `cannot write the viewer secret at ${path}`, { cause: error });
  }
}

function read(path: string): string {
  // A secret readable by others is no secret: take the permissions back before using it.
  if ((statSync(path).mode & 0o077) !== 0) chmodSync(path, 0o600);
  const text = readFileSync(path, 'utf8').trim();
  if (!SECRET.test(text)) {
    throw new EngramError('CONFIG_INVALID', `the viewer secret at ${path} is damaged`, {
      hint: 'Delete the file; "engram ui" makes a new one (open viewer tabs then need a new link).',
    });
  }
  return text;
}

/** The install's viewer secret, made on first use. */
export function loadViewerSecret(path: string): string {
  try {
    return read(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return create(path);
    throw error;
  }
}
