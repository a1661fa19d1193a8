import { existsSync, lstatSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { splitWords } from '../policy/command-secret-paths.js';
import { realOrGiven } from '../util/real-or-given.js';
import { pathOfWord } from './files-named-by-words.js';
import {
  BUN_OPTIONS,
  hasOption,
  NPM_OPTIONS,
  type OptionTable,
  PNPM_OPTIONS,
  type ReadOptions,
  readOptions,
  unsureWhy,
  valuesOf,
  YARN_OPTIONS,
} from './launcher-options.js';
import type { AddCommandReads, LauncherReads, LaunchPlace } from './launcher-read-types.js';
import { scriptWords, simpleCommands } from './script-words.js';

/** A JavaScript package manager, or its runner of package binaries. */
type PackageProgram = 'npm' | 'pnpm' | 'yarn' | 'bun' | 'npx' | 'pnpx' | 'bunx';

/** The subcommands that run a package.json script named after them, or by the next operand (`run`). */
const RUN = new Set(['run', 'run-script', 'rum', 'urn']);
const NAMED_SCRIPT = new Set(['test', 't', 'tst', 'start', 'stop', 'restart']);
const EXEC = new Set(['exec', 'x']);
/**
 * pnpm, yarn and bun run a script (or a package binary) by its bare name when it is none of their
 * own commands: theirs, which run nothing of the project's.
 */
const OWN_COMMANDS = new Set(
  'install i ci add remove rm uninstall un update up upgrade outdated list ls why info view init create dlx publish pack link unlink audit config set version help login logout cache store env patch import rebuild prune dedupe global workspace workspaces setup self-update plugin constraints npm explain bin root licenses fetch deploy server install-test it build upgrade-interactive'.split(
    ' ',
  ),
);

/**
 * The config each manager reads before a script runs, and which can change what runs: npm's
 * `script-shell` and `node-options` (.npmrc, pnpm reads it too), yarn's `yarnPath` (the yarn it runs
 * instead of itself), bun's `preload`.
 */
const MANAGER_CONFIG: Record<'npm' | 'pnpm' | 'yarn' | 'bun', readonly string[]> = {
  npm: ['.npmrc'],
  pnpm: ['.npmrc'],
  yarn: ['.yarnrc.yml', '.yarnrc'],
  bun: ['bunfig.toml'],
};

/** How deep `npm run a` whose script runs `npm run b` is followed. */
const MAX_DEPTH = 3;

/**
 * What `npm run X` (`npm test`, `pnpm X`, `yarn X`, `bun run X`, `node --run X`) and `npx X` read:
 * package.json (the nearest from the working folder up, or the one of the folder an option names:
 * `--prefix`, `-w`, `-C`, `--cwd`) and the manager's config beside it; the script's own words (a file
 * it names, a launcher it starts, a binary of node_modules/.bin); for `npx X`, the file
 * node_modules/.bin/X leads to (or the name, where a command could make one). What cannot be read
 * surely (an option not known, a workspace named by its package's name) is said at start.
 */
export async function packageScriptReads(
  reads: LauncherReads,
  program: PackageProgram,
  args: readonly (string | null)[],
  place: LaunchPlace,
  addCommandReads: AddCommandReads,
): Promise<void> {
  const manager = MANAGER_OF[program];
  const read = program === 'npm' ? readOptions(args, NPM_OPTIONS) : readUpToScript(args, OPTIONS[manager]);
  const unsure = (what: string): void => {
    reads.notHeld.push({ tree: place.cwd, why: unsureWhy(`\`${program}\`: ${what}`) });
  };
  if (read.unsure !== null) unsure(read.unsure);
  // Config files an option names (`--userconfig`, yarn's `--use-yarnrc`, bun's `--config`, `--preload`).
  for (const file of valuesOf(read, CONFIG_FILE_OPTIONS))
    reads.files.push(pathOfWord(file, place.cwd, place.home));
  const project = projectPlace(manager, read, place, unsure);
  if (project === null) return;
  let operands = read.operands;
  // Where the script runs: the project, or the workspaces picked (each exactly its folder).
  let dirs = project.workspaces.length > 0 ? project.workspaces : [project.dir];
  let exact = project.exact || project.workspaces.length > 0;
  if (manager === 'yarn' && operands[0] === 'workspace') {
    // `yarn workspace NAME SCRIPT`.
    const dir = workspaceFolder(operands[1], project.dir, place.home);
    if (dir === null) {
      unsure(`the workspace \`${operands[1] ?? ''}\` is named by its package, not its folder`);
      return;
    }
    dirs = [dir];
    exact = true;
    operands = operands.slice(2);
  }
  // The root's package.json and config are read too (the workspaces it declares, `.npmrc`).
  if (exact && dirs[0] !== project.dir) addManagerFiles(reads, manager, project.dir);
  const [first, second] = operands;
  for (const dir of dirs) {
    const at: ScriptPlace = { ...place, cwd: dir, exact };
    switch (program) {
      case 'npx':
      case 'pnpx':
      case 'bunx':
        if (first !== undefined) addBinReads(reads, first, dir);
        break;
      case 'npm':
      case 'pnpm':
      case 'yarn':
      case 'bun': {
        if (first === undefined) break;
        if (EXEC.has(first)) {
          if (second !== undefined) addBinReads(reads, second, dir);
        } else if (RUN.has(first)) {
          if (second !== undefined) await addScriptReads(reads, program, second, at, addCommandReads);
        } else if (NAMED_SCRIPT.has(first)) {
          await addScriptReads(
            reads,
            program,
            first === 't' || first === 'tst' ? 'test' : first,
            at,
            addCommandReads,
          );
        } else if (program !== 'npm' && !OWN_COMMANDS.has(first)) {
          // `bun x.ts` runs that file (held as a named script): a name that is no file is a script.
          if (
            program === 'bun' &&
            statSync(pathOfWord(first, dir, place.home), { throwIfNoEntry: false })?.isFile()
          ) {
            break;
          }
          await addScriptReads(reads, program, first, at, addCommandReads);
        }
        break;
      }
    }
  }
}

/**
 * pnpm, yarn and bun (and every runner of package binaries) pass what follows the script's or
 * binary's name to it (`pnpm lint --fix`): their own options come before it. npm reads its options
 * wherever they are (`npm run lint --prefix tools`), up to `--`.
 */
function readUpToScript(args: readonly (string | null)[], table: OptionTable): ReadOptions {
  const upToOperand = { ...table, operandEnds: true };
  const options: ReadOptions['options'][number][] = [];
  const operands: string[] = [];
  let rest = args;
  for (;;) {
    const read = readOptions(rest, upToOperand);
    options.push(...read.options);
    operands.push(...read.operands);
    if (read.unsure !== null) return { options, operands, rest: [], unsure: read.unsure };
    rest = read.rest;
    // `run NAME`, `exec NAME`, `workspace DIR NAME`: the operands before the name.
    const wanted =
      operands[0] === 'workspace' ? 3 : RUN.has(operands[0] ?? '') || EXEC.has(operands[0] ?? '') ? 2 : 1;
    if (operands.length >= wanted || rest.length === 0) return { options, operands, rest, unsure: null };
  }
}

/** Where a package manager's script runs: `exact` where an option named the folder (npm's `--prefix`). */
type ScriptPlace = LaunchPlace & { readonly exact: boolean };

type Manager = 'npm' | 'pnpm' | 'yarn' | 'bun';
const MANAGER_OF: Record<PackageProgram, Manager> = {
  npm: 'npm',
  npx: 'npm',
  pnpm: 'pnpm',
  pnpx: 'pnpm',
  yarn: 'yarn',
  bun: 'bun',
  bunx: 'bun',
};
const OPTIONS: Record<Manager, OptionTable> = {
  npm: NPM_OPTIONS,
  pnpm: PNPM_OPTIONS,
  yarn: YARN_OPTIONS,
  bun: BUN_OPTIONS,
};
const CONFIG_FILE_OPTIONS = ['--userconfig', '--globalconfig', '--use-yarnrc', '--config', '--preload', '-r'];

/**
 * The folder a manager's options name (`npm --prefix DIR`, `pnpm -C DIR`, `yarn --cwd DIR`, `bun --cwd
 * DIR`) and the workspaces they pick (`npm -w DIR`, `pnpm --filter ./DIR`, `bun --filter ./DIR`);
 * null, said as unsure, where they pick packages by name or all of them.
 */
function projectPlace(
  manager: Manager,
  read: ReadOptions,
  place: LaunchPlace,
  unsure: (what: string) => void,
): { dir: string; exact: boolean; workspaces: string[] } | null {
  const folderOptions = { npm: ['--prefix', '-C'], pnpm: ['-C', '--dir'], yarn: ['--cwd'], bun: ['--cwd'] }[
    manager
  ];
  const named = valuesOf(read, folderOptions).pop();
  // npm's --prefix is the project's folder itself; the others' are where the search starts.
  const start = named === undefined ? place.cwd : pathOfWord(named, place.cwd, place.home);
  const exact = manager === 'npm' && named !== undefined;
  const dir = exact ? start : (nearestPackageDir(start) ?? start);
  if (hasOption(read, ['--workspaces', '-ws', '-r', '--recursive', '--workspace-root'])) {
    unsure('it runs in every workspace, or the root one');
    return null;
  }
  if (manager === 'pnpm' && hasOption(read, ['-w'])) {
    unsure('it runs in the workspace root');
    return null;
  }
  const picks = valuesOf(
    read,
    manager === 'npm' ? ['-w', '--workspace'] : ['--filter', '-F', '--filter-prod'],
  );
  const workspaces: string[] = [];
  for (const pick of picks) {
    const folder = workspaceFolder(pick.replace(/^\{(.*)\}$/, '$1'), dir, place.home);
    if (folder === null) {
      unsure(`the workspace \`${pick}\` is named by its package, not its folder`);
      return null;
    }
    workspaces.push(folder);
  }
  return { dir, exact, workspaces };
}

/** The folder a workspace option names, where it names one that holds a package.json. */
function workspaceFolder(name: string | undefined, root: string, home: string): string | null {
  if (name === undefined) return null;
  const folder = pathOfWord(name, root, home);
  return existsSync(join(folder, 'package.json')) ? folder : null;
}

function addManagerFiles(reads: LauncherReads, manager: Manager, packageDir: string): void {
  reads.files.push(
    join(packageDir, 'package.json'),
    ...MANAGER_CONFIG[manager].map((file) => join(packageDir, file)),
  );
}

async function addScriptReads(
  reads: LauncherReads,
  program: Manager,
  name: string,
  place: ScriptPlace,
  addCommandReads: AddCommandReads,
): Promise<void> {
  const packageDir = place.exact ? place.cwd : (nearestPackageDir(place.cwd) ?? place.cwd);
  addManagerFiles(reads, program, packageDir);
  if (place.depth >= MAX_DEPTH) return;
  const scripts = packageScripts(join(packageDir, 'package.json'));
  // npm runs `preX` and `postX` around `X`.
  for (const text of [scripts[`pre${name}`], scripts[name], scripts[`post${name}`]]) {
    if (text === undefined) continue;
    const words = splitWords(text);
    // The scripts it runs (`node scripts/lint.mjs`, `./lint.sh`): not every file it names, which
    // would hold the sources a linter or test runner reads.
    reads.files.push(...scriptWords(words).map(({ word }) => pathOfWord(word, packageDir, place.home)));
    // `eslint .`: npm puts node_modules/.bin first on PATH.
    for (const [program] of simpleCommands(words)) {
      if (program !== undefined && localBin(program, packageDir) !== null)
        addBinReads(reads, program, packageDir);
    }
    await addCommandReads(reads, text, { cwd: packageDir, home: place.home, depth: place.depth + 1 });
  }
}

/**
 * A binary of a package in node_modules: the file its node_modules/.bin link leads to is held; the
 * package it belongs to (what that file loads) is the project's, and not. Where there is none yet, the
 * name a command could make (`npx` would run it rather than fetch the package).
 */
function addBinReads(reads: LauncherReads, name: string, cwd: string): void {
  if (name.includes('/') || name.includes('@')) return;
  const bin = localBin(name, cwd);
  if (bin === null) {
    reads.files.push(join(cwd, 'node_modules', '.bin', name));
    return;
  }
  reads.files.push(bin.target);
  reads.notHeld.push({
    tree: bin.modules,
    why: `${name} runs from node_modules, which commands may write (only the file node_modules/.bin/${name} leads to is held)`,
  });
}

/** node_modules/.bin/NAME from `dir` up: the node_modules folder and the real file the link leads to. */
function localBin(name: string, dir: string): { modules: string; target: string } | null {
  for (let at = dir; ; at = dirname(at)) {
    const link = join(at, 'node_modules', '.bin', name);
    if (lstatSync(link, { throwIfNoEntry: false }) !== undefined) {
      // A dangling link: the name itself.
      return { modules: join(at, 'node_modules'), target: realOrGiven(link) };
    }
    if (at === dirname(at)) return null;
  }
}

/** The folder of the nearest package.json from `dir` up, as npm finds the project it runs. */
function nearestPackageDir(dir: string): string | null {
  for (let at = dir; ; at = dirname(at)) {
    if (existsSync(join(at, 'package.json'))) return at;
    if (at === dirname(at)) return null;
  }
}

/** A package.json's `scripts`, or none where it does not read as such. */
function packageScripts(file: string): Record<string, string> {
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    if (typeof parsed !== 'object' || parsed === null) return {};
    const scripts = (parsed as { scripts?: unknown }).scripts;
    if (typeof scripts !== 'object' || scripts === null) return {};
    return Object.fromEntries(
      Object.entries(scripts).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
    );
  } catch {
    return {};
  }
}
