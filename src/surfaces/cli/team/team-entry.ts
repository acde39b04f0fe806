/**
 * dist/team.mjs: the team commands and the worker's team sync, loaded only when needed (an `engram team`
 * command, or a worker on a machine logged in to a team server).
 */
export { teamSyncFor as workerTeamSync } from './team-api.ts';
export { teamCommand } from './team-commands.ts';
