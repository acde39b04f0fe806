/**
 * Replaying a scripted session (`claude-session.ts`) through engram as it would have happened live:
 * the transcript written up to each hook, the hook payload captured through the same normalisation
 * the capture hook uses (in process), and the worker's drain after each Stop and SessionEnd — with
 * the transcript read, as the worker does. For tests and the quality benchmark.
 */
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { normaliseClaudePayload } from '../../src/capture/claude-code-payload.ts';
import { resolveProjectIdentity } from '../../src/capture/project-identity.ts';
import { resolveConfig, type Config } from '../../src/core/config.ts';
import { projectIdFromKey } from '../../src/core/ids.ts';
import type { Store } from '../../src/store/store.ts';
import type { ClaudeSession } from './claude-session.ts';

const DEFAULTS: Config = resolveConfig({ env: {} });

/** One hook payload stored as the capture hook stores it. */
export function capturePayload(
  store: Store,
  payload: Record<string, unknown>,
  transcriptPath: string,
  at: number,
  config: Config = DEFAULTS,
): void {
  const n = normaliseClaudePayload(
    { ...payload, transcript_path: transcriptPath },
    {
      skipTools: config['capture.skipTools'],
      maxFieldChars: config['capture.maxFieldChars'],
      maxEventBytes: config['capture.maxEventBytes'],
      fallbackCwd: '/',
    },
  );
  if (!n.ok) return;
  const identity = resolveProjectIdentity(n.value.cwd);
  const project = { ...identity, id: projectIdFromKey(identity.key) };
  store.transaction(() => {
    store.events.append({
      sessionId: n.value.sessionId,
      projectId: project.id,
      hook: n.value.hook,
      cwd: n.value.cwd,
      transcriptPath,
      at,
      event: n.value.event,
    });
    store.sessions.touch(
      project,
      { id: n.value.sessionId, cwd: n.value.cwd, transcriptPath },
      n.value.hook,
      at,
    );
  });
}

/** Where a session's transcript goes under a Claude Code projects folder. */
export function transcriptPathOf(projectsDir: string, s: ClaudeSession): string {
  return join(projectsDir, s.cwd.replace(/\//g, '-'), `${s.sessionId}.jsonl`);
}

/**
 * Replay a session live. `drain(now)` is called after each Stop and SessionEnd (the worker's pass);
 * returns the transcript's path.
 */
export async function replayLive(
  store: Store,
  s: ClaudeSession,
  projectsDir: string,
  drain: (now: number) => unknown,
  config: Config = DEFAULTS,
): Promise<string> {
  const path = transcriptPathOf(projectsDir, s);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, '');
  for (const step of s.steps) {
    // A subagent's records go to its own file beside the transcript, as the host writes them.
    const file = step.file === undefined ? path : join(path.slice(0, -'.jsonl'.length), step.file);
    if (step.file !== undefined) mkdirSync(join(file, '..'), { recursive: true });
    if (step.records.length > 0)
      appendFileSync(file, step.records.map((x) => `${JSON.stringify(x)}\n`).join(''));
    if (!step.hook) continue;
    capturePayload(store, step.hook, path, step.at, config);
    const event = step.hook['hook_event_name'];
    if (event === 'Stop' || event === 'SessionEnd') await drain(step.at + 2000);
  }
  return path;
}
