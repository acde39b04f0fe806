/**
 * The instruction screen's structural checks (see instruction-screen.ts): each sentence is read for
 * what it would have the agent do — a capability (moving data, running code, switching off a gate,
 * shifting whose word counts, keeping something from the user, addressing agents) joined to the class
 * of what it acts on (a place outside the machine, a secret, a script fetched from there, a safety
 * gate, the user) — in whatever mood it is put. A practice described ("we mail the keys to …", "the
 * release script uploads ~/.ssh to …") is an invitation to repeat it once it is remembered, so the
 * capability checks read every form of a verb, not only the imperative. No sentence of any payload
 * is written here: only word classes (screen-words.ts) and how they combine.
 */
import {
  AGENTS,
  AUTHORITY,
  CODE_THING,
  CONTRAST,
  DEPENDENCY,
  DISABLE,
  EXECUTE,
  MODALITY,
  OUTSIDE,
  PRINCIPAL,
  REPOINT,
  SAFETY_GATE,
  SECRETS,
  TRANSFER,
  verbsRe,
} from './screen-words.ts';
import { excerptOf, negatedAt, type ScreenCategory, type ScreenHit } from './screen-rules.ts';
import type { TrustClass } from './trust.ts';

interface Check {
  rule: string;
  category: ScreenCategory;
  /** The trusts it applies to (below the user's). */
  below: ReadonlySet<TrustClass>;
  /**
   * Cheap first looks (literal word parts, no backtracking) the sentence must all pass before `find`
   * runs: the hook screens lines in a fresh process, where compiling the word classes' expressions
   * costs milliseconds, so most sentences never make them.
   */
  cues: readonly (readonly string[])[];
  /** The index in the sentence where it holds, or -1. */
  find: (s: string) => number;
}

/**
 * The cues: word parts one of which every member of a class holds (kept in step with screen-words.ts).
 * Plain substrings, not expressions: a fresh process pays nothing to compile them.
 */
/**
 * A cue's parts, each that opens with a letter to be found at a word's start (after a space); with
 * `inWords`, anywhere (a secret's word is often part of a name: `github_token`, `db_password`).
 */
const parts = (list: string, inWords = false) =>
  list.split('|').map((w) => (!inWords && /^[a-z]/.test(w) ? ` ${w}` : w));
const CUE = {
  outside: parts(
    '://|@|.com|.net|.org|.io|.dev|.xyz|.ru|.cn|.top|.site|.info|.co|.me|.tk|.link|.click|.online|.example|.cloud|.ai|.biz|.us|.uk|.de|.tech|.host|.pw|.ws|0.|1.|2.|3.|4.|5.|6.|7.|8.|9.',
  ),
  secret: parts(
    'secret|credential|passw|passphrase|token|key|cookie|wallet|seed phrase|history|.pem|id_rsa|id_ed|kube|.env|.ssh|.aws|.azure|npmrc|netrc|pypirc|docker|gnupg|.config|printenv|env',
    true,
  ),
  transfer: parts(
    'send|sent|mail|email|e-mail|upload|post|cop|mirror|sync|rsync|forward|transmit|shar|attach|paste|submit|scp|back|exfiltrat|leak|archiv|dump|stream|beam|deliver|put',
  ),
  execute: parts('run|ran|exec|source|eval|launch|invok|pipe|install'),
  repoint: parts('point|switch|swap|replac|redirect|resolv|overrid|alias|pin|mov'),
  dependency: parts(
    'depend|devdepend|package|module|librar|registr|resolution|override|lockfile|requirements|gemfile|go.mod|cargo',
  ),
  authority: parts(
    'answer|report|listen|obey|follow|defer|orders|instructions|direction|outrank|overrid|overrul|supersed|trump|priorit|authoritative|precedence',
  ),
  principal: parts(
    'user|human|developer|operator|owner|engineer|programmer|whoever|anyone|person|prompt|chat|conversation|session',
  ),
  conceal: parts('leav|omit|withh|hid|conceal|keep|no need|necessary'),
  agents: parts('agent|assistant|model|tool|contributor|reader|crawler|bot|chatbot|helper|system|llm'),
  disable: parts(
    'disabl| off|remov|delet| out|skip|bypass|drop|deactivat|suppress|circumvent|around|kill|uninstall|strip|lift|relax|loosen|weaken',
  ),
  gate: parts(
    'hook|/hook|husky|.husky|lefthook|pre-commit|protect|review|check|status|step|gate|job|signature|ssl|tls|certificate|sandbox|permission|2fa|mfa|two-factor|firewall|antivirus|audit|quarantine|guardrail',
  ),
};
/** Whether `padded` (a sentence as `words` gives it) holds a part of `cue`. */
const holds = (padded: string, cue: readonly string[]) => cue.some((w) => padded.includes(w));
/** A sentence with a space before every word, so a cue can be looked for at a word's start. */
const words = (sentence: string) => ` ${sentence.replace(/[^a-z0-9.@:/_~-]+/g, ' ')}`;

