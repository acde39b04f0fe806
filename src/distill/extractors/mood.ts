/**
 * How a sentence the user typed is meant, read from its form (word order, modal verbs, negation, the
 * question mark), not from a list of whole phrasings:
 * - `question`: an interrogative (a wh-word, or an auxiliary before its subject) — asks, states nothing;
 * - `request`: asks for something to be done ("can you …", "please …", "let's …") — the task, not a rule;
 * - `confirm`: a claim put up for confirmation ("…, right?", "…? tell me if I'm wrong");
 * - `challenge`: a statement with a question mark ("I see four uncommitted files?"), a negative why
 *   ("why won't you run it?") or an objection ("but …?") — it doubts what was just said or done;
 * - `hypothesis`: an `if` clause without a rule in it — a premise, not a decision;
 * - `norm`: limits how the work is done — obligation or prohibition (must, should, only … should,
 *   don't, never, always, from now on, a verbless "no …": "no mocks in the tests"), the team's will (we
 *   want / we don't want, I'd rather … than), a practice stated as such ("we do container-first", "we
 *   use go-git in other places", "tests go next to the code, not in a separate folder");
 * - `choice`: picks a way ("let's use X instead of Y", "we might want X");
 * - `approval`: only assent ("ok", "yes", "sure, go ahead");
 * - `refusal`: a bare no ("no", "nope", "wrong");
 * - `statement`: anything else (a description, a report, narration).
 */

export type Mood =
  | 'question'
  | 'request'
  | 'confirm'
  | 'challenge'
  | 'hypothesis'
  | 'norm'
  | 'choice'
  | 'approval'
  | 'refusal'
  | 'statement';

/** Openers that do not change what a sentence is ("ok so", "i think", "but"). */
const LEAD =
  /^(?:(?:ok(?:ay)?|so|and|but|also|well|hmm+|oh+|ah+|uh+|um+|yeah|yes|right|alright|sorry|actually|wait|then|honestly|anyway|btw|i think|i guess|i mean|i (?:kind of |kinda )?feel like|i bet|i believe|i suppose|i know|perhaps|maybe)\b[,.!:;\s-]*)+/i;

const WH = /^(?:what|why|how|where|when|which|who|whose|whom)\b/i;
/** A tentative opener: what follows is offered to be weighed ("maybe …", "perhaps …"). */
const HEDGED = /^(?:(?:ok(?:ay)?|so|and|but|hmm+|well|also)[,\s]+)*(?:maybe|perhaps|possibly)\b/i;
/** An auxiliary before its subject: "is the cli …", "does it …", "should we …". */
const INVERTED =
  /^(?:is|are|was|were|am|do|does|did|can|could|will|would|should|shall|may|might|must|have|has|had)(?:n'?t)?\s+(?:i|we|you|it|they|he|she|this|that|these|those|there|the|a|an|my|our|your|its|their|any|some|all|each|every|[a-z0-9_.-]+(?:'s)?\s+(?:still|really|already|also|just|actually|now))\b/i;
