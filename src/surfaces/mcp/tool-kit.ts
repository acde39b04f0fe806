/**
 * What every MCP tool's handler is made of: the text result kept within the output budget (whole list
 * items only, the ids of those left out named), thrown errors turned into `isError` results through the
 * one error table (app/edge-errors.ts), the store opened per call, the server's project and scope.
 */
import { z } from 'zod';
import { edgeError } from '../../app/edge-errors.ts';
import type { Scope } from '../../app/scope.ts';
import type { Project } from '../../core/model.ts';
import type { Store } from '../../store/store.ts';

/** Far below Claude Code's 25,000-token MCP cap (and its 10,000-token warning). */
export const MCP_RESULT_CHAR_BUDGET = 16_000;

export type ToolResult = { content: { type: 'text'; text: string }[]; isError?: boolean };

export const MEMORY_ID = z
  .string()
  .regex(/^obs_[0-9a-z]{20}$/, 'an observation id looks like obs_ followed by 20 characters');

export function ok(text: string): ToolResult {
  const cut =
    text.length > MCP_RESULT_CHAR_BUDGET
      ? `${text.slice(0, MCP_RESULT_CHAR_BUDGET)}\n… (cut to stay within the output budget; ask for fewer items)`
      : text;
  return { content: [{ type: 'text', text: cut }] };
}

/**
 * A list of items within the output budget: whole items only, and when some do not fit, the ids of
 * those left out, so the model can ask for them.
 */
export function okList(header: string, items: { id: string; text: string }[], separator = '\n'): ToolResult {
  const parts: string[] = [header];
  let size = header.length;
  const left: string[] = [];
  for (const item of items) {
    if (left.length === 0 && size + separator.length + item.text.length <= MCP_RESULT_CHAR_BUDGET - 400) {
      parts.push(item.text);
      size += separator.length + item.text.length;
    } else left.push(item.id);
  }
  const text = parts.join(separator);
  if (left.length === 0) return { content: [{ type: 'text', text }] };
  return {
    content: [
      {
        type: 'text',
        text: `${text}\n… ${left.length} more not shown (over the output budget): ${left.slice(0, 40).join(', ')}${left.length > 40 ? ', …' : ''}`,
      },
    ],
  };
}

/** An error as the model is told it: what went wrong and how to fix the call. */
export function failure(error: unknown): ToolResult {
  return { content: [{ type: 'text', text: edgeError(error).mcpText }], isError: true };
}

/** A handler whose thrown errors become `isError` results (sync or async). */
export function guarded<A>(fn: (args: A) => ToolResult | Promise<ToolResult>) {
  return async (args: A): Promise<ToolResult> => {
    try {
      return await fn(args);
    } catch (error) {
      return failure(error);
    }
  };
}

export interface ToolKit {
  /** Open the store, run `fn`, always close. */
  withStore: <T>(fn: (store: Store) => T) => T;
  /** The same for work that awaits (the store closes once it settles). */
  withStoreAsync: <T>(fn: (store: Store) => Promise<T>) => Promise<T>;
  /** The server's own project (of the directory it started in). */
  project: () => Project;
  /** A call's scope: the server's project, or the one the call names. */
  scope: (named: string | undefined) => Scope;
  now: () => number;
}
