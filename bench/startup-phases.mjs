// Where the time to the first model request goes, in CPU as well as wall time (a loaded machine
// inflates wall time; CPU much less): Node's boot, reading and compiling the bundle (code cache on),
// and the bundle's own work until the first socket connects. Builds given as arguments (each a
// directory with dist/) take turns, so they can be compared in one run:
//   node bench/startup-phases.mjs [rounds] [build-dir ...]      (default: 7, this worktree)
import { startPrintRuns } from './startup-print-runs.mjs';
import { median } from './stats.mjs';

const { rounds, builds, markedRun, close } = await startPrintRuns(process.argv.slice(2), {
  defaultRounds: 7,
  marks: 'startup-phase-marks.cjs',
  prefix: 'kimi-ts-bench-phases-',
});
const seen = builds.map(() => ({}));
for (let round = 0; round < rounds; round++) {
  for (const [index, build] of builds.entries()) {
    const stderr = await markedRun(build, index);
    for (const [, label, wall, cpu] of stderr.matchAll(/^phase (\S+) ([\d.]+) ([\d.]+)$/gm)) {
      seen[index][label] ??= [];
      seen[index][label].push([Number(wall), Number(cpu)]);
    }
  }
}
await close();

for (const [index, build] of builds.entries()) {
  const at = (label, which) => median((seen[index][label] ?? []).map((pair) => pair[which]));
  const span = (from, to) =>
    `${(at(to, 0) - at(from, 0)).toFixed(0)} ms wall, ${(at(to, 1) - at(from, 1)).toFixed(0)} ms CPU`;
  console.log(`${build} (medians of ${rounds}):`);
  console.log(
    `  Node boot            ${at('node-booted', 0).toFixed(0)} ms wall, ${at('node-booted', 1).toFixed(0)} ms CPU`,
  );
  console.log(`  launcher + read      ${span('node-booted', 'compile-start')}`);
  console.log(`  compile (vm.Script)  ${span('compile-start', 'compile-end')}`);
  console.log(`  bundle → request     ${span('compile-end', 'first-connect')}`);
  console.log(
    `  total to request     ${at('first-connect', 0).toFixed(0)} ms wall, ${at('first-connect', 1).toFixed(0)} ms CPU`,
  );
}
