/**
 * Which project a verb may touch when the caller is confined to one: the agent over MCP reaches the
 * project of the directory its server started in, unless a call names another explicitly. A memory
 * id alone never reaches across projects, so a session in one repository cannot read, invalidate or
 * forget another's memories by guessing or copying an id. A person (the CLI, the viewer) is not
 * confined: those surfaces pass no scope.
 */
import { EngramError } from '../core/errors.ts';
import type { Observation, Project } from '../core/model.ts';
import type { Store } from '../store/store.ts';

export interface Scope {
  /** The caller's own project. */
  here: Project;
  /** Another project the call names (by prj_ id or name). */
  named?: string | undefined;
}

/**
 * Throws unless `memory` belongs to the scope's own project, or to the project it names. The error
 * says which project it belongs to and how to name it. No scope: anything is reachable.
 */
export function checkScope(store: Store, memory: Observation, scope: Scope | undefined): void {
  if (!scope) return;
  const { here, named } = scope;
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

/** The memory `id` names, in scope; NOT_FOUND when it names none (a forgotten one counts as found). */
export function memoryOf(store: Store, id: string, scope?: Scope): Observation {
  const o = store.observations.get(id);
  if (!o)
    throw new EngramError('NOT_FOUND', `no memory with id ${id}`, {
      hint: 'Ids look like obs_…; a search lists them.',
    });
  checkScope(store, o, scope);
  return o;
}
