/**
 * Secret-ish names and harmless values: when `name = value` holds a secret, and when it obviously does not.
 */

// ---- names --------------------------------------------------------------------------------------

/** A substring every secret-ish name contains (`key` only after something: `api_key`, not `key`). */
export const HINT = '(?:pass|pwd|secret|token|[\\w.-]key|auth|cred|cookie|sig)';
export const HINT_RE = new RegExp(HINT, 'i');
export const SECRET_PART =
  /^(?:pwd|passphrase|secrets?|auth|authorization|credentials?|creds|cookie|sig|[a-z]*(?:password|passwd|secret|token|apikey|privatekey|accesskey|secretkey|sessionkey|accountkey))$/;
export const words = (list: string): ReadonlySet<string> => new Set(list.split(' '));
/** `<word>_key` is secret-ish for these words (`api_key`, `AccountKey`, `x-api-key`). */
export const KEY_OWNERS = words(
  'api access private secret session account signing encryption encrypt master shared client app license auth sas storage consumer subscription deploy admin hmac jwt webhook',
);
/** A name ending in one of these describes a secret without being one (`token_count`, `password_reset_url`). */
export const NOT_SECRET_LAST = words(
  'count counts length len size url uri urls type types limit limits max min expiry expires expiration expired ttl timeout id ids name names file path paths dir field fields label hint prompt policy endpoint mode enabled required format index version usage budget header headers prefix env var source provider strategy method scheme kind display placeholder description regex pattern rule rules manager service store handler helper fn callback status state error errors message valid visible reset changed at date time created updated hash hashed digest location host domain server realm issuer audience region algorithm alg stdin cmd command input key ts tsx js jsx mjs cjs py rb go rs java kt json yaml yml toml md txt sh html css lock log',
);
/** Flags that mention a secret without taking one (`--no-auth`, `--with-token`). */
export const NOT_SECRET_FIRST = words(
  'no with show print use skip allow enable disable require has is should',
);

export const nameCache = new Map<string, boolean>();

/** True when an identifier names a secret: `DB_PASSWORD`, `apiKey`, `x-api-key`, `--token`, `AccountKey`. */
export function isSecretName(name: string): boolean {
  let known = nameCache.get(name);
  if (known === undefined) {
    if (nameCache.size >= 2048) nameCache.clear();
    known = judgeName(name);
    nameCache.set(name, known);
  }
  return known;
}

export function judgeName(name: string): boolean {
  const parts = name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((p) => p !== '');
  const last = parts[parts.length - 1];
  if (last === undefined || NOT_SECRET_FIRST.has(parts[0] ?? '')) return false;
  if (last === 'key' && parts.length > 1 && KEY_OWNERS.has(parts[parts.length - 2] ?? '')) return true;
  if (last === 'key' && parts.length > 1 && /^[A-Z0-9_-]+$/.test(name.replace(/^-+/, ''))) return true;
  if (last === 'signature' && ['access', 'amz', 'shared'].includes(parts[parts.length - 2] ?? ''))
    return true;
  if (NOT_SECRET_LAST.has(last)) return false;
  if (last === 'pass') return true; // `DB_PASS`, not `passContext`
  return parts.some((p, i) => SECRET_PART.test(p) || (p === 'key' && KEY_OWNERS.has(parts[i - 1] ?? '')));
}

// ---- values -------------------------------------------------------------------------------------

/**
 * Placeholder words: a flag, a type, a scheme, a word of prose (`PLACEHOLDER`'s words). Looked up in a
 * set, not matched by a regex of them: a regex that large costs ~2 ms of a hook to compile (twice: V8
 * interprets a regex first and compiles it to machine code on its second run), a set nothing.
 */
