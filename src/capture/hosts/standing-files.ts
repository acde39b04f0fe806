/**
 * The files that hold a project's standing knowledge for agents, which engram reads as sources beside
 * the sessions it captures: the rules files in the repository (CLAUDE.md, .claude/CLAUDE.md, AGENTS.md,
 * GEMINI.md: the repository's trust) and the user's own (CLAUDE.local.md, Claude Code's auto memory
 * MEMORY.md: the user's trust). Never loaded by the hook.
 */
import { join } from 'node:path';
import type { TrustClass } from '../../core/trust.ts';
import { autoMemoryFile } from './claude-code/auto-memory.ts';

export interface StandingFile {
  /** Absolute path (the file may not exist). */
  path: string;
  /** A short name for titles ("CLAUDE.md", "Claude Code's auto memory"). */
  name: string;
  trust: Extract<TrustClass, 'user' | 'repository'>;
}

const REPOSITORY_FILES = ['CLAUDE.md', '.claude/CLAUDE.md', 'AGENTS.md', 'GEMINI.md'];

export function standingFilesOf(
  root: string,
  env: Readonly<Record<string, string | undefined>>,
): StandingFile[] {
  return [
    ...REPOSITORY_FILES.map((file) => ({ path: join(root, file), name: file, trust: 'repository' as const })),
    { path: join(root, 'CLAUDE.local.md'), name: 'CLAUDE.local.md', trust: 'user' },
    { path: autoMemoryFile(root, env), name: 'Claude Code auto memory', trust: 'user' },
  ];
}
