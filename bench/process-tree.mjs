// Peak resident memory of a process tree, sampled from /proc (Linux) every few milliseconds: the
// sum of VmRSS over the process and all its descendants at each sample, the highest sum kept.
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
