import { existsSync, lstatSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { splitWords } from '../policy/command-secret-paths.js';
import { realOrGiven } from '../util/real-or-given.js';
import { pathOfWord } from './files-named-by-words.js';
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
 * package.json (the nearest from the working folder up) and the manager's config beside it; the
 * script's own words (a file it names, a launcher it starts, a binary of node_modules/.bin); for
 * `npx X`, the file node_modules/.bin/X leads to (or the name, where a command could make one).
 */
export function packageScriptReads(
  reads: LauncherReads,
  program: PackageProgram,
  args: readonly string[],
  place: LaunchPlace,
  addCommandReads: AddCommandReads,
): void {
  const operands = args.filter((arg) => !arg.startsWith('-'));
  const [first, second] = operands;
  switch (program) {
    case 'npx':
    case 'pnpx':
    case 'bunx':
      if (first !== undefined) addBinReads(reads, first, place.cwd);
      return;
    case 'npm':
    case 'pnpm':
    case 'yarn':
    case 'bun': {
      if (first === undefined) return;
      if (EXEC.has(first)) {
        if (second !== undefined) addBinReads(reads, second, place.cwd);
      } else if (RUN.has(first)) {
        if (second !== undefined) addScriptReads(reads, program, second, place, addCommandReads);
      } else if (NAMED_SCRIPT.has(first)) {
        addScriptReads(
          reads,
          program,
          first === 't' || first === 'tst' ? 'test' : first,
          place,
          addCommandReads,
        );
      } else if (program !== 'npm' && !OWN_COMMANDS.has(first)) {
        // `bun x.ts` runs that file (held as a named script): a name that is no file is a script.
        if (
          program === 'bun' &&
          statSync(pathOfWord(first, place.cwd, place.home), { throwIfNoEntry: false })?.isFile()
        ) {
          return;
        }
        addScriptReads(reads, program, first, place, addCommandReads);
      }
      return;
    }
  }
}

function addScriptReads(
  reads: LauncherReads,
  program: 'npm' | 'pnpm' | 'yarn' | 'bun',
  name: string,
  place: LaunchPlace,
  addCommandReads: AddCommandReads,
): void {
  const packageDir = nearestPackageDir(place.cwd) ?? place.cwd;
  reads.files.push(
    join(packageDir, 'package.json'),
    ...MANAGER_CONFIG[program].map((file) => join(packageDir, file)),
  );
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
    addCommandReads(reads, words, { cwd: packageDir, home: place.home, depth: place.depth + 1 });
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
