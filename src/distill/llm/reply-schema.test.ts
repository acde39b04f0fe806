import { describe, expect, it } from 'vitest';
import { extractJsonObject, parseReply } from './reply-schema.ts';

describe('parseReply', () => {
  it('repairs what models commonly add: fences, prose, an unknown type, missing lists', () => {
    const r = parseReply(
      'Here is the JSON:\n```json\n{"observations":[{"type":"insight","title":"  Cache keys include the tenant  ","facts":["a", 3, ""]}]}\n```',
    );
    expect(r).toEqual({
      ok: true,
      value: {
        observations: [
          {
            type: 'change',
            title: 'Cache keys include the tenant',
            subtitle: '',
            narrative: '',
            facts: ['a'],
            concepts: [],
            filesRead: [],
            filesModified: [],
            supersedes: null,
          },
        ],
        summary: null,
      },
    });
  });

  it('refuses what it cannot trust', () => {
    expect(parseReply('no JSON here')).toMatchObject({ ok: false, reason: 'no JSON object in the reply' });
    expect(parseReply('{"observations": [ {"title": "x", }')).toMatchObject({ ok: false });
    expect(parseReply('{"summary": {}}')).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/observations/),
    });
    expect(parseReply('{"observations":[{"type":"bugfix"}]}')).toMatchObject({ ok: false });
  });

  it('finds the first balanced object, braces inside strings included', () => {
    expect(extractJsonObject('x {"a":"}{","b":{"c":1}} y {"z":2}')).toBe('{"a":"}{","b":{"c":1}}');
    expect(extractJsonObject('{"open": true')).toBeNull();
  });
});
