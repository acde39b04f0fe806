/**
 * The adapters by name. The hook entry asks for one host; every adapter is a few small functions and
 * some data, so choosing one costs nothing measurable on the hook's path.
 */
import { claudeCodeAdapter } from './claude-code/adapter.ts';
import { codexAdapter } from './codex/adapter.ts';
import { copilotAdapter } from './copilot/adapter.ts';
import { cursorAdapter } from './cursor/adapter.ts';
import { geminiAdapter } from './gemini/adapter.ts';
import type { HostAdapter, HostName } from './host-port.ts';
import { opencodeAdapter } from './opencode/adapter.ts';

export { HOST_NAMES, isHostName, type HostAdapter, type HostName } from './host-port.ts';

/** The host a hook serves when none is named: Claude Code (what a plain `engram hook` has always been). */
export const DEFAULT_HOST: HostName = 'claude-code';

export function hostAdapter(name: HostName): HostAdapter {
  switch (name) {
    case 'claude-code':
      return claudeCodeAdapter;
    case 'codex':
      return codexAdapter;
    case 'copilot':
      return copilotAdapter;
    case 'cursor':
      return cursorAdapter;
    case 'gemini':
      return geminiAdapter;
    case 'opencode':
      return opencodeAdapter;
  }
}
