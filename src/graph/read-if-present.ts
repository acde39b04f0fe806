/**
 * Reading a file that may be gone or unreadable by now (a project's files change under us).
 */
import { readFileSync } from 'node:fs';

/** The file's bytes, or null when it is missing, a folder, or unreadable. */
export function readIfPresent(path: string): Buffer | null {
  try {
    return readFileSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR' || code === 'EACCES') return null;
    throw error;
  }
}
