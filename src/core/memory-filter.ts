/**
 * Which memories a list, a search, an export or a bulk forget is about: project, type, status, source,
 * session, date range, staleness (and free text for search). Parsed from URL query parameters, so a filtered view
 * can be bookmarked; every value is checked, anything unknown is a clear INPUT_INVALID error.
 */
import { EngramError } from './errors.ts';
import type { ProjectId } from './ids.ts';
import {
  OBSERVATION_SOURCES,
  OBSERVATION_STATUSES,
  OBSERVATION_TYPES,
  type ObservationSource,
  type ObservationStatus,
  type ObservationType,
} from './model.ts';

export interface MemoryFilter {
  projectId?: ProjectId;
  types?: ObservationType[];
  /** Absent: active memories only. */
  statuses?: ObservationStatus[];
  sources?: ObservationSource[];
  sessionId?: string;
  /** Created at or after (ms). */
  from?: number;
  /** Created before (ms). */
  to?: number;
  /** Only stale memories (the code they describe changed), or only current ones. */
  stale?: boolean;
  /** Free text (search only). */
  query?: string;
}

/** The statuses a filter means: the live ones unless it names others. */
export function statusesOf(filter: MemoryFilter): ObservationStatus[] {
  return filter.statuses && filter.statuses.length > 0 ? filter.statuses : ['active'];
}

const DAY_MS = 86_400_000;

function listOf<T extends string>(name: string, raw: string, allowed: readonly T[]): T[] {
  const values = raw
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
  for (const v of values) {
    if (!(allowed as readonly string[]).includes(v)) {
      throw new EngramError('INPUT_INVALID', `unknown ${name} "${v}"`, {
        hint: `Use one or more of: ${allowed.join(', ')} (comma-separated).`,
      });
    }
  }
  return [...new Set(values)] as T[];
}

/** "2026-11-20" (UTC midnight) or a millisecond time. */
function dayOf(name: string, raw: string, endOfDay: boolean): number {
  const text = raw.trim();
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) {
    const at = Date.parse(`${text}T00:00:00Z`);
    if (Number.isFinite(at)) return endOfDay ? at + DAY_MS : at;
  } else if (/^\d{1,15}$/.test(text)) return Number(text);
  throw new EngramError('INPUT_INVALID', `cannot read the date "${raw}" for ${name}`, {
    hint: 'Use a day such as 2026-11-20 (UTC) or a time in milliseconds since the epoch.',
  });
}

/** The list filters' parameter names (search adds `q`). */
export const LIST_FILTER_KEYS = [
  'project',
  'type',
  'status',
  'source',
  'session',
  'from',
  'to',
  'stale',
] as const;

const SESSION_ID = /^[\w.:-]{1,200}$/;
const PROJECT_ID = /^prj_[0-9a-f]{16}$/;

/**
 * Read a filter from query parameters: `project`, `type`, `status`, `source` (comma lists), `session`,
 * `from`, `to` (days, `to` inclusive), `stale` (`yes` or `no`) and `q`. Empty values are ignored.
 */
export function parseMemoryFilter(params: Readonly<Record<string, string | undefined>>): MemoryFilter {
  const get = (key: string) => {
    const v = params[key];
    return v === undefined || v.trim() === '' ? undefined : v;
  };
  const filter: MemoryFilter = {};
  const project = get('project');
  if (project !== undefined) {
    if (!PROJECT_ID.test(project))
      throw new EngramError('INPUT_INVALID', `"${project}" is not a project id`, {
        hint: 'Project ids look like prj_ followed by 16 hex digits.',
      });
    filter.projectId = project as ProjectId;
  }
  const type = get('type');
  if (type !== undefined) filter.types = listOf('type', type, OBSERVATION_TYPES);
  const status = get('status');
  if (status !== undefined) filter.statuses = listOf('status', status, OBSERVATION_STATUSES);
  const source = get('source');
  if (source !== undefined) filter.sources = listOf('source', source, OBSERVATION_SOURCES);
  const session = get('session');
  if (session !== undefined) {
    if (!SESSION_ID.test(session)) throw new EngramError('INPUT_INVALID', 'that is not a session id');
    filter.sessionId = session;
  }
  const from = get('from');
  if (from !== undefined) filter.from = dayOf('from', from, false);
  const to = get('to');
  if (to !== undefined) filter.to = dayOf('to', to, /^\d{4}-/.test(to.trim()));
  const stale = get('stale');
  if (stale !== undefined) {
    if (!['yes', 'no'].includes(stale))
      throw new EngramError('INPUT_INVALID', 'stale is yes (only stale memories) or no (only current ones)');
    filter.stale = stale === 'yes';
  }
  const q = get('q');
  if (q !== undefined) filter.query = q.slice(0, 2000);
  return filter;
}

/** The query parameters of a filter (the inverse of parseMemoryFilter, days as UTC dates). */
export function filterParams(filter: MemoryFilter): Record<string, string> {
  const out: Record<string, string> = {};
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  if (filter.query) out['q'] = filter.query;
  if (filter.projectId) out['project'] = filter.projectId;
  if (filter.types?.length) out['type'] = filter.types.join(',');
  if (filter.statuses?.length) out['status'] = filter.statuses.join(',');
  if (filter.sources?.length) out['source'] = filter.sources.join(',');
  if (filter.sessionId) out['session'] = filter.sessionId;
  if (filter.from !== undefined) out['from'] = day(filter.from);
  if (filter.to !== undefined) out['to'] = day(filter.to - 1);
  if (filter.stale !== undefined) out['stale'] = filter.stale ? 'yes' : 'no';
  return out;
}
