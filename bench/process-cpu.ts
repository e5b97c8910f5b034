/** CPU time of the benchmark's own process and of its DynamoDB Local (a JVM), read on Linux. */
import { readdirSync, readFileSync } from 'node:fs';

/** The DynamoDB Local (Java) process holding `dataDir`'s database: its CPU is read from /proc. */
export function javaProcessOf(dataDir: string): number | undefined {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (cmdline.includes('DynamoDBLocal') && cmdline.includes(dataDir)) return Number(entry);
    } catch {
      // The process ended while we looked.
    }
  }
  return undefined;
}

/** User + system CPU of a process in ms (clock ticks of 10 ms, Linux's usual USER_HZ of 100). */
export function cpuMsOf(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN;
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** CPU used from now until the returned function is called: this process and `otherPid`, in ms. */
export function startCpuWatch(otherPid: number | undefined): () => { node: number; other: number } {
  const node = process.cpuUsage();
  const other = cpuMsOf(otherPid);
  return () => {
    const used = process.cpuUsage(node);
    return { node: (used.user + used.system) / 1000, other: cpuMsOf(otherPid) - other };
  };
}
