/**
 * Whether a text is a configuration file by its own lines: an INI, `.env`, properties, TOML or YAML file
 * as a read of it or `cat` shows it. Its keys' unquoted words are then values, not the names of
 * variables or types, whatever their shape or indent (`secret-names.ts`, `entryWordIsLiteral`).
 */

import { isConfigPath } from './secret-names.ts';

/** A line number as `cat -n` or a host's file read puts it before each line. */
const NUMBERED = /^ *\d+(?:\u2192|\t)/;
/** Blank, a comment (`#`, `;`, `!`, `//`), a YAML document's start or end, a section header (`[db]`, `[[bin]]`). */
const NOTE = /^[ \t]*(?:$|[#;!]|\/\/|(?:-{3}|\.{3})[ \t]*$|\[\[?[^[\]]{1,100}\]\]?[ \t]*(?:[#;].*)?$)/;
/** A list item without a key (`- postgres`). */
const ITEM = /^[ \t]*-(?:[ \t]|$)/;
/** `key = value`, `key: value`, `key:value`, `- key: value`, `export KEY=value`; the key may be quoted. */
const ENTRY =
  /^([ \t]*)(?:-[ \t]+)?(?:export[ \t]+)?(["']?)([A-Za-z_][\w.-]{0,100})\2[ \t]*(=(?![=>])|:(?![:=]))[ \t]*(.*)$/;
/** A value that is code: a call or a subscript, a statement's or argument list's end, a block opened, a line continued. */
const CODE_VALUE = /[\w\])][([]|[;{(,\\]$/;
/** A block of code opened by a keyword alone (`else:`, `try:`), not a key. */
const KEYWORD = /^(?:else|try|except|finally)$/;
/** A YAML block scalar's indicator (`run: |`): the deeper lines after it are its text. */
const BLOCK_SCALAR = /^[|>][-+\d]*(?:[ \t]+#.*)?$/;

/**
 * True when every line of `text` is a config file's: at least two keys, one with a value and one at the
 * margin (a config file starts there; a piece cut from inside code is indented), and every other line
 * blank, a comment, a section header, a list item or a YAML block's text. One line of code (a
 * statement, a declaration, a call, a block opened or closed, a keyword's block, a member set through
 * an object: `self.password = x`) makes it no config; a single line alone is none either.
 */
export function isConfigText(text: string): boolean {
  let keys = 0;
  let values = 0;
  let margin = false;
  let block = -1; // the indent of the key whose block scalar the deeper lines belong to
  for (let at = 0; at <= text.length;) {
    const nl = text.indexOf('\n', at);
    const end = nl === -1 ? text.length : nl;
    const raw = text.slice(at, text.charAt(end - 1) === '\r' ? end - 1 : end);
    at = end + 1;
    const line = /^[ \d]/.test(raw) ? raw.replace(NUMBERED, '') : raw;
    if (block >= 0) {
      if (line.trim() === '' || line.length - line.trimStart().length > block) continue;
      block = -1;
    }
    const m = ENTRY.exec(line);
    if (m === null) {
      if (NOTE.test(line) || ITEM.test(line)) continue;
      return false;
    }
    const key = m[3] ?? '';
    const value = (m[5] ?? '').trimEnd();
    if (KEYWORD.test(key) || (key.includes('.') && !isConfigPath(key, m[4] ?? ''))) return false;
    keys++;
    margin ||= m[1] === '';
    if (BLOCK_SCALAR.test(value)) block = (m[1] ?? '').length;
    else if (value !== '') {
      if (!/^["']/.test(value) && CODE_VALUE.test(value)) return false;
      values++;
    }
  }
  return keys >= 2 && values >= 1 && margin;
}

/**
 * A config file by its path: an environment file (`.env`, `.env.production.local`, `prod.env`; not
 * `.env.example.md`; direnv's `.envrc`), an INI, `.cfg`, `.conf`, `.cnf`, properties, TOML, YAML
 * (docker-compose's too), JSON, Terraform variables or .NET XML (`web.config`, `app.config`) file, or
 * one of the dotfiles and credential files that are INI without an extension (`.npmrc`, `.pypirc`,
 * `.gitconfig`, AWS's `credentials`). Code files are none, whatever they hold.
 */
export const isConfigFile = (path: string): boolean =>
  mayBeConfigFile(path.toLowerCase()) &&
  /(?:^|[/\\])(?:\.env(?:\.(?!(?:md|txt|[jt]s|py|sh)$)[\w-]+)*|[^/\\]*\.(?:env|ini|cfg|conf|cnf|properties|toml|ya?ml|json5?|tfvars|config)|\.(?:npm|pypi|yarn|env)rc|\.gitconfig|credentials)$/i.test(
    path,
  );

/**
 * What every path `isConfigFile` takes holds (in lower case): `.env`, or an end of its names. Most paths
 * a hook meets are code's, so their test compiles no regex (~1 ms of a hook: V8 compiles a regex at its
 * first run and again at its second). A string search in lower case finds what the regex's ASCII
 * letters match in any case (its `i` flag folds nothing else into them).
 */
const CONFIG_ENDS = [
  '.ini',
  '.cfg',
  '.conf',
  '.cnf',
  '.properties',
  '.toml',
  '.yaml',
  '.yml',
  '.json',
  '.json5',
  '.tfvars',
  '.config',
  'rc',
  '.gitconfig',
  'credentials',
];
const mayBeConfigFile = (lower: string): boolean =>
  lower.includes('.env') || CONFIG_ENDS.some((end) => lower.endsWith(end));

/** A text's config judgement, made once and only when a rule asks; `asked` counts the questions. */
export interface TextAround {
  readonly inConfig: () => boolean;
  readonly asked: () => number;
}

/** `known`: the text is a config file by its path (`isConfigFile`), whatever its lines. */
export function textAround(text: string, known?: boolean): TextAround {
  let config: boolean | undefined = known || undefined;
  let asked = 0;
  return {
    inConfig: () => {
      asked++;
      return (config ??= isConfigText(text));
    },
    asked: () => asked,
  };
}
