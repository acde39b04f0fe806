/**
 * The schema version this engram's migrations end at, apart from the migrations' SQL so the context
 * hooks' bundle (which never migrates, only checks) does not carry it. `index.ts` re-exports it; a
 * test holds it equal to the last migration's version.
 */
export const SCHEMA_VERSION = 17;
