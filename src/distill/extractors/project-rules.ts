/**
 * Rules of the project that no one typed as a prompt, each attributed to where it is stated:
 * - gates that stop the agent: a Stop hook that would not let the turn end (its feedback), a
 *   PreToolUse hook that blocked a tool call;
 * - the repository's git hooks, from their runners' own output when a commit or push runs them
 *   (lefthook's job list, husky, the pre-commit framework's check lines, lint-staged): which checks a
 *   commit or a push must pass;
 * - rules files for agents (CLAUDE.md, AGENTS.md) the assistant read, and the rules it quotes from them.
 * Hook output is the host's or the repository's text, never the user's words: these are conventions
 * "from the Stop hook", "from CLAUDE.md", not preferences.
 */
import { hash32Hex } from '../../core/ids.ts';
import type { TranscriptEntry } from '../../core/transcript.ts';
import { foreignPath } from '../evidence-trust.ts';
import { stripAnsi } from '../terminal-output.ts';
import { clip, unique } from '../text.ts';
import { clipWords, extracted, type Extracted } from './extracted.ts';
import { moodOf } from './mood.ts';

const hash = hash32Hex;

const firstLine = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .find(Boolean) ?? '';

/**
 * The line of a hook's message that states its rule: not a heading (`# Running Quality Checks...`),
 * not a progress line ending in an ellipsis, not a bare list item; else its first line.
 */
function ruleLine(text: string): string {
  const lines = text.split('\n').map((l) => l.trim());
  const rule = lines.find(
    (l) =>
      l !== '' &&
      !l.startsWith('#') &&
      !/(?:\.\.\.|…)$/.test(l) &&
      !/^(?:[-*•]|\d+[.)])\s/.test(l) &&
      l.split(/\s+/).length >= 3,
  );
  return rule ?? firstLine(text).replace(/^#+\s*/, '');
}

/** A git hook's run, read from its runner's output. */
interface GitHookRun {
  hook: string;
  runner: string;
  checks: string[];
  failed: string[];
}

/** Which git hook ran and which checks it ran, from lefthook, husky, pre-commit or lint-staged output. */
export function gitHookRuns(output: string): GitHookRun[] {
  const text = stripAnsi(output).replace(/\r/g, '');
  const runs: GitHookRun[] = [];
  // lefthook: "🥊 lefthook v1.12.3  hook: pre-commit", jobs "┃  biome-fix ❯", summary "✔️ name" / "🥊 name".
  const lefthook = [...text.matchAll(/lefthook v[\d.]+\s+hook:\s*([\w-]+)/g)];
  lefthook.forEach((m, i) => {
    const start = m.index ?? 0;
    const end = lefthook[i + 1]?.index ?? text.length;
    const part = text.slice(start, end);
    const jobs = [...part.matchAll(/┃\s+([\w:./-]+)\s+❯/g)].map((j) => j[1] ?? '');
    // Its summary, after "summary: (done in …)": the checks' own marks (a job's output may hold marks too).
    const summary = part.slice(Math.max(0, part.search(/summary:\s*\(done in/)));
    const marked = /summary:\s*\(done in/.test(part) ? summary : '';
    const failed = [...marked.matchAll(/^\s*(?:🥊|❌|✖️?|✗)\s+([A-Za-z][\w:./-]*)/gm)].map((j) => j[1] ?? '');
    const passed = [...marked.matchAll(/^\s*(?:✔️?|✅|✓)\s+([A-Za-z][\w:./-]*)/gm)].map((j) => j[1] ?? '');
    const checks = unique([...jobs, ...passed, ...failed]).filter(Boolean);
    if (checks.length > 0)
      runs.push({ hook: m[1] ?? 'pre-commit', runner: 'lefthook', checks, failed: unique(failed) });
  });
  // husky: "husky - pre-commit hook exited with code 1", "husky > pre-commit (node v20)".
  for (const m of text.matchAll(/husky\s*(?:-|>)\s*([\w-]+)(?: hook exited with code (\d+))?/g)) {
    const staged = /Running tasks for staged files|lint-staged/i.test(text);
    runs.push({
      hook: m[1] ?? 'pre-commit',
      runner: 'husky',
      checks: staged ? ['lint-staged'] : [],
      failed: m[2] && m[2] !== '0' ? [m[1] ?? 'hook'] : [],
    });
  }
  // The pre-commit framework: "ruff.....................Passed".
  const framework = [
    ...text.matchAll(/^(.{3,60}?)\.{4,}(?:\(no files to check\))?(Passed|Failed|Skipped)\s*$/gm),
  ];
  if (framework.length > 0)
    runs.push({
      hook: 'pre-commit',
      runner: 'pre-commit',
      checks: unique(framework.map((m) => (m[1] ?? '').trim())),
      failed: unique(framework.filter((m) => m[2] === 'Failed').map((m) => (m[1] ?? '').trim())),
    });
  return runs.filter((r) => r.checks.length > 0 || r.failed.length > 0);
}

/** The rules a rules file states: its bullet and numbered lines that tell how to work. */
export function rulesInFile(content: string): string[] {
  return rulesWithLines(content, 15).map((r) => r.text);
}

/**
 * The rules a rules file states, each with its line (from 1): its bullet and numbered lines that tell
 * how to work (a norm, a choice or a request), the first `limit` of them, each once.
 */
export function rulesWithLines(content: string, limit = 40): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = [];
  const seen = new Set<string>();
  const lines = content.split('\n');
  for (let i = 0; i < lines.length && out.length < limit; i++) {
    const raw = (lines[i] ?? '').replace(/^\s*\d+[→\t]/, '').trimEnd();
    if (!/^\s*(?:[-*]|\d+[.)])\s+\S/.test(raw)) continue;
    const text = raw
      .replace(/^\s*(?:[-*]|\d+[.)])\s+/, '')
      .replace(/\*\*|__/g, '')
      .trim();
    if (text.length < 8 || text.length > 300 || seen.has(text)) continue;
    const mood = moodOf(text);
    if (mood !== 'norm' && mood !== 'choice' && mood !== 'request') continue;
    seen.add(text);
    out.push({ line: i + 1, text });
  }
  return out;
}

