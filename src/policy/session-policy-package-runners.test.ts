import { describe, it } from 'vitest';
import type { PermissionRuleSpec } from './permission-rule.js';
import { casesOf, checkRow, exec, type Row, runQuestion, useFixture } from './test-support/policy-table.js';

/**
 * The policy table's rows for package managers' runners (issue 24, holes5): what `npx`, `npm …
 * exec`, `pnpm dlx|exec`, `pnpx`, `yarn dlx|exec` run is what the rules judge, whatever options come
 * before the subcommand; npm with no command runs a shell reading its input. Under
 * `Shell(rm -rf*)` in yolo; each denied form got past the rule before.
 */

useFixture();

const RM_RF: PermissionRuleSpec[] = [{ decision: 'deny', pattern: 'Shell(rm -rf*)' }];

const DENIED: [name: string, command: string][] = [
  ['npm --prefix DIR exec -c', "npm --prefix x exec -c 'rm -rf v'"],
  ['npm -C DIR exec --call', "npm -C x exec --call 'rm -rf v'"],
  ['npm -w NAME exec -c', "npm -w a exec -c 'rm -rf v'"],
  ['npm --workspace=NAME x -c', "npm --workspace=a x -c 'rm -rf v'"],
  ['npm --loglevel silent exec -c', "npm --loglevel silent exec -c 'rm -rf v'"],
  ['npm --color always exec -c (a switch that may take a value)', "npm --color always exec -c 'rm -rf v'"],
  ['npm --yes true exec -c', "npm --yes true exec -c 'rm -rf v'"],
  ['npm exe -c (an abbreviation)', "npm exe -c 'rm -rf v'"],
  ['npm --foo exec -c (an unknown switch)', "npm --foo exec -c 'rm -rf v'"],
  ['npx with no command, reading a pipe', "echo 'rm -rf v' | npx"],
  ['npm exec with no command, reading a here-string', "npm --prefix . exec <<< 'rm -rf v'"],
  ['npx CMD (a bin of the work tree)', 'npx rm -rf v'],
  ['npx --yes CMD', 'npx --yes rm -rf v'],
  ['npx --unknown WORD CMD (npx takes WORD as its value)', 'npx --quiet-ish x rm -rf v'],
  ['npm exec -- CMD', 'npm exec -- rm -rf v'],
  ['npm --prefix DIR exec -- CMD', 'npm --prefix . exec -- rm -rf v'],
  ['npx env CMD', 'npx env rm -rf v'],
  ['npx sh -c', "npx sh -c 'rm -rf v'"],
  ['npm "$sub" CMD (a subcommand an expansion decides)', 'npm "$sub" rm -rf v'],
  ['pnpm dlx CMD', 'pnpm dlx rm -rf v'],
  ['pnpm --dir DIR dlx --package P CMD', 'pnpm --dir x dlx --package p rm -rf v'],
  ['pnpm -C DIR exec CMD', 'pnpm -C x exec rm -rf v'],
  ['pnpm exec -c WORDS (shell mode)', "pnpm exec -c 'rm -rf v'"],
  ['pnpm dlx --shell-mode', "pnpm dlx --shell-mode 'echo x; rm -rf v'"],
  ['pnpx CMD', 'pnpx rm -rf v'],
  ['yarn dlx CMD', 'yarn dlx rm -rf v'],
  ['yarn dlx -p P CMD', 'yarn dlx -p p rm -rf v'],
  ['yarn --cwd DIR exec CMD', 'yarn --cwd x exec rm -rf v'],
];

/** Everyday commands of the same programs: untouched by the deny rule. */
const UNTOUCHED = [
  'npx eslint .',
  'npx --yes prettier --check .',
  'npm exec -- eslint .',
  'npm --prefix web run build',
  'npm -w a test',
  'npm run x',
  'npm exec --package=cowsay',
  'pnpm dlx create-vite app',
  'pnpm -C web install',
  'yarn dlx -q create-react-app x',
  'yarn install',
];

/** An allow rule for the runner as written still covers it (what runs adds no wrapper of its own). */
const ALLOWED: [command: string, pattern: string][] = [
  ['npx eslint .', 'Shell(npx eslint*)'],
  ['npm exec -- eslint .', 'Shell(npm exec*)'],
  ['pnpm dlx create-vite app', 'Shell(pnpm dlx*)'],
];

const ROWS: Row[] = [
  ...DENIED.map(([name, command]) =>
    row(`deny rm -rf through ${name}`, command, RM_RF, 'deny', 'deny-rule', ['yolo']),
  ),
  ...UNTOUCHED.map((command) =>
    row(`runs nothing the rule names: ${command}`, command, RM_RF, 'allow', 'mode', ['yolo']),
  ),
  ...ALLOWED.map(([command, pattern]) =>
    row(`${pattern} allows ${command}`, command, [{ decision: 'allow', pattern }], 'allow', 'rule', [
      'default',
    ]),
  ),
];

function row(
  name: string,
  command: string,
  rules: PermissionRuleSpec[],
  expected: Row['expected'],
  step: string,
  modes: Row['modes'],
): Row {
  return {
    name,
    tool: 'Shell',
    effect: () => exec(command),
    question: runQuestion(command),
    modes,
    rules,
    expected,
    step,
  };
}

describe('SessionPolicy.decide: what package managers run (holes5)', () => {
  it.each(casesOf(ROWS))('%s', (_name, row, modeName) => checkRow(row, modeName));
});
