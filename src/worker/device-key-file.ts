/**
 * This machine's device key (team/key-wrap.ts) on disk: `$ENGRAM_HOME/device-key.pem`, mode 0600,
 * made on first need (the first sync of an encrypted project). It never leaves the machine: the team
 * server gets only its public half. Two processes making it at once agree (the first file written
 * wins; the other reads it).
 */
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { EngramError } from '../core/errors.ts';
import { deviceKeyFromPem, newDeviceKeyPem, type DeviceKey } from '../team/key-wrap.ts';

const isCode = (error: unknown, code: string) => (error as NodeJS.ErrnoException | null)?.code === code;

/** The device key at `path`, made there first when there is none. */
export function loadDeviceKey(path: string): DeviceKey {
  try {
    return fromFile(path);
  } catch (error) {
    if (!isCode(error, 'ENOENT')) throw error;
  }
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  try {
    writeFileSync(path, newDeviceKeyPem(), { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if (!isCode(error, 'EEXIST')) throw error;
  }
  return fromFile(path);
}

/** The device key at `path`, or null when this machine has none yet (nothing is made). */
export function readDeviceKey(path: string): DeviceKey | null {
  try {
    return fromFile(path);
  } catch (error) {
    if (isCode(error, 'ENOENT')) return null;
    throw error;
  }
}

function fromFile(path: string): DeviceKey {
  const pem = readFileSync(path, 'utf8');
  try {
    const key = deviceKeyFromPem(pem);
    chmodSync(path, 0o600);
    return key;
  } catch (error) {
    throw new EngramError('CONFIG_INVALID', `${path} does not hold this machine's device key`, {
      cause: error,
      hint: 'Move the file aside: a new device key is made at the next sync, and a member grants the project key to it again ("engram team key grant").',
    });
  }
}
