// The first model request of a print run, split as the main thread spent it: on a CPU, waiting for
// one (a loaded machine), and asleep on I/O or timers; with the CPU of all threads. Builds given as
// arguments (each a directory with dist/) take turns in each round, under the Node running this:
//   node bench/startup-main-thread.mjs [rounds] [build-dir ...]      (default: 15, this worktree)
// Linux only (the main thread's times come from /proc/self/task/<pid>/schedstat).
import { startPrintRuns } from './startup-print-runs.mjs';
import { median } from './stats.mjs';

const { rounds, builds, markedRun, close } = await startPrintRuns(process.argv.slice(2), {
  defaultRounds: 15,
  marks: 'startup-main-thread-marks.cjs',
  prefix: 'kimi-ts-bench-main-thread-',
});
const seen = builds.map(() => []);
for (let round = 0; round < rounds; round++) {
  for (const [index, build] of builds.entries()) {
    const found = /^first-connect ([\d.]+) ([\d.]+) ([\d.NaN]+) ([\d.NaN]+)$/m.exec(
      await markedRun(build, index),
    );
    if (found) seen[index].push(found.slice(1).map(Number));
  }
}
await close();

console.log(
  `${process.version}, medians of ${rounds} rounds, [lower, upper quartile] (ms until the first model request):`,
);
/** The value at fraction `at` of the sorted values (0.25: lower quartile). */
const quantile = (values, at) => [...values].sort((x, y) => x - y)[Math.floor((values.length - 1) * at)];
const spread = (values) =>
  `${median(values).toFixed(1)} [${quantile(values, 0.25).toFixed(1)}, ${quantile(values, 0.75).toFixed(1)}]`;
for (const [index, build] of builds.entries()) {
  const column = (at) => seen[index].map((row) => row[at]);
  const asleep = seen[index].map(([wall, , onCpu, waiting]) => wall - onCpu - waiting);
  console.log(
    `  ${build}: wall ${spread(column(0))}, CPU (all threads) ${spread(column(1))}, main thread on CPU ${spread(column(2))}, waiting for a CPU ${spread(column(3))}, asleep ${spread(asleep)}`,
  );
}
