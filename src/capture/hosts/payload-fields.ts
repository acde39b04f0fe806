/**
 * Reading fields of a host's hook payload: tolerant of missing and mistyped values, and every kept
 * string scrubbed and size-capped. Shared by the adapters whose payloads are JSON objects.
 */
import type { Json } from '../../core/model.ts';
import { scrubAndLimit, type SizeLimits } from '../limit-size.ts';

export function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

export function optStr(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

export function optNum(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** A string field, scrubbed and capped ('' when it is not a string). */
export function text(value: unknown, limits: SizeLimits): string {
  const out: Json = scrubAndLimit(str(value), limits);
  return typeof out === 'string' ? out : '';
}

/**
 * Tools engram never captures whatever `capture.skipTools` says: its own MCP tools (registered by
 * `engram install`, or through the Claude Code plugin), so reading memory never becomes a memory.
 */
export const MUST_SKIP_TOOLS: readonly string[] = ['mcp__engram__*', 'mcp__plugin_engram_*'];

const matches = (tool: string, rule: string) =>
  rule.endsWith('*') ? tool.startsWith(rule.slice(0, -1)) : rule === tool;

/** `mcp__engram__*` matches by prefix; anything else must match exactly. The user's list adds to MUST_SKIP_TOOLS. */
export function isSkippedTool(tool: string, skipTools: readonly string[]): boolean {
  return MUST_SKIP_TOOLS.some((rule) => matches(tool, rule)) || skipTools.some((rule) => matches(tool, rule));
}
