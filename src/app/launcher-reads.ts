import { existsSync, lstatSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { pathOfWord } from './files-named-by-words.js';
import { commandLineLaunches, execLaunches, type LaunchReading } from './launch-commands.js';
import {
  MAKE_OPTIONS,
  PYTHON_OPTIONS,
  readOptions,
  UV_OPTIONS,
  unsureWhy,
  valuesOf,
} from './launcher-options.js';
import type { LauncherReads, LaunchPlace } from './launcher-read-types.js';
import { makeIncludes } from './make-includes.js';
import { packageScriptReads } from './package-script-reads.js';
import { venvInterpreterReads } from './venv-reads.js';

/** A hook's command line: what its launchers read, run by a shell in `cwd`. */
export async function launcherReadsOfCommand(
  command: string,
  cwd: string,
  home: string,
): Promise<LauncherReads> {
  const reads: LauncherReads = { files: [], folders: [], notHeld: [] };
  await addCommandReads(reads, command, { cwd, home, depth: 0 });
  return unique(reads);
}

/** An MCP server's command and arguments (run without a shell): what its launchers read. */
export async function launcherReadsOfWords(
  words: readonly string[],
  cwd: string,
  home: string,
): Promise<LauncherReads> {
  const reads: LauncherReads = { files: [], folders: [], notHeld: [] };
  await addLaunches(reads, await execLaunches(words, cwd, home), { cwd, home, depth: 0 });
  return unique(reads);
}

function unique(reads: LauncherReads): LauncherReads {
  return {
    files: [...new Set(reads.files)],
    folders: [...new Set(reads.folders)],
    notHeld: reads.notHeld.filter(
      (one, i) => reads.notHeld.findIndex((other) => other.tree === one.tree && other.why === one.why) === i,
    ),
  };
}

/** Adds what each command of a shell command line reads (a `cd` followed, wrappers looked through). */
export async function addCommandReads(
  reads: LauncherReads,
  command: string,
  place: LaunchPlace,
): Promise<void> {
  await addLaunches(reads, await commandLineLaunches(command, place.cwd, place.home), place);
}

async function addLaunches(reads: LauncherReads, reading: LaunchReading, place: LaunchPlace): Promise<void> {
  for (const { cwd, why } of reading.unsure) reads.notHeld.push({ tree: cwd, why: unsureWhy(why) });
  for (const { words, cwd, pathBins } of reading.commands) {
    const [program, ...args] = words;
    if (program !== null && program !== undefined)
      await addLauncherReads(reads, program, args, { ...place, cwd, pathBins: pathBins ?? place.pathBins });
  }
}

const PYTHON = /^(python|pypy)[0-9.]*$/;

async function addLauncherReads(
  reads: LauncherReads,
  programWord: string,
  args: readonly (string | null)[],
  place: LaunchPlace,
): Promise<void> {
  const { cwd } = place;
  const program = basename(programWord);
  const unsure = (what: string) =>
    reads.notHeld.push({ tree: cwd, why: unsureWhy(`\`${program}\`: ${what}`) });
  switch (program) {
    case 'npm':
    case 'pnpm':
    case 'yarn':
    case 'bun':
    case 'npx':
    case 'pnpx':
    case 'bunx':
      await packageScriptReads(reads, program, args, place, addCommandReads);
      return;
    case 'node':
    case 'nodejs': {
      // `node --run lint` (Node 22) runs a package.json script.
      const run = args.indexOf('--run');
      const name = args[run + 1];
      if (run >= 0 && name !== undefined) {
        if (name === null) unsure('a script name an expansion decides');
        else await packageScriptReads(reads, 'npm', ['run', name], place, addCommandReads);
      }
      return;
    }
    case 'make':
    case 'gmake': {
      const read = readOptions(args, MAKE_OPTIONS);
      if (read.unsure !== null) unsure(read.unsure);
      // `-C a -C b` runs in a/b; a `-f` file is named from there.
      let dir = cwd;
      for (const folder of valuesOf(read, ['-C', '--directory'])) dir = pathOfWord(folder, dir, place.home);
      const named = valuesOf(read, ['-f', '--file', '--makefile']).map((file) =>
        pathOfWord(file, dir, place.home),
      );
      // Every default name: one a command adds may come before the one there is (GNUmakefile first).
      const makefiles =
        named.length > 0 ? named : ['GNUmakefile', 'makefile', 'Makefile'].map((name) => join(dir, name));
      reads.files.push(...makefiles);
      // What they include runs as they do (`include mk/rules.mk`).
      const includeDirs = valuesOf(read, ['-I', '--include-dir']).map((folder) =>
        pathOfWord(folder, dir, place.home),
      );
      const included = makeIncludes(makefiles, dir, includeDirs);
      reads.files.push(...included.files);
      if (included.unsure !== null) unsure(included.unsure);
      return;
    }
    case 'just':
      addNamedOrDefault(reads, textArgs(args), ['-f', '--justfile'], cwd, [
        'justfile',
        'Justfile',
        '.justfile',
      ]);
      return;
    case 'rake':
      addNamedOrDefault(reads, textArgs(args), ['-f', '--rakefile'], cwd, [
        'Rakefile',
        'rakefile',
        'Rakefile.rb',
        'rakefile.rb',
      ]);
      // Rake loads every rakelib/*.rake too.
      if (statSync(join(cwd, 'rakelib'), { throwIfNoEntry: false })?.isDirectory()) {
        reads.folders.push(join(cwd, 'rakelib'));
      }
      return;
    case 'uv':
    case 'poetry': {
      const global = readOptions(args, UV_OPTIONS);
      if (global.operands[0] !== 'run') {
        if (global.unsure !== null) unsure(global.unsure);
        return;
      }
      const run = readOptions(global.rest, UV_OPTIONS);
      if (run.unsure !== null) unsure(run.unsure);
      // `uv run --directory DIR`, `uv --project DIR run`, `poetry -C DIR run`: the project's folder.
      const dir = [
        ...valuesOf(global, ['--directory', '--project', '-C', '-P']),
        ...valuesOf(run, ['--directory', '--project', '-C', '-P']),
      ].pop();
      const project = dir === undefined ? cwd : pathOfWord(dir, cwd, place.home);
      reads.files.push(
        join(project, 'pyproject.toml'),
        join(project, program === 'uv' ? 'uv.lock' : 'poetry.lock'),
      );
      // uv syncs the project's .venv and runs from it; poetry does where the project keeps one.
      if (program === 'uv' || existsSync(join(project, '.venv'))) {
        reads.notHeld.push({
          tree: join(project, '.venv'),
          why: `\`${program} run\` runs programs from the project's virtual environment (.venv)`,
        });
      }
      const [inner, ...innerArgs]: (string | null)[] = [...run.operands, ...run.rest];
      if (inner !== undefined && inner !== null)
        await addLauncherReads(reads, inner, innerArgs, { ...place, cwd: project });
      return;
    }
    case 'cargo':
      // Cargo.toml alone holds nothing: `cargo run` builds src/ and build.rs, which the model edits.
      if (textArgs(args).filter((arg) => !arg.startsWith('-'))[0] === 'run') {
        reads.notHeld.push({
          tree: cwd,
          why: "`cargo run` builds and runs the project's source (Cargo.toml, build.rs, src/)",
        });
      }
      return;
    case 'go': {
      // `go run pkg@version` builds a module from the proxy, not the project.
      const operands = textArgs(args).filter((arg) => !arg.startsWith('-'));
      if (operands[0] === 'run' && !operands.slice(1).some((operand) => operand.includes('@'))) {
        reads.notHeld.push({ tree: cwd, why: "`go run` builds and runs the project's source" });
      }
      return;
    }
    default:
      if (!PYTHON.test(program)) return;
      {
        const read = readOptions(args, PYTHON_OPTIONS);
        if (read.unsure !== null) unsure(read.unsure);
        // `.venv/bin/python`: the environment's site-packages runs at start (.pth files) and is imported from.
        if (!read.options.some(({ name }) => name === '-S')) {
          if (programWord.includes('/'))
            venvInterpreterReads(reads, pathOfWord(programWord, cwd, place.home));
          // A bare name the line's PATH finds first in an environment (`source .venv/bin/activate`).
          else
            for (const bin of place.pathBins ?? [])
              if (existsSync(join(bin, programWord))) venvInterpreterReads(reads, join(bin, programWord));
        }
        const module = valuesOf(read, ['-m'])[0];
        if (module !== undefined && read.options[read.options.length - 1]?.name === '-m')
          addPythonModuleReads(reads, module, cwd);
      }
  }
}

/** The words as given, an expansion's as its text: for launchers read by name alone. */
function textArgs(args: readonly (string | null)[]): string[] {
  return args.map((arg) => arg ?? '');
}

/**
 * `python -m X.Y`: Python puts its working folder first on the import path, and runs X/ (a package,
 * found before a module) or X.py from there. Both are held; X/ made empty where only X.py exists, so
 * a command cannot add a package that would run in its place. What the module imports in turn from
 * the working folder is not: said at start.
 */
function addPythonModuleReads(reads: LauncherReads, module: string, cwd: string): void {
  const top = module.split('.')[0]!;
  const file = join(cwd, `${top}.py`);
  const folder = join(cwd, top);
  reads.files.push(file);
  if (existsSync(file) || lstatSync(folder, { throwIfNoEntry: false }) !== undefined)
    reads.folders.push(folder);
  reads.notHeld.push({
    tree: cwd,
    why: `\`python -m ${module}\` puts its working folder first on the import path, so a module a command adds there runs in place of one it imports`,
    heldBelowRoot: true,
  });
}

/** The files a `-f FILE` option names (each, `--file=FILE` too), or else the default names in `dir`. */
function addNamedOrDefault(
  reads: LauncherReads,
  args: string[],
  options: readonly string[],
  dir: string,
  defaults: readonly string[],
): void {
  const named: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const [option, value] = arg.includes('=')
      ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
      : [arg, undefined];
    if (!options.includes(option!)) continue;
    const file = value ?? args[++i];
    if (file !== undefined) named.push(pathOfWord(file, dir, dir));
  }
  // Every default name: one a command adds may come before the one there is (GNUmakefile first).
  reads.files.push(...(named.length > 0 ? named : defaults.map((name) => join(dir, name))));
}
