/**
 * The plugin files of the hosts that load plugins instead of running hook commands (opencode). Only the
 * CLI's install, uninstall and doctor need them, so they live apart from the adapters: the hook bundle
 * never carries a plugin's text.
 */
import type { HostName, HostPluginSetup } from './host-port.ts';
import { OPENCODE_HOOK_ARGS, OPENCODE_WAITS } from './opencode/adapter.ts';
import {
  isEngramPlugin,
  opencodePluginSource,
  pluginCreatedDirs,
  pluginTargets,
} from './opencode/plugin-source.ts';

const OPENCODE_PLUGIN: HostPluginSetup = {
  source: (hook, createdDirs) => opencodePluginSource(hook, OPENCODE_HOOK_ARGS, createdDirs, OPENCODE_WAITS),
  isEngrams: isEngramPlugin,
  createdDirs: pluginCreatedDirs,
  targets: pluginTargets,
};

/** The plugin file engram writes for `host`, or null for a host with hook commands. */
export function hostPlugin(host: HostName): HostPluginSetup | null {
  return host === 'opencode' ? OPENCODE_PLUGIN : null;
}
