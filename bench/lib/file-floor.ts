// The disk's own floor for writing a vault: creating the same files (same relative paths, same folders,
// empty) with nothing but mkdir + open + close, in a fresh folder beside the vault, timed with the CPU
// time it took. Creating a file costs the kernel an inode; on some machines (a loaded VM's ext4) that is
// most of a first export, so the export is reported beside this floor, measured in the same run. The
// files are left for the caller to remove when its timings are done (a removal slows the creations
// that follow it on ext4 without a journal; see bench/vault-run.ts).
import { closeSync, mkdirSync, openSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface FileFloor {
  files: number;
  ms: number;
  cpuMs: number;
}

export function fileCreationFloor(paths: readonly string[], dir: string): FileFloor {
  rmSync(dir, { recursive: true, force: true });
  const folders = new Set<string>();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (const path of paths) {
    const full = join(dir, path);
    const folder = dirname(full);
    if (!folders.has(folder)) {
      mkdirSync(folder, { recursive: true });
      folders.add(folder);
    }
    closeSync(openSync(full, 'wx'));
  }
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return { files: paths.length, ms, cpuMs: (cpu.user + cpu.system) / 1000 };
}
