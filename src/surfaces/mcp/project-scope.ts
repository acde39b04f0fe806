/**
 * Which project an MCP call may touch: the server's own (the project of the directory it was started
 * in), unless the call names another explicitly. A memory id alone never reaches across projects, so
 * a session in one repository cannot read, invalidate or forget another's memories by guessing or
 * copying an id.
 */
import { z } from 'zod';
import { EngramError } from '../../core/errors.ts';
import type { Observation, Project } from '../../core/model.ts';
import type { Store } from '../../store/store.ts';

/** The optional `project` argument of every tool that takes a memory id. */
export const PROJECT_ARG = z
  .string()
  .min(1)
  .max(200)
  .optional()
  .describe(
    'Only for a memory of another project: that project\u2019s name or prj_ id, as search with all_projects shows it. Without it, only this project\u2019s memories are read or changed.',
  );

/**
 * Throws unless `memory` belongs to `here`, or to the project `named` (by id or name). The error
 * says which project it belongs to and how to name it.
 */
export function checkScope(store: Store, memory: Observation, here: Project, named?: string): void {
  if (memory.projectId === here.id && (named === undefined || named === here.id || named === here.name))
    return;
  const owner = store.sessions.project(memory.projectId);
  const name = owner?.name ?? memory.projectId;
  if (named !== undefined && (named === memory.projectId || named === owner?.name)) return;
  throw new EngramError(
    'INPUT_INVALID',
    named === undefined
      ? `${memory.id} belongs to another project ("${name}"), not to this one ("${here.name}")`
      : `${memory.id} belongs to project "${name}", not to "${named}"`,
    { hint: `To act on it from here, name its project in the call: project: "${name}".` },
  );
}
