import { describe, expect, it } from 'vitest';
import { isStanding } from '../knowledge.ts';
import { extractAll, userWordsOfTurn } from '../transcript-distiller.ts';
import { extractPastedReports, isPastedReport } from './pasted-report.ts';
import { prompt, say } from './test-entries.test-support.ts';
import { extractUserWords } from './user-words.ts';

/** The prompt hook's event for `prompt`, as the worker queues it (no transcript to read). */
const hookPrompt = (prompt: string) => ({
  seq: 1,
  sessionId: 's1',
  projectId: '' as never,
  cwd: '/work/bastion',
  transcriptPath: null,
  at: 10,
  attempts: 0,
  event: { kind: 'prompt' as const, prompt },
});

const HANDOFF = [
  '## Goal',
  'Ship the audit service for the hackathon.',
  '',
  '## Key decisions',
  '- Oracle staleness check deferred because it needs on-chain RPC lookups of slot timestamps',
  '- Token authority detection matches the first byte of the instruction data (4=freeze, 9=setMintAuthority)',
  '- Policy rules implemented as Rust trait impls, not external service calls',
  '',
  '## How to run',
  '- On-chain mode: `BASTION_ON_CHAIN=1 SOLANA_RPC_URL=https://api.devnet.solana.com cargo run --release`',
  '- Anchor program ID: BaSZuLcwjfh75T3TjbVYpTH4qpJt1tNoZ3S6PTkvNhCb',
  '- /logs endpoints return PaginatedLogsResponse {total, offset, limit, entries}',
  '',
  '## Errors and fixes',
  '- **cargo test panicked with "keypair not found"**: the tests read BASTION_KEYPAIR_PATH; set it to ./keypair.json.',
  '',
  '## Rules',
  '- Never commit the private key bastion-audit-keypair.json',
  '',
  '## Next steps',
  '- Tag the release for the hackathon submission',
  '- Push to origin main',
  '',
  '## Relevant files',
  '- src/policy.rs: BlockintRules, FlashLoanPatternCheck, HighSlippageCheck',
  '- src/main.rs: reads BASTION_ON_CHAIN and SOLANA_RPC_URL',
  '- Cargo.toml: added sha2 = "0.10"',
  '',
  'Continue please',
].join('\n');

const titles = (xs: ReturnType<typeof extractPastedReports>) => xs.map((x) => [x.draft.type, x.draft.title]);