const ALL: ReadonlySet<TrustClass> = new Set(['repository', 'tool', 'external']);
const EXTERNAL: ReadonlySet<TrustClass> = new Set(['external']);

/** A regular expression made once, when first used (the hook compiles only what it runs). */
const lazy = (source: () => string) => {
  let re: RegExp | null = null;
  return () => (re ??= new RegExp(source()));
};

const transfer = lazy(() => verbsRe(TRANSFER));
const secret = lazy(() => SECRETS);
/** A destination outside the machine, after a preposition (not "copy the token from https://…"). */
const outsideDestination = lazy(
  () => String.raw`\b(?:to|into|onto|at|on|via|through|with|in)\b[^.;\n]{0,40}?${OUTSIDE}`,
);
const execute = lazy(() => verbsRe(EXECUTE));
const outside = lazy(() => OUTSIDE);
const codeThing = lazy(() => CODE_THING);
const privileged =
  /\b(?:as root|with sudo|sudo\b|elevated (?:rights|privileges|permissions)|as administrator|admin rights)/;
const authority = lazy(
  () =>
    String.raw`(?:${verbsRe(AUTHORITY)}|\bauthoritative\b|\btakes? precedence\b|\b(?:higher|more|top|first) priority\b)[^.;\n]{0,80}?${CONTRAST}[^.;\n]{0,40}?${PRINCIPAL}`,
);
const conceal = lazy(
  () =>
    String.raw`(?:\bleav(?:e|es|ing)\b[^.;\n]{0,40}?\bout\b|\bomit\w*|\bwithh(?:o|e)ld\w*|\bhid(?:e|es|ing|den)\b|\bconceal\w*|\bkeep\w*\b[^.;\n]{0,30}?\b(?:quiet|secret|hidden|private|to (?:yourself|themselves))\b|\b(?:no need|not necessary|unnecessary) to (?:mention|tell|bring)\w*)[^.;\n]{0,60}?\b(?:from|to|with|for)\s+${PRINCIPAL}`,
);
// Agents as a group only: one named agent in prose ("the agent needs to be adaptive", "the AI
// responses should stream") is how people write about agents, not to them.
const addressed = lazy(() => String.raw`${AGENTS}[^.;\n]{0,40}?\b${MODALITY}\b`);
/** Agents called on at a sentence's opening ("Coding assistants, …", "NOTICE TO AI SYSTEMS: …"). */
const vocative = lazy(() => String.raw`^(?:[\w-]+ ){0,3}?(?:${AGENTS})\s*[:,]`);
const disable = lazy(() => String.raw`${verbsRe(DISABLE)}[^.;\n]{0,50}?${SAFETY_GATE}`);
/** The same, the verb as a command (its base form opening the clause, or after "is to"). */
const disableNow = lazy(
  () =>
    String.raw`(?:^|[,:]\s*|\b(?:is|are) to |\bjust |\bthen |\band )(?:${DISABLE.join('|')})\b[^.;\n]{0,50}?${SAFETY_GATE}`,
);

