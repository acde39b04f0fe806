/**
 * Distinctive secret token shapes (API keys, tokens), each with literal hints that gate it.
 */

export interface TokenRule {
  readonly kind: string;
  /**
   * Literal substrings, one of which every match holds: the rule runs only where one occurs. A rule
   * without hints has a `site` instead.
   */
  readonly hints: readonly string[];
  /** For a rule without hints: a pattern every match holds (the rule runs only where it matches). */
  readonly site?: RegExp | undefined;
  readonly re: RegExp;
  readonly verify?: ((token: string) => boolean) | undefined;
}

export const mixedCase = (s: string): boolean => /\d/.test(s) && /[a-z]/.test(s) && /[A-Z]/.test(s);
export const E = '(?![\\w-])';

/** What every match of a rule without literal hints holds: the middle of a Discord token. */
const HINTLESS_SITES: Readonly<Record<string, RegExp>> = { 'discord-token': /\.[\w-]{6}\.[\w-]{27}/ };

/**
 * Distinctive token shapes, replaced whole: kind, `|`-separated literal hints, pattern, check. A token
 * may only start where no token character precedes it. Order matters: sk-ant- before sk-.
 */
export const TOKEN_RULES: readonly TokenRule[] = (
  [
    ['anthropic-key', 'sk-ant-', 'sk-ant-[\\w-]{20,}'],
    ['openai-key', 'sk-', 'sk-(?:proj-|svcacct-|admin-)?[\\w-]{20,}', mixedCase],
    ['aws-access-key', 'AKIA|ASIA', `(?:AKIA|ASIA)[A-Z0-9]{16}${E}`],
    ['gcp-api-key', 'AIza', `AIza[\\w-]{35}${E}`],
    [
      'github-token',
      'ghp_|gho_|ghu_|ghs_|ghr_|github_pat_',
      `gh[pousr]_[A-Za-z0-9]{30,255}${E}|github_pat_\\w{22,255}${E}`,
    ],
    ['gitlab-token', 'glpat-|glptt-|gldt-|glrt-|glsoat-|glcbt-', 'gl(?:pat|ptt|dt|rt|soat|cbt)-[\\w-]{20,}'],
    ['slack-token', 'xox|xapp-', 'xox[abposre]-[A-Za-z0-9-]{10,}|xapp-\\d-[\\w-]{10,}'],
    ['slack-webhook', 'hooks.slack.com', 'https://hooks\\.slack\\.com/[\\w/-]+'],
    ['stripe-key', '_live_|_test_|whsec_', '(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}|whsec_[A-Za-z0-9]{24,}'],
    ['engram-token', 'egr_', `egr_[A-Za-z0-9]{36}${E}`],
    ['npm-token', 'npm_', `npm_[A-Za-z0-9]{36}${E}`],
    ['pypi-token', 'pypi-', 'pypi-[\\w-]{50,}'],
    ['sendgrid-key', 'SG.', 'SG\\.[\\w-]{16,}\\.[\\w-]{16,}'],
    ['huggingface-token', 'hf_', `hf_[A-Za-z0-9]{30,}${E}`],
    ['google-oauth-token', 'ya29.', 'ya29\\.[\\w-]{20,}'],
    ['shopify-token', 'shpat_|shpca_|shppa_|shpss_', `shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}${E}`],
    ['digitalocean-token', '_v1_', `do[por]_v1_[a-f0-9]{64}${E}`],
    ['doppler-token', 'dp.', 'dp\\.(?:st|ct|sa|scim|audit|pt)\\.[\\w.-]{20,}'],
    ['vault-token', 'hvs.|hvb.|hvr.', 'hv[sbr]\\.[\\w-]{24,}'],
    ['age-secret-key', 'AGE-SECRET-KEY-1', 'AGE-SECRET-KEY-1[0-9A-Z]{58}'],
    ['twilio-key', 'SK', `SK[0-9a-fA-F]{32}${E}`],
    ['jwt', 'eyJ', 'eyJ[\\w-]{10,}\\.[\\w-]{10,}\\.[\\w-]{8,}(?:\\.[\\w-]+){0,2}'],
    ['discord-token', '', '[MNO][\\w-]{23,27}\\.[\\w-]{6}\\.[\\w-]{27,}', mixedCase],
  ] as const
).map(([kind, hints, src, verify]: readonly [string, string, string, ((t: string) => boolean)?]) => {
  const site = hints === '' ? HINTLESS_SITES[kind] : undefined;
  if (hints === '' && site === undefined) throw new Error(`token rule ${kind} has neither hints nor a site`);
  return {
    kind,
    hints: hints === '' ? [] : hints.split('|'),
    site,
    re: new RegExp(`(?<![\\w-])(?:${src})`, 'g'),
    verify,
  };
});
