/**
 * GET /api/stream: the change log as server-sent events. Each event's id is the change's sequence
 * number, so a reconnecting browser resumes with Last-Event-ID (or `?after=`). The backlog sent on
 * resume is capped: a client further behind gets one `reset` event (reload the list) instead of a
 * flood; a client that gives no id starts at the end (the page it loaded shows what came before).
 * Memory changes carry the memory's brief (id, type, title, status, project, time), never its full
 * text; summary changes carry the session's request.
 */
import type { Hono } from 'hono';
import { streamSSE, type SSEStreamingApi } from 'hono/streaming';
import type { Change } from '../../core/model.ts';
import type { Store } from '../../store/store.ts';
import type { ChangeFeed } from './change-feed.ts';
import type { ViewerEnv } from './security.ts';

/** The most changes sent to a resuming client before it is told to reset instead. */
export const STREAM_BACKLOG = 200;
const HEARTBEAT_MS = 15_000;

/** What the stream says about one change. */
export function changeEvent(store: Store, c: Change, projectNames: Map<string, string>) {
  const memory = c.entity === 'memory' ? store.observations.get(c.entityId) : null;
  const summary = c.entity === 'summary' ? store.summaries.get(c.entityId) : null;
  const projectName = (id: string | null) => {
    if (id === null) return null;
    let name = projectNames.get(id);
    if (name === undefined) {
      name = store.sessions.project(id as Parameters<Store['sessions']['project']>[0])?.name ?? id;
      projectNames.set(id, name);
    }
    return name;
  };
  return {
    seq: c.seq,
    entity: c.entity,
    entityId: c.entityId,
    projectId: c.projectId,
    projectName: projectName(c.projectId),
    op: c.op,
    origin: c.origin,
    at: c.at,
    version: c.version,
    memory: memory
      ? {
          id: memory.id,
          type: memory.type,
          title: memory.title,
          status: memory.status,
          source: memory.source,
          createdAt: memory.createdAt,
          pinned: memory.pinned,
        }
      : null,
    summary: summary
      ? { sessionId: summary.sessionId, request: summary.request, final: summary.final }
      : null,
  };
}

function startingPoint(header: string | undefined, query: string | undefined): number | null {
  const text = header ?? query;
  if (text === undefined || !/^\d{1,15}$/.test(text.trim())) return null;
  return Number(text.trim());
}

export function mountStreamApi(
  app: Hono<ViewerEnv>,
  deps: { store: Store; feed: ChangeFeed; onOpen?: () => () => void },
): void {
  const { store, feed } = deps;
  app.get('/api/stream', (c) => {
    const after = startingPoint(c.req.header('last-event-id'), c.req.query('after'));
    return streamSSE(c, async (stream: SSEStreamingApi) => {
      const names = new Map<string, string>();
      let sent = after ?? feed.lastSeq();
      let ready = false;
      const queued: Change[] = [];
      let writing = Promise.resolve();
      // Writes go out in order; a failed one (the browser left) ends nothing but that write.
      const enqueue = (write: () => Promise<unknown>) => {
        writing = writing.then(write).then(
          () => undefined,
          () => undefined,
        );
      };
      // A row of edges added together is several changes with one seq, always read whole: the rest of
      // the row being sent goes out too, a row sent before (in the backlog and in a live batch) does not.
      const send = (changes: readonly Change[]) => {
        let row = -1;
        for (const change of changes) {
          if (change.seq <= sent && change.seq !== row) continue;
          sent = row = change.seq;
          const data = JSON.stringify(changeEvent(store, change, names));
          enqueue(() => stream.writeSSE({ id: String(change.seq), event: 'change', data }));
        }
      };
      // Listen first, then read the backlog: nothing committed in between is missed or sent twice.
      const unsubscribe = feed.subscribe((batch) => (ready ? send(batch) : queued.push(...batch)));
      const closed = deps.onOpen?.();
      const done = new Promise<void>((resolve) => stream.onAbort(resolve));
      try {
        await stream.writeSSE({ event: 'hello', data: JSON.stringify({ seq: sent }), retry: 2000 });
        if (after !== null) {
          const backlog = store.changes.since(after, STREAM_BACKLOG + 1);
          if (backlog.length > STREAM_BACKLOG) {
            sent = Math.max(feed.lastSeq(), (backlog[backlog.length - 1] as Change).seq);
            enqueue(() =>
              stream.writeSSE({ id: String(sent), event: 'reset', data: JSON.stringify({ seq: sent }) }),
            );
          } else send(backlog);
        }
        ready = true;
        send(queued.splice(0));
        const heartbeat = setInterval(() => {
          enqueue(() => stream.write(': ping\n\n'));
        }, HEARTBEAT_MS);
        await done;
        clearInterval(heartbeat);
      } finally {
        unsubscribe();
        closed?.();
      }
    });
  });
}
