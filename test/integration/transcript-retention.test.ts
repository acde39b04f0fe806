/**
 * Claude Code's transcript retention, black-box: `engram doctor` and `engram status` warn when
 * `cleanupPeriodDays` (in the temporary HOME's ~/.claude/settings.json) keeps no transcripts, or will
 * delete ones engram has not read, and say how to change it.
 */
import { copyFileSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSandbox, REPO_ROOT, type Sandbox } from '../support/sandbox.ts';

describe('transcript retention in doctor and status', () => {
  let sb: Sandbox;
  beforeEach(() => {
    sb = createSandbox();
    mkdirSync(join(sb.home, '.claude'), { recursive: true });
  });
  afterEach(() => sb.cleanup());
  const settings = (json: unknown) =>
    writeFileSync(join(sb.home, '.claude', 'settings.json'), JSON.stringify(json, null, 2));

  it('cleanupPeriodDays 0: doctor fails the check and status says so, with how to change it', () => {
    settings({ cleanupPeriodDays: 0 });
    const doctor = sb.engram(['doctor']);
    expect(doctor.status).toBe(1);
    expect(doctor.stdout).toMatch(
      /✗ transcripts: Claude Code keeps no transcripts \(cleanupPeriodDays is 0 in .*\.claude\/settings\.json\)/,
    );
    expect(doctor.stdout).toMatch(
      /fix: In Claude Code's settings, set "cleanupPeriodDays": 90 in .*settings\.json/,
    );
    const status = sb.engram(['status']);
    expect(status.status).toBe(0);
    expect(status.stdout).toMatch(/TRANSCRIPTS: Claude Code keeps no transcripts/);
  });

  it('an unread transcript due for deletion is named; once read, the warning goes', () => {
    settings({ cleanupPeriodDays: 10, permissions: { allow: [] } });
    const dir = join(sb.home, '.claude', 'projects', '-home-USER-projects-spotter');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'short.jsonl');
    copyFileSync(join(REPO_ROOT, 'test', 'fixtures', 'transcripts', 'short.jsonl'), file);
    const nineDaysAgo = (Date.now() - 9 * 86_400_000) / 1000;
    utimesSync(file, nineDaysAgo, nineDaysAgo);
    const doctor = sb.engram(['doctor']);
    expect(doctor.stdout).toMatch(
      /! transcripts: 1 Claude Code transcript engram has not read \(all\) yet is deleted by Claude Code within 1 day \(cleanupPeriodDays 10 in .*settings\.json\)/,
    );
    expect(doctor.stdout).toMatch(
      /fix: Read them now with "engram backfill"; to keep transcripts longer, set "cleanupPeriodDays": 90/,
    );
    expect(sb.engram(['status']).stdout).toMatch(/transcripts: 1 Claude Code transcript engram has not read/);
    expect(sb.engram(['backfill']).status).toBe(0);
    expect(sb.engram(['doctor']).stdout).toMatch(/✓ transcripts: Claude Code keeps transcripts 10 days/);
  });
});
