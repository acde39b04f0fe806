// Preloaded into a benchmarked process (node -r): at exit it prints its own CPU time (user + system, ms)
// on stderr as `cpu-ms <n>` (after a line with its user and system parts), which Node cannot read of a
// child. Under a loaded machine CPU time is the
// steadier measure of the work a process did; wall time says what the user waited.
'use strict';
const { writeSync } = require('node:fs');

process.on('exit', () => {
  const used = process.cpuUsage();
  const ms = (us) => (us / 1000).toFixed(0);
  writeSync(
    2,
    `\nuser-ms ${ms(used.user)} system-ms ${ms(used.system)}\ncpu-ms ${ms(used.user + used.system)}\n`,
  );
});
