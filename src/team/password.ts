/**
 * Passwords (for the viewer's login) as Argon2id at or above OWASP's minimum: 19 MiB of memory,
 * 2 iterations, 1 lane. WebAssembly (hash-wasm), so nothing is compiled or downloaded at install.
 */
import { randomBytes } from 'node:crypto';
import { argon2id, argon2Verify } from 'hash-wasm';

export const ARGON2_PARAMS = { memorySize: 19_456, iterations: 2, parallelism: 1, hashLength: 32 } as const;

/** A PHC string (`$argon2id$v=19$m=19456,t=2,p=1$…`) with a fresh 16-byte salt. */
export function hashPassword(password: string): Promise<string> {
  return argon2id({ password, salt: randomBytes(16), ...ARGON2_PARAMS, outputType: 'encoded' });
}

export function verifyPassword(password: string, encoded: string): Promise<boolean> {
  return argon2Verify({ password, hash: encoded });
}
