/**
 * The instruction screen's word classes (see screen-structure.ts): verbs by the capability they
 * exercise, in every inflection (`send`, `sends`, `sent`, `sending`: a practice described — "we mail
 * the keys to …" — is as much an invitation as a command), and the classes of what they act on:
 * places outside the machine, secrets, the agent as addressee, the user as principal, safety gates.
 * Regular-expression sources over folded text (lower case, single spaces). Pure.
 */

/** Irregular past forms of the verbs below. */
const IRREGULAR: Readonly<Record<string, readonly string[]>> = {
  send: ['sent'],
  run: ['ran'],
  leave: ['left'],
  take: ['took', 'taken'],
  shut: [],
  put: [],
  set: [],
  give: ['gave', 'given'],
  write: ['wrote', 'written'],
  make: ['made'],
  get: ['got', 'gotten'],
  grab: [],
};

/** Every form of one verb: base, third person, past, participle, gerund (a superset: "mailled" harms nobody). */
export function verbForms(verb: string): string[] {
  const [head = verb, ...tail] = verb.split(' ');
  const rest = tail.length > 0 ? ` ${tail.join(' ')}` : '';
  const last = head.charAt(head.length - 1);
  const stem = head.endsWith('e') ? head.slice(0, -1) : head;
  const out = new Set<string>([head, ...(IRREGULAR[head] ?? [])]);
  if (/(?:s|sh|ch|x|z|o)$/.test(head)) out.add(`${head}es`);
  else if (/[^aeiou]y$/.test(head)) out.add(`${head.slice(0, -1)}ies`);
  else out.add(`${head}s`);
  if (/[^aeiou]y$/.test(head)) out.add(`${head.slice(0, -1)}ied`);
  else out.add(`${stem}ed`);
  out.add(`${head}${last}ed`);
  out.add(`${stem}ing`);
  out.add(`${head}${last}ing`);
  return [...out].map((f) => `${f}${rest}`);
}

/** `\b(?:…)\b` over every form of every verb, longest first. */
export const verbsRe = (verbs: readonly string[]): string =>
  String.raw`\b(?:${verbs
    .flatMap(verbForms)
    .sort((a, b) => b.length - a.length)
    .map((v) => v.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&').replace(/ /g, '\\s+'))
    .join('|')})\b`;

/** Moving data from here to elsewhere. */
export const TRANSFER = [
  'send',
  'mail',
  'email',
  'e-mail',
  'upload',
  'post',
  'copy',
  'mirror',
  'sync',
  'forward',
  'transmit',
  'share',
  'attach',
  'paste',
  'submit',
  'scp',
  'rsync',
  'back up',
  'exfiltrate',
  'leak',
  'archive',
  'dump',
  'stream',
  'beam',
  'deliver',
  'put',
];

/** Running code. */
export const EXECUTE = ['run', 'execute', 'exec', 'source', 'eval', 'launch', 'invoke', 'pipe', 'install'];

/** Switching off what protects the user, or taking it away. */
export const DISABLE = [
  'disable',
  'turn off',
  'switch off',
  'shut off',
  'remove',
  'delete',
  'comment out',
  'skip',
  'bypass',
  'drop',
  'deactivate',
  'suppress',
  'circumvent',
  'get around',
  'kill',
  'uninstall',
  'strip',
  'rip out',
  'lift',
  'relax',
  'loosen',
  'weaken',
];

/** Being bound by someone's word. */
export const AUTHORITY = [
  'answer to',
  'report to',
  'listen to',
  'obey',
  'follow',
  'defer to',
  'take orders from',
  'take instructions from',
  'take direction from',
  'take directions from',
  'outrank',
  'override',
  'overrule',
  'supersede',
  'trump',
  'prioritise',
  'prioritize',
];

/**
 * A place outside the machine: a URL of any scheme (`https://`, `s3://`, `ftp://`, `ssh://`), a host
 * name with a public suffix (not one that is also a file's extension: `run.sh`, `notes.app`, `a.cc`,
 * `x.zip` are files; and not after a slash: `./run.sh`), an e-mail address, a public IP address, a
 * `host:path` copy target.
 * Loopback and private addresses are the machine's own (`localhost`, `127.…`, `10.…`, `192.168.…`).
 */
export const OUTSIDE = String.raw`(?:\b(?:https?|s3|gs|ftps?|sftp|ssh|rsync|wss?|az|r2):\/\/(?!(?:localhost|127\.|0\.0\.0\.0|10\.|192\.168\.|\[::1\]))\S+|(?<![\w@.\/~-])(?!localhost\b)[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:com|net|org|io|dev|xyz|ru|cn|top|site|info|co|me|tk|link|click|online|example|cloud|ai|biz|us|uk|de|tech|host|pw|ws)\b(?![.\w-]*\.(?:ts|js|json|md|py|rs|go|yml|yaml|toml|lock)\b)(?::\S+|\/\S*)?|\b[\w.+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)+\b|\b(?!(?:127|10|0)\.)(?!192\.168\.)\d{1,3}(?:\.\d{1,3}){3}\b)`;

