// What the machine was doing while a benchmark ran: every bench prints this beside its figures, since
// other work on the same cores moves every timing (compare ratios measured side by side in one run).
import { availableParallelism, loadavg } from 'node:os';

export interface MachineLoad {
  /** Load averages over 1, 5 and 15 minutes. */
  loadAverage: [number, number, number];
  cores: number;
}

export function machineLoad(): MachineLoad {
  const [one, five, fifteen] = loadavg().map((n) => Math.round(n * 100) / 100) as [number, number, number];
  return { loadAverage: [one, five, fifteen], cores: availableParallelism() };
}

/** `load average 0.52 / 0.61 / 0.40 (1 / 5 / 15 min) on 2 cores` */
export function describeLoad(m: MachineLoad = machineLoad()): string {
  return `load average ${m.loadAverage.map((n) => n.toFixed(2)).join(' / ')} (1 / 5 / 15 min) on ${m.cores} cores`;
}