describe('a report the user pasted', () => {
  it('is read section by section: decisions with their reasons, the run command, errors and fixes, rules', () => {
    const found = extractPastedReports([prompt(HANDOFF)]);
    expect(titles(found)).toEqual([
      [
        'decision',
        'Oracle staleness check deferred because it needs on-chain RPC lookups of slot timestamps',
      ],
      [
        'decision',
        'Token authority detection matches the first byte of the instruction data (4=freeze, 9=setMintAuthority)',
      ],
      ['decision', 'Policy rules implemented as Rust trait impls, not external service calls'],
      [
        'fact',
        'On-chain mode: BASTION_ON_CHAIN=1 SOLANA_RPC_URL=https://api.devnet.solana.com cargo run --release',
      ],
      ['fact', 'How to run: /logs endpoints return PaginatedLogsResponse {total, offset, limit, entries}'],
      [
        'gotcha',
        'cargo test panicked with "keypair not found" → the tests read BASTION_KEYPAIR_PATH; set it to ./keypair.json.',
      ],
      ['convention', 'Never commit the private key bastion-audit-keypair.json'],
    ]);
    const oracle = found[0]?.draft;
    expect(oracle?.facts).toContain('reason: because it needs on-chain RPC lookups of slot timestamps');
    expect(found[2]?.draft.facts).toContain('instead of: external service calls');
    expect(found[4]?.draft.facts).toContain(
      'reported: Anchor program ID: BaSZuLcwjfh75T3TjbVYpTH4qpJt1tNoZ3S6PTkvNhCb',
    );
    // Its next steps are the earlier session's, its file list names files: neither is read.
    const all = JSON.stringify(found);
    expect(all).not.toContain('Tag the release');
    expect(all).not.toContain('FlashLoanPatternCheck');
  });

  it('is an earlier agent’s account: not the user’s words, not standing unless it is a rule', () => {
    const found = extractAll([prompt(HANDOFF), say('Continuing: tagging the release.')]);
    const pasted = found.filter((x) => x.draft.concepts.includes('pasted report'));
    expect(pasted.length).toBe(7);
    // The trust of the assistant's words, never the user's.
    for (const x of pasted) expect(x.draft.trust).not.toBe('user');
    const standing = pasted.filter((x) => isStanding(x.draft)).map((x) => x.draft.title);
    expect(standing).toEqual(['Never commit the private key bastion-audit-keypair.json']);
    // Nothing of it is read as the user's own statement.
    expect(extractUserWords([prompt(HANDOFF), say('Continuing.')])).toEqual([]);
  });

  it('is read the same from the prompt hook’s payload when no transcript can be read', () => {
    const fromHook = userWordsOfTurn([hookPrompt(HANDOFF)], '').filter((x) =>
      x.draft.concepts.includes('pasted report'),
    );
    const fromTranscript = extractPastedReports([prompt(HANDOFF)]);
    expect(fromHook.map((x) => x.draft.subject)).toEqual(fromTranscript.map((x) => x.draft.subject));
    for (const x of fromHook) expect(x.draft.trust).not.toBe('user');
  });

  it("reads nothing of the user's into the host's note that a background task ended, should a hook pass it on", () => {
    const note = [
      '<task-notification>',
      '<task-id>b8</task-id>',
      '<output-file>/tmp/claude-1000/-work-bastion/tasks/b8.output</output-file>',
      '<status>failed</status>',
      '<summary>Background command "cargo test" failed with exit code 101</summary>',
      '</task-notification>',
      'Read the output file to retrieve the result: /tmp/claude-1000/-work-bastion/tasks/b8.output',
    ].join('\n');
    expect(userWordsOfTurn([hookPrompt(note)], '')).toEqual([]);
  });

  it('reads a report with bare headings and a cut start, and stops where the paste turns into a log', () => {
    const text = [
      'ION_ON_CHAIN env var)',
      '- Skills installed via npx skills add for development-time expertise; skills are agent instructions, not runtime libraries',
      '- Oracle check deferred because it requires RPC lookups',
      'Next Steps',
      '- Commit and push all changes',
      'Critical Context',
      '- All 66 tests pass',
      '- Balance tracking computes delta = post_balance - pre_balance before simulation',
      'Relevant Files',
      '- src/lib.rs: AppState includes on_chain client',
      '▣  Compaction · Big Pickle · 54.9s',
      'Thinking: The next steps are to commit, since everything passes.',
      '# Check git status',
      '$ git status',
      'On branch main',
      'Decisions',
      '- We keep the keypair out of git because it holds a private key',
      '- Use anchor 0.30 instead of 0.29 since the IDL format changed',
    ].join('\n');
    expect(isPastedReport(text)).toBe(true);
    expect(titles(extractPastedReports([prompt(text)]))).toEqual([
      [
        'decision',
        'Skills installed via npx skills add for development-time expertise; skills are agent instructions, not…',
      ],
      ['decision', 'Oracle check deferred because it requires RPC lookups'],
      [
        'fact',
        'Critical Context: Balance tracking computes delta = post_balance - pre_balance before simulation',
      ],
    ]);
  });

  it('reads the host’s compaction summary pasted into a new session by its numbered sections', () => {
    const text = [
      'This session is being continued from a previous conversation that ran out of context. The conversation is summarized below:',
      'Analysis:',
      'The user asked for a CSV export.',
      '',
      'Summary:',
      '1. Primary Request and Intent:',
      '   - Add a CSV export of the orders table',
      '2. Key Technical Concepts:',
      '   - Streams the rows with a cursor instead of loading them all, because the table has 2M rows',
      '   - Dates are written as ISO 8601 in UTC',
      '   - The export endpoint is behind the admin guard',
      '3. Errors and fixes:',
      '   - **Export timed out after 30 s**: the proxy closed idle responses; fixed by flushing a header row first.',
      '4. Pending Tasks:',
      '   - Add a progress bar',
      '',
      'go on',
    ].join('\n');
    expect(titles(extractPastedReports([prompt(text)]))).toEqual([
      [
        'decision',
        'Streams the rows with a cursor instead of loading them all, because the table has 2M rows',
      ],
      ['fact', 'Key Technical Concepts: The export endpoint is behind the admin guard'],
      [
        'gotcha',
        'Export timed out after 30 s → the proxy closed idle responses; fixed by flushing a header row first.',
      ],
    ]);
    // The summary's lines are not the user's words.
    expect(extractUserWords([prompt(text), say('Going on with the progress bar.')])).toEqual([]);
  });

  it('is not a pasted log, a stack trace or a file listing', () => {
    const log = [
      'the build fails again:',
      'error[E0382]: borrow of moved value: `config`',
      '  --> src/main.rs:42:18',
      '   |',
      '40 |     let config = load();',
      '   |         ------ move occurs because `config` has type `Config`',
      'help: consider cloning the value if the performance cost is acceptable',
      'TypeError: Cannot read properties of undefined (reading "map")',
      '    at render (src/app.tsx:12:5)',
      '    at main (src/index.ts:3:1)',
      '- because the value was moved into the closure',
      '- instead of borrowing it',
    ].join('\n');
    const listing = [
      'here are the files:',
      'Changed files',
      '- src/a.ts',
      '- src/b.ts',
      '- src/c.ts because of the rename',
      'Files kept',
      '- README.md',
      '- docs/guide.md',
      'total 48',
      'drwxr-xr-x  5 me staff  160 Nov 28 10:12 src',
      '-rw-r--r--  1 me staff 1200 Nov 28 10:12 package.json',
    ].join('\n');
    expect(isPastedReport(log)).toBe(false);
    expect(extractPastedReports([prompt(log), prompt(listing)])).toEqual([]);
  });
});

describe('the user’s own request written as a list', () => {
  it('is a spec of work to do, not an earlier session’s report', () => {
    const spec = [
      'claude "/build-with-claude Build all React components for the app using the hooks already in src/hooks/',
      '',
      'Components needed:',
      '',
      '1. components/Navbar.tsx',
      '   - Logo with a small house icon',
      '   - Links: Home, Properties, Portfolio',
      '2. components/PropertyCard.tsx',
      '   - Property photo (use an unsplash URL)',
      '   - Price per share, progress bar of shares sold',
      '',
      'Tasks:',
      '- Copy the logo files to public/',
      '- Update components/Navbar.tsx to use the logo image',
      '- Create components/Logo.tsx with size variants (sm/md/lg)"',
    ].join('\n');
    expect(extractPastedReports([prompt(spec)])).toEqual([]);
    // The same lists under a hand-off's account of work done are read as the report they are.
    const handoff = spec
      .replace(/^claude "\/build-with-claude Build all/, 'Here is where the last session left: it built all')
      .replace('- Copy the logo files to public/', '- Added the logo files to public/');
    expect(extractPastedReports([prompt(handoff)]).length).toBeGreaterThan(0);
  });
});
