import { describe, expect, it } from 'vitest';
import { noteTime } from './note-render.ts';

describe('noteTime', () => {
  it("is toISOString() to the second, for every time (the day count's edges, leap days, beyond 9999)", () => {
    const iso = (ms: number) => new Date(ms).toISOString().slice(0, 19);
    const times = [
      0,
      999,
      1000,
      86_399_999,
      86_400_000,
      951_782_400_000, // 2000-02-29
      951_868_799_999,
      4_107_542_400_000, // 2100-03-01
      1_700_000_000_000.7,
      253_402_300_799_999, // 9999-12-31T23:59:59.999
      253_402_300_800_000, // 10000: six-digit year, by Date
      -1,
      -62_198_755_200_000,
    ];
    let seed = 7;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
    for (let i = 0; i < 20_000; i++) times.push(Math.floor(next() * 253_402_300_800_000));
    for (let i = 0; i < 5_000; i++) times.push(1_600_000_000_000 + next() * 400_000_000_000);
    for (const t of times) expect([t, noteTime(t)]).toEqual([t, iso(t)]);
  });
});
