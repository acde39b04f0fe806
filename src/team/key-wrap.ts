/**
 * A project key wrapped for one member's device, so it reaches them through the team server without
 * the server being able to read it. Every machine has a device key pair (X25519 from `node:crypto`);
 * the private half never leaves it. A wrap is the project key of one version sealed with AES-256-GCM
 * under a key derived (HKDF-SHA-256) from two X25519 agreements with the recipient's public key: one
 * with a fresh ephemeral key (a new secret per wrap), one with the sender's device key (only a device
 * enrolled in the project can have made it). The project, key version, recipient and sender devices
 * are the additional data, so a wrap moved to another project, version or device does not open.
 * No primitive of our own: X25519, HKDF, SHA-256 and AES-GCM are all node:crypto's.
 */
import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createPrivateKey,
  createPublicKey,
  diffieHellman,
  generateKeyPairSync,
  hkdfSync,
  randomBytes,
  type KeyObject,
} from 'node:crypto';
import { EngramError } from '../core/errors.ts';
import type { WrappedKey } from './protocol.ts';
import { canonicalJson } from './record-hash.ts';
import { KEY_BYTES } from './record-seal.ts';

const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const INFO = Buffer.from('engram project key wrap v1');

/** This machine's device key: its id (from the public key), the public key (raw, base64url) and the private key. */
export interface DeviceKey {
  id: string;
  publicKey: string;
  privateKey: KeyObject;
}

/** A device as the server lists it: its id and public key. */
export interface DevicePublic {
  id: string;
  publicKey: string;
}

const rawPublic = (key: KeyObject): string => {
  const jwk = key.export({ format: 'jwk' });
  if (jwk.crv !== 'X25519' || typeof jwk.x !== 'string')
    throw new EngramError('INPUT_INVALID', 'not an X25519 key');
  return jwk.x;
};

const publicKeyObject = (publicKey: string): KeyObject => {
  if (!/^[A-Za-z0-9_-]{43}$/.test(publicKey))
    throw new EngramError('INPUT_INVALID', 'a device public key is 32 bytes, base64url');
  return createPublicKey({ key: { kty: 'OKP', crv: 'X25519', x: publicKey }, format: 'jwk' });
};

/** A device's id: `dk_` and the first 128 bits of SHA-256 of its public key (anyone can check it). */
export const deviceIdOf = (publicKey: string): string =>
  `dk_${createHash('sha256').update(Buffer.from(publicKey, 'base64url')).digest('hex').slice(0, 32)}`;

/** A short fingerprint to compare by eye or voice (the first 64 bits of the id, grouped). */
export const fingerprintOf = (deviceId: string): string =>
  (deviceId.slice(3, 19).match(/.{4}/g) ?? []).join('-');

/** A new device key, as the PKCS#8 PEM text to keep (0600) on this machine. */
export function newDeviceKeyPem(): string {
  const { privateKey } = generateKeyPairSync('x25519');
  return privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
}

/** The device key kept as PEM text. */
export function deviceKeyFromPem(pem: string): DeviceKey {
  const privateKey = createPrivateKey({ key: pem, format: 'pem' });
  if (privateKey.asymmetricKeyType !== 'x25519')
    throw new EngramError('CONFIG_INVALID', 'the device key file holds no X25519 key');
  const publicKey = rawPublic(createPublicKey(privateKey));
  return { id: deviceIdOf(publicKey), publicKey, privateKey };
}

interface WrapPlace {
  project: string;
  version: number;
  to: DevicePublic;
  from: DevicePublic;
}

function wrapKeyFor(place: WrapPlace, eph: string, shared: Buffer[]): { key: Buffer; aad: Buffer } {
  const salt = Buffer.concat(
    [eph, place.from.publicKey, place.to.publicKey].map((k) => Buffer.from(k, 'base64url')),
  );
  const key = Buffer.from(hkdfSync('sha256', Buffer.concat(shared), salt, INFO, 32));
  const aad = Buffer.from(
    canonicalJson({
      wrap: 1,
      project: place.project,
      kv: place.version,
      to: place.to.id,
      from: place.from.id,
    }),
  );
  return { key, aad };
}

/** Wrap one version of a project key for a device (the sender is this machine's device). */
export function wrapProjectKey(
  me: DeviceKey,
  to: DevicePublic,
  project: string,
  version: number,
  projectKey: Buffer,
): WrappedKey {
  if (deviceIdOf(to.publicKey) !== to.id)
    throw new EngramError('INPUT_INVALID', `device ${to.id} does not match its public key`);
  const ephemeral = generateKeyPairSync('x25519');
  const recipient = publicKeyObject(to.publicKey);
  const eph = rawPublic(ephemeral.publicKey);
  const shared = [
    diffieHellman({ privateKey: ephemeral.privateKey, publicKey: recipient }),
    diffieHellman({ privateKey: me.privateKey, publicKey: recipient }),
  ];
  const { key, aad } = wrapKeyFor({ project, version, to, from: me }, eph, shared);
  const iv = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(aad);
  const ct = Buffer.concat([cipher.update(projectKey), cipher.final(), cipher.getAuthTag()]);
  return {
    project,
    version,
    to: to.id,
    from: me.id,
    eph,
    iv: iv.toString('base64url'),
    ct: ct.toString('base64url'),
  };
}

/**
 * Open a wrap addressed to this device, made by the device `from` (its public key as the server lists
 * it). Null when it does not open: altered, made for another place, or not from that device.
 */
export function unwrapProjectKey(me: DeviceKey, from: DevicePublic, wrap: WrappedKey): Buffer | null {
  if (wrap.to !== me.id || wrap.from !== from.id || deviceIdOf(from.publicKey) !== from.id) return null;
  try {
    const eph = publicKeyObject(wrap.eph);
    const shared = [
      diffieHellman({ privateKey: me.privateKey, publicKey: eph }),
      diffieHellman({ privateKey: me.privateKey, publicKey: publicKeyObject(from.publicKey) }),
    ];
    const { key, aad } = wrapKeyFor(
      { project: wrap.project, version: wrap.version, to: me, from },
      wrap.eph,
      shared,
    );
    const raw = Buffer.from(wrap.ct, 'base64url');
    if (raw.length !== KEY_BYTES + TAG_BYTES) return null;
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(wrap.iv, 'base64url'), {
      authTagLength: TAG_BYTES,
    });
    decipher.setAAD(aad);
    decipher.setAuthTag(raw.subarray(KEY_BYTES));
    return Buffer.concat([decipher.update(raw.subarray(0, KEY_BYTES)), decipher.final()]);
  } catch {
    return null;
  }
}