const PLACEHOLDER_WORDS = words(
  'null nil none undefined true false yes no on off required optional string number boolean bool str int integer bytes any unknown object void redacted changeme inherit include omit same-origin bearer basic digest token oauth oauth2 jwt env is are was were be must should cannot can does did has have will too please see use the a an to of for and or not in with from here set unset missing invalid incorrect wrong expired empty hidden masked await new this self function return typeof async',
);
/** Every other shape of a placeholder: masks, references, small numbers and versions. */
const PLACEHOLDER_SHAPE =
  /^(?:\*+|x{3,}|![\w!]+|\.{3,}|\u2026|-+|<[^<>]*>|\$\{[^}]*\}|\$[A-Za-z_]\w*|\$\(.*\)|\{\{.*\}\}|%\(?\w*\)?s|-?\d{1,5}(?:\.\d+)?|[~^>=<v]{0,3}\d+(?:\.(?:\d+|x|\*)){1,3}(?:-[\w.]+)?)$/i;
/** The characters a `PLACEHOLDER_SHAPE` can start with (in any case): a value starting otherwise is none. */
const PLACEHOLDER_FIRST = '*xX!.…-<${%~^>=vV0123456789';
/**
 * `word` in any case is one of `list`'s (all ASCII), as a case-insensitive regex of them would say: ASCII
 * letters alone fold (the Kelvin sign lower-cases to `k`, but no such regex lets it match a `k`).
 */
function isWordOf(list: ReadonlySet<string>, word: string): boolean {
  if (!list.has(word.toLowerCase())) return false;
  for (let i = 0; i < word.length; i++) if (word.charCodeAt(i) > 127) return false;
  return true;
}

/**
 * A placeholder or a type, not a value: `none`, `string`, `changeme`, `***`, `xxxx`, `${TOKEN}`, `$TOKEN`,
 * `<your-token>`, `{{ token }}`, `%s`, a small number or a version.
 */
export const isPlaceholder = (v: string): boolean =>
  isWordOf(PLACEHOLDER_WORDS, v) || (PLACEHOLDER_FIRST.includes(v.charAt(0)) && PLACEHOLDER_SHAPE.test(v));

/** The roots of members that hold settings or the environment, not secrets (`process.env.X`, `settings.DB_PASS`). */
const MEMBER_ROOTS = words(
  'process os env config cfg settings this self req request res response ctx context options opts args params props state secrets vars inputs data body user session auth creds credentials window document import',
);
export const isMemberRoot = (root: string): boolean => MEMBER_ROOTS.has(root);

/** Where an unquoted value sits: its separator, whether a space precedes that, and the next character. */
export interface Unquoted {
  readonly sep: string;
  readonly spaced: boolean;
  readonly next: string;
  /** `name:value` with no space after the colon (`auth:login`, `session:token`): a scope, not YAML. */
  readonly tight?: boolean;
  /**
   * The value is a literal, not code: an environment variable's (`DB_PASSWORD=…`, `PGPASSWORD: …`), a
   * flag's (`--password …`), a `name=value` with nothing around the `=` (a query string, `.env`, a
   * connection string). Then only references, masks and flag words are harmless, whatever the value
   * looks like otherwise (`SuperSecretPw123`, `MySecretValue`, `1234`).
   */
  readonly literal?: boolean;
  /** A plain word that is the value itself, not a variable (`wordIsLiteral`). */
  readonly word?: boolean;
}

/** A value that is a literal wherever it sits (a flag's, a quoted environment variable's). */
export const LITERAL: Unquoted = { sep: '', spaced: false, next: '', literal: true };

/**
 * An environment variable's or a config key's name, in any case: upper case, digits and underscores
 * (`PGPASSWORD`, `DB_PASSWORD`), or words joined by underscores whatever their case whose last word
 * is the secret itself (`Db_Password`, `DB_PASSWORd`, `api_key`; not `token_msg`, a message's key) —
 * never a camelCase identifier (`hashedPassword`), which is code's.
 */
