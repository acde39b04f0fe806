import { describe, expect, it } from 'vitest';
import { outcomeSentence, proseSentences } from './narration.ts';

describe('the assistant report as a title', () => {
  it('leaves check marks and emoji out of a sentence', () => {
    expect(proseSentences('✅ Force reinstall now removes wrapper hooks\n## Yes, it works now! 🎉')).toEqual([
      'Force reinstall now removes wrapper hooks',
      'Yes, it works now!',
    ]);
  });

  it('prefers the sentence stating what is now true to the one cheering it', () => {
    const report =
      'Yes, the `.env` file works now with the wrapper! The wrapper script now sources `.env` before it runs the hook command.';
    expect(outcomeSentence([report], ['entire-wrapper.sh'])).toBe(
      'The wrapper script now sources `.env` before it runs the hook command.',
    );
  });

  it('does not take a heading or a list item for a statement', () => {
    expect(outcomeSentence(['## Key capabilities\n- Pattern recognition across multiple runs\n'])).toBe('');
  });
});