const RULE_FILE = /(?:^|[\\/])((?:CLAUDE|AGENTS|GEMINI)(?:\.local)?\.md)$/i;

const HOOK_ORDER = ['pre-commit', 'commit-msg', 'pre-push'];

/** Each hook's checks from a git-hooks convention's facts ("pre-commit: biome-fix, lint"). */
function hookChecks(facts: readonly string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const f of facts) {
    const m = /^([a-z][\w-]*): (.+)$/.exec(f);
    if (!m?.[1] || !m[2] || !/^(?:pre|post|commit|prepare)-/.test(m[1])) continue;
    out.set(m[1], unique([...(out.get(m[1]) ?? []), ...m[2].split(', ')]));
  }
  return out;
}

/**
 * The project's git hooks as one convention per hook runner: which checks committing, a commit
 * message and pushing must pass, attributed to the hooks.
 */
export function gitHookRule(runner: string, hooks: ReadonlyMap<string, readonly string[]>) {
  const order = [...hooks.keys()].sort(
    (a, b) => (HOOK_ORDER.indexOf(a) + 1 || 9) - (HOOK_ORDER.indexOf(b) + 1 || 9) || a.localeCompare(b),
  );
  const said = order.map((h) => `${h} runs ${(hooks.get(h) ?? []).join(', ') || 'checks'}`);
  return {
    title: clipWords(`Git hooks (${runner}): ${said.join('; ')}`, 160),
    narrative: `The repository's git hooks (${runner}): ${said.join('; ')}.`,
    facts: [
      `source: the git hooks (${runner})`,
      `runner: ${runner}`,
      ...order.map((h) => `${h}: ${(hooks.get(h) ?? []).join(', ')}`),
    ],
  };
}

/** The git hooks seen again with checks not seen before: the convention lists them all; null when nothing is new. */
export function mergedGitHookRule(
  existing: { facts: readonly string[] },
  seen: { facts: readonly string[] },
): ReturnType<typeof gitHookRule> | null {
  const before = hookChecks(existing.facts);
  const after = hookChecks(seen.facts);
  const merged = new Map(before);
  for (const [hook, checks] of after) merged.set(hook, unique([...(merged.get(hook) ?? []), ...checks]));
  const count = (m: ReadonlyMap<string, readonly string[]>) =>
    [...m.values()].reduce((n, c) => n + c.length, 0);
  if (count(merged) === count(before)) return null;
  const runner =
    [...existing.facts, ...seen.facts]
      .map((f) => (f.startsWith('runner: ') ? f.slice(8) : ''))
      .find(Boolean) ?? 'git';
  return gitHookRule(runner, merged);
}

