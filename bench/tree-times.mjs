// A command's CPU (user + system of it and every process it waited for) and the peak resident memory
// of its largest process, from wait4's rusage, read by a few lines of Python: GNU time prints CPU
// with two decimals (10 ms steps, 4% of a 240 ms session), rusage keeps microseconds. The wall is
// from fork to reaping, without Python's own start.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';

/** Runs argv[2:], then writes `user system maxKb wall` (seconds but maxKb) to argv[1]; exits as the command did. */
const WAIT4_TIMES = `import os, sys, time
started = time.monotonic()
pid = os.fork()
if pid == 0:
    os.execvp(sys.argv[2], sys.argv[2:])
_, status, ru = os.wait4(pid, 0)
wall = time.monotonic() - started
open(sys.argv[1], "w").write("%.6f %.6f %d %.6f\\n" % (ru.ru_utime, ru.ru_stime, ru.ru_maxrss, wall))
sys.exit(os.waitstatus_to_exitcode(status))`;

/**
 * Spawns `command args` under the wait4 reader (the wrapper is the root of the tree: sample its
 * descendants for the tree's memory). `read()` after it exited: `{ cpu, wall }` in ms and `maxRss`
 * in bytes (the largest process's peak).
 */
export function spawnTimed(command, args, options, timesFile) {
  writeFileSync(timesFile, '');
  const child = spawn('python3', ['-c', WAIT4_TIMES, timesFile, command, ...args], options);
  const read = () => {
    const [user, system, maxKb, wall] = readFileSync(timesFile, 'utf8').trim().split(' ').map(Number);
    return { cpu: (user + system) * 1000, wall: wall * 1000, maxRss: maxKb * 1024 };
  };
  return { child, read };
}
