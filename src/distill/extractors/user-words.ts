/**
 * The user's words, read by their role in the dialogue (see `dialogue.ts` for what each utterance is
 * read with, `mood.ts` for how a sentence is meant):
 * - a **correction** contradicts what the assistant just said or did: the reason typed when rejecting
 *   a tool call, words about the call the user interrupted, a bare "no", a challenge ("I see four
 *   uncommitted files?", "why won't you run it?"), "X, not Y" about the assistant's claim, or a quote
 *   of the assistant's line followed by an objection. It is paired with what it rejected, and dropped
 *   when the assistant's answer shows the user's claim did not hold;
 * - a **choice** picks among options the assistant offered ("A", "I like Option 1") or answers its
 *   question (AskUserQuestion), or chooses a way ("let's use X instead of Y");
 * - an **approval** ("ok", "sure") accepts the proposal it answers: the proposal becomes the decision,
 *   attributed to the user's approval (only when the message proposed something nameable);
 * - a claim put up for confirmation ("…, right?") is kept as the user's decision when the assistant
 *   confirms it, and as the answer when it denies it;
 * - **preferences and conventions**: sentences that limit how the work is done (obligations,
 *   prohibitions, the team's will, a practice), in the user's own words. A bare "X should Y" in a
 *   first request specifies the task and is not kept;
 * - questions, requests, hypotheses ("if …"), narration, pasted output and pasted reviews are not
 *   memories; links the user gives are facts of the task.
 * Every memory of an utterance is named by the utterance (`said:<hash>`), so reading the same words
 * again — from the transcript after the hook's prompt, or from a compaction digest — is the same memory.
 */
import type { Json, ObservationDraft } from '../../core/model.ts';
import type { TranscriptEntry } from '../../core/transcript.ts';
import { keyPoints, statementSentences } from '../narration.ts';
import { clip } from '../text.ts';
import { EDITING_TOOLS } from '../tool-kinds.ts';
import { readDialogue, type Utterance } from './dialogue.ts';
import { clipWords, extracted, type Extracted } from './extracted.ts';
import {
  contrasts,
  core,
  isConvention,
  isRequirement,
  isScoped,
  isStandingNorm,
  moodOf,
  negates,
  opensWithRefusal,
} from './mood.ts';
import { findOption, namedOption, pickedLabel, proposalIn, questionsIn } from './offers.ts';
import { contentWords, sharedScore } from './shared-words.ts';
import { notEnglish } from './user-language.ts';
import { linksIn } from './user-prose.ts';
import {
  AGREE,
  DEFERRED_ANSWER,
  TRIVIAL_ANSWER,
  unmark,
  firstSentences,
  replyStance,
  describeAction,
  normalised,
  partsOf,
  without,
  contradicted,
  draft,
  quote,
} from './utterance-parts.ts';

export { replyStance, describeAction, saidSubject } from './utterance-parts.ts';

export type Role = 'correction' | 'choice' | 'approval' | 'confirmed' | 'answered' | 'rule' | 'none';

export interface UserReading {
  utterance: Utterance;
  role: Role;
  /** What a correction rejected (a tool call, or the assistant's sentence). */
  rejected: string;
  /** The memories (one for the utterance, plus its links). */
  memories: Extracted[];
}

