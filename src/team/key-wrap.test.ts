import { describe, expect, it } from 'vitest';
import {
  deviceIdOf,
  deviceKeyFromPem,
  fingerprintOf,
  newDeviceKeyPem,
  unwrapProjectKey,
  wrapProjectKey,
  type DeviceKey,
} from './key-wrap.ts';
import { newKey } from './record-seal.ts';

const PROJECT = 'prj_0123456789abcdef';
const device = (): DeviceKey => deviceKeyFromPem(newDeviceKeyPem());
const pub = (d: DeviceKey) => ({ id: d.id, publicKey: d.publicKey });

describe('project keys wrapped per device', () => {
  const alice = device();
  const bob = device();
  const carol = device();
  const key = newKey();

  it('a device key is X25519, its id derived from the public key, and it survives its PEM', () => {
    expect(alice.publicKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(alice.id).toBe(deviceIdOf(alice.publicKey));
    expect(alice.id).toMatch(/^dk_[0-9a-f]{32}$/);
    expect(fingerprintOf(alice.id)).toMatch(/^[0-9a-f]{4}(-[0-9a-f]{4}){3}$/);
    const pem = alice.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    expect(deviceKeyFromPem(pem).id).toBe(alice.id);
    expect(alice.id).not.toBe(bob.id);
  });

  it('only the recipient opens a wrap, and gets the key', () => {
    const w = wrapProjectKey(alice, pub(bob), PROJECT, 3, key);
    expect(w).toMatchObject({ project: PROJECT, version: 3, to: bob.id, from: alice.id });
    expect(unwrapProjectKey(bob, pub(alice), w)?.equals(key)).toBe(true);
    // The wrap holds no byte of the key in any encoding.
    const text = JSON.stringify(w);
    for (const enc of ['hex', 'base64', 'base64url'] as const) expect(text).not.toContain(key.toString(enc));
    // Carol, even told it is hers, cannot open it.
    expect(unwrapProjectKey(carol, pub(alice), { ...w, to: carol.id })).toBeNull();
    expect(unwrapProjectKey(carol, pub(alice), w)).toBeNull();
  });

  it('a wrap altered or moved to another project, version, recipient or sender does not open', () => {
    const w = wrapProjectKey(alice, pub(bob), PROJECT, 1, key);
    const flip = (s: string) => `${s.slice(0, 10)}${s[10] === 'A' ? 'B' : 'A'}${s.slice(11)}`;
    expect(unwrapProjectKey(bob, pub(alice), { ...w, ct: flip(w.ct) })).toBeNull();
    expect(unwrapProjectKey(bob, pub(alice), { ...w, iv: flip(w.iv) })).toBeNull();
    expect(unwrapProjectKey(bob, pub(alice), { ...w, eph: carol.publicKey })).toBeNull();
    expect(unwrapProjectKey(bob, pub(alice), { ...w, version: 2 })).toBeNull();
    expect(unwrapProjectKey(bob, pub(alice), { ...w, project: 'prj_fedcba9876543210' })).toBeNull();
    // Claimed to come from carol (the server listing carol as the sender): refused.
    expect(unwrapProjectKey(bob, pub(carol), { ...w, from: carol.id })).toBeNull();
    // A public key that does not match the listed id: refused.
    expect(unwrapProjectKey(bob, { id: alice.id, publicKey: carol.publicKey }, w)).toBeNull();
    expect(() => wrapProjectKey(alice, { id: bob.id, publicKey: carol.publicKey }, PROJECT, 1, key)).toThrow(
      /does not match/,
    );
  });

  it('a wrap made by carol with her own key opens as carol’s, not as alice’s', () => {
    const w = wrapProjectKey(carol, pub(bob), PROJECT, 1, key);
    expect(unwrapProjectKey(bob, pub(carol), w)?.equals(key)).toBe(true);
    expect(unwrapProjectKey(bob, pub(alice), { ...w, from: alice.id })).toBeNull();
  });
});
