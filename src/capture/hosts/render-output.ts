/**
 * The context output Claude Code defined and Codex CLI adopted: `{"hookSpecificOutput":{"hookEventName",
 * "additionalContext"}}` and nothing else (Codex drops an output with any field it does not know).
 */

/** `text` as the hook's context answer, cut to `cap` characters (never inside a surrogate pair). */
export function hookSpecificContext(hookEventName: string, text: string, cap: number): string {
  let body = text;
  if (body.length > cap) {
    const cut = body.charCodeAt(cap - 1) >= 0xd800 && body.charCodeAt(cap - 1) <= 0xdbff ? cap - 1 : cap;
    body = body.slice(0, cut);
  }
  return JSON.stringify({ hookSpecificOutput: { hookEventName, additionalContext: body } });
}
