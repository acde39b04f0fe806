import { describe, expect, it } from 'vitest';
import type { TranscriptEntry } from '../core/transcript.ts';
import { pushedRemote } from './pushed-remote.ts';

const CWD = '/home/ana/work/shop-worktrees/checkout';
let n = 0;
const run = (
  command: string,
  text: string,
  extra: { isError?: boolean; cwd?: string } = {},
): TranscriptEntry => ({
  kind: 'tool_call',
  uuid: `u${++n}`,
  at: n,
  id: `t${n}`,
  name: 'Bash',
  input: { command },
  result: { text, isError: extra.isError ?? false, structured: null, uuid: `r${n}` },
  sidechain: false,
  ...(extra.cwd !== undefined ? { cwd: extra.cwd } : {}),
});
const PUSHED = (url: string) =>
  `remote: Create a pull request for 'checkout' on GitHub by visiting:\nremote:      https://github.com/ana/other/pull/new/checkout\nremote:\nTo ${url}\n * [new branch]      checkout -> checkout`;

describe('the repository a session pushed to', () => {
  it('is the remote its own push printed, normalised as a project key', () => {
    expect(pushedRemote([run('git push -u origin checkout', PUSHED('github.com:Ana/Shop.git'))], CWD)).toBe(
      'github.com/ana/shop',
    );
    expect(
      pushedRemote([run('git push', PUSHED('https://github.com/ana/shop.git'), { cwd: CWD })], CWD),
    ).toBe('github.com/ana/shop');
  });

  it('is nothing when the push ran elsewhere, failed, went to a path, or went to two repositories', () => {
    expect(pushedRemote([run('cd ../lib && git push', PUSHED('github.com:ana/lib.git'))], CWD)).toBeNull();
    expect(pushedRemote([run('git -C ../lib push', PUSHED('github.com:ana/lib.git'))], CWD)).toBeNull();
    expect(
      pushedRemote([run('git push', PUSHED('github.com:ana/lib.git'), { cwd: '/home/ana/work/lib' })], CWD),
    ).toBeNull();
    expect(
      pushedRemote(
        [run('git push', `${PUSHED('github.com:ana/shop.git')}\n! [rejected]`, { isError: true })],
        CWD,
      ),
    ).toBeNull();
    expect(pushedRemote([run('git push', PUSHED('/srv/git/shop.git'))], CWD)).toBeNull();
    expect(
      pushedRemote(
        [
          run('git push', PUSHED('github.com:ana/shop.git')),
          run('git push fork', PUSHED('github.com:bo/shop.git')),
        ],
        CWD,
      ),
    ).toBeNull();
    // A command that only mentions a push in its output is none.
    expect(pushedRemote([run('git log -1', `To github.com:ana/shop.git`)], CWD)).toBeNull();
  });
});
