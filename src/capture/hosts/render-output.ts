/**
 * The context output Claude Code defined and Codex CLI adopted: `{"hookSpecificOutput":{"hookEventName",
 * "additionalContext"}}` and nothing else (Codex drops an output with any field it does not know).
 */

/** `text` cut to `cap` characters (never inside a surrogate pair). */
export function cutToCap(text: string, cap: number): string {
  if (text.length <= cap) return text;
  const high = text.charCodeAt(cap - 1);
  return text.slice(0, high >= 0xd800 && high <= 0xdbff ? cap - 1 : cap);
}

/** `text` as the hook's context answer, cut to `cap` characters. */
export function hookSpecificContext(hookEventName: string, text: string, cap: number): string {
  return JSON.stringify({ hookSpecificOutput: { hookEventName, additionalContext: cutToCap(text, cap) } });
}

/** `text` as a context answer that is one top-level field (`additionalContext`, `additional_context`). */
export const topLevelContext = (field: string, text: string, cap: number): string =>
  JSON.stringify({ [field]: cutToCap(text, cap) });
