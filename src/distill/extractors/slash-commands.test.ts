import { describe, expect, it } from 'vitest';
import type { TranscriptEntry } from '../../core/transcript.ts';
import { expansionCommands, extractSlashCommands } from './slash-commands.ts';
import { bash, tool } from './test-entries.test-support.ts';

const SESSION = '0ccf1a04-1b4c-43b6-8aa5-79e41db43a68';
const invoked = (expansion: string): TranscriptEntry => ({
  kind: 'prompt',
  uuid: `p-${expansion.length}`,
  at: 1,
  text: '/publish-session',
  command: '/publish-session',
  expansion,
});
const EXPANSION = `Publish the current session transcript by running:\n\n\`\`\`bash\npython3 ~/.claude/plugins/share/publish_session.py ${SESSION}\n\`\`\`\n`;

describe('the user’s slash commands and what they run', () => {
  it('reads the commands of an expansion’s shell blocks, not markup', () => {
    expect(expansionCommands(`Run:\n\`\`\`bash\n# publish it\n$ ./publish.sh --gist\n---\n\`\`\``)).toEqual([
      './publish.sh --gist',
    ]);
    // A skill's preamble is a script (branches, variables, printing): none of its lines is a command.
    expect(
      expansionCommands(
        'Base directory for this skill: /home/dev/.claude/skills/apply\n```bash\nmkdir -p ~/.toolkit\n_TIER=$(cat ~/.toolkit/config.json 2>/dev/null || true)\nif [ -z "$_TIER" ]; then\n  echo "TIER: unset"\n  true\nfi\n```',
      ),
    ).toEqual([]);
    expect(expansionCommands('```sh\necho "publishing"\n./publish.sh\ntrue\n```')).toEqual(['./publish.sh']);
  });

  it('states what a slash command runs once the command it gives ran and worked, its ids as placeholders', () => {
    const [fact, ...rest] = extractSlashCommands([
      invoked(EXPANSION),
      bash(
        `python3 ~/.claude/plugins/share/publish_session.py ${SESSION}`,
        'Published: https://gist.example/abc',
      ),
    ]);
    expect(rest).toEqual([]);
    expect(fact?.draft).toMatchObject({
      type: 'fact',
      title: '`/publish-session` runs `python3 ~/.claude/plugins/share/publish_session.py <id>`',
      subject: 'slash:/publish-session',
      facts: [
        'slash command: /publish-session',
        'says: Publish the current session transcript by running',
        `runs: \`python3 ~/.claude/plugins/share/publish_session.py ${SESSION}\``,
      ],
    });
  });

  it('states nothing for a command that was not run, that failed, or that only shares a line with another', () => {
    expect(extractSlashCommands([invoked(EXPANSION)])).toEqual([]);
    const failed = tool(
      'Bash',
      { command: `python3 ~/.claude/plugins/share/publish_session.py ${SESSION}` },
      'Exit code 1\nno token',
      true,
    );
    expect(extractSlashCommands([invoked(EXPANSION), failed])).toEqual([]);
    expect(
      extractSlashCommands([
        invoked(EXPANSION),
        bash(`echo python3 ~/.claude/plugins/share/publish_session.py`, ''),
      ]),
    ).toEqual([]);
  });
});
