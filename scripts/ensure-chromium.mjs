// Make sure Debian's chromium is installed for the browser tests (npm test runs this first). Nothing to
// do when /usr/bin/chromium exists; otherwise, as root (CI), install it with apt-get, non-interactively.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const CHROMIUM = '/usr/bin/chromium';
if (!existsSync(CHROMIUM)) {
  if (process.platform !== 'linux' || typeof process.getuid !== 'function' || process.getuid() !== 0) {
    process.stderr.write(
      `ensure-chromium: ${CHROMIUM} is missing; the browser tests need it (Debian: apt-get install chromium).\n`,
    );
    process.exit(1);
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const run = (args) => execFileSync('apt-get', args, { env, stdio: ['ignore', 'inherit', 'inherit'] });
  process.stderr.write('ensure-chromium: installing chromium with apt-get (once)\n');
  run(['update', '-q']);
  run(['install', '-y', '-q', '--no-install-recommends', 'chromium']);
  if (!existsSync(CHROMIUM)) {
    process.stderr.write(`ensure-chromium: apt-get finished but ${CHROMIUM} is still missing\n`);
    process.exit(1);
  }
}
