/**
 * engram's opencode plugin: the text `engram install --host opencode` writes into opencode's plugin
 * folder. opencode runs no hook commands; it loads plugins into its own process (Bun) and calls them on
 * its events. This plugin is deliberately small: it turns each event it cares about into one JSON payload
 * (read by `payload.ts`) and pipes it to engram's hook bundle (`node hook.cjs --host opencode`) in a
 * child process, one at a time per session so they arrive in order. It never waits on a capture; it
 * waits only for the context it adds to the system prompt (`experimental.chat.system.transform`: the
 * session's index and the current prompt's recall, at most CONTEXT_WAIT_MS) and, when opencode shuts
 * down, for the last events to be handed over (at most END_WAIT_MS). A hook that cannot start or fails
 * is logged through opencode's own log (`client.app.log`, service "engram") and otherwise ignored.
 * Subagent sessions (a session with a parent) are left out: their work reaches engram as the parent's
 * task call.
 */

/** The first line of every plugin engram writes: uninstall deletes only a file that starts with it. */
export const OPENCODE_PLUGIN_MARK =
  '// engram memory for opencode: written by "engram install --host opencode"';
const DIRS_LINE = '// engram-created-dirs: ';

export const isEngramPlugin = (text: string): boolean => text.startsWith(OPENCODE_PLUGIN_MARK);

/** The folders the install that wrote `text` created (deepest last), as recorded in it. */
export function pluginCreatedDirs(text: string): string[] {
  const line = text.split('\n').find((l) => l.startsWith(DIRS_LINE));
  if (!line) return [];
  try {
    const dirs: unknown = JSON.parse(line.slice(DIRS_LINE.length));
    return Array.isArray(dirs) ? dirs.filter((d): d is string => typeof d === 'string') : [];
  } catch {
    return [];
  }
}

/** The node binary and hook bundle the plugin in `text` runs (its `const NODE`/`const HOOK` lines). */
export function pluginTargets(text: string): string[] {
  return [...text.matchAll(/^const (?:NODE|HOOK) = ("[^\n]*");$/gm)].flatMap((m) => {
    try {
      const value: unknown = JSON.parse(m[1] ?? '');
      return typeof value === 'string' ? [value] : [];
    } catch {
      return [];
    }
  });
}

