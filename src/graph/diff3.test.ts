import { describe, expect, it } from 'vitest';
import { merge3, merge3Text } from './diff3.ts';

const L = (s: string) => s.split('');

describe('three-way merge', () => {
  it('takes the side that changed, and both when they changed different lines', () => {
    expect(merge3(L('abcde'), L('abcde'), L('abXde')).lines.join('')).toBe('abXde');
    expect(merge3(L('abcde'), L('aYcde'), L('abcde')).lines.join('')).toBe('aYcde');
    expect(merge3(L('abcdefg'), L('aYcdefg'), L('abcdeZg'))).toEqual({ lines: L('aYcdeZg'), conflicts: 0 });
  });

  it('keeps insertions and deletions from both sides', () => {
    expect(merge3(L('abcd'), L('Xabcd'), L('abcdY')).lines.join('')).toBe('XabcdY');
    expect(merge3(L('abcdef'), L('abdef'), L('abcdf')).lines.join('')).toBe('abdf');
  });

  it('a change both sides made identically is not a conflict', () => {
    expect(merge3(L('abc'), L('aXc'), L('aXc'))).toEqual({ lines: L('aXc'), conflicts: 0 });
  });

  it('an overlapping hunk keeps the first side and counts a conflict', () => {
    expect(merge3(L('abcde'), L('abXde'), L('abYde'))).toEqual({ lines: L('abXde'), conflicts: 1 });
    // Deleted on one side, changed on the other: still a conflict, the first side wins.
    expect(merge3(L('abcde'), L('abde'), L('abYde'))).toEqual({ lines: L('abde'), conflicts: 1 });
  });

  it('merges text line by line', () => {
    const base = 'title\n\nfirst paragraph\n\n## Facts\n- one\n';
    const vault = 'title\n\nfirst paragraph, edited by hand\n\n## Facts\n- one\n';
    const store = 'title\n\nfirst paragraph\n\n## Facts\n- one\n- two\n';
    expect(merge3Text(base, vault, store)).toEqual({
      text: 'title\n\nfirst paragraph, edited by hand\n\n## Facts\n- one\n- two\n',
      conflicts: 0,
    });
  });

  it('handles empty sides', () => {
    expect(merge3Text('', 'a\n', '')).toEqual({ text: 'a\n', conflicts: 0 });
    expect(merge3Text('a\n', '', 'a\n')).toEqual({ text: '', conflicts: 0 });
    expect(merge3Text('a\n', 'b\n', 'c\n')).toEqual({ text: 'b\n', conflicts: 1 });
  });
});
