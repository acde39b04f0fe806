/**
 * One payload of engram's opencode plugin captured as the hook captures it (opencode's environment:
 * `HOME`, `XDG_DATA_HOME`) into a real store, a long session's turn as the plugin hands it over, and
 * the worker's pass with opencode's session logs — shared by the opencode worker tests and bench:opencode.
 */
import type { NormalisedPayload } from '../capture/hosts/host-port.ts';
import { turnWords, type LongStore } from '../capture/hosts/opencode/long-store.test-support.ts';
import { opencodeAdapter } from '../capture/hosts/opencode/adapter.ts';
import { resolveProjectIdentity } from '../capture/project-identity.ts';
import { projectIdFromKey } from '../core/ids.ts';
import type { Logger } from '../core/ports.ts';
import { createHeuristicDistiller } from '../distill/heuristic-distiller.ts';
import type { Store } from '../store/store.ts';
import { drainOnce } from './drain.ts';

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

type Capture = ReturnType<typeof opencodeCapture>;

/** Turn `i` of a long session as the plugin hands it over (before opencode stores it); its Stop payload. */
export function captureLongTurn(capture: Capture, oc: LongStore, i: number): NormalisedPayload {
  const { prompt, end } = oc.timesOf(i);
  const words = turnWords(i);
  if (i === 0) capture('SessionStart', prompt - 50, { source: 'startup' });
  capture('UserPromptSubmit', prompt, { parts: [{ type: 'text', text: words.prompt }] });
  capture('PostToolUse', prompt + 5000, {
    tool_name: 'bash',
    tool_input: { command: `printf 'Hello, release team!\\n' > ${words.file} && cat ${words.file}` },
    tool_call_id: `call_${i}_s0_1`,
    tool_output: { output: 'Hello, release team!\n', metadata: { exit: 0 } },
  });
  return capture('Stop', end + 20, { last_assistant_message: 'Done.' });
}

/** The worker's pass at `now`, opencode's session logs written under `logDir`. */
export const opencodePass = (store: Store, logger: Logger, logDir: string, now: number) =>
  drainOnce(
    { store, distiller: createHeuristicDistiller(), logger, readTranscripts: true, hostSessionsDir: logDir },
    { force: false, now, staleTurnMs: 15 * 60_000, maxAttempts: 3 },
  );