const BODY = String.raw`/** A promise's value, or fallback once ms have passed. */
const within = (promise, ms, fallback) =>
  new Promise((resolve) => {
    const timer = setTimeout(() => resolve(fallback), ms);
    promise.then(
      (value) => { clearTimeout(timer); resolve(value); },
      () => { clearTimeout(timer); resolve(fallback); },
    );
  });

const contextOf = (stdout) => {
  try {
    const answer = JSON.parse(stdout);
    return typeof answer?.additionalContext === 'string' ? answer.additionalContext : '';
  } catch {
    return '';
  }
};

export const EngramMemory = async ({ client, directory }) => {
  const sessions = new Map();
  const subagents = new Set();
  const toolsSeen = new Set();

  const log = (message, extra) => {
    try {
      Promise.resolve(client?.app?.log?.({ body: { service: 'engram', level: 'warn', message, extra } })).catch(() => {});
    } catch {
      // opencode's log itself failed: there is nowhere left to report to, and the agent must go on.
    }
  };

  /** One hook process with payload on stdin; its stdout when wanted ('' on any failure). */
  const run = (payload, wantOutput) =>
    new Promise((resolve) => {
      let child;
      try {
        child = spawn(NODE, [HOOK, ...HOOK_ARGS], {
          cwd: payload.cwd || directory,
          stdio: ['pipe', wantOutput ? 'pipe' : 'ignore', 'ignore'],
          detached: !wantOutput,
          env: process.env,
        });
      } catch (error) {
        log('engram hook could not start', { hook: payload.hook_event_name, error: String(error) });
        resolve('');
        return;
      }
      let out = '';
      child.on('error', (error) => {
        log('engram hook could not start', { hook: payload.hook_event_name, error: String(error) });
        resolve('');
      });
      if (wantOutput) {
        child.stdout.setEncoding('utf8');
        child.stdout.on('data', (chunk) => { out += chunk; });
      }
      // A hook that hangs must not hold up the session's later events: it is stopped, as hosts stop theirs.
      const limit = setTimeout(() => {
        log('engram hook took too long; stopped', { hook: payload.hook_event_name });
        child.kill();
      }, HOOK_LIMIT_MS);
      limit.unref?.();
      child.on('close', (code) => {
        clearTimeout(limit);
        if (code !== 0) log('engram hook failed', { hook: payload.hook_event_name, code });
        resolve(out);
      });
      child.stdin.on('error', () => {});
      child.stdin.end(JSON.stringify(payload));
      if (!wantOutput) child.unref();
    });

  /** Hand an event of session s to engram after the ones before it; resolves with the hook's stdout. */
  const send = (s, hook, event, fields, wantOutput = false) => {
    const payload = { hook_event_name: hook, session_id: s.id, cwd: s.cwd, opencode_event: event, ...fields };
    const done = s.chain.then(() => run(payload, wantOutput));
    s.chain = done.then(() => undefined, () => undefined);
    return done;
  };

  /** The session's state, its SessionStart sent when it is first seen. */
  const session = (id, cwd, source, event) => {
    if (typeof id !== 'string' || id === '' || subagents.has(id)) return null;
    let s = sessions.get(id);
    if (!s) {
      s = { id, cwd: cwd || directory, chain: Promise.resolve(), start: null, prompt: null, last: '', ended: false };
      sessions.set(id, s);
      s.start = send(s, 'SessionStart', event, { source }, true).then(contextOf);
    }
    return s.ended ? null : s;
  };

  const end = (s, reason, event) => {
    s.ended = true;
    return send(s, 'SessionEnd', event, { reason });
  };

  return {
    event: async ({ event }) => {
      const props = event?.properties ?? {};
      switch (event?.type) {
        case 'session.created': {
          const info = props.info ?? {};
          if (info.parentID) subagents.add(info.id);
          else session(info.id, info.directory, 'startup', event.type);
          return;
        }
        case 'session.idle': {
          const s = sessions.get(props.sessionID);
          if (!s || s.ended) return;
          const last = s.last;
          s.last = '';
          send(s, 'Stop', event.type, { last_assistant_message: last });
          return;
        }
        case 'session.compacted': {
          const s = sessions.get(props.sessionID);
          if (s && !s.ended) send(s, 'PostCompact', event.type, { trigger: 'auto' });
          return;
        }
        case 'session.deleted': {
          const s = sessions.get(props.info?.id);
          if (s && !s.ended) end(s, 'deleted', event.type);
          return;
        }
        case 'message.part.updated': {
          const part = props.part;
          if (part?.type !== 'tool' || part.state?.status !== 'error' || toolsSeen.has(part.callID)) return;
          const s = sessions.get(part.sessionID);
          if (!s || s.ended) return;
          toolsSeen.add(part.callID);
          send(s, 'PostToolUseFailure', event.type, {
            tool_name: part.tool,
            tool_input: part.state.input ?? null,
            tool_call_id: part.callID,
            error: String(part.state.error ?? ''),
          });
          return;
        }
        default:
          return;
      }
    },
    'chat.message': async (input, output) => {
      const s = session(input?.sessionID, undefined, 'resume', 'chat.message');
      if (!s) return;
      s.prompt = send(s, 'UserPromptSubmit', 'chat.message', { parts: output?.parts ?? [] }, true).then(contextOf);
    },
    'tool.execute.after': async (input, output) => {
      const s = sessions.get(input?.sessionID);
      if (!s || s.ended) return;
      toolsSeen.add(input.callID);
      send(s, 'PostToolUse', 'tool.execute.after', {
        tool_name: input.tool,
        tool_input: input.args ?? null,
        tool_call_id: input.callID,
        tool_output: { title: output?.title, output: output?.output, metadata: output?.metadata },
      });
    },
    'experimental.text.complete': async (input, output) => {
      const s = sessions.get(input?.sessionID);
      if (s && typeof output?.text === 'string' && output.text.trim() !== '') s.last = output.text;
    },
    'experimental.session.compacting': async (input) => {
      const s = sessions.get(input?.sessionID);
      if (s && !s.ended) send(s, 'PreCompact', 'experimental.session.compacting', { trigger: 'auto' });
    },
    'experimental.chat.system.transform': async (input, output) => {
      const s = sessions.get(input?.sessionID);
      if (!s || !Array.isArray(output?.system)) return;
      const told = await within(Promise.all([s.start, s.prompt]), CONTEXT_WAIT_MS, []);
      for (const text of told) if (typeof text === 'string' && text !== '') output.system.push(text);
    },
    dispose: async () => {
      for (const s of sessions.values()) if (!s.ended) end(s, 'exit', 'dispose');
      await within(Promise.all([...sessions.values()].map((s) => s.chain)), END_WAIT_MS, undefined);
    },
  };
};
`;

/**
 * The plugin's text: `node` and `bundle` are absolute paths (opencode's own runtime is not Node, and
 * its PATH may not hold engram), `hookArgs` the adapter's words; `createdDirs` are the folders the
 * install made, recorded for uninstall.
 */
export function opencodePluginSource(
  hook: { node: string; bundle: string },
  hookArgs: readonly string[],
  createdDirs: readonly string[],
  waits: { contextSeconds: number; endSeconds: number; hookSeconds: number },
): string {
  return [
    OPENCODE_PLUGIN_MARK,
    '// It hands opencode\u2019s session events to engram (persistent memory for coding agents) and adds what',
    '// engram remembers to the system prompt. Remove it with "engram uninstall --host opencode".',
    `${DIRS_LINE}${JSON.stringify(createdDirs)}`,
    "import { spawn } from 'node:child_process';",
    '',
    `const NODE = ${JSON.stringify(hook.node)};`,
    `const HOOK = ${JSON.stringify(hook.bundle)};`,
    `const HOOK_ARGS = ${JSON.stringify(hookArgs)};`,
    `const CONTEXT_WAIT_MS = ${Math.round(waits.contextSeconds * 1000)};`,
    `const END_WAIT_MS = ${Math.round(waits.endSeconds * 1000)};`,
    `const HOOK_LIMIT_MS = ${Math.round(waits.hookSeconds * 1000)};`,
    BODY,
  ].join('\n');
}
