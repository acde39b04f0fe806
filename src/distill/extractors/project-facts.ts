/**
 * Project facts: commands that build, test, lint or run the project and worked; tool versions the
 * session printed. Only what succeeded becomes a fact.
 */
import type { TranscriptEntry } from '../../core/transcript.ts';
import { classifyCommand } from '../commands.ts';
import { clip } from '../text.ts';
import { extracted, type Extracted } from './extracted.ts';

const PURPOSE: Record<string, string> = {
  test: 'runs the tests',
  build: 'builds the project',
  lint: 'checks the code',
};
const RUN =
  /^(?:npm|pnpm|yarn|bun)\s+(?:run\s+)?(?:dev|start|serve)\b|^(?:mix\s+phx\.server|cargo\s+run|go\s+run|python3?\s+-m\s+\w+|rails\s+s(?:erver)?|docker\s+compose\s+up)\b/;
const VERSION = /^(\S+)\s+(?:--version|-v|version)$/;

export function extractProjectFacts(entries: readonly TranscriptEntry[]): Extracted[] {
  const out = new Map<string, Extracted>();
  for (const e of entries) {
    if (e.kind !== 'tool_call' || e.name !== 'Bash' || !e.result || e.result.isError) continue;
    const input = e.input as Record<string, unknown> | null;
    const command = typeof input?.['command'] === 'string' ? input['command'].trim() : '';
    if (command === '' || command.length > 160 || command.includes('\n')) continue;
    const kind = classifyCommand(command);
    const source = { uuid: e.result.uuid || e.uuid, at: e.at };
    if (kind === 'test' || kind === 'build' || kind === 'lint') {
      const title = `\`${clip(command, 70)}\` ${PURPOSE[kind]}`;
      out.set(
        title,
        extracted(
          'fact',
          title,
          `In this project, \`${command}\` ${PURPOSE[kind]} (it ran successfully).`,
          source,
          0.7,
          { concepts: ['project command', kind] },
        ),
      );
    } else if (RUN.test(command)) {
      const title = `\`${clip(command, 70)}\` runs the project`;
      out.set(
        title,
        extracted('fact', title, `In this project, \`${command}\` starts the app.`, source, 0.6, {
          concepts: ['project command', 'run'],
        }),
      );
    } else {
      const v = VERSION.exec(command);
      const version = v ? /\bv?(\d+\.\d+(?:\.\d+)?)/.exec(e.result.text)?.[1] : undefined;
      if (v?.[1] && version) {
        const title = `${v[1]} ${version} in this environment`;
        out.set(
          title,
          extracted('fact', title, `\`${command}\` printed ${version}.`, source, 0.7, {
            concepts: ['environment', v[1]],
          }),
        );
      }
    }
  }
  return [...out.values()];
}
