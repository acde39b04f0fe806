/**
 * What a command printed, made readable before anything reads it: ANSI/VT escape sequences (colours,
 * cursor moves, hyperlinks), carriage-return overwrites and spinner frames removed; and the lines that
 * are never the news (banners and boxes drawn by hook runners, progress meters, npm's script echo,
 * exit-code lines) recognised as noise.
 */

const ESC = String.fromCharCode(27);
const BEL = String.fromCharCode(7);
const CSI8 = String.fromCharCode(0x9b);
/** CSI (`ESC [ … m`), OSC (`ESC ] … BEL` or `ESC ] … ESC \`, hyperlinks), and two-byte escapes. */
const ESCAPES = new RegExp(
  `${ESC}\\[[0-?]*[ -/]*[@-~]|${ESC}\\][^${BEL}${ESC}]*(?:${BEL}|${ESC}\\\\)|${ESC}[@-Z\\\\-_]|${CSI8}[0-?]*[ -/]*[@-~]`,
  'g',
);
const SPINNER = /[\u2800-\u28ff]/g;

/** The text with escape sequences, spinner frames and carriage-return overwrites removed. */
export function stripAnsi(text: string): string {
  return text
    .replace(ESCAPES, '')
    .replace(SPINNER, '')
    .split('\n')
    .map((line) => {
      // `\r` rewinds the line: what is printed after it is what stayed on screen.
      const parts = line.split('\r').filter((p) => p.trim() !== '');
      return parts.length > 0 ? (parts[parts.length - 1] as string) : '';
    })
    .join('\n');
}

/** A line that carries no news: decoration, progress, echoes and summaries of other steps. */
const NOISE =
  /^(?:exit code \d+|exit status \d+|>\s.*|npm (?:ERR!|error) (?:code|path|errno|A complete log|Lifecycle|command (?:failed|sh))\b.*|\s*at .+\(.+:\d+:\d+\)|\s*at .+:\d+:\d+|[\s\-=─━═*_~│┃|╭╮╰╯┌┐└┘├┤┬┴┼╔╗╚╝║.·]{3,}|summary: \(done in .*|(?:✔️?|✓|🥊|✖️|⏭️?)\s+\S+ \([\d.]+ ?\w*\)|┃\s+\S+\s+❯.*|% Total\s+% Received.*|[\d.]+[kMG]?\s+[\d.]+[kMG]?\s+[\d.]+\s.*--:--:--.*|Checked \d+ files? in .*|Formatted \d+ files? in .*|Environment variables loaded from .*|Shell cwd was reset to .*|Done in [\d.]+m?s\.?|Rebasing \(\d+\/\d+\)\s*)$/i;

/** A line drawn inside a box (`│ 🥊 lefthook v1.12.3 hook: pre-commit │`): a banner. */
const BOXED = /^[│┃║|].*[│┃║|]$/;

/** Whether a (trimmed) line is noise. */
export function isNoise(line: string): boolean {
  return line === '' || NOISE.test(line) || BOXED.test(line);
}

/** The cleaned output's lines, trimmed, noise dropped; a line ending in `:` is joined to the next. */
export function meaningfulLines(text: string): string[] {
  const lines = stripAnsi(text)
    .split('\n')
    .map((l) => l.replace(/^(?:Rebasing \(\d+\/\d+\))+/, '').trim())
    .filter((l) => !isNoise(l));
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const next = lines[i + 1];
    if (/:$/.test(line) && next !== undefined && next.length <= 80 && !/:$/.test(next)) {
      out.push(`${line} ${next}`);
      i++;
    } else out.push(line);
  }
  return out;
}
