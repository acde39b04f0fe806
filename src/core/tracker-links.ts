/**
 * Links to an issue tracker (GitHub/GitLab/Gitea issues and pull requests, Bugzilla-style bug pages,
 * `owner/repo#123`): in a code comment they mark the code's own note of a known upstream bug. The
 * transcript reader keeps the lines around them when it drops the rest of a file that was read, and
 * the code-notes extractor reads the notes.
 */
export const TRACKER_LINK =
  /\bhttps?:\/\/[^\s)>\]'"`]+?\/(?:issues|pull|pulls|merge_requests|-\/issues)\/\d+\b|\bhttps?:\/\/[^\s)>\]'"`]*bugs?[^\s)>\]'"`]*\d{3,}\b|(?<![\w/.-])[a-z0-9][\w.-]*\/[\w.-]+#\d+\b/i;

/**
 * The lines of `text` around each line citing a tracker (`before` lines above, `after` below), in order,
 * runs apart joined by a `…` line; '' when no line cites one. At most `max` characters.
 */
export function linesAroundTrackerLinks(text: string, before = 6, after = 3, max = 4000): string {
  if (!TRACKER_LINK.test(text)) return '';
  const lines = text.split('\n');
  const keep = new Set<number>();
  lines.forEach((line, i) => {
    if (!TRACKER_LINK.test(line)) return;
    for (let j = Math.max(0, i - before); j <= Math.min(lines.length - 1, i + after); j++) keep.add(j);
  });
  const out: string[] = [];
  let last = -2;
  for (const i of [...keep].sort((a, b) => a - b)) {
    if (i !== last + 1 && out.length > 0) out.push('…');
    out.push(lines[i] ?? '');
    last = i;
  }
  return out.join('\n').slice(0, max);
}
