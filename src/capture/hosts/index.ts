/**
 * The adapters by name. The capture hook's own bundle holds Claude Code's adapter only and loads this
 * module's bundle (`dist/hook-hosts.cjs`) when another host is named, so each added host costs Claude
 * Code's hooks nothing.
 */
import { claudeCodeAdapter } from './claude-code/adapter.ts';
import { codexAdapter } from './codex/adapter.ts';
import { copilotAdapter } from './copilot/adapter.ts';
import { geminiAdapter } from './gemini/adapter.ts';
import type { HostAdapter, HostName } from './host-port.ts';
import { opencodeAdapter } from './opencode/adapter.ts';

export { HOST_NAMES, isHostName, type HostAdapter, type HostName } from './host-port.ts';

export { DEFAULT_HOST } from './host-port.ts';

export function hostAdapter(name: HostName): HostAdapter {
  switch (name) {
    case 'claude-code':
      return claudeCodeAdapter;
    case 'codex':
      return codexAdapter;
    case 'copilot':
      return copilotAdapter;
    case 'gemini':
      return geminiAdapter;
    case 'opencode':
      return opencodeAdapter;
  }
}
