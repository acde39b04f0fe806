import { describe, expect, it } from 'vitest';
import type { TranscriptFile } from './backfill.ts';
import { transcriptRetention } from './transcript-retention.ts';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 20);
const file = (path: string, ageDays: number, bytes = 1000, subagent = false): TranscriptFile => ({
  path,
  host: 'claude-code',
  subagent,
  bytes,
  mtimeMs: NOW - ageDays * DAY,
});

describe('transcript retention', () => {
  const base = {
    source: '/home/u/.claude/settings.json',
    now: NOW,
    backupIntervalHours: 24,
    transcripts: [] as TranscriptFile[],
    readUpTo: () => null,
  };

  it('0 keeps no transcripts: a failure that says how to change it', () => {
    const [f, ...rest] = transcriptRetention({ ...base, cleanupPeriodDays: 0 });
    expect(rest).toEqual([]);
    expect(f).toMatchObject({
      severity: 'fail',
      message: expect.stringContaining(
        'keeps no transcripts (cleanupPeriodDays is 0 in /home/u/.claude/settings.json)',
      ),
      fix: expect.stringContaining('"cleanupPeriodDays": 90 in /home/u/.claude/settings.json'),
    });
  });

  it('warns about transcripts engram has not read that are due for deletion, not about read or fresh ones', () => {
    const transcripts = [
      file('/p/a.jsonl', 28), // unread, due in 2 days (default 30)
      file('/p/b.jsonl', 29, 2000), // read only in part
      file('/p/c.jsonl', 29), // read whole
      file('/p/d.jsonl', 5), // unread but fresh
      file('/p/s/subagents/agent-1.jsonl', 29, 10, true),
    ];
    const read = new Map([
      ['/p/b.jsonl', 1000],
      ['/p/c.jsonl', 1000],
    ]);
    const findings = transcriptRetention({
      ...base,
      cleanupPeriodDays: null,
      transcripts,
      readUpTo: (p) => read.get(p) ?? null,
    });
    expect(findings).toEqual([
      {
        severity: 'warn',
        message: expect.stringMatching(
          /^2 Claude Code transcripts engram has not read \(all\) yet are deleted by Claude Code within 1 day \(cleanupPeriodDays 30, the default\)/,
        ),
        fix: expect.stringContaining('engram backfill'),
      },
    ]);
    read.set('/p/a.jsonl', 1000).set('/p/b.jsonl', 2000);
    expect(
      transcriptRetention({
        ...base,
        cleanupPeriodDays: null,
        transcripts,
        readUpTo: (p) => read.get(p) ?? null,
      }),
    ).toEqual([]);
  });

  it('a period shorter than two backup intervals is a warning (a repair needs them)', () => {
    expect(transcriptRetention({ ...base, cleanupPeriodDays: 1 })).toEqual([
      expect.objectContaining({
        severity: 'warn',
        message: expect.stringContaining('sooner than two of engram'),
      }),
    ]);
    expect(transcriptRetention({ ...base, cleanupPeriodDays: 1, backupIntervalHours: 0 })).toEqual([]);
  });
});
