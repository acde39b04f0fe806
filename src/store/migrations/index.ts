/**
 * The ordered list of migrations. Each SQL file is immutable once released: add a new numbered file
 * and a line here to change the schema.
 */
import m0001 from './0001_init.sql';
import m0002 from './0002_transcripts.sql';
import m0003 from './0003_search_terms.sql';
import m0004 from './0004_llm_ledger.sql';
import m0005 from './0005_vectors.sql';
import m0006 from './0006_mutations.sql';
import m0007 from './0007_knowledge.sql';
import m0008 from './0008_graph.sql';
import m0009 from './0009_viewer.sql';
import m0010 from './0010_team.sql';
import m0011 from './0011_identity.sql';
import m0012 from './0012_trust.sql';
import m0013 from './0013_graph_indexes.sql';
import m0014 from './0014_host_stats.sql';
import m0015 from './0015_context_epoch.sql';
import m0016 from './0016_transcript_sources.sql';
import m0017 from './0017_edge_sets.sql';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: '0001_init', sql: m0001 },
  { version: 2, name: '0002_transcripts', sql: m0002 },
  { version: 3, name: '0003_search_terms', sql: m0003 },
  { version: 4, name: '0004_llm_ledger', sql: m0004 },
  { version: 5, name: '0005_vectors', sql: m0005 },
  { version: 6, name: '0006_mutations', sql: m0006 },
  { version: 7, name: '0007_knowledge', sql: m0007 },
  { version: 8, name: '0008_graph', sql: m0008 },
  { version: 9, name: '0009_viewer', sql: m0009 },
  { version: 10, name: '0010_team', sql: m0010 },
  { version: 11, name: '0011_identity', sql: m0011 },
  { version: 12, name: '0012_trust', sql: m0012 },
  { version: 13, name: '0013_graph_indexes', sql: m0013 },
  { version: 14, name: '0014_host_stats', sql: m0014 },
  { version: 15, name: '0015_context_epoch', sql: m0015 },
  { version: 16, name: '0016_transcript_sources', sql: m0016 },
  { version: 17, name: '0017_edge_sets', sql: m0017 },
];

/** The newest migration's version (version.ts; numbers are assigned ahead, so the list may have gaps while they land). */
export { SCHEMA_VERSION } from './version.ts';