/** Asking for the work: "can you …", "could we …", "please …", "let's …". */
const REQUEST = /^(?:(?:can|could|would|will)\s+(?:you|we)|please|pls|let'?s|let us)\b/i;
/**
 * A slash command typed as a `claude "/…"` call (the host turns a bare `/command` into its own record,
 * never the user's words; a sentence opening with a path — "/logs endpoints return …" — states).
 */
const COMMAND_CALL = /^claude\s+["'“]?\/[a-z][\w:-]*(?:\s|$)/i;
/** A tag that turns a claim into a question for confirmation. */
const TAG =
  /(?:,|\s)\s*(?:right|correct|no|yes|yeah|ok(?:ay)?|true|isn'?t (?:it|that|this)|aren'?t (?:they|we|you)|don'?t (?:we|you|they|i)|doesn'?t (?:it|that)|won'?t (?:it|that)|wouldn'?t (?:it|that)|am i right|or not)\s*\?[?!]*\s*$/i;
/** "tell me if I'm wrong", "am I right?": the sentence before it is put up for confirmation. */
export const CONFIRM_FOLLOWER =
  /^(?:(?:but|and|so)\s+)?(?:(?:(?:tell|let) me (?:know )?if i'?m wrong|correct me if i'?m wrong)\b[?!.]*|(?:am i (?:wrong|right|missing something)|right|correct|or am i wrong)\s*\?[?!]*)$/i;
const NEGATIVE_WHY =
  /^why\s+(?:won'?t|wouldn'?t|don'?t|didn'?t|can'?t|cannot|couldn'?t|isn'?t|aren'?t|wasn'?t|haven'?t|hasn'?t|not|did you not|do you not|are you not)\b/i;

/** Obligation and prohibition (deontic modals), in any position: "only the flag should install it". */
const OBLIGATION =
  /\b(?:must(?:n'?t| not)?|should(?:n'?t| not)?|ought(?:n'?t)? to|ha(?:ve|s) to|need(?:s)? to|needn'?t|(?:is|are)(?:n'?t| not)? (?:supposed|required|allowed|meant) to|may not|can(?:no|')t be)\b/i;
/** The same modals saying what is expected to be true, not what must be done ("it should work now"). */
const EXPECTATION =
  /\b(?:should(?:n'?t)?|must|ought to|ha(?:ve|s) to)\s+(?:(?:now|still|also|probably|already|really|just|definitely|certainly|be able to)\s+)*(?:be (?:fine|ok(?:ay)?|good|possible|enough|correct|right|there|done|working|the case|true|available|similar|the same|it|easy|safe|faster|better)|work|pass|help|succeed|have (?:been|worked|passed|failed))\b/i;
/** A prohibition opening the sentence ("don't …", "never …", "avoid …"); reminders are requests. */
const PROHIBITION = /^(?:please\s+)?(?:don'?t|do not|never|avoid)\b(?!\s+(?:forget|worry|bother|mind)\b)/i;
/**
 * A verbless "no" and what it rules out, as a sign says "No smoking": "no new dependencies", "no mocks
 * in the tests" — not a polite or empty no ("no worries", "no idea", "no luck"), nor a report of what
 * was not there ("no errors in the log", "no tests were run": a verb, or what a run shows).
 */
const NO_THING =
  /^(?:please\s+)?no\s+(?!(?:worries|problem|problems|thanks|thank|need|rush|big|idea|clue|luck|matter|way|longer|doubt|wonder|offen[cs]e|pressure|change|changes|difference|errors?|warnings?|issues?|output|response|results?|one|sign|trace|effect|success|dice|go|more)\b)(?:(?:new|more|extra|additional|other)\s+)?[a-z][\w.-]*/i;
const FINITE =
  /\b(?:is|are|was|were|be|been|has|have|had|does|do|did|will|would|can|could|shows?|showed|appears?|appeared|seems?|seemed|happen(?:s|ed)?|works?|worked|exists?|found|left|ran|run|fails?|failed|passe[sd])\b/i;

/** A prohibition: at the start ("don't …", "never …"), or a verbless "no …" opening the sentence or a clause of it. */
function forbids(c: string): boolean {
  if (PROHIBITION.test(c)) return true;
  // Said of the thing at hand ("it's pure writeup — no code, no RPC"): what it is, not a rule of work.
  if (/^(?:it|this|that)(?:'s|’s| is| was| will be)\b/i.test(c)) return false;
  return c.split(/\s*[,;:]\s*|\s+(?:and|so|but|then|also)\s+/i).some(
    (clause) =>
      NO_THING.test(clause) &&
      !FINITE.test(clause) &&
      // "no check wired", "no bindings needed": a participle says what is (not) there, not a rule.
      !/^\s+(?:(?!(?:in|on|at|for|with|to|from|of|by|into)\b)\S+\s+)?(?!(?:allowed|permitted)\b)[a-z]{2,}ed\b/i.test(
        clause.replace(/^(?:please\s+)?no\s+\S+/i, ''),
      ) &&
      // "no styling yet", "no tests for now": a step of the work, not a rule.
      !/\b(?:yet|for now|right now|at the moment|until)\b/i.test(clause) &&
      clause.split(/\s+/).length <= 8,
  );
}
const ALWAYS = /^(?:please\s+)?always\b/i;
/** A rule's reach: it holds beyond this task. */
const SCOPE =
  /\b(?:from now on|going forward|in (?:the )?future|from here on|(?:in|for|across) (?:this|the|our|every|all) (?:repo(?:sitory)?|repos|project|projects|codebase|team)|every time|each time|by default)\b/i;
/** The team's will or the user's preference ("we want", "we explicitly don't want", "I'd rather … than"). */
const WILL =
  /\b(?:we|i)\s+(?:(?:really|explicitly|definitely|strongly|only|also|just|kind of|kinda|probably|still|generally|usually|always)\s+)*(?:(?:do(?:n'?t| not)|would(?:n'?t)?|'d)\s+)?(?:want|prefer|rather|love|like)\b|\b(?:we|i)'d (?:rather|prefer|like|love)\b/i;
/** First-person singular wishes for this moment ("I want to see the logs", "I want you to …"): requests. */
const WISH_NOW =
  /\b(?:i (?:just |really )?(?:want|need|would like|'d like) you\b|(?:i|we) (?:just |really )?(?:want|need|would like|'d like) to (?:see|know|check|understand|look|try|test|run|get|find|figure|make sure|debug|investigate|verify|confirm|reproduce|fix)\b)/i;
/** A purpose clause: the tool is picked for this step ("use the debugger to check …"), not as a rule. */
const FOR_NOW =
  /\bto\s+(?:see|check|find|debug|test|look|get|verify|inspect|figure|print|show|run|read|reproduce|confirm|understand)\b/i;
/** Sets the pick against another ("instead of", "rather than", "over", ", not"). */
const AGAINST = /\b(?:instead(?: of)?|rather than|over|as opposed to)\b|,\s*not\b|\bnot\s+\S+\s*$/i;
/** A tentative choice: "we might want X", "maybe we should use X". */
const TENTATIVE = /\b(?:we|you)\s+(?:might|may|probably|could)\s+(?:want|need)\b/i;
/** How the team works, in the present tense with "we" as subject. */
const PRACTICE =
  /^we\s+(?:(?:always|usually|generally|explicitly|typically|normally|only|never|also|just|now|deliberately)\s+)*(?:use|do|run|keep|commit|deploy|follow|write|test|build|avoid|ship|prefer|rely on|release|squash|rebase|merge|review|name|store|put|pin|vendor|host|target|support|require|check|lint|format|tag|work)\b/i;
/**
 * How a kind of thing is done here, set against another way: a bare noun as subject (no article, no
 * pronoun), a verb in the present tense, and "…, not …" / "…, never …" — "Tests go next to the code,
 * not in a separate folder", "Migrations are written by hand, never generated". Not an outcome
 * ("tests fail on CI, not locally") and not a claim about one thing ("the error comes from the cache").
 */
const KIND_PRACTICE =
  /^(?!(?:it|this|that|these|those|there|here|he|she|they|we|you|i|the|a|an|my|our|your|its|their|what|which|who|when|where|why|how|if|so|but|and|or|not|no|some|any|one|all|both|each|every|everything|nothing|something|anything)\b)(?!.*\b(?:now|already|still|yet|anymore)\b)[a-z][\w.-]*\s+(?:(?:are|is)\s+(?:(?:always|only|never|all)\s+)?(?!(?:broken|hidden|gone|taken)\b)[a-z]+(?:ed|en)\b|(?:go|goes|live|lives|belong|belongs|stay|stays|sit|sits|use|uses|run|runs|get|gets)\b)/i;
const SET_AGAINST = /,\s*(?:not|never|rather than|instead of)\b|\binstead of\b|\brather than\b/i;
const kindPractice = (s: string, c: string) => KIND_PRACTICE.test(c) && SET_AGAINST.test(s);

/** A choice of tool or approach: "let's use X", "use X instead", "go with X", "switch to X". */
const CHOOSE =
  /^(?:(?:let'?s|let us|we(?:'ll| will| should)|please|i'?d)\s+)?(?:use|go with|stick with|stick to|switch to|keep using|pick|choose|adopt|move to|prefer)\b/i;
/** Workflow conventions stated without a modal: "one commit per task", "run the linter before committing". */
const CONVENTION =
  /^(?:(?:one|a single|exactly one) \w+(?: \w+)? per \w+|(?:always )?(?:run|use) .{3,60} before (?:committing|each commit|every commit|pushing|merging)|commit (?:after|per) (?:each|every) \w+|(?:the )?(?:tests?|lint(?:er)?|ci|checks?) (?:must|should) (?:pass|be green) before)\b/i;
const APPROVAL =
  /^(?:(?:ok(?:ay)?|k|yes|yep|yeah|yup|sure|great|perfect|good|nice|cool|fine|lgtm|sounds good|looks good|looks great|that works|works for me|agreed|agree|correct|exactly|right|do it|go ahead|go for it|proceed|ship it|approved?|please do|yes please|let'?s do it|let'?s go|makes sense|thanks|thank you|👍)\b[\s,.!]*)+$/i;
const REFUSAL = /^(?:no|nope|nah|not really|not quite|wrong|incorrect|not that|not like that)\b[\s,.!]*$/i;
/** Polite negatives: not a refusal of anything. */
const BENIGN_NO =
  /^no\s+(?:worries|problem|thanks|need|rush|big deal)\b|^no,?\s+(?:that'?s|it'?s|this is)\s+(?:fine|ok|okay|good|great|perfect)/i;
const CONDITION = /^(?:if|when|unless|in case|once|assuming|as long as)\b/i;
/** Uncertainty: "I don't know if …", "not sure …", "wondering …" — it asks, it does not decide. */
const UNSURE =
  /^(?:i (?:don'?t|do not) know\b|i'?m not sure\b|not sure\b|i (?:was|am) wondering\b|wondering\b)|\bbut wondering\b/i;
/**
 * An imperative: a verb first, then its object ("fix the comments", "push up and make a pr"). Read
 * from the second word (an article, a pronoun, a particle) since a first word alone could be a noun.
 */
const IMPERATIVE =
  /^(?!(?:i|we|you|it|they|he|she|this|that|these|those|there|here|the|a|an|my|our|your|its|their|what|why|how|where|when|which|who|and|or|but|so|if|not|no|is|are|was|were)\b)[a-z]+\s+(?:the|a|an|this|that|these|those|it|them|up|all|my|our|your|some|any|out|back|down|me|us|everything|something)\b/i;

/** The sentence without its openers ("ok so I think we …" → "we …"). */
export function core(sentence: string): string {
  return sentence
    .trim()
    .replace(/^[("'`]+|[)"'`]+$/g, '')
    .replace(LEAD, '')
    .trim();
}

/** Whether the sentence states a rule of work (the `norm` test, without the rest of the classification). */
function isNorm(s: string, c: string): boolean {
  if (CONVENTION.test(c) || forbids(c) || ALWAYS.test(c) || PRACTICE.test(c) || kindPractice(s, c))
    return true;
  if (SCOPE.test(s)) return true;
  if (WILL.test(s) && !WISH_NOW.test(s)) return true;
  return OBLIGATION.test(s) && !EXPECTATION.test(s) && !/^i\s+(?:need|have) to\b/i.test(c);
}

/**
 * Praise of the work delivered ("q1 looks great — … is exactly the depth we want", "this is excellent"):
 * a verdict on what was done, whatever wish it mentions.
 */
const PRAISE =
  /^(?:[\w./'`-]+\s+){0,4}(?:looks?|is|are|was|were|seems?|reads?)\s+(?:(?:really|very|so|super|all|exactly|just)\s+)?(?:great|good|excellent|clean|perfect|solid|nice|fantastic|awesome|amazing|spot[ -]on|right|correct|fine|sharp)\b/i;
/** Past this many words a "sentence" is a run-on (dictated, unpunctuated): no one rule can be read from it. */
const RUN_ON_WORDS = 60;

/** What one sentence of the user's is (see the module comment). */
export function moodOf(sentence: string): Mood {
  const s = sentence.trim();
  const c = core(s);
  if (c === '') return APPROVAL.test(s) ? 'approval' : 'statement';
  if (s.split(/\s+/).length > RUN_ON_WORDS) return 'statement';
  if (UNSURE.test(c) || UNSURE.test(s)) return 'question';
  // A question mark ends it, before a closing bracket or quote ('… before submitting?"').
  const asks = /[?？][?!？！]*\s*["'”’)\]]*$|[?？]\s*\(.*\)$/.test(s);
  // Mostly letters of another script: this grammar cannot read it, so a question mark is a question.
  const letters = s.match(/\p{L}/gu)?.length ?? 0;
  if (asks && (s.match(/[A-Za-z]/g)?.length ?? 0) * 2 < letters) return 'question';
  const objects = /^(?:but|although|though|yet)\b/i.test(s);
  if (BENIGN_NO.test(c)) return 'statement';
  if (REFUSAL.test(s)) return 'refusal';
  if (APPROVAL.test(s)) return 'approval';
  if (asks && TAG.test(s)) return 'confirm';
  if (NEGATIVE_WHY.test(c)) return 'challenge';
  if (asks && objects && !WH.test(c)) return 'challenge';
  // "please don't …", "please always …": a rule asked for politely is still a rule.
  if (!asks && (forbids(c) || ALWAYS.test(c) || SCOPE.test(s))) return 'norm';
  if (REQUEST.test(c) && !CHOOSE.test(c.replace(/^(?:let'?s|let us|please)\s+/i, "let's "))) return 'request';
  // A command the user runs (`claude "/roast-my-product …"`): the words after it are its
  // arguments, asked of the command, not said to the assistant about its last reply.
  if (COMMAND_CALL.test(s)) return 'request';
  if (asks && (WH.test(c) || INVERTED.test(c) || / or (?:is|are|does|do|did|should|will|can)\b/i.test(c)))
    return 'question';
  // The question is its last clause ("goal_amount is a decimal - should this code fail?"): a statement
  // of what is known, then an auxiliary before its subject.
  const lastClause =
    c
      .split(/\s+[-–—]\s+|[,;:]\s+/)
      .pop()
      ?.trim() ?? '';
  if (asks && lastClause !== c && (WH.test(lastClause) || INVERTED.test(lastClause))) return 'question';
  // A rule put tentatively ("maybe x should be cast to float"): offered to be weighed, not set.
  if (HEDGED.test(s) && !ALWAYS.test(c) && !SCOPE.test(s) && isNorm(s, c)) return 'confirm';
  if (CONDITION.test(c))
    return isNorm(s, c) && /\b(?:always|never|don'?t|do not|must)\b/i.test(s) ? 'norm' : 'hypothesis';
  // A pick of tool or approach: a decision when it is set against another, or when the team makes it
  // ("let's use …") for more than the step at hand; a bare "use X" is an instruction for now.
  if (
    CHOOSE.test(c) &&
    !FOR_NOW.test(s) &&
    (AGAINST.test(s) || /^(?:let'?s|let us|we(?:'ll| will| should)|i'?d)\b/i.test(c))
  )
    return 'choice';
  if (TENTATIVE.test(s) && !/\bwant to\b/i.test(s) && !FOR_NOW.test(s)) return 'choice';
  if (CHOOSE.test(c)) return 'request';
  if (PRAISE.test(c)) return 'statement';
  if (isNorm(s, c)) return 'norm';
  if (IMPERATIVE.test(c)) return 'request';
  if (asks) return 'challenge';
  if (REQUEST.test(c) || /^(?:please|pls)\b/i.test(c)) return 'request';
  return 'statement';
}

/** A rule said to hold beyond this task ("always …", "never …", "from now on", "in this repo"). */
export function isScoped(sentence: string): boolean {
  const s = sentence.trim();
  return ALWAYS.test(core(s)) || SCOPE.test(s) || /^(?:please\s+)?never\b/i.test(core(s));
}

/**
 * A norm that holds beyond the work at hand on its own (a scope, always/never, a prohibition, the
 * team's will, a practice, a workflow convention) — unlike a bare "X should Y", which in a first
 * request specifies the task rather than a rule of the project, or one that lasts only until the
 * work reaches a point.
 */
export function isStandingNorm(sentence: string): boolean {
  const s = sentence.trim();
  const c = core(s);
  // Bounded by a condition the work will meet ("don't stop until all tests pass"): it ends with the task.
  if (/\b(?:until|till)\b/i.test(s) && !SCOPE.test(s)) return false;
  return (
    CONVENTION.test(c) ||
    forbids(c) ||
    ALWAYS.test(c) ||
    PRACTICE.test(c) ||
    kindPractice(s, c) ||
    SCOPE.test(s) ||
    (WILL.test(s) && !WISH_NOW.test(s))
  );
}

/** Who does the work, not what is built: the obligation of an actor is an instruction for the task. */
const ACTOR =
  /^(?:(?:each|every|all|any|the|a|an|our|your)\s+)?(?:you|we|i|they|he|she|someone|somebody|everyone|(?:sub-?)?agents?|assistants?|claude|models?|bots?|users?|team|reviewers?|devs?|developers?)\b/i;
/** The modal of a requirement, after its subject. */
const MODAL =
  /\s+(?:must(?:n'?t| not)?|should(?:n'?t| not)?|needs? to|has to|have to|(?:is|are) (?:required|supposed) to)\b/i;
/**
 * A need the user states as what the thing must be: "what we need is …", "I need to be able to …",
 * "we need it to be …" — not a step ("we need to fix …") nor a thing for now ("we need a new one").
 */
const NEED =
  /\bwhat (?:we|i) (?:really |actually )?(?:need|want) is\b|\b(?:we|i) (?:really |also |just |still )?need (?:it |this |them )?to be (?:able to\b|\w+)/i;

/**
 * A requirement of what is being built, stated by the user: an obligation whose subject is the thing
 * made ("it should remember the bounds", "the page must load offline"), not an actor of the work
 * ("each subagent should …", "you must …"), and not what is expected to be true ("it should work
 * now"); or a need the user states as what it must be ("what we need is a simple page", "I need to be
 * able to reason about its randomness"). Not a wish for this moment ("I need you to …", "I need to see …").
 */
export function isRequirement(sentence: string): boolean {
  const s = sentence.trim();
  const c = core(s);
  if (c === '' || /\?\s*$/.test(s) || WISH_NOW.test(s) || EXPECTATION.test(s)) return false;
  // The clause the modal is in: its subject is what comes before the modal in that clause.
  for (const clause of c.split(/[,;:]\s+|\s+(?:and|but|so)\s+/i)) {
    const m = MODAL.exec(clause);
    if (!m) continue;
    const subject = clause.slice(0, m.index).trim();
    if (subject !== '' && subject.split(/\s+/).length <= 6 && !ACTOR.test(subject)) return true;
  }
  // A need denied or doubted ("I don't think we need a Dockerfile") is no requirement.
  return NEED.test(c) && !negates(c);
}

/** "X, not Y", "not X but Y", "X instead of Y", "rather than": the sentence sets one thing against another. */
export function contrasts(sentence: string): boolean {
  return /\b(?:instead of|rather than|as opposed to)\b|,\s*not\s+\S|\bnot\b[^.;]{1,60}\bbut\b|\binstead\b/i.test(
    sentence,
  );
}

/** The sentence negates (no, not, don't, never …). */
export function negates(sentence: string): boolean {
  return /\b(?:no|not|never|nothing|none|don'?t|doesn'?t|didn'?t|isn'?t|aren'?t|wasn'?t|weren'?t|won'?t|can'?t|cannot|shouldn'?t|mustn'?t|without)\b|n't\b/i.test(
    sentence,
  );
}

/** A bare refusal opening the utterance ("no.", "nope,", "ok. uh. no."), not a polite negative. */
export function opensWithRefusal(sentences: readonly string[]): boolean {
  for (const s of sentences.slice(0, 4)) {
    const c = core(s);
    if (BENIGN_NO.test(c) || BENIGN_NO.test(s.trim())) return false;
    if (
      REFUSAL.test(s.trim()) ||
      /^(?:no|nope|nah)\b[,.!]/i.test(s.trim()) ||
      /^(?:no|nope|nah)\b[,.!]/i.test(c)
    )
      return true;
    if (c !== '') return false;
  }
  return false;
}

/** Whether the sentence is the workflow kind of rule (commits, tests, lint) rather than a preference. */
export function isConvention(sentence: string): boolean {
  return CONVENTION.test(
    core(sentence).replace(/^(?:from now on|going forward|in (?:the )?future|from here on)[,]?\s+/i, ''),
  );
}

/**
 * The user saying the result does not hold — "it's not working", "still fails", "same error",
 * "nothing changed", "didn't help", "I don't think that's it" — a short statement, not a question.
 */
const DENIED =
  /\b(?:(?:is|are|was|it'?s|that'?s|this is|still)\s+not\s+(?:\w+\s+)?(?:work(?:ing)?|fixed|running|loading|showing|starting|right|it)\b|(?:is|are|was|does|do|did)n'?t\s+(?:\w+\s+)?(?:work(?:ing)?|fixed|running|loading|showing|starting|help|fix|change|do anything)\b|\bnot\s+(?:working|fixed)\b|\bstill\s+(?:broken|fail(?:s|ing)?|crash(?:es|ing)?|the same|hangs?|hanging|not|doesn'?t|does not|happening)\b|\bsame\s+(?:error|problem|issue|thing|result)\b|\bnothing\s+(?:changed|happens|happened|works)\b|\bdon'?t think\s+(?:that'?s|this is|it'?s)\s+(?:it|right|the (?:problem|issue|cause|one))\b)/i;

export function deniesOutcome(sentence: string): boolean {
  const s = sentence.trim();
  return DENIED.test(s) && !/[?？]\s*$/.test(s) && s.split(/\s+/).length <= 14;
}
