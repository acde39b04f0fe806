/**
 * The commands a CI configuration runs, read from the file as the assistant read it: GitHub Actions
 * (`run:` lines and blocks), GitLab CI and Travis (`script:` lists), CircleCI and Buildkite
 * (`run:`/`command:`), Azure Pipelines (`script:`), Bitbucket (`script:`). They are evidence of which
 * command is the project's gate.
 */
import { CI_CONFIG_FILE as CI_FILE } from '../core/example-env.ts';

/** Whether a path is a CI configuration file. */
export const isCiFile = (path: string) => CI_FILE.test(path);

/** The commands a CI file runs (setup steps such as checkout and installs left in: the caller picks). */
export function ciCommands(path: string, content: string): string[] {
  if (!isCiFile(path)) return [];
  const lines = content.split('\n').map((l) => l.replace(/^\s*\d+(?:→|\t)/, ''));
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const m = /^(\s*)(?:-\s+)?(?:run|command|script)\s*:\s*(.*)$/.exec(line);
    if (!m) continue;
    const indent = (m[1] ?? '').length;
    const value = (m[2] ?? '').trim();
    if (value !== '' && !/^[|>][-+]?$/.test(value)) {
      out.push(value.replace(/^["']|["']$/g, ''));
      continue;
    }
    // A block (`run: |`) or a list (`script:` then `- cmd` lines), more indented than the key.
    for (let j = i + 1; j < lines.length; j++) {
      const next = lines[j] as string;
      if (next.trim() === '') continue;
      const nextIndent = /^\s*/.exec(next)?.[0].length ?? 0;
      if (nextIndent <= indent) break;
      const item = next
        .trim()
        .replace(/^-\s+/, '')
        .replace(/^["']|["']$/g, '');
      if (item !== '' && !item.startsWith('#')) out.push(item);
      i = j;
    }
  }
  return [...new Set(out)].slice(0, 30);
}