export const isEnvName = (name: string): boolean =>
  /^[A-Z][A-Z0-9_]*$/.test(name) ||
  (/^[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+$/.test(name) &&
    !/[a-z][A-Z]/.test(name) &&
    /_[a-z]*(?:password|passwd|pwd|passphrase|secret|token|key)$/i.test(name));

/**
 * What a literal value may be without being a secret: empty, a reference (`$X`, `${X}`, `$(cmd)`,
 * `%X%`, `{{ x }}`, `<your-token>`), a mask (`***`, `xxxx`, `…`, `[REDACTED:…]`), a YAML tag, a
 * word that sets a flag or a scheme (`none`, `true`, `bearer`, `stdin`), a path, a URL without
 * credentials, or a member of the environment or settings (`process.env.X`, `settings.DB_PASS`).
 */
const LITERAL_HARMLESS_WORDS = words(
  'null nil none undefined true false yes no on off empty unset required optional inherit include omit basic bearer digest oauth oauth2 jwt env default auto stdin prompt',
);
const LITERAL_HARMLESS_SHAPE =
  /^(?:\*+|x{3,}|X{3,}|\.{3,}|\u2026|-+|![\w!]+|<[^<>]*>|\$\{[^}]*\}|\$[A-Za-z_]\w*|\$\(.*\)|%\w+%|\{\{.*\}\}|%\(?\w*\)?s)$/i;
/** The characters a `LITERAL_HARMLESS_SHAPE` can start with (in any case). */
const LITERAL_HARMLESS_FIRST = '*xX.…-!<${%';
export const isLiteralHarmless = (v: string): boolean =>
  isWordOf(LITERAL_HARMLESS_WORDS, v) ||
  (LITERAL_HARMLESS_FIRST.includes(v.charAt(0)) && LITERAL_HARMLESS_SHAPE.test(v));

/** Empty, already redacted, a path, a URL without credentials: harmless wherever it sits. */
const plainlyHarmless = (v: string): boolean =>
  v === '' ||
  /^(?:\w+ )?\[REDACTED:[\w-]+\](?:\\[nr])*$/.test(v) ||
  /^(?:~|\.{1,2})?\/[\w./-]*$/.test(v) ||
  /^[a-z][\w+.-]*:\/\/[^@\s]*$/i.test(v);

function literalIsHarmless(v: string): boolean {
  if (plainlyHarmless(v) || isLiteralHarmless(v)) return true;
  const member = /^([A-Za-z_$][\w$]*)(?:\??\.[A-Za-z_$][\w$]*)+[!?]?$/.exec(v);
  return member !== null && isMemberRoot(member[1] ?? '');
}

/** An unquoted value's characters: not a space, quote, bracket or separator of code or a shell. */
const UNQUOTED_PLAIN = `[^\\s"'\`,;(){}\\[\\]<>\\\\&|]`;
/**
 * An unquoted value, up to 500 characters: an `&` only inside it (`Tr0ub4dor&3`), not first (a YAML
 * anchor, `&name`), nor a shell's `&&` or `&`, nor a query's next `&name=`.
 */
export const UNQUOTED_VALUE = `${UNQUOTED_PLAIN}(?:${UNQUOTED_PLAIN}|&(?![&\\s]|[\\w.-]{1,40}=)){0,499}`;

/** A match in the text a rule ran on: the line around it is what precedes and follows it up to a line break. */
export interface LineAt {
  readonly text: string;
  readonly start: number;
  readonly end: number;
  /** Whether the whole text the line is part of is a config file (`config-text.ts`), asked only when needed. */
  readonly inConfig?: () => boolean;
}
export const lineBefore = (at: LineAt): string =>
  at.text.slice(at.text.lastIndexOf('\n', at.start - 1) + 1, at.start);
export const lineAfter = (at: LineAt): string => {
  const stop = at.text.indexOf('\n', at.end);
  return at.text.slice(at.end, stop === -1 ? undefined : stop);
};

/**
 * What shows a line to be code before an assigned name: a declaration, a sigil (`$x`, `@x`), a member,
 * a tuple (`user, password = …`), or an indent of spaces (a block's body; config files are flat, or
 * indent with tabs, like git's).
 */
const CODE_BEFORE =
  /(?:(?:^|[^\w$])(?:let|const|var|val|my|our|local|auto|final|static|private|public|protected|readonly|global|nonlocal)[ \t]+|[@$&*.]|->|::|,[ \t]*|^ {2,})$/;
/** What shows it after the word: an operator, a bracket, a keyword carrying the expression on, a final `;`. */
const CODE_AFTER =
  /^[ \t]*(?:[-+*/%^|&?:<>=!~.,;(){}[\]]|(?:if|or|and|else|unless|for|in|is|not|then)\b)|;[ \t]*$/;

