/**
 * Open a URL in the user's browser (open on macOS, start on Windows, xdg-open elsewhere), detached and
 * never waited on. Returns false when no opener could be started (the caller prints the URL anyway).
 */
import { spawn } from 'node:child_process';

export function openBrowser(url: string, platform: NodeJS.Platform = process.platform): Promise<boolean> {
  const [command, args] =
    platform === 'darwin'
      ? ['open', [url]]
      : platform === 'win32'
        ? ['cmd', ['/c', 'start', '""', url]]
        : ['xdg-open', [url]];
  return new Promise((resolve) => {
    const child = spawn(command, args, { detached: true, stdio: 'ignore' });
    child.once('error', () => resolve(false));
    child.once('spawn', () => {
      child.unref();
      resolve(true);
    });
  });
}
