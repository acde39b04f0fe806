/**
 * The optional `project` argument of every MCP tool that takes a memory id: the agent reaches its own
 * project only unless a call names another (the rule itself is app/scope.ts).
 */
import { z } from 'zod';
import type { Project } from '../../core/model.ts';
import type { Scope } from '../../app/scope.ts';

export const PROJECT_ARG = z
  .string()
  .min(1)
  .max(200)
  .optional()
  .describe(
    'Only for a memory of another project: that project\u2019s name or prj_ id, as search with all_projects shows it. Without it, only this project\u2019s memories are read or changed.',
  );

/** The scope of a call: the server's own project, or the one the call names. */
export function scopeOf(here: Project, named: string | undefined): Scope {
  return { here, named };
}
