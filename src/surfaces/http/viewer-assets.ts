/**
 * The browser script and stylesheet, read once from the build (dist/viewer/), with a content hash as
 * their version so pages can let the browser cache them for good.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EngramError } from '../../core/errors.ts';
import type { ViewerAssets } from './deps.ts';

export function loadViewerAssets(distDir: string): ViewerAssets {
  try {
    const js = readFileSync(join(distDir, 'viewer', 'viewer.js'), 'utf8');
    const css = readFileSync(join(distDir, 'viewer', 'viewer.css'), 'utf8');
    const version = createHash('sha256').update(js).update(css).digest('hex').slice(0, 12);
    return { js, css, version };
  } catch (error) {
    throw new EngramError('INTERNAL', `the viewer's assets are missing in ${distDir}/viewer`, {
      hint: 'Run "npm run build".',
      cause: error,
    });
  }
}
