/**
 * What the text of a `user` transcript record is. Only what the person typed is the user's words: the
 * host also writes user records for slash-command and skill wrappers, local command output, bash-mode
 * echoes, task notifications, hook feedback and system reminders, and none of that is a user
 * statement. (Skill expansions and caveats carry `isMeta` and tool results are blocks of their own;
 * the parser drops those before it asks.) Neither is what an IDE extension adds to a message: the file
 * the user has open, the lines selected.
 */
import { withoutHostContext } from '../../core/transcript.ts';

export type UserText =
  /** The user's own words, reminders and hook additions removed. */
  | { kind: 'words'; text: string }
  /** A slash command or skill the user invoked, with the arguments they typed. */
  | { kind: 'command'; name: string; args: string }
  | { kind: 'interrupt' }
  /** Text the host wrote (not a statement of the user). */
  | { kind: 'host' };

const HOST_OPENERS = [
  '<task-notification>',
  '<local-command-',
  '<bash-input>',
  '<bash-stdout>',
  '<bash-stderr>',
  'Caveat:',
];

/** Feedback a blocking hook sends back ("Stop hook feedback: …", "PreToolUse:Bash hook error: …"). */
const HOOK_FEEDBACK =
  /^(?:Stop|SubagentStop|PreToolUse|PostToolUse|PostToolUseFailure|UserPromptSubmit|SessionStart|PreCompact|Notification)\b[^\n]{0,60}\bhook\b[^\n]{0,20}\b(?:feedback|error|blocking|output)/i;

/** The host's preamble of a compaction summary, in versions that did not flag the record. */
const CONTINUED = /^This session is being continued from a previous conversation/;

const tagText = (text: string, tag: string) =>
  new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`).exec(text)?.[1]?.trim() ?? '';

export function readUserText(raw: string): UserText {
  const text = withoutHostContext(raw)
    .replace(/<user-prompt-submit-hook>[\s\S]*?<\/user-prompt-submit-hook>/g, ' ')
    .trim();
  if (text === '') return { kind: 'host' };
  if (/^\[Request interrupted by user/.test(text)) return { kind: 'interrupt' };
  if (/^<command-(?:name|message|args)>/.test(text)) {
    const name = tagText(text, 'command-name') || `/${tagText(text, 'command-message')}`;
    if (name === '/') return { kind: 'host' };
    return {
      kind: 'command',
      name: name.startsWith('/') ? name : `/${name}`,
      args: tagText(text, 'command-args'),
    };
  }
  if (HOST_OPENERS.some((o) => text.startsWith(o)) || HOOK_FEEDBACK.test(text) || CONTINUED.test(text))
    return { kind: 'host' };
  return { kind: 'words', text };
}