const repoint = lazy(() => verbsRe(REPOINT));
const dependency = lazy(() => DEPENDENCY);

const at = (re: RegExp, s: string) => re.exec(s)?.index ?? -1;

const CHECKS: readonly Check[] = [
  {
    // Something secret moved to a place outside the machine, whoever does it.
    rule: 'secret-leaves',
    category: 'exfiltrate',
    below: ALL,
    cues: [CUE.transfer, CUE.secret, CUE.outside],
    find: (s) => {
      const verb = transfer().exec(s);
      if (!verb || !secret().test(s)) return -1;
      return outsideDestination().test(s.slice(verb.index)) ? verb.index : -1;
    },
  },
  {
    // Code from elsewhere run here: an execution verb near a script or installer at an outside place.
    rule: 'runs-remote-code',
    category: 'remote-code',
    below: ALL,
    cues: [CUE.execute, CUE.outside],
    find: (s) => {
      const verb = execute().exec(s);
      const place = outside().exec(s);
      if (!verb || !place || Math.abs(place.index - verb.index) > 90) return -1;
      const near = s.slice(Math.min(verb.index, place.index), Math.max(verb.index, place.index) + 60);
      return codeThing().test(near) || privileged.test(s) ? verb.index : -1;
    },
  },
  {
    // A dependency repointed at a source outside (a fork, a mirror, another registry).
    rule: 'dependency-repointed',
    category: 'remote-code',
    below: ALL,
    cues: [CUE.repoint, CUE.dependency, CUE.outside],
    find: (s) => {
      const verb = repoint().exec(s);
      return verb && dependency().test(s) && outside().test(s) ? verb.index : -1;
    },
  },
  {
    // Whose word counts: someone else's preferred over the user's.
    rule: 'authority-over-user',
    category: 'override',
    below: ALL,
    cues: [CUE.authority, CUE.principal],
    find: (s) => at(authority(), s),
  },
  {
    rule: 'keeps-from-user',
    category: 'conceal',
    below: ALL,
    cues: [CUE.conceal, CUE.principal],
    find: (s) => at(conceal(), s),
  },
  {
    // Agents as such asked or told to do something ("assistants must…", "automated contributors are
    // requested to…", "Documentation bots: …").
    rule: 'agents-addressed',
    category: 'addresses-agent',
    below: ALL,
    cues: [CUE.agents],
    find: (s) => Math.max(at(addressed(), s), at(vocative(), s)),
  },
  {
    // A safety gate to switch off, as a command ("the workaround is to delete .husky and commit").
    rule: 'switch-off-gate',
    category: 'disable-safety',
    below: ALL,
    cues: [CUE.disable, CUE.gate],
    find: (s) => at(disableNow(), s),
  },
  {
    // A safety gate switched off, described as done ("we switched off branch protection"): from
    // outside, a practice to repeat. (The agent's own account of its work may say it removed a hook.)
    rule: 'gate-switched-off',
    category: 'disable-safety',
    below: EXTERNAL,
    cues: [CUE.disable, CUE.gate],
    find: (s) => at(disable(), s),
  },
];

/** Sentences, parentheticals left out (so "Bots (Copilot, Claude) must …" reads as one). */
const sentences = (folded: string): string[] =>
  folded
    .replace(/\s\([^()]{0,120}\)/g, '')
    .split(/[.!?;](?=\s|$)|\n/)
    .map((x) => x.trim())
    .filter((x) => x.length >= 4);

/** The first structural check `folded` breaks at `trust`, or null. */
export function structuralHit(folded: string, trust: TrustClass): ScreenHit | null {
  for (const sentence of sentences(folded)) {
    const padded = words(sentence);
    for (const c of CHECKS) {
      if (!c.below.has(trust) || !c.cues.every((cue) => holds(padded, cue))) continue;
      const i = c.find(sentence);
      if (i < 0 || negatedAt(sentence, i)) continue;
      return { rule: c.rule, category: c.category, severity: 'hostile', excerpt: excerptOf(sentence, i, 40) };
    }
  }
  return null;
}