/**
 * `name = word`: a plain lower-case word after an `=` with spaces around it. In a config, shell or log
 * line (`password = hunter` in an INI file, a `.cfg`, a command's output) the word is the value itself;
 * in code it is a variable. It is taken for a variable only when the line shows code: a declaration,
 * member, tuple or block indent before the name (`let password = x`, `self.password = x`, `$password`),
 * an operator, bracket or statement's end after the word (`password = pw or ask()`, `X = class {`), or
 * a word named for the secret it holds (`password = passwd`, `= pw`, `= creds`: a secret-ish name, or
 * a word whose letters run in order through one of the name's words, from its first letter).
 */
export function wordIsLiteral(name: string, word: string, before: string, after: string): boolean {
  if (!/^[a-z]+$/.test(word) || (name.includes('.') && !isConfigPath(name, '=')) || CODE_BEFORE.test(before))
    return false;
  return !CODE_AFTER.test(after) && !namesItsSecret(name, word);
}

/** A word named for the secret it holds: secret-ish itself, or its letters run through one of the name's words. */
function namesItsSecret(name: string, word: string): boolean {
  if (isSecretName(word)) return true;
  const w = word.toLowerCase();
  const parts = name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[^a-z]+/);
  return parts.some(
    (part) => part !== '' && part.startsWith(w.charAt(0)) && (runsThrough(w, part) || w.startsWith(part)),
  );
}

/** What an object's member is set through in code (`self.password = x`, `user.token = t`), not a config path. */
const RECEIVER =
  /^(?:[a-z]|cls|obj|instance|client|conn|connection|account|model|item|record|form|new|old|current)$/;

/**
 * A dotted key that is a config path (`spring.datasource.password`, `db.password`), not a member set
 * in code: after a `:` always (code has no `a.b: c`), after an `=` unless its root is an object code
 * sets members through (`self`, `this`, `config`, `user`…).
 */
export const isConfigPath = (name: string, sep: string): boolean => {
  const root = name.slice(0, name.indexOf('.'));
  return (
    /^[A-Za-z][\w-]*(?:\.[\w-]+)+$/.test(name) &&
    (sep === ':' || !(isMemberRoot(root) || RECEIVER.test(root)))
  );
};

/**
 * A key only config gives (`Password`, `Db-Password`, `spring.datasource.password`): capitalised, joined
 * by hyphens, or a config path. An identifier in code is none of these, so its value is no variable.
 */
const isConfigKey = (name: string, sep: string): boolean =>
  /^[A-Z][a-z]/.test(name) ||
  /^[A-Za-z]\w*(?:-\w+)+$/.test(name) ||
  (name.includes('.') && isConfigPath(name, sep));

/**
 * The line before and after a match, at most `NEAR` characters of it, so a long line with many matches
 * costs each a bounded look: a line cut short is marked by a `\u0001` where it was cut, which no entry's
 * indent or comment holds (an indent that long is no config's).
 */
const NEAR = 256;
function nearBefore(at: LineAt): string {
  const from = Math.max(0, at.start - NEAR);
  const near = at.text.slice(from, at.start);
  const nl = near.lastIndexOf('\n');
  return nl !== -1 ? near.slice(nl + 1) : from === 0 ? near : `\u0001${near}`;
}
function nearAfter(at: LineAt): string {
  const near = at.text.slice(at.end, at.end + NEAR);
  const nl = near.indexOf('\n');
  return nl !== -1 ? near.slice(0, nl) : at.end + NEAR >= at.text.length ? near : `${near}\u0001`;
}

/**
 * Before the key, a config entry has an indent (a YAML item's dash, a quote opening the text), from a
 * line's start or the line number a file read or `cat -n` puts there.
 */
