/**
 * The team server bundle's entry (dist/team-server.mjs): the server, and the web view that
 * `engram server start` mounts on it with the viewer's built assets.
 */
export { startTeamServer } from '../../team/server.ts';
export { mountTeamWeb } from './routes.ts';
export { loadViewerAssets } from '../http/viewer-assets.ts';
