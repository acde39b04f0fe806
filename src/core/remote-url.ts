/**
 * Git remote URLs normalised into one form, so every clone of a repository (ssh or https, any user,
 * any port) names the same project — on this machine, on a teammate's, and on the team server.
 */

/** `git@github.com:Owner/Repo.git`, `https://user@github.com/owner/repo/` → `github.com/owner/repo`. */
export function normaliseRemoteUrl(url: string): string {
  let u = url.trim();
  const scp = /^(?:[^@/\s]+@)?([^:/\s]+):(?!\/\/)(.+)$/.exec(u);
  if (scp && !/^[a-z][a-z0-9+.-]*:\/\//i.test(u)) {
    u = `${scp[1]}/${scp[2]}`;
  } else {
    u = u.replace(/^[a-z][a-z0-9+.-]*:\/\//i, ''); // scheme
    u = u.replace(/^[^@/]+@/, ''); // user[:password]@
    u = u.replace(/^([^/:]+):\d+(?=\/)/, '$1'); // port
  }
  u = u
    .replace(/\/+$/, '')
    .replace(/\.git$/i, '')
    .replace(/\/+$/, '');
  return u.toLowerCase();
}

/**
 * A remote that is a path on this machine (`/srv/git/app.git`, `../app`, `file:///…`, `C:\\repos\\app`):
 * each machine that clones it has it somewhere else, so it names no project a team shares.
 */
export function isLocalPathRemote(url: string): boolean {
  const u = url.trim();
  return /^(?:file:\/\/|\/|\.{1,2}(?:[\\/]|$)|~|[A-Za-z]:[\\/])/.test(u);
}
