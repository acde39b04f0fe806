/**
 * The host's compaction summary without its wrapping: the model's `<analysis>` scratchpad, the
 * "This session is being continued…" preamble and the "continue where we left off" instructions.
 */

const PREAMBLE =
  /^This session is being continued from a previous conversation[^\n]*\n(?:[^\n]*summary below[^\n]*\n)?/i;
const TRAILER =
  /\n\s*(?:If you need specific details from before compaction|Please continue the conversation from where we left)[\s\S]*$/i;

export function cleanCompactSummary(text: string): string {
  let t = text.trim();
  const tagged = /<summary>([\s\S]*?)(?:<\/summary>|$)/.exec(t)?.[1];
  if (tagged !== undefined) t = tagged;
  else t = t.replace(/<analysis>[\s\S]*?<\/analysis>/g, '');
  t = t.replace(PREAMBLE, '').replace(TRAILER, '').trim();
  // The transcript form: "Analysis:\n…\n\nSummary:\n…" — keep what follows "Summary:".
  const plain = /(?:^|\n)\s*Analysis:\s*\n[\s\S]*?\n\s*Summary:\s*\n([\s\S]*)$/.exec(t)?.[1];
  return (plain ?? t).trim();
}
