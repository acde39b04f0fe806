/**
 * The language the user works in, when it is not English: a preference of the project (the next
 * session answers in it). Told by what the user typed, never by a phrasing: the letters' script
 * (Japanese kana, Korean Hangul, Chinese characters, Cyrillic, Greek, Arabic, Hebrew, Thai,
 * Devanagari), or, for a language in Latin letters, its commonest function words — a small
 * language-identification table, the same for any sentence. Code, links, paths, identifiers and
 * pasted output (fenced blocks) are left out first. Stated once per language: the same title every session, so a
 * later session's reading is the same memory.
 */
import type { TranscriptEntry } from '../../core/transcript.ts';
import { withoutCode } from '../text.ts';
import { extracted, type Extracted } from './extracted.ts';

/** The commonest short function words of languages written in Latin letters (English included). */
const FUNCTION_WORDS: Record<string, string> = {
  English: 'the and is are you it this that with for not what can but have was',
  Spanish: 'el la los las que es por para con una pero como está esto qué también',
  French: 'le la les est une des que pour avec pas dans ce cette mais vous je',
  German: 'der die das ist und nicht ich mit auf ein eine für auch wie bitte',
  Portuguese: 'não uma com para que é os está isso você também mas como então',
  Italian: 'il che è non per una sono gli della questo anche con come perché',
  Dutch: 'de het een niet van ik dat met voor ook zijn maar wat deze',
};
const WORDS = Object.fromEntries(
  Object.entries(FUNCTION_WORDS).map(([language, words]) => [language, new Set(words.split(' '))]),
);

/** Scripts that name their language (or, where several share one, the one the letters tell). */
const SCRIPTS: [RegExp, (text: string) => string][] = [
  [/\p{Script=Hangul}/gu, () => 'Korean'],
  [/\p{Script=Thai}/gu, () => 'Thai'],
  [/\p{Script=Greek}/gu, () => 'Greek'],
  [/\p{Script=Hebrew}/gu, () => 'Hebrew'],
  [/\p{Script=Devanagari}/gu, () => 'Hindi'],
  [/\p{Script=Arabic}/gu, (t) => (/[پچژگ]/u.test(t) ? 'Persian' : 'Arabic')],
  [/\p{Script=Cyrillic}/gu, (t) => (/[іїєґІЇЄҐ]/u.test(t) ? 'Ukrainian' : 'Russian')],
];
const KANA = /[\p{Script=Hiragana}\p{Script=Katakana}]/gu;
const HAN = /\p{Script=Han}/gu;
const LETTER = /\p{L}/gu;

/** What of a message is the writer's prose: no code, links, paths, identifiers or pasted blocks. */
function prose(text: string): string {
  return (
    withoutCode(text.replace(/```[\s\S]*?```/g, ' '))
      .replace(/https?:\/\/\S+/g, ' ')
      .replace(/(?:^|\s)[~.]?\/\S+/g, ' ')
      // Identifiers, hashes and addresses: a word with a digit in it, or one too long to be a word.
      .replace(/[\p{L}\p{N}_]*\p{N}[\p{L}\p{N}_]*|[A-Za-z_]{25,}/gu, ' ')
  );
}

const count = (text: string, re: RegExp) => text.match(re)?.length ?? 0;

/** The language a message is written in, or '' when it is too short to tell or not one language. */
export function languageOf(message: string): string {
  const text = prose(message);
  const letters = count(text, LETTER);
  if (letters < 12) return '';
  const kana = count(text, KANA);
  const han = count(text, HAN);
  if (kana > 0 && (kana + han) * 2 >= letters) return 'Japanese';
  if (han * 2 >= letters) return 'Chinese';
  for (const [script, name] of SCRIPTS) if (count(text, script) * 2 >= letters) return name(text);
  const words = text.toLowerCase().match(/\p{L}+/gu) ?? [];
  if (words.length < 6) return '';
  const hits = Object.entries(WORDS)
    .map(([language, set]) => [language, words.filter((w) => set.has(w)).length] as const)
    .sort((a, b) => b[1] - a[1]);
  const [best, second] = hits;
  if (!best || best[1] < 3 || best[1] < (second?.[1] ?? 0) * 2) return '';
  return best[0];
}

/**
 * Whether a message is plainly not in English: a language `languageOf` names, or Latin letters whose
 * function words are another language's more than English's (Spanish and French share "que", "la":
 * which one it is may stay open, that it is not English does not).
 */
export function notEnglish(message: string): boolean {
  const named = languageOf(message);
  if (named !== '') return named !== 'English';
  const words =
    prose(message)
      .toLowerCase()
      .match(/\p{L}+/gu) ?? [];
  if (words.length < 6) return false;
  const hits = (language: string) => words.filter((w) => WORDS[language]?.has(w)).length;
  const other = Math.max(
    ...Object.keys(WORDS)
      .filter((l) => l !== 'English')
      .map(hits),
  );
  return other >= 3 && other > hits('English') * 2;
}

/** The language most of the messages are in (at least two thirds of those it can tell), or ''. */
function mainLanguage(messages: readonly string[]): string {
  const told = messages.map(languageOf).filter((l) => l !== '');
  const counts = new Map<string, number>();
  for (const l of told) counts.set(l, (counts.get(l) ?? 0) + 1);
  const [top] = [...counts.entries()].sort((a, b) => b[1] - a[1]);
  return top && top[1] * 3 >= told.length * 2 ? top[0] : '';
}

/** The user's language as a preference of the project, when it is not English (see the module comment). */
export function extractUserLanguage(entries: readonly TranscriptEntry[]): Extracted[] {
  // Every prompt is the user's words (a slash command's arguments too); the replies are the assistant's.
  const typed = entries.flatMap((e) => (e.kind === 'prompt' ? [e] : []));
  const language = mainLanguage(typed.map((e) => e.text));
  if (language === '' || language === 'English') return [];
  const first = typed.find((e) => languageOf(e.text) === language);
  if (!first) return [];
  const ofUser = typed.filter((e) => languageOf(e.text) === language).length;
  const replies = entries.flatMap((e) => (e.kind === 'assistant_text' ? [e.text] : []));
  const answered = mainLanguage(replies) === language;
  const title = answered
    ? `The user writes in ${language} and is answered in ${language}`
    : `The user writes in ${language}`;
  return [
    extracted(
      'preference',
      title,
      `${ofUser === typed.length ? 'Every message the user typed this session is' : `${ofUser} of the ${typed.length} messages the user typed this session are`} in ${language}${answered ? `, and the assistant answered in ${language}` : ''}.`,
      first,
      0.8,
      {
        facts: [`language: ${language}`, ...(answered ? [`answers: ${language}`] : [])],
        concepts: ['preference', 'language', 'user'],
        subject: 'user-language',
        trust: 'user',
      },
    ),
  ];
}
