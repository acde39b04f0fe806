// engram's hook, as the Claude Code plugin runs it (`node "${CLAUDE_PLUGIN_ROOT}/scripts/run-hook.cjs"`
// for every event). It finds the `engram` command installed with npm — the first one on PATH, followed
// through its symlinks to its package — and runs that package's hook bundle (dist/hook.cjs) in this
// process, so a plugin hook costs what the hook `engram install` writes costs. Nothing is kept here
// (${CLAUDE_PLUGIN_ROOT} changes with every plugin update): memory stays in ENGRAM_HOME (~/.engram).
// It always exits 0. Without engram it says so — to the user at SessionStart — and the turn goes on.
'use strict';
const { existsSync, readFileSync, realpathSync } = require('node:fs');
const { delimiter, dirname, join } = require('node:path');

const MISSING =
  'engram plugin: the engram command is not on PATH, so nothing is captured or recalled. ' +
  'Install engram with npm (see "Claude Code plugin" in engram\u2019s README), then start a new session.';

/** dist/hook.cjs of the first `engram` on PATH that has one, or null. */
function findHookBundle(searchPath) {
  for (const dir of searchPath.split(delimiter)) {
    if (dir === '') continue;
    let bin;
    try {
      bin = realpathSync(join(dir, 'engram'));
    } catch {
      continue; // no engram in this directory
    }
    const bundle = join(dirname(bin), '..', 'dist', 'hook.cjs');
    if (existsSync(bundle)) return bundle;
  }
  return null;
}

/** The event of the payload on stdin ('' when it cannot be read). */
function eventOnStdin() {
  try {
    const payload = JSON.parse(readFileSync(0, 'utf8'));
    return payload && typeof payload.hook_event_name === 'string' ? payload.hook_event_name : '';
  } catch {
    return ''; // unreadable or not JSON: nothing to tell the user about
  }
}

try {
  const bundle = findHookBundle(process.env.PATH || '');
  if (bundle !== null) {
    require(bundle); // reads stdin, captures, prints any context, sets exit code 0
  } else {
    if (eventOnStdin() === 'SessionStart') process.stdout.write(JSON.stringify({ systemMessage: MISSING }));
    process.stderr.write(`${MISSING}\n`);
  }
} catch (error) {
  process.stderr.write(`engram plugin: ${error instanceof Error ? error.message : String(error)}\n`);
}
process.exitCode = 0;
