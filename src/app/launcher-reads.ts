import { existsSync, lstatSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { splitWords } from '../policy/command-secret-paths.js';
import { pathOfWord } from './files-named-by-words.js';
import type { LauncherReads, LaunchPlace } from './launcher-read-types.js';
import { packageScriptReads } from './package-script-reads.js';
import { simpleCommands } from './script-words.js';

/** The files, folders and trees the launchers of a command's words (split, quotes removed) read. */
export function launcherReads(words: readonly string[], cwd: string, home: string): LauncherReads {
  const reads: LauncherReads = { files: [], folders: [], notHeld: [] };
  addCommandReads(reads, words, { cwd, home, depth: 0 });
  return {
    files: [...new Set(reads.files)],
    folders: [...new Set(reads.folders)],
    notHeld: reads.notHeld.filter(
      (one, i) => reads.notHeld.findIndex((other) => other.tree === one.tree) === i,
    ),
  };
}

/** A hook's command text: its launchers' reads, run in `cwd`. */
export function launcherReadsOfCommand(command: string, cwd: string, home: string): LauncherReads {
  return launcherReads(splitWords(command), cwd, home);
}

/** Adds what each simple command of `words` reads to `reads`. */
export function addCommandReads(reads: LauncherReads, words: readonly string[], place: LaunchPlace): void {
  for (const [program, ...args] of simpleCommands(words)) {
    if (program !== undefined) addLauncherReads(reads, basename(program), args, place);
  }
}

const PYTHON = /^(python|pypy)[0-9.]*$/;

function addLauncherReads(reads: LauncherReads, program: string, args: string[], place: LaunchPlace): void {
  const { cwd } = place;
  const operands = args.filter((arg) => !arg.startsWith('-'));
  switch (program) {
    case 'npm':
    case 'pnpm':
    case 'yarn':
    case 'bun':
    case 'npx':
    case 'pnpx':
    case 'bunx':
      packageScriptReads(reads, program, args, place, addCommandReads);
      return;
    case 'node':
    case 'nodejs': {
      // `node --run lint` (Node 22) runs a package.json script.
      const run = args.indexOf('--run');
      if (run >= 0 && args[run + 1] !== undefined)
        packageScriptReads(reads, 'npm', ['run', args[run + 1]!], place, addCommandReads);
      return;
    }
    case 'make':
    case 'gmake':
      addNamedOrDefault(reads, args, ['-f', '--file', '--makefile'], makeFolder(args, cwd), [
        'GNUmakefile',
        'makefile',
        'Makefile',
      ]);
      return;
    case 'just':
      addNamedOrDefault(reads, args, ['-f', '--justfile'], cwd, ['justfile', 'Justfile', '.justfile']);
      return;
    case 'rake':
      addNamedOrDefault(reads, args, ['-f', '--rakefile'], cwd, [
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
      const run = args.indexOf('run');
      if (operands[0] !== 'run' || run < 0) return;
      // `uv run --directory DIR`, `uv run --project DIR`, `poetry -C DIR run`: the project's folder.
      const dir = optionValue(args, ['--directory', '--project', '-C', '-P']);
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
      const rest = args.slice(run + 1);
      addCommandReads(reads, rest.slice(programAt(rest)), { ...place, cwd: project });
      return;
    }
    case 'cargo':
      // Cargo.toml alone holds nothing: `cargo run` builds src/ and build.rs, which the model edits.
      if (operands[0] === 'run') {
        reads.notHeld.push({
          tree: cwd,
          why: "`cargo run` builds and runs the project's source (Cargo.toml, build.rs, src/)",
        });
      }
      return;
    case 'go':
      // `go run pkg@version` builds a module from the proxy, not the project.
      if (operands[0] === 'run' && !operands.slice(1).some((operand) => operand.includes('@'))) {
        reads.notHeld.push({ tree: cwd, why: "`go run` builds and runs the project's source" });
      }
      return;
    default:
      if (PYTHON.test(program)) addPythonModuleReads(reads, args, cwd);
  }
}

/**
 * `python -m X.Y`: Python puts its working folder first on the import path, and runs X/ (a package,
 * found before a module) or X.py from there. Both are held; X/ made empty where only X.py exists, so
 * a command cannot add a package that would run in its place. What the module imports in turn from
 * the working folder is not: said at start.
 */
function addPythonModuleReads(reads: LauncherReads, args: string[], cwd: string): void {
  let module: string | undefined;
  for (let i = 0; i < args.length && module === undefined; i++) {
    const arg = args[i]!;
    if (arg === '-m') module = args[i + 1];
    else if (/^-m./.test(arg)) module = arg.slice(2);
    // The script or `-c` code comes first: no module.
    else if (!arg.startsWith('-') || arg === '-c') return;
  }
  if (module === undefined) return;
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

/** The folder `make -C DIR` runs in. */
function makeFolder(args: string[], cwd: string): string {
  const at = args.indexOf('-C');
  return at >= 0 && args[at + 1] !== undefined ? pathOfWord(args[at + 1]!, cwd, cwd) : cwd;
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

/** The value of the first of `options` given (`--directory DIR`, `--directory=DIR`). */
function optionValue(args: readonly string[], options: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (options.includes(arg)) return args[i + 1];
    const eq = arg.indexOf('=');
    if (eq > 0 && options.includes(arg.slice(0, eq))) return arg.slice(eq + 1);
  }
  return undefined;
}

/** Options of `uv run` that take a value: the word after each is not the program. */
const RUN_OPTION_WITH_VALUE = new Set([
  '--directory',
  '--project',
  '--with',
  '--python',
  '-p',
  '--package',
  '--extra',
  '--group',
  '--env-file',
  '--index',
  '-C',
  '-P',
]);

/** Where the program of `uv run …`'s words starts: past its options and their values. */
function programAt(words: readonly string[]): number {
  let i = 0;
  while (i < words.length && words[i]!.startsWith('-')) i += RUN_OPTION_WITH_VALUE.has(words[i]!) ? 2 : 1;
  return i;
}
