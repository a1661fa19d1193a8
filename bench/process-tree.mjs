// A process tree read from /proc (Linux): its peak resident memory, sampled every few milliseconds
// (the sum of VmRSS over the process and all its descendants at each sample, the highest sum kept),
// and the CPU time it has used.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

function read(file) {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

function descendants(pid) {
  const found = [];
  const tasks = read(`/proc/${pid}/task/${pid}/children`).trim();
  for (const child of tasks ? tasks.split(/\s+/).map(Number) : []) found.push(child, ...descendants(child));
  return found;
}

const rssOf = (pid) => Number(/VmRSS:\s+(\d+) kB/.exec(read(`/proc/${pid}/status`))?.[1] ?? 0) * 1024;

/** Starts sampling; `stop()` resolves with the peak in bytes. `skipRoot` leaves out `pid` itself (a wrapper). */
export function peakTreeRss(pid, { skipRoot = false, everyMs = 2 } = {}) {
  let peak = 0;
  const sample = () => {
    const pids = [...(skipRoot ? [] : [pid]), ...descendants(pid)];
    peak = Math.max(
      peak,
      pids.reduce((sum, p) => sum + rssOf(p), 0),
    );
  };
  sample();
  const timer = setInterval(sample, everyMs);
  return {
    stop: async () => {
      clearInterval(timer);
      return peak;
    },
  };
}

/** Clock ticks per second of /proc's CPU times. */
let ticksPerSecond;
function clockTicks() {
  ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  return ticksPerSecond;
}

/** CPU time (user + system, ms) the process has used so far, 0 when it is gone. */
function cpuMsOf(pid) {
  const stat = read(`/proc/${pid}/stat`);
  // The command name is in parentheses and may hold spaces: fields are counted after its `)`.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11] ?? 0) + Number(fields[12] ?? 0);
  return (ticks / clockTicks()) * 1000;
}

/** CPU time (ms) used so far by `pid`'s descendants (with `pid` itself unless `skipRoot`, a wrapper). */
export function treeCpuMs(pid, { skipRoot = false } = {}) {
  const pids = [...(skipRoot ? [] : [pid]), ...descendants(pid)];
  return pids.reduce((sum, p) => sum + cpuMsOf(p), 0);
}
