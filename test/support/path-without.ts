/**
 * A PATH on which a command is not found, whatever the machine has installed: each directory that
 * holds it (say /usr/bin after `npm link`) is replaced by a shadow directory of symlinks to everything
 * else in it, so node, sh, git and the rest stay reachable.
 */
import { existsSync, mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import { delimiter, join } from 'node:path';

export function pathWithout(command: string, dirs: readonly string[], shadowRoot: string): string {
  return dirs
    .filter((dir) => dir !== '')
    .map((dir, i) => {
      if (!existsSync(join(dir, command))) return dir;
      const shadow = join(shadowRoot, `path-${i}`);
      mkdirSync(shadow, { recursive: true });
      for (const name of readdirSync(dir))
        if (name !== command && !existsSync(join(shadow, name)))
          symlinkSync(join(dir, name), join(shadow, name));
      return shadow;
    })
    .join(delimiter);
}
