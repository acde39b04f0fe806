/** Rough token estimate (about four characters per token for English and code). */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}
