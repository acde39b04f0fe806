/**
 * Environment facts a session printed: tool versions (`node --version` → "node 20.20.2 in this
 * environment"), named by tool so a newer version supersedes the older. (How the project is built,
 * tested and run comes from the commands themselves: see `command-facts.ts`.)
 */
import type { TranscriptEntry } from '../../core/transcript.ts';
import { extracted, type Extracted } from './extracted.ts';

const VERSION = /^(\S+)\s+(?:--version|-v|version)$/;

export function extractProjectFacts(entries: readonly TranscriptEntry[]): Extracted[] {
  const out = new Map<string, Extracted>();
  for (const e of entries) {
    if (e.kind !== 'tool_call' || e.name !== 'Bash' || !e.result || e.result.isError) continue;
    const input = e.input as Record<string, unknown> | null;
    const command = typeof input?.['command'] === 'string' ? input['command'].trim() : '';
    const v = VERSION.exec(command);
    const version = v ? /\bv?(\d+\.\d+(?:\.\d+)?)/.exec(e.result.text)?.[1] : undefined;
    if (!v?.[1] || !version) continue;
    const title = `${v[1]} ${version} in this environment`;
    out.set(
      title,
      extracted(
        'fact',
        title,
        `\`${command}\` printed ${version}.`,
        { uuid: e.result.uuid || e.uuid, at: e.at },
        0.7,
        {
          concepts: ['environment', v[1]],
          subject: `env:version:${v[1]}`,
        },
      ),
    );
  }
  return [...out.values()];
}