/** Every rule of the project the entries state (see the module comment). */
export function extractProjectRules(entries: readonly TranscriptEntry[]): Extracted[] {
  const out = new Map<string, Extracted>();
  const add = (x: Extracted) => {
    const key = x.draft.subject ?? x.draft.title;
    const before = out.get(key);
    if (before) before.draft.facts = unique([...before.draft.facts, ...x.draft.facts]).slice(0, 12);
    else out.set(key, x);
  };
  for (const e of entries) {
    if (e.kind === 'hook_feedback') {
      const said = ruleLine(e.text);
      if (said === '') continue;
      add(
        extracted(
          'convention',
          clipWords(`${e.event} hook: ${said}`, 120),
          `The project's ${e.event} hook${e.command ? ` (\`${clip(e.command, 120)}\`)` : ''} kept the agent from stopping: “${clip(e.text, 500)}”.`,
          e,
          0.8,
          {
            facts: [
              `source: the ${e.event} hook`,
              ...(e.command ? [`command: ${clip(e.command, 200)}`] : []),
              `says: ${clip(e.text, 300)}`,
            ],
            concepts: ['hook', 'gate', e.event],
            subject: `rule:hook:${e.event}:${hash(e.command || said)}`,
            trust: 'repository',
          },
        ),
      );
      continue;
    }
    if (e.kind === 'assistant_text') {
      for (const m of e.text.matchAll(/[^.!?\n]*\b((?:CLAUDE|AGENTS)\.md)\b[^.!?\n]*[.!?]?/g)) {
        const sentence = m[0].replace(/\*\*|__/g, '').trim();
        const quoted = /[“"]([^”"]{8,200})[”"]|`([^`]{8,200})`/.exec(sentence);
        const cites =
          /\b(?:says?|states?|requires?|asks?|tells?|per|according to|rule|must|should|always|never)\b/i.test(
            sentence,
          );
        if (!quoted || !cites) continue;
        const rule = (quoted[1] ?? quoted[2] ?? '').trim();
        add({
          ...extracted(
            'convention',
            clipWords(`${m[1]}: ${rule}`, 120),
            `The assistant cited ${m[1]}: “${clip(sentence, 400)}”.`,
            e,
            0.7,
            {
              facts: [`source: ${m[1]}`, `rule: ${rule}`],
              concepts: ['rules file', m[1] ?? ''],
              subject: `rule:quote:${hash(rule.toLowerCase())}`,
            },
          ),
          // The assistant's words quoting the repository's rules file.
          relayed: 'repository',
        });
      }
      continue;
    }
    if (e.kind !== 'tool_call' || !e.result) continue;
    const input = (e.input ?? {}) as Record<string, unknown>;
    const command = typeof input['command'] === 'string' ? input['command'] : '';
    const text = e.result.text;
    // A hook that blocked the tool call.
    const blocked =
      /^(PreToolUse|PostToolUse)(?::(\w+))? hook (?:blocking )?error[^:\n]*:\s*(?:\[([^\]\n]{1,200})\]:\s*)?([\s\S]{3,})/.exec(
        text.trim(),
      );
    if (blocked && e.result.isError) {
      const said = firstLine(blocked[4] ?? '');
      add(
        extracted(
          'convention',
          clipWords(`${blocked[1]} hook blocks ${blocked[2] ?? e.name}: ${said}`, 120),
          `A ${blocked[1]} hook${blocked[3] ? ` (\`${blocked[3]}\`)` : ''} blocked ${e.name}: “${clip(blocked[4] ?? '', 400)}”.`,
          { uuid: e.result.uuid || e.uuid, at: e.at },
          0.8,
          {
            facts: [
              `source: the ${blocked[1]} hook`,
              ...(blocked[3] ? [`command: ${blocked[3]}`] : []),
              `says: ${clip(said, 300)}`,
            ],
            concepts: ['hook', 'gate', blocked[1] ?? ''],
            subject: `rule:hook:${blocked[1]}:${hash(blocked[3] || said)}`,
            trust: 'repository',
          },
        ),
      );
      continue;
    }
    const structured = e.result.structured as Record<string, unknown> | null;
    const output = [
      text,
      typeof structured?.['stdout'] === 'string' ? structured['stdout'] : '',
      typeof structured?.['stderr'] === 'string' ? structured['stderr'] : '',
    ].join('\n');
    if (e.name === 'Bash' && /\bgit\s+(?:\S+\s+)*?(?:commit|push)\b/.test(command)) {
      for (const run of gitHookRuns(output)) {
        const subject = `rule:git-hooks:${run.runner}`;
        const before = out.get(subject);
        const hooks = hookChecks(before?.draft.facts ?? []);
        hooks.set(run.hook, unique([...(hooks.get(run.hook) ?? []), ...run.checks]));
        const x =
          before ??
          extracted('convention', '', '', { uuid: e.result.uuid || e.uuid, at: e.at }, 0.8, {
            concepts: ['git hook', 'gate', run.runner],
            subject,
            trust: 'repository',
          });
        x.draft = {
          ...x.draft,
          ...gitHookRule(run.runner, hooks),
          concepts: unique([...x.draft.concepts, run.hook]),
        };
        out.set(subject, x);
      }
      continue;
    }
    const file = typeof input['file_path'] === 'string' ? input['file_path'] : '';
    const named = RULE_FILE.exec(file)?.[1];
    if (e.name === 'Read' && named && !e.result.isError) {
      const rules = rulesInFile(text);
      if (rules.length === 0) continue;
      add(
        extracted(
          'convention',
          clipWords(`${named}: ${rules[0]}`, 120),
          `Rules for agents in ${file} (read in the session): ${rules.map((r) => `“${r}”`).join('; ')}.`,
          { uuid: e.result.uuid || e.uuid, at: e.at },
          0.75,
          {
            facts: [`source: ${file}`, ...rules.map((r) => `rule: ${r}`)],
            concepts: ['rules file', named],
            subject: `rule:file:${file.toLowerCase()}`,
            // A dependency's rules file is not this repository's.
            trust: foreignPath(file) ? 'external' : 'repository',
          },
        ),
      );
    }
  }
  return [...out.values()];
}
