/**
 * The instruction screen's hostile rules (see instruction-screen.ts): one expression per kind of
 * hostile text — overriding or hiding from the agent's instructions, exfiltration, remote code,
 * disabling a safety gate, changing permissions, addressing AI agents as such, hidden characters and
 * encoded blobs — each with a cheap first look, matched on folded text (or the raw text, where case
 * and spacing matter). The structural checks that read a sentence's parts together live in
 * screen-structure.ts; the commands addressed to the agent in screen-commands.ts.
 */

export type ScreenCategory =
  | 'override'
  | 'conceal'
  | 'exfiltrate'
  | 'remote-code'
  | 'disable-safety'
  | 'permissions'
  | 'addresses-agent'
  | 'hidden'
  | 'encoded'
  | 'imperative';

export interface ScreenHit {
  rule: string;
  category: ScreenCategory;
  severity: 'hostile' | 'imperative';
  /** The part of the text that matched (one line, at most 120 characters). */
  excerpt: string;
}

interface Rule {
  rule: string;
  category: ScreenCategory;
  severity: 'hostile' | 'imperative';
  re: RegExp;
  /** Only when the clause holding the match is not a prohibition ("never …", "don't …"). */
  unlessNegated?: boolean;
  /** Matched against the raw text (before whitespace and case are folded). */
  raw?: boolean;
  /** A cheap test the text must pass before `re` is tried (most text passes none). */
  pre?: RegExp;
  /**
   * A rule about a verb addressed to someone: a word inside an inline code span is a name (the
   * project's `tool disable` subcommand, a flag), not that verb, so code spans are blanked first.
   */
  prose?: boolean;
}