/** A secret, or where secrets live. */
export const SECRETS = String.raw`(?:\b(?:secrets?|credentials?|passwords?|passphrases?|passwd|tokens?|cookies|keychain|wallet|seed phrase|shell history|bash history|private keys?|(?:ssh|deploy|signing|api|access|secret|gpg|pgp|master|root|service account|encryption)[ _-]?(?:keys?|certs?|certificates?|keypairs?)|pem files?|\.pem|id_rsa|id_ed25519|kube ?config)\b|~?\/?\.(?:env|ssh|aws|azure|npmrc|netrc|pypirc|docker\/config\.json|kube|gnupg|bash_history|zsh_history|git-credentials|config\/(?:gcloud|gh|hub|op|doctl|heroku))\b|\bapplication_default_credentials\b|\bprocess\.env\b|\bprintenv\b|\benv(?:ironment)? (?:variables|vars|file)\b|\b[a-z0-9]+_[a-z0-9_]*(?:token|secret|password|passwd|api_?key|private_?key)\b)`;

/** Something fetched from elsewhere to be run: a script or an installer by its name or path. */
export const CODE_THING = String.raw`(?:\.(?:sh|bash|zsh|ps1|bat|cmd|py|pl|rb|js|mjs|exe|msi|pkg|dmg|deb|rpm|appimage|bin|run)\b|\b(?:installers?|install scripts?|setup scripts?|bootstrap(?:per)? scripts?|scripts?|one-liners?|oneliners?|binar(?:y|ies)|snippets?|payloads?|executables?|rc files?|shell rc|dotfiles?)\b|\/(?:install|setup|bootstrap|init|get|fix|repair|latest)\b)`;

/**
 * Agents as addressees: a group named as such ("AI agents", "automated contributors", "documentation
 * bots", "assistants", "language models") or a named agent product (not the product's CLI or hooks).
 */
export const AGENTS = String.raw`(?:\b(?:ai|automated|autonomous|coding|llm|gpt|documentation|docs|chat)[ -](?:agents?|assistants?|models?|tools?|contributors?|readers?|crawlers?|bots?|helpers?|systems?)\b|\b(?:assistants|agents|llms|language models|chatbots)\b)`;

/** Requests, wishes and obligations put to a subject. */
export const MODALITY = String.raw`(?:must|should|shall|need to|needs to|have to|has to|ought to|are to|is to|(?:are|is) (?:\w+ )?(?:requested|asked|expected|required|instructed|supposed|encouraged|invited|told|meant|advised|urged|recommended) (?:not )?to)`;

/** The user, as the one whose word counts. */
export const PRINCIPAL = String.raw`(?:\b(?:the|your|its|their|his|her) (?:user|human|developer|operator|owner|engineer|programmer|person at the keyboard)s?\b|\bwhoever\b|\banyone (?:at the keyboard|typing|in the (?:chat|session))\b|\bthe person (?:you are|you're|it is|they are) (?:helping|working with|working for)\b|\b(?:the )?(?:prompt|chat|conversation|session)\b|\buser(?:'s)? (?:instructions|requests|prompts?)\b|\bthe developer\b|\bthe user\b)`;

/** Preferring one over another. */
export const CONTRAST = String.raw`(?:\bover\b|\binstead of\b|\brather than\b|\bnot\b|\babove\b|\bahead of\b|\bthan\b|\bin place of\b)`;

/** What protects the user or the project from a bad change. */
export const SAFETY_GATE = String.raw`(?:\b(?:pre-commit|pre-push|commit-msg|git|husky|lefthook|security|safety) hooks?\b|\.husky\b|\.git\/hooks\b|\blefthook\b|\bpre-commit\b|\bbranch protection\b|\bprotected branch(?:es)?\b|\brequired (?:reviews?|checks?|status checks?)\b|\bcode review\b|\breview requirement\b|\b(?:lint|ci|test|security) (?:steps?|gates?|checks?|jobs?)\b|\bsignature (?:checks?|verification)\b|\b(?:ssl|tls|certificate) (?:verification|checks?|validation)\b|\bsandbox(?:ing)?\b|\bpermission (?:prompts?|checks?)\b|\b(?:2fa|mfa|two-factor)\b|\bfirewall\b|\bantivirus\b|\baudit logs?\b|\bquarantine\b|\bguardrails?\b)`;

/** Where a dependency comes from: repointing one at another source is running code from there. */
export const REPOINT = [
  'point',
  'repoint',
  'switch',
  'swap',
  'replace',
  'redirect',
  'resolve',
  'override',
  'alias',
  'pin',
  'move',
];

/** A dependency, a package or where packages come from. */
export const DEPENDENCY = String.raw`\b(?:dependenc(?:y|ies)|devdependenc(?:y|ies)|packages?|modules?|libraries|library|registry|resolutions?|overrides|lockfile|requirements(?:\.txt)?|package\.json|gemfile|go\.mod|cargo\.toml)\b`;
