/**
 * One payload of engram's opencode plugin captured as the hook captures it (opencode's environment:
 * `HOME`, `XDG_DATA_HOME`) into a real store — shared by the opencode worker tests and bench:opencode.
 */
import type { NormalisedPayload } from '../capture/hosts/host-port.ts';
import { opencodeAdapter } from '../capture/hosts/opencode/adapter.ts';
import { resolveProjectIdentity } from '../capture/project-identity.ts';
import { projectIdFromKey } from '../core/ids.ts';
import type { Store } from '../store/store.ts';

export function opencodeCapture(
  store: Store,
  where: { session: string; project: string; home: string; dataHome: string },
): (hook: string, at: number, fields: Record<string, unknown>) => NormalisedPayload {
  return (hook, at, fields) => {
    const n = opencodeAdapter.normalise(
      { hook_event_name: hook, session_id: where.session, cwd: where.project, ...fields },
      {
        skipTools: [],
        maxFieldChars: 8000,
        maxEventBytes: 65_536,
        fallbackCwd: '/',
        env: { HOME: where.home, XDG_DATA_HOME: where.dataHome },
      },
    );
    if (!n.ok) throw new Error(n.reason);
    const identity = resolveProjectIdentity(n.value.cwd);
    const p = { ...identity, id: projectIdFromKey(identity.key) };
    store.transaction(() => {
      store.events.append({ ...n.value, projectId: p.id, at });
      store.sessions.touch(
        p,
        { id: where.session, cwd: where.project, transcriptPath: n.value.transcriptPath, host: 'opencode' },
        hook,
        at,
      );
    });
    return n.value;
  };
}
