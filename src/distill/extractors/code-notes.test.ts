import { describe, expect, it } from 'vitest';
import { linesAroundTrackerLinks } from '../../core/tracker-links.ts';
import { codeNotes, extractCodeNotes, issueRef } from './code-notes.ts';
import { tool } from './test-entries.test-support.ts';

const numbered = (src: string) =>
  src
    .split('\n')
    .map((l, i) => `${String(i + 1).padStart(6)}→${l}`)
    .join('\n');

const GO = `package cli

// CheckoutBranch switches to the specified local branch or commit.
// Uses git CLI instead of go-git to work around go-git v5 bug where Checkout
// deletes untracked files (see https://github.com/go-git/go-git/issues/970).
func CheckoutBranch(ref string) error {
	return nil
}

// helper for the tests, nothing to see here
func other() {}
`;

describe('notes the code keeps about upstream bugs', () => {
  it('reads a comment citing a tracker, with the declaration it sits on', () => {
    expect(codeNotes(numbered(GO))).toEqual([
      {
        note: 'CheckoutBranch switches to the specified local branch or commit. Uses git CLI instead of go-git to work around go-git v5 bug where Checkout deletes untracked files (see go-git/go-git#970).',
        ref: 'go-git/go-git#970',
        symbol: 'CheckoutBranch',
      },
    ]);
  });

  it('knows the comment styles and declarations of other languages, and ignores bare links', () => {
    const py = `# Work around pydantic/pydantic#1234: validators run twice on re-assignment of a field
def load(cfg):
    pass

# https://github.com/a/b/issues/9
x = 1
`;
    expect(codeNotes(py)).toEqual([
      {
        note: 'Work around pydantic/pydantic#1234: validators run twice on re-assignment of a field',
        ref: 'pydantic/pydantic#1234',
        symbol: 'load',
      },
    ]);
    const ts = `/**
 * Node's fetch drops the signal after a GC (https://gitlab.com/x/y/-/issues/77), so the timer holds it.
 */
export async function post(url: string) {}`;
    expect(codeNotes(ts)[0]).toMatchObject({ ref: 'x/y#77', symbol: 'post' });
    expect(issueRef('https://github.com/o/r/pull/5')).toBe('o/r#5');
  });

  it('makes one gotcha per upstream issue from files the session read or wrote, never vendored or scratch ones', () => {
    const test = `// gitCheckout uses git CLI instead of go-git to work around go-git v5 bug
// where Checkout deletes untracked files (see https://github.com/go-git/go-git/issues/970).
func gitCheckout(t *testing.T, dir, ref string) {}`;
    const out = extractCodeNotes([
      tool('Read', { file_path: '/repo/cli/git_operations.go' }, numbered(GO)),
      tool('Write', { file_path: '/repo/cli/git_operations_test.go', content: test }),
      tool('Read', { file_path: '/repo/node_modules/x/index.js' }, numbered(GO.replace('970', '971'))),
      tool('Read', { file_path: '/tmp/try/main.go' }, numbered(GO.replace('970', '972'))),
    ]);
    expect(out).toHaveLength(1);
    const d = out[0]?.draft;
    expect(d?.type).toBe('gotcha');
    expect(d?.subject).toBe('note:go-git/go-git#970');
    expect(d?.title).toMatch(/^CheckoutBranch switches/);
    expect(d?.narrative).toContain(
      '`CheckoutBranch` (git_operations.go), `gitCheckout` (git_operations_test.go)',
    );
    expect(d?.facts).toContain('upstream: go-git/go-git#970');
    // Written in the session, the note is partly the agent's words; read only, the repository's.
    expect(d?.trust).toBeUndefined();
    const readOnly = extractCodeNotes([
      tool('Read', { file_path: '/repo/cli/git_operations.go' }, numbered(GO)),
    ]);
    expect(readOnly[0]?.draft.trust).toBe('repository');
  });

  it('the transcript reader can keep just the lines around a tracker link of a long file', () => {
    const long = `${'// filler line\n'.repeat(50)}${GO}${'x\n'.repeat(50)}`;
    const kept = linesAroundTrackerLinks(long);
    expect(kept).toContain('issues/970');
    expect(kept).toContain('func CheckoutBranch');
    expect(kept.split('\n').length).toBeLessThanOrEqual(10);
    expect(linesAroundTrackerLinks('no links here\n')).toBe('');
  });
});