/** The text with its inline code spans blanked (same length, so indexes still line up). */
export const withoutCodeSpans = (text: string) =>
  text.replace(/`[^`\n]*`/g, (span) => ' '.repeat(span.length));

const H = 'hostile' as const;

/** Cheap first looks (literal words, no backtracking) shared by the rules below. */
export const HOST_PRE =
  /https?:|@|\.(?:com|net|org|io|dev|app|xyz|ru|cn|top|site|info|co|me|sh|cc|tk|link|click|online)\b|\d\.\d+\.\d/;
export const SECRET_PRE =
  /secret|credential|passw|passphrase|token|key|id_rsa|id_ed|env|cookie|npmrc|netrc|\.aws|ssh|kube|keychain|wallet|seed phrase/;

/** Words of outside reach the rules share. */
export const SECRET = String.raw`(?:secrets?|credentials?|passwords?|passphrases?|(?:access |auth |api |bearer |session |npm |github |gh |aws )?tokens?|api[ _-]?keys?|private[ _-]?keys?|ssh[ _-]?keys?|id_rsa|id_ed25519|\.env\b|env(?:ironment)?(?: variables| vars| file)|process\.env|printenv|cookies|\.npmrc|\.netrc|\.aws|\.ssh|kube ?config|keychain|wallet|seed phrase|[a-z0-9]+_[a-z0-9_]*(?:token|secret|password|passwd|api_?key|private_?key)\b)`;
export const HOST = String.raw`(?:https?:\/\/\S+|\b[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:com|net|org|io|dev|app|xyz|ru|cn|top|site|info|co|me|sh|cc|tk|link|click|online)\b\S*|\b\d{1,3}(?:\.\d{1,3}){3}\b|\S+@[a-z0-9-]+\.[a-z.]+)`;

const RULES: readonly Rule[] = [
  // Overriding the agent's instructions or its role.
  {
    rule: 'ignore-instructions',
    pre: /ignore|disregard|forget|overrid|overrule|bypass|drop/,
    category: 'override',
    severity: H,
    re: /\b(?:ignore|disregard|forget|override|overrule|bypass|drop)\b[^.\n]{0,40}\b(?:previous|prior|above|earlier|preceding|all|any|your|the|other|existing|original|system)\b[^.\n]{0,30}\b(?:instructions?|rules|guidelines|directions|directives|prompts?|constraints|polic(?:y|ies)|guardrails|context)\b/,
  },
  {
    rule: 'void-instructions',
    category: 'override',
    severity: H,
    pre: /guidance|instructions|rules|directions|directives|guidelines|constraints|prompt|policies/,
    re: /\b(?:earlier|previous|prior|above|original|existing|other|initial)\b (?:guidance|instructions|rules|directions|directives|guidelines|constraints|prompts?|policies)\b[^.\n]{0,20}\b(?:(?:is|are|as|be) (?:now )?(?:void|obsolete|invalid|superseded|cancell?ed|revoked|irrelevant|outdated)|no longer (?:apply|applies|valid|in effect|hold|matter))\b|\b(?:supersedes?|overrides?|replaces?|voids?|cancels?|nullifies)\b[^.\n]{0,30}\b(?:rules|instructions|guidance|guidelines|directions|constraints|system prompt)\b[^.\n]{0,30}\b(?:you|the assistant|the agent|the model|claude)\b/,
  },
  {
    rule: 'new-instructions',
    pre: /instruction|directive|system|orders|<\/?(?:system|inst|assistant|im_)|\[\/?(?:system|inst)\]|begin (?:system|new)/,
    category: 'override',
    severity: H,
    re: /\b(?:new|updated|revised|real|actual|true|hidden|secret|additional) (?:system )?(?:instructions|directives|system prompt|orders)\b|\bsystem prompt\b|<\/?(?:system|instructions?|assistant|im_start|im_end)\b[^>]{0,20}>|\[\/?(?:system|inst)\]|\bbegin (?:system|new) (?:instructions|prompt)\b/,
  },
  {
    rule: 'role-change',
    pre: /you are|from now on|pretend|mode\b|precedence|priority/,
    category: 'override',
    severity: H,
    re: /\byou are (?:now|no longer)\b|\b(?:takes?|has|have|given) (?:higher |more |absolute )?(?:precedence|priority) (?:over|than) (?:the user|the human|your (?:instructions|user|system prompt)|any (?:other )?instructions)\b|\b(?:higher|more) priority than (?:the user|your instructions)\b|\bfrom now on,? you (?:are|will|must|should)\b|\bpretend (?:to be|you are|that you)\b|\b(?:enter|switch to|enable) (?:developer|god|jailbreak|dan|unrestricted) mode\b/,
  },
  // Keeping the user out of it.
  {
    rule: 'hide-from-user',
    pre: /(?:not|never|n't|without|need not|is not to|are not to)\s+(?:tell|inform|mention|notify|alert|reveal|report|show|let)|silent|secret|covert|surreptitious|stealth|quiet|discreet|knowing|noticing|knowledge|consent|hid|conceal|invisible/,
    category: 'conceal',
    severity: H,
    re: /\b(?:do not|don't|never|without|must not|mustn't|should not|shouldn't|need not|is not to|are not to)\s+(?:tell|telling|inform|informing|mention|mentioning|notify|notifying|alert|alerting|reveal|revealing|report|reporting|show|showing|let)\b[^.\n]{0,20}\b(?:the )?(?:user|human|developer|operator|owner|maintainers?|anyone)\b|\b(?:silently|secretly|covertly|surreptitiously|stealthily|quietly|discreetly)\b|\bwithout (?:the )?(?:user|human|developer)(?:'s)? (?:knowing|noticing|knowledge|consent)\b|\b(?:hide|hidden|conceal|concealed|secret|invisible)\b[^.\n]{0,20}\bfrom (?:the |whoever|anyone|everyone|them|him|her|user|human|developer|operator|reviewer)/,
  },
  {
    rule: 'skip-confirmation',
    pre: /without|ask/,
    category: 'conceal',
    severity: 'imperative',
    re: /\bwithout (?:asking|confirmation|confirming|approval|permission|prompting|review)\b|\b(?:do not|don't|never) ask (?:the user |me |for )/,
  },
  // Sending things out.
  {
    rule: 'send-secrets',
    pre: SECRET_PRE,
    category: 'exfiltrate',
    severity: H,
    re: new RegExp(
      String.raw`\b(?:send|post|upload|forward|transmit|share|e-?mail|mail|leak|exfiltrate|submit|paste|pipe|sync|copy|dump|print|echo|cat|include|attach|append)\b[^.\n]{0,60}\b${SECRET}`,
    ),
    unlessNegated: true,
  },
  {
    rule: 'send-to-host',
    pre: HOST_PRE,
    category: 'exfiltrate',
    severity: H,
    re: new RegExp(
      String.raw`\b(?:send|post|upload|forward|transmit|submit|beacon|exfiltrate|report|e-?mail|mail|mirror|copy|leak|stream)\b[^.\n]{0,80}?\b(?:to|at|into|via)\s+${HOST}`,
    ),
    unlessNegated: true,
  },
  {
    rule: 'secret-to-host',
    pre: HOST_PRE,
    category: 'exfiltrate',
    severity: H,
    re: new RegExp(String.raw`${SECRET}[^.\n]{0,60}\b(?:to|at|into)\s+${HOST}`),
    unlessNegated: true,
  },
  {
    rule: 'upload-command',
    pre: /curl|wget|http|nc |ncat|netcat|socat|\/dev\/tcp|iwr|invoke-|\$/,
    category: 'exfiltrate',
    severity: H,
    re: /\b(?:curl|wget|http|httpie|invoke-webrequest|iwr)\b[^\n|;]{0,120}\s(?:-d|--data(?:-[a-z]+)?|-f|--form|-t|--upload-file|--post-data|--post-file|--body-file)\b|\b(?:nc|ncat|netcat|socat)\s+(?:-\w+\s+)*[a-z0-9.-]+\s+\d{2,5}\b|\/dev\/tcp\/|\$\{?[a-z_]*(?:token|secret|password|api_?key|private_?key)[a-z_]*\}?[^\n]{0,40}\b(?:https?:\/\/|curl|wget)/,
  },
  // Running code from elsewhere.
  {
    rule: 'pipe-to-shell',
    pre: /\|\s*(?:sudo\s+)?(?:[a-z]*sh|python|node|perl|ruby|iex|invoke|powershell|pwsh)\b|\$\(|<\(|`\s*(?:curl|wget)|pipe/,
    category: 'remote-code',
    severity: H,
    re: /\b(?:curl|wget|iwr|invoke-webrequest|invoke-restmethod|irm|fetch)\b[^\n]{0,200}\|\s*(?:sudo\s+)?(?:(?:ba|z|da|k|fi)?sh|python3?|node|perl|ruby|iex|invoke-expression|powershell|pwsh)\b|\b(?:eval|source|bash|sh|zsh)\s+(?:-c\s+)?["']?(?:\$\(|<\(|`)\s*(?:curl|wget)\b|\bpipe\b(?:[^.\n]|\.(?=\S)){0,80}?\b(?:into|to|through|in)\s+(?:a |the |your )?(?:sudo )?(?:(?:ba|z|da|k|fi)?sh|shell|python3?|node|powershell|interpreter)\b/,
  },
  {
    rule: 'download-and-run',
    pre: /download|https?:|git\+|github:|gist\.|remote|fetched/,
    category: 'remote-code',
    severity: H,
    re: /\bdownload\w*\b[^.\n]{0,80}\b(?:and|then)\s+(?:run|execute|exec|install|source|launch|open)\b|\b(?:run|execute|install)\b[^.\n]{0,40}\b(?:downloaded|fetched|remote) (?:script|binary|file|payload|code)\b|\b(?:npm|pnpm|yarn|npx|bunx?|pip3?|pipx|gem|cargo|go)\s+(?:i|install|add|get|exec|run|dlx)?\s*[^\n]{0,40}\b(?:https?:\/\/|git\+|github:|gist\.)/,
  },
  {
    rule: 'decode-and-run',
    pre: /base64|atob|fromcharcode|xxd|decode|deobfusc|unescape/,
    category: 'encoded',
    severity: H,
    re: /\bbase64\s+(?:-d|--decode|-D)\b|\batob\s*\(|\bfromcharcode\s*\(|\bxxd\s+-r\b|\b(?:decode|deobfuscate|unescape)\b[^.\n]{0,40}\b(?:and|then)\s+(?:run|execute|eval|follow|obey)\b/,
  },
  // Turning off what protects the user.
  {
    rule: 'disable-safety',
    pre: /disable|turn off|switch off|skip|bypass|deactivat|suppress|circumvent|get around|remove|uninstall|kill|stop/,
    category: 'disable-safety',
    severity: H,
    prose: true,
    // "the Stop hook", "Stop hook: …", "Stop hook (`cmd`)" name the host's Stop event, not a hook being
    // stopped.
    re: /\b(?:disable|turn off|switch off|skip|bypass|deactivate|suppress|circumvent|get around|remove|uninstall|kill|(?<!\b(?:the|a|an|its|this|that|their|our|your|\w+'s)\s+)stop(?!\s+hooks?\s*(?:[:(]|$)))\b[^.\n]{0,40}\b(?:(?:pre-commit |git |commit |security |safety )?hooks?|pre-commit|verification|security (?:checks?|scan\w*|warnings?|policy)|sandbox(?:ing)?|permission (?:checks?|prompts?|system)|confirmation (?:prompts?|dialogs?)|guardrails?|safety (?:checks?|filters?|measures)|firewall|antivirus|signature (?:checks?|verification)|ssl verification|tls verification|certificate (?:checks?|verification|validation)|2fa|mfa|two-factor|audit log\w*|engram|memory review|quarantine)\b/,
    unlessNegated: true,
  },
  {
    rule: 'unsafe-flag',
    pre: /--|bypasspermissions|tls_reject|ssl/,
    category: 'disable-safety',
    severity: H,
    re: /--no-verify\b|--dangerously-skip-permissions|\bbypasspermissions\b|--permission-mode\s+bypass|--no-sandbox\b|--insecure\b|--trusted-host\b|--disable-web-security|node_tls_reject_unauthorized\s*=\s*['"]?0|git_ssl_no_verify|strict-ssl\b[^.\n]{0,12}\bfalse\b|--allow-unauthenticated|sslverify\s*=?\s*false/,
    unlessNegated: true,
  },
  // Changing who may do what.
  {
    rule: 'change-permissions',
    pre: /chmod|chown|authorized|nopasswd|sudo|\/etc\/|visudo|allow|approve|bashrc|zshrc|profile|\.ssh|gitconfig|claude|settings|crontab|launchagents|systemd|grant|admin|owner|maintainer|collaborator/,
    category: 'permissions',
    severity: H,
    re: /\bchmod\s+(?:-r\s+)?(?:0?777|0?666|a\+w|o\+w|\+s|u\+s|g\+s)\b|\bchown\s+(?:-r\s+)?root\b|\bauthorized[_ ]keys\b|\bnopasswd\b|\bsudoers\b|\bpasswordless sudo\b|\bsudo without (?:a |any )?password\b|\/etc\/(?:sudoers|passwd|shadow|hosts)\b|\bvisudo\b|\b(?:allowedtools|permissions\.allow|allowed_?tools|auto-?approve|always allow)\b|\b(?:add|append|write|put|insert|edit|modify|change)\b[^.\n]{0,50}(?:~\/\.(?:bashrc|zshrc|profile|bash_profile|ssh|gitconfig|claude)|\.claude\/settings|settings(?:\.local)?\.json|crontab|launchagents|systemd)\b|\bgrant\b[^.\n]{0,40}\b(?:access|permissions?|admin|write|root|sudo|owner)\b|\b(?:add|invite|make)\b[^.\n]{0,30}\bas (?:an? )?(?:admin|owner|maintainer|collaborator)\b/,
    unlessNegated: true,
  },
  // Text written for AI agents as such.
  {
    rule: 'addresses-agent',
    pre: /\bai\b|llm|language model|assistant|agent|model|claude|copilot|gpt|codex|gemini|cursor|\bbots?\b/,
    category: 'addresses-agent',
    severity: H,
    re: /\b(?:note|message|instructions?|attention|important|notice|directive|update|reminder|warning|heads up|info)\b[^.:\n]{0,20}\b(?:to|for) (?:the |any |all |every )?(?:(?:ai|coding|automated|llm) )*(?:llms?|language models?|assistants?|agents?|models?|claude|copilot|chatgpt|gpt|codex|gemini|cursor|bots?)\b|\bif you are an? (?:ai|llm|language model|assistant|agent|bot|coding agent)\b|\b(?:ai|llm|coding|automated) (?:agents?|assistants?|models?|tools?)\b[^.;\n]{0,40}?\b(?:must|should|shall|are required to|are instructed to|need to|will have to)\b|\bwhen (?:you|an? (?:ai|agent|assistant|llm)) (?:reads?|sees?|processe?s?|summari[sz]es?) this\b|\b(?:to|dear) (?:the )?(?:ai|assistant|agent|llm)\s*[:,]/,
  },
  // Hidden and encoded payloads (on the raw text: case and spacing matter).
  {
    rule: 'hidden-characters',
    pre: /[\u00ad\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\udb40]/,
    category: 'hidden',
    severity: H,
    raw: true,
    re: /[\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\u00ad\u180e]|[\u{e0000}-\u{e007f}]/u,
  },
  {
    rule: 'encoded-blob',
    pre: /[A-Za-z0-9+/]{60}|\\[xu][0-9a-fA-F]{2}|%[0-9a-fA-F]{2}%|&#/,
    category: 'encoded',
    severity: H,
    raw: true,
    re: /(?<![A-Za-z0-9+/_-])(?=[A-Za-z0-9+/]*[0-9])(?=[A-Za-z0-9+/]*[a-z])(?=[A-Za-z0-9+/]*[A-Z])[A-Za-z0-9+/]{60,}={0,2}(?![A-Za-z0-9+/_-])|(?<![0-9a-fA-F])[0-9a-fA-F]{100,}(?![0-9a-fA-F])|(?:\\x[0-9a-fA-F]{2}){8,}|(?:\\u[0-9a-fA-F]{4}){6,}|(?:%[0-9a-fA-F]{2}){10,}|(?:&#x?[0-9a-fA-F]{2,4};){8,}/,
  },
];

/** Lower case, one space for any run of whitespace, compatibility forms folded (full-width letters). */
export function fold(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ');
}

export const excerptOf = (text: string, index: number, length: number) =>
  text
    .slice(Math.max(0, index - 20), index + Math.max(length, 40) + 20)
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 120);

/** Whether the clause before `index` in `folded` makes it a prohibition ("never send …", "don't skip …"). */
export function negatedAt(folded: string, index: number): boolean {
  const start = Math.max(
    folded.lastIndexOf('.', index - 1),
    folded.lastIndexOf(';', index - 1),
    folded.lastIndexOf('\n', index - 1),
    folded.lastIndexOf(': ', index - 1),
    index - 60,
  );
  const before = folded.slice(Math.max(0, start + 1), index);
  return /\b(?:never|don'?t|do not|must not|mustn'?t|should not|shouldn'?t|cannot|can'?t|not|avoid|without|refuse to|instead of|rather than)\b/.test(
    before,
  );
}

function hitOf(r: Rule, text: string, m: RegExpExecArray | RegExpMatchArray): ScreenHit {
  return {
    rule: r.rule,
    category: r.category,
    severity: r.severity,
    excerpt: excerptOf(text, m.index ?? 0, m[0].length),
  };
}

export function matchRules(raw: string, folded: string, severities: ReadonlySet<string>): ScreenHit | null {
  for (const r of RULES) {
    if (!severities.has(r.severity)) continue;
    const text = r.raw ? raw : r.prose ? withoutCodeSpans(folded) : folded;
    if (r.pre && !r.pre.test(text)) continue;
    const m = r.re.exec(text);
    if (!m) continue;
    if (!r.unlessNegated || !negatedAt(folded, m.index)) return hitOf(r, text, m);
    // The first occurrence is a prohibition: a later one may not be.
    const every = new RegExp(r.re.source, `${r.re.flags}g`);
    for (const later of text.matchAll(every))
      if (!negatedAt(folded, later.index)) return hitOf(r, text, later);
  }
  return null;
}
