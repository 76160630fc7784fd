import { readFileSync } from 'node:fs';

/** A process's resident memory now and its peak so far, MB, from /proc (Linux); undefined elsewhere or once it has exited. */
export function processMemoryMb(pid: number | undefined): { rssMb: number; peakMb: number } | undefined {
  if (pid === undefined) return undefined;
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
    return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
  } catch {
    return undefined;
  }
}
