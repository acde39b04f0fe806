/**
 * A request for a change, said as done: "Document the release process in RELEASING.md" → "Documented
 * the release process in RELEASING.md". The last resort for a task's title when neither a commit, a
 * finished todo nor the assistant says what is now true — a statement of the outcome, never a question
 * or the prompt's own words as asked.
 */
import { clip, firstSentence } from './text.ts';

const IRREGULAR: Record<string, string> = {
  build: 'Built',
  make: 'Made',
  set: 'Set',
  split: 'Split',
  write: 'Wrote',
  rewrite: 'Rewrote',
  run: 'Ran',
  put: 'Put',
  cut: 'Cut',
  keep: 'Kept',
  let: 'Let',
};

const VERBS = new Set([
  'add',
  'fix',
  'implement',
  'document',
  'cache',
  'pin',
  'update',
  'remove',
  'delete',
  'rename',
  'refactor',
  'create',
  'move',
  'replace',
  'use',
  'support',
  'handle',
  'enable',
  'disable',
  'switch',
  'upgrade',
  'bump',
  'extract',
  'merge',
  'convert',
  'migrate',
  'clean',
  'improve',
  'optimise',
  'optimize',
  'cover',
  'wire',
  'limit',
  'validate',
  'store',
  'expose',
  'introduce',
  'change',
  'adjust',
  'tune',
  'raise',
  'lower',
  'configure',
  'install',
  'drop',
  'deprecate',
  'restore',
  'retry',
  'log',
  'guard',
  'check',
  'format',
  'simplify',
  'reduce',
  'speed',
  'allow',
  'block',
  'ignore',
  'skip',
  'sort',
  'translate',
  'test',
  ...Object.keys(IRREGULAR),
]);

function pastTense(verb: string): string {
  const v = verb.toLowerCase();
  const irregular = IRREGULAR[v];
  if (irregular) return irregular;
  const cap = v.charAt(0).toUpperCase() + v.slice(1);
  if (v.endsWith('e')) return `${cap}d`;
  if (/[^aeiou]y$/.test(v)) return `${cap.slice(0, -1)}ied`;
  // One short vowel before a final consonant doubles it: pin → pinned, log → logged (not fix, not add).
  if (/^[^aeiou]*[aeiou][bdglmnprt]$/.test(v) && !/^(add|open)$/.test(v)) return `${cap}${v.slice(-1)}ed`;
  return `${cap}ed`;
}

/** The request's verb and what it asks for, when it is an imperative request for a change. */
function askedChange(request: string): { verb: string; rest: string } | null {
  const sentence = firstSentence(
    // A slash command's arguments are the request ("/orchestrator create a TODO app").
    request
      .replace(/^\/[\w:.-]+\s+(?=\S)/, '')
      .replace(/^(?:please|pls|now|then|and|also|ok(?:ay)?)[,\s]+/i, ''),
    110,
  );
  if (sentence === '' || sentence.includes('?')) return null;
  const m = /^([A-Za-z]+)\b(.*)$/.exec(sentence);
  if (!m?.[1] || !VERBS.has(m[1].toLowerCase())) return null;
  const rest = (m[2] ?? '').replace(/[.!]+$/, '').trim();
  return rest.length < 3 ? null : { verb: m[1], rest };
}

/** The request as done, or '' when it is not an imperative request for a change (a question, a remark). */
export function doneFromRequest(request: string): string {
  const asked = askedChange(request);
  return asked ? clip(`${pastTense(asked.verb)} ${asked.rest}`, 110) : '';
}

/** The request as asked ("fix the failing price test"), or '' as for `doneFromRequest`. */
export function askedFromRequest(request: string): string {
  const asked = askedChange(request);
  return asked ? clip(`${asked.verb.toLowerCase()} ${asked.rest}`, 110) : '';
}