const ENTRY_BEFORE = /(?:^|\\[nr]|["'`])(?: *\d+(?:\u2192|\t))?(?:[ \t]|\\t)*(?:-[ \t]+)?(?:\\{0,3}["'])?$/;
/** After the value: nothing but a comment, to the line's end (a real or escaped line break, or the text's closing quote). */
const ENTRY_AFTER = /^[ \t]*(?:\r?$|#|\\[nr]|\\{0,3}["'`])/;

/**
 * `key: word`, `Key = word` on a line of its own (a YAML, TOML, INI or properties entry): a single word
 * of letters that is the value itself, not an identifier. A key only config gives holds a literal
 * whatever the word's case; after a plain key's spaced `:` (`password: hunter`, `password : Hunter`) a
 * word is a value unless shaped like a type (`SecretStr`: humps of camel case; a type word is a
 * placeholder); after a plain key's spaced `=`, `wordIsLiteral` judges. In a text that is a config file
 * by its own lines (`line.inConfig`), every entry's word is its value: indented (`    password = hunter`),
 * type-shaped (`password: CorrectHorse`), after a tight `:` (`password:hunter`, a properties entry; not
 * a YAML list item's). Never a word named for the secret it holds.
 */
function entryWordIsLiteral(name: string, word: string, sep: string, tight: boolean, line: LineAt): boolean {
  if (!/^[A-Za-z]+$/.test(word)) return false;
  const before = nearBefore(line);
  if (!ENTRY_BEFORE.test(before) || !ENTRY_AFTER.test(nearAfter(line))) return false;
  // A YAML list's `- auth:login` is one string, not a key and its value.
  if (namesItsSecret(name, word) || (tight && /-[ \t]+\\{0,3}["']?$/.test(before))) return false;
  const config = !tight && (isConfigKey(name, sep) || (sep === ':' && !/[a-z][A-Z]/.test(word)));
  return config || line.inConfig?.() === true;
}

type Groups = Readonly<Record<string, string | undefined>>;

/**
 * Where an unquoted `name<sep>value` sits (`g`: the rule's groups `name`, `sp`, `sep`, `sp2`, `val`):
 * a literal is an environment variable's value unless code follows (`const TOKEN = token;`), a flag's,
 * or `name=value` with nothing around the `=` unless it is an argument (`connect(password=password)`);
 * a word is the value itself after a spaced `=` on a line that does not show code (`wordIsLiteral`), or
 * on a config entry's line (`entryWordIsLiteral`, which alone asks whether the whole text is config).
 */
export function unquotedAt(g: Groups, next: string, line: LineAt): Unquoted {
  const name = g['name'] ?? '';
  const sep = g['sep'] ?? '';
  const val = g['val'] ?? '';
  const tight = g['sp2'] === '';
  const literal =
    (isEnvName(name) && !';,)}'.includes(next || '\n')) ||
    name.startsWith('-') ||
    (sep === '=' && g['sp'] === '' && tight && !',)'.includes(next || '\n'));
  const word =
    (!tight &&
      sep === '=' &&
      g['sp'] !== '' &&
      wordIsLiteral(name, val, nearBefore(line), nearAfter(line))) ||
    ((sep === ':' || sep === '=') && entryWordIsLiteral(name, val, sep, tight, line));
  return { sep, spaced: g['sp'] !== '', next, tight, literal, word };
}

/** Whether the letters of `word` appear in `part` in order (`pwd` through `password`). */
function runsThrough(word: string, part: string): boolean {
  let at = 0;
  for (const ch of word) {
    at = part.indexOf(ch, at) + 1;
    if (at === 0) return false;
  }
  return true;
}

/**
 * True when an assignment's value is obviously not a secret: empty, a placeholder or type, a small
 * number, a path, a URL without credentials; or, unquoted, a reference in code (`process.env.X`,
 * `token.value`, `hashedPassword`, `token = comment;`). A literal (`at.literal`) is held to the
 * stricter rule of `literalIsHarmless`.
 */
export function isHarmless(value: string, at?: Unquoted): boolean {
  const v = value.trim();
  if (at?.literal) return literalIsHarmless(v);
  if (plainlyHarmless(v) || isPlaceholder(v)) return true;
  // A sentence (`"Unexpected token."`, `"意外的标记。"`), not a passphrase.
  if (/[.?!\u3002\uFF1F\uFF01]$/.test(v) && (/^[A-Z]?[a-z]+[ ,]/.test(v) || /[^\t -\xff]/.test(v)))
    return true;
  if (at === undefined) return false;
  if (v.length < 3 || (at.tight && at.sep === ':' && !at.word && /^[A-Za-z]{1,15}$/.test(v))) return true;
  if (/^[A-Za-z_$][\w$]*$/.test(v)) {
    // A bare word: a type (`key: Buffer`, `privateKey: T2;`) or a variable (`token = comment;`).
    const codeNext = ';,)}'.includes(at.next || '\n');
    const noDigits = !/\d/.test(v);
    if (at.sep === ':' && /^[A-Z]/.test(v) && !at.word && (noDigits || codeNext)) return true;
    // `token = comment;`, `password: secret,`, an argument `connect(password=password)`.
    if (noDigits && !at.word && (at.spaced || codeNext)) return true;
    // `hashedPassword`, not `SuperSecretPw123` (a variable's name seldom ends in digits).
    if (noDigits && /[a-z][A-Z]/.test(v) && isSecretName(v)) return true;
  }
  const member = /^([A-Za-z_$][\w$]*)((?:\??\.[A-Za-z_$][\w$]*)+)[!?]?$/.exec(v);
  if (member === null) return false;
  return !/\d/.test(v) || isMemberRoot(member[1] ?? '') || HINT_RE.test(member[2] ?? '');
}

export const isUpper = (c: number): boolean => c >= 65 && c <= 90;

const asciiCounts = new Int32Array(128);
const asciiOrder = new Uint8Array(128);

/** Count each character of `s` (ASCII only; null otherwise): counts in first-seen order, and the classes. */
function asciiCensus(s: string): { counts: number[]; lower: number; upper: number; digit: number } | null {
  let seen = 0;
  let lower = 0;
  let upper = 0;
  let digit = 0;
  let ascii = true;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 128) {
      ascii = false;
      break;
    }
    if (asciiCounts[c] === 0) asciiOrder[seen++] = c;
    asciiCounts[c] = (asciiCounts[c] as number) + 1;
    if (c >= 97 && c <= 122) lower++;
    else if (c >= 65 && c <= 90) upper++;
    else if (c >= 48 && c <= 57) digit++;
  }
  const counts: number[] = [];
  for (let k = 0; k < seen; k++) {
    const c = asciiOrder[k] as number;
    counts.push(asciiCounts[c] as number);
    asciiCounts[c] = 0;
  }
  return ascii ? { counts, lower, upper, digit } : null;
}

/** The same census for any text, per code point (a Map keeps the first-seen order). */
function census(s: string): { counts: Iterable<number>; lower: number; upper: number; digit: number } {
  const fast = asciiCensus(s);
  if (fast) return fast;
  const counts = new Map<string, number>();
  let lower = 0;
  let upper = 0;
  let digit = 0;
  for (const ch of s) {
    counts.set(ch, (counts.get(ch) ?? 0) + 1);
    if (ch >= 'a' && ch <= 'z') lower++;
    else if (ch >= 'A' && ch <= 'Z') upper++;
    else if (ch >= '0' && ch <= '9') digit++;
  }
  return { counts: counts.values(), lower, upper, digit };
}

/** Shannon entropy, character classes and case mix: random keys, not words, identifiers or prose. */
export function looksRandom(s: string): boolean {
  if (s.length < 20) return false;
  const { counts, lower, upper, digit } = census(s);
  // Summed in first-seen order, so the figure is the same to the last bit whichever census ran.
  let entropy = 0;
  for (const n of counts) entropy -= (n / s.length) * Math.log2(n / s.length);
  // Without digits, demand the frequent case changes of random text (not the few of camelCase words).
  let changes = 0;
  for (let i = 1; i < s.length; i++) {
    if (isUpper(s.charCodeAt(i - 1)) !== isUpper(s.charCodeAt(i))) changes++;
  }
  const mixed = digit > 0 ? lower + upper > 0 : s.length >= 30 && changes >= s.length * 0.4;
  return mixed && entropy >= 3.3;
}