/** Files a message names in code quotes (`db/seeds.rb`, `app.ts`). */
const quotedFiles = (text: string): string[] =>
  [...text.matchAll(/`([^`\s]*[\w-]\.[A-Za-z]{1,6}|[^`\s]+\/[^`\s]+)`/g)].map((m) =>
    (m[1] ?? '').replace(/^\.\//, ''),
  );

/** Edits a tool call made (its file), for the tools that change a file. */
const editedFile = (call: { tool: string; input: Json }): string => {
  if (!EDITING_TOOLS.has(call.tool)) return '';
  const input = call.input as Record<string, unknown> | null;
  return String(input?.['file_path'] ?? input?.['notebook_path'] ?? input?.['path'] ?? '');
};

/**
 * The user asked for a change to a file they named, and what the assistant did next (before the user
 * spoke again) looked into things but changed none of those files.
 */
function checkedNotChanged(words: string, then: Utterance['then']): boolean {
  const files = quotedFiles(words);
  if (files.length === 0 || then.length === 0) return false;
  const edited = then.map(editedFile).filter((f) => f !== '');
  return !edited.some((e) => files.some((f) => e === f || e.endsWith(`/${f}`)));
}

/** Read one utterance (see the module comment). */
export function readUtterance(u: Utterance): UserReading {
  const none: UserReading = { utterance: u, role: 'none', rejected: '', memories: [] };
  const p = partsOf(u);
  if (!p) return none;
  // Links the user gives: facts of the memory the words make, or a fact of their own.
  const urls = linksIn(p.words);
  const reading = (role: Role, memory: Extracted | null, rejected = ''): UserReading => {
    if (memory) memory.draft.facts = [...memory.draft.facts, ...urls.map((url) => `link: ${url}`)];
    // The user's own words: the highest trust, never screened. An answer to the user's question is
    // the assistant's statement: it keeps the trust of the turn it was said in.
    if (memory && role !== 'answered') memory.draft.trust = 'user';
    const links =
      memory || urls.length === 0
        ? []
        : [
            extracted(
              'fact',
              clipWords(`The user pointed to ${urls.join(', ')}`, 120),
              `The user gave ${urls.length === 1 ? 'this link' : 'these links'}: ${quote(p.words, 400)}.`,
              u,
              0.7,
              {
                facts: urls.map((url) => `link: ${url}`),
                concepts: ['link', 'user'],
                subject: `link:${urls[0]}`,
                trust: 'user',
              },
            ),
          ];
    return { utterance: u, role, rejected, memories: [...(memory ? [memory] : []), ...links] };
  };
  // The title: the user's first sentence of substance, not a quote of the assistant's line.
  const priorText = normalised(u.prior);
  const lead = clipWords(
    p.sentences.find(
      (s, i) =>
        core(s) !== '' &&
        p.moods[i] !== 'refusal' &&
        p.moods[i] !== 'approval' &&
        !(normalised(s).length >= 20 && priorText.includes(normalised(s))),
    ) ?? p.words,
    100,
  );

  if (u.channel === 'answer') {
    const question = u.question ?? '';
    if (u.text.length < 3 || TRIVIAL_ANSWER.test(u.text) || DEFERRED_ANSWER.test(u.text))
      return reading('none', null);
    return reading(
      'choice',
      draft(
        u,
        'decision',
        `${clip(u.text, 60)} (${clip(question, 60)})`,
        `Asked "${question}", the user chose: ${u.text}.`,
        [`question: ${question}`, `chosen: ${u.text}`],
        0.8,
      ),
    );
  }

  const { rejected: found, by: objection } = contradicted(u, p);
  const onAction = u.channel === 'rejection' || (u.interrupted && found === describeAction(u.action));
  // This grammar reads English: in another language written in the same letters ("no odio: 9252",
  // "¿es representativo?") its no's and questions are not what they seem. What the user's declining
  // or stopping a call corrects is the call, whatever the language.
  const foreign = !onAction && notEnglish(`${p.words}\n${u.prior}`);
  const rejected = foreign ? '' : found;
  const stance = rejected === '' ? 'none' : replyStance(u.reply, p.words);
  // A doubt put as a question ("I see four uncommitted files?") is a correction only once the
  // assistant grants it; until then the rest of what the user said is read as usual.
  const doubts =
    rejected !== '' &&
    !onAction &&
    stance !== 'agree' &&
    p.moods.some((m) => m === 'challenge') &&
    !opensWithRefusal(p.sentences) &&
    !p.sentences.some((s, i) => p.moods[i] !== 'challenge' && (contrasts(s) || negates(s)));
  if (rejected !== '' && !doubts) {
    // The assistant showed the user's claim did not hold: not pinned as a correction.
    if (!onAction && stance === 'disagree') return reading('none', null);
    // Asked to change a file the assistant then looked into and left as it was: the claim was checked
    // and not taken ("…, instead wrap `db/seeds.rb`'s logic in an if/else", and a repro showed the
    // early return is safe). What was done, not what was said, tells.
    if (!onAction && checkedNotChanged(p.words, u.then)) return reading('none', null);
    // The assistant's sentences the correction is about: a memory stating one of them is withdrawn.
    // Stopping an action corrects the action — and, once the assistant grants the user's point, the
    // claims it gave for it just before (its last statements, not its plans).
    const priorSentences = u.prior
      .replace(/```[\s\S]*?```/g, ' ')
      .split(/(?<=[.!?])\s+|\n+/)
      .map(unmark);
    const refutes =
      u.channel === 'rejection' || (onAction && stance !== 'agree')
        ? []
        : onAction
          ? priorSentences
              .filter((s) => s.length >= 25 && !/^(?:let me|i'll|i will|now|next|first)\b/i.test(s))
              .slice(-2)
          : priorSentences.filter((s) => s.length >= 25 && sharedScore(s, p.words) >= 3).slice(0, 4);
    // Put only as questions, the correction is about this session's claim, not a rule for later ones.
    const onlyAsked = p.moods.length > 0 && p.moods.every((m) => m === 'challenge' || m === 'question');
    // Led by the rule the user set, when they set one ("we do container-first."), not by the doubt
    // or the question around it.
    const rule = p.sentences.find(
      (s, i) =>
        (p.moods[i] === 'norm' || p.moods[i] === 'choice') &&
        core(s) !== '' &&
        !(normalised(s).length >= 20 && priorText.includes(normalised(s))),
    );
    // A few words ("why won't you run it?") say what they are about only with what the user asked before.
    const about = u.before && p.words.split(/\s+/).length <= 8 ? clip(u.before, 120) : '';
    const memory = draft(
      u,
      'correction',
      // Else by the sentence that objects, when one does: the message's first may praise the rest.
      `Correction: ${rule ? clipWords(rule, 100) : objection && core(objection) !== '' ? clipWords(objection, 100) : lead}`,
      `The user corrected the assistant: ${quote(p.words)}${about ? ` (after asking ${quote(about)})` : ''} — rejected: ${rejected}${u.interrupted ? ' (after stopping it)' : ''}.${stance === 'agree' ? ` The assistant agreed: ${quote(firstSentences(u.reply, 1)[0] ?? '', 200)}.` : ''}`,
      [
        ...(about ? [`in reply to: ${about}`] : []),
        `rejected: ${rejected}`,
        `${onlyAsked ? 'asked' : 'instead'}: ${p.words}`,
        ...(stance === 'agree' ? [`confirmed: ${firstSentences(u.reply, 1)[0] ?? ''}`] : []),
      ],
      u.channel === 'rejection' || stance === 'agree' ? 0.85 : 0.75,
    );
    if (refutes.length > 0) memory.refutes = refutes;
    return reading('correction', memory, rejected);
  }

  const label = pickedLabel(p.words);
  const option = label ? findOption(label, u.recent) : namedOption(p.sentences, u.recent);
  if (option) {
    const detail = option.details.length > 0 ? ` (${option.details.join('; ')})` : '';
    const said = normalised(p.words) === normalised(label ?? '') ? '' : ` — ${quote(p.words)}`;
    // An item picked by its name is named so; a labelled one by its label and title.
    const name = (o: { label: string; title: string }) =>
      option.named ? o.title : `option ${o.label}: ${o.title}`;
    const chosen = reading(
      'choice',
      draft(
        u,
        'decision',
        `Chose ${name(option)}`,
        `${option.context ? `${option.context} ` : ''}The assistant offered options${option.question ? ` (${quote(option.question, 160)})` : ''}; the user chose ${option.named ? option.title : `${option.label}: ${option.title}`}${detail}${said}.`,
        [
          ...(option.question ? [`question: ${option.question}`] : []),
          `chosen: ${name(option)}`,
          ...option.details.map((d) => `option detail: ${d}`),
          ...(option.context ? [`why: ${option.context}`] : []),
          ...option.others.map((o) => `rejected: ${name(o)}`),
          ...(said ? [`said: ${p.words}`] : []),
        ],
        0.85,
      ),
    );
    // What else the user said beside picking it by name is read on its own ("… It should pop up a box").
    const rest = option.named
      ? p.sentences.filter((x) => !x.toLowerCase().includes(option.label.toLowerCase()))
      : [];
    const others = rest.length > 0 ? readUtterance({ ...u, text: rest.join(' ') }).memories : [];
    return { ...chosen, memories: [...chosen.memories, ...others] };
  }

  const confirm = p.moods.indexOf('confirm');
  const claimed = without(p.sentences[confirm] ?? '').replace(/\s*\?+$/, '');
  // A claim of a word or two ("weird, no?") says nothing once the conversation around it is gone.
  if (confirm >= 0 && contentWords(claimed).size >= 3) {
    const claim = claimed;
    const stance = replyStance(u.reply, claim);
    const answer = firstSentences(u.reply, 2).join(' ');
    const others = p.sentences.filter((s, i) => i !== confirm && p.moods[i] === 'norm');
    if (stance === 'agree') {
      // The reasons the reply gives: its statements after the agreement, or the points it lists.
      const reasons = statementSentences(u.reply.replace(/\*\*|__/g, ''))
        .filter((x) => !AGREE.test(x))
        .slice(0, 2);
      const points = reasons.length > 0 ? [] : keyPoints(u.reply);
      return reading(
        'confirmed',
        draft(
          u,
          'decision',
          claim,
          `The user's reasoning, confirmed by the assistant: ${quote(p.words)} — ${quote(answer, 300)}.${points.length > 0 ? ` Points: ${points.join('; ')}.` : reasons.length > 0 ? ` ${reasons.join(' ')}` : ''}`,
          [
            `chosen: ${claim}`,
            ...others.map((s) => `said: ${s}`),
            `confirmed: ${answer}`,
            ...(reasons.length > 0 ? [`why: ${reasons.join(' ')}`] : []),
            ...(points.length > 0 ? [`points: ${points.join('; ')}`] : []),
          ],
          0.8,
        ),
      );
    }
    if (stance === 'disagree')
      return reading(
        'answered',
        draft(
          u,
          'discovery',
          clip(firstSentences(u.reply, 1)[0] ?? answer, 110),
          `The user asked ${quote(p.sentences[confirm] ?? claim, 300)} — the answer: ${quote(answer, 400)}.`,
          [`asked: ${p.sentences[confirm] ?? claim}`, `answer: ${answer}`],
          0.7,
        ),
      );
  }

  const first = u.prior === '';
  // The assistant's own lines quoted back are not the user's statement: only what is left is read.
  const recentText = normalised([...u.recent, u.prior].join(' '));
  const quotedBack = (q: string) => normalised(q).length >= 20 && recentText.includes(normalised(q));
  // A "don't" made of the assistant's own words from just before ("don't skip the extra sanity-check"
  // after "I'll skip the extra sanity-check") stops the step it announced, unless said to hold beyond.
  const recentWords = contentWords([...u.recent, u.prior].join(' '));
  const aboutProposal = (s: string) => {
    if (!/^(?:please\s+)?(?:don'?t|do not)\b/i.test(core(s)) || isScoped(s)) return false;
    const words = [...contentWords(s)];
    const shared = words.filter((w) => recentWords.has(w)).length;
    return words.length >= 2 && shared * 4 >= words.length * 3;
  };
  const rules = p.sentences.filter((s, i) => {
    // Its rules are read by English grammar ("no mocks" rules mocks out): not in another language.
    if (foreign || quotedBack(s)) return false;
    if (p.moods[i] === 'norm' && aboutProposal(s)) return false;
    const own = s.replace(/["“`]([^"”`]{20,})["”`]/g, (m, q: string) => (quotedBack(q) ? '' : m)).trim();
    if (own !== s) return own !== '' && moodOf(own) === 'norm' && !first && isStandingNorm(own);
    const mood = p.moods[i];
    if (mood === 'choice') return true;
    // What the user needs of what is being built: a requirement, whatever request it comes in.
    if ((mood === 'norm' || mood === 'statement') && isRequirement(s)) return true;
    if (mood !== 'norm') return false;
    // A bare obligation in a first request (or a digest quote) specifies the task, not a rule.
    return !first || isStandingNorm(s);
  });
  const approves = p.moods[0] === 'approval' && rules.length === 0;
  if (approves && u.prior !== '') {
    const proposal = proposalIn(u.prior).replace(/[.:\s]+$/, '');
    // Going on with the step in hand is no decision ("continue with the rebase"), nor is a chore on the
    // workspace ("copy it into the repo and commit it"); and a proposal whose object is only a pronoun
    // ("add it", "copy that") says nothing once the conversation around it is gone.
    const step =
      /^(?:continue|proceed|keep|finish|go (?:on|ahead)|resume|try|run|check|commit|push|retry|look|start|do|copy|move|save|delete|remove|rename|stage|merge|publish|upload|init|initiali[sz]e)\b|\band (?:commit|push)\b/i;
    const bare = /^\w+ (?:it|that|this|them|those|these)\b/i;
    if (proposal !== '' && proposal.split(/\s+/).length >= 4 && !step.test(proposal) && !bare.test(proposal))
      return reading(
        'approval',
        draft(
          u,
          'decision',
          `Approved: ${proposal}`,
          `The assistant proposed ${quote(proposal, 300)}; the user approved: ${quote(p.words, 200)}.`,
          [`chosen: ${proposal}`, `approved: ${p.words}`],
          0.75,
        ),
      );
  }
  if (rules.length === 0) return reading('none', null);
  // The title: the most specific of the rules (the most content words), not merely the first; a list
  // under its lead-in ("it should: a; b; c") is several statements, so one sentence goes first.
  const weight = (s: string) => contentWords(s).size - (s.length > 200 ? 3 : 0);
  const list = (s: string) => (/:\s.*;\s/.test(s) ? 1 : 0);
  const titled = ([...rules].sort((a, b) => list(a) - list(b) || weight(b) - weight(a))[0] ?? '')
    .replace(/\s*\?+$/, '')
    .replace(
      /^(?:(?:and|also|so|but|plus|ok(?:ay)?)[,.]?\s+)*(?:(?:remember|note|keep in mind)(?: that)?\s+)?/i,
      '',
    );
  const allChoices = rules.every((s) => p.moods[p.sentences.indexOf(s)] === 'choice');
  const type: ObservationDraft['type'] = allChoices
    ? 'decision'
    : rules.every((s) => isConvention(s))
      ? 'convention'
      : 'preference';
  const asked = questionsIn(u.prior)
    .filter((q) => sharedScore(q, p.words) >= 2)
    .sort((a, b) => sharedScore(a, p.words) - sharedScore(b, p.words));
  const answering = asked.length > 0 ? ` (answering: ${quote(asked[asked.length - 1] ?? '', 200)})` : '';
  const kind =
    type === 'decision'
      ? 'Chosen by the user'
      : type === 'convention'
        ? 'Convention stated by the user'
        : 'Stated by the user';
  return reading(
    'rule',
    draft(
      u,
      type,
      titled,
      `${kind}: ${quote(p.words, 700)}${answering}.`,
      [
        ...rules.map((s) => (type === 'decision' ? `chosen: ${s}` : `said: ${s}`)),
        ...(asked.length > 0 ? [`question: ${asked[asked.length - 1]}`] : []),
      ],
      0.8,
    ),
  );
}

/** Every utterance of `entries` read (context: entries read before, for what they answer). */
export function readUserWords(
  entries: readonly TranscriptEntry[],
  context: readonly TranscriptEntry[] = [],
): UserReading[] {
  return readDialogue(entries, context).map(readUtterance);
}

/** The memories the user's words make (see `readUserWords`). */
export function extractUserWords(
  entries: readonly TranscriptEntry[],
  context: readonly TranscriptEntry[] = [],
): Extracted[] {
  return readUserWords(entries, context).flatMap((r) => r.memories);
}
