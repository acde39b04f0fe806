import { describe, expect, it } from 'vitest';
import type { ObservationDraft } from '../core/model.ts';
import { ciRunsOf } from './ci-knowledge.ts';
import {
  CARD_TITLE_MAX,
  cardEntries,
  cardWith,
  commandEntries,
  foldIntoCard,
  purposeOf,
} from './commands-card.ts';
import { isStanding, scriptsNotKnown } from './knowledge.ts';

/** A per-purpose draft as `commandFactObservations` makes it. */
const purposeFact = (subject: string, main: string, more: string[] = []): ObservationDraft => ({
  type: 'fact',
  title: `\`${main}\``,
  subtitle: '',
  narrative: `In this project, \`${main}\` does it.`,
  facts: [`command: \`${main}\``, ...more],
  concepts: ['project command'],
  filesRead: [],
  filesModified: [],
  subject,
});

const fold = (drafts: ObservationDraft[]) => {
  let card: ObservationDraft | null = null;
  for (const d of drafts) card = foldIntoCard(card, d).draft;
  return card as ObservationDraft;
};

describe('the commands card', () => {
  it('reads a purpose subject: its entry key and folder', () => {
    expect(purposeOf('command:test')).toEqual({ key: 'test', dir: '' });
    expect(purposeOf('command:test:e2e@apps/web')).toEqual({ key: 'test:e2e', dir: 'apps/web' });
    expect(purposeOf('commands:.')).toBeNull();
    expect(purposeOf('fail:test')).toBeNull();
  });

  it('lists every purpose in a fixed order, one sentence each, its facts per entry, standing', () => {
    const card = fold([
      purposeFact('command:format', 'npm run format'),
      purposeFact('command:lint', 'npx biome check .'),
      purposeFact('command:gate', 'npm run check', [
        'runs: `biome check && tsc`',
        'CI runs it: .github/workflows/ci.yml',
      ]),
      purposeFact('command:typecheck', 'npm run typecheck'),
      purposeFact('command:test', 'npm test', ['one file: `npm test -- <file>`']),
    ]);
    expect(card.subject).toBe('commands:.');
    expect(card.type).toBe('fact');
    expect(isStanding(card)).toBe(true);
    expect(card.narrative).toBe(
      'In this project: `npm test` runs the tests. `npm run check` runs the project’s checks (it runs `biome check && tsc`); CI runs it (.github/workflows/ci.yml). `npm run typecheck` type-checks the code. `npx biome check .` lints the code. `npm run format` formats the code.',
    );
    expect(card.facts).toEqual([
      'test · command: `npm test`',
      'test · one file: `npm test -- <file>`',
      'gate · command: `npm run check`',
      'gate · runs: `biome check && tsc`',
      'gate · CI runs it: .github/workflows/ci.yml',
      'typecheck · command: `npm run typecheck`',
      'lint · command: `npx biome check .`',
      'format · command: `npm run format`',
    ]);
    // The title fits the index line whole.
    expect(card.title).toBe(
      'Commands: test `npm test` · check `npm run check` (CI runs it) · typecheck `npm run typecheck` · lint `npx biome check .` · format `npm run format`',
    );
    // Too many for one line: trailing entries are dropped whole, never a command cut.
    const more = fold([
      ...['test', 'gate', 'typecheck', 'lint', 'format'].map((p) =>
        purposeFact(`command:${p}`, `pnpm --filter @acme/web run ${p}`),
      ),
      purposeFact('command:build', 'pnpm build'),
    ]);
    expect(more.title).toBe(
      'Commands: test `pnpm --filter @acme/web run test` · check `pnpm --filter @acme/web run gate` · typecheck `pnpm --filter @acme/web run typecheck` · +3 more',
    );
    expect(more.title.length).toBeLessThanOrEqual(CARD_TITLE_MAX);
    expect(card.concepts).toEqual([
      'project command',
      'commands',
      'test',
      'gate',
      'typecheck',
      'lint',
      'format',
    ]);
  });

  it('reads its entries back as the per-purpose facts stated them, so a card folds into itself unchanged', () => {
    const card = fold([
      purposeFact('command:test', 'npm test', ['CI runs it: a CI log']),
      purposeFact('command:run', 'npm run dev', ['port: 5173']),
    ]);
    expect(cardEntries(card)).toEqual([
      { key: 'test', facts: ['command: `npm test`', 'CI runs it: a CI log'] },
      { key: 'run', facts: ['command: `npm run dev`', 'port: 5173'] },
    ]);
    expect(card.narrative).toContain('`npm run dev` runs the app (on port 5173).');
    expect(foldIntoCard(card, purposeFact('command:test', 'npm test'))).toEqual({
      draft: card,
      changed: false,
    });
  });

  it('keeps the per-purpose merge rules per entry: another main form is "also:", what it runs is said of it', () => {
    const card = fold([purposeFact('command:test', 'npm test'), purposeFact('command:lint', 'npm run lint')]);
    const next = foldIntoCard(card, purposeFact('command:test', 'npx vitest run', ['CI runs it: a CI log']));
    expect(next.changed).toBe(true);
    expect(cardEntries(next.draft)).toEqual([
      {
        key: 'test',
        facts: ['command: `npm test`', 'also: `npx vitest run`', 'CI runs it (`npx vitest run`): a CI log'],
      },
      { key: 'lint', facts: ['command: `npm run lint`'] },
    ]);
    // The main form stays the entry's command; what CI runs is read per entry.
    expect(commandEntries([next.draft]).flatMap(ciRunsOf)).toEqual([
      { command: 'npx vitest run', seen: 'a CI log' },
    ]);
  });

  it('a folder has its own card; a title with no room for its first command names the purposes', () => {
    const long = `npx turbo run test --filter=@acme/web --concurrency=1 -- --reporter=verbose --coverage --coverage.include=src/**/*.ts --coverage.exclude=src/**/*.test.ts --silent`;
    const card = fold([
      purposeFact('command:test@apps/web', long),
      purposeFact('command:lint@apps/web', 'pnpm lint'),
    ]);
    expect(card.subject).toBe('commands:apps/web');
    expect(card.title).toBe('Commands in apps/web: test, lint');
    expect(card.narrative.startsWith('In apps/web: `npx turbo')).toBe(true);
  });

  it('is read like the per-purpose facts by what reads command knowledge', () => {
    const card = fold([
      purposeFact('command:build', 'npm run build'),
      purposeFact('command:gate', 'npm run check'),
    ]);
    const older = purposeFact('command:test@web', 'npm test', ['CI runs it: a CI log']);
    const other: ObservationDraft = { ...older, subject: 'env:ci:/x', facts: ['runs: `npm run lint`'] };
    expect(commandEntries([card, older, other]).map((e) => e.key)).toEqual(['gate', 'build', 'test']);
    const scripts: ObservationDraft = {
      ...older,
      title: 'Scripts of shop: build, check, dev',
      narrative: 'package.json defines: x.',
      facts: ['`npm run build` runs `tsc`', '`npm run check` runs `biome`', '`npm run dev` runs `vite`'],
      subject: 'env:scripts:/shop/package.json',
    };
    const left = scriptsNotKnown(
      scripts,
      commandEntries([card]).map((e) => ({ title: '', facts: e.facts })),
    );
    expect(left?.facts).toEqual(['`npm run dev` runs `vite`']);
  });

  it('folds a store’s older per-purpose facts and the new one into the card in order', () => {
    expect(cardWith(null, [])).toBeNull();
    const card = fold([purposeFact('command:test', 'npm test')]);
    const next = cardWith(card, [
      purposeFact('command:lint', 'npm run lint'),
      purposeFact('command:test', 'npx vitest run'),
    ]);
    expect(next?.facts).toEqual([
      'test · command: `npm test`',
      'test · also: `npx vitest run`',
      'lint · command: `npm run lint`',
    ]);
  });
});
