import type { ShellWord } from './shell-words.js';
import { basename, unwrap } from './shell-wrappers.js';
import { readWrapperOptions, WRAPPERS } from './wrapper-options.js';

/** Commands with an option that sets the folder their words resolve in (`git -C dir`, `tar --directory=dir`). */
const DIRECTORY_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  git: ['-C'],
  make: ['-C', '--directory'],
  gmake: ['-C', '--directory'],
  tar: ['-C', '--directory'],
};

/**
 * Wrappers' options that set the folder the command they run starts in (`sudo -D DIR`, `nsenter
 * --wd=DIR`, `unshare -w DIR`, `systemd-run --working-directory=DIR`, `env -C DIR`), read as the
 * wrapper reads its options (clusters, abbreviations: `env -iC DIR`, `env --chd DIR`).
 */
const WRAPPER_FOLDER_FLAGS: Readonly<Record<string, readonly string[]>> = {
  env: ['-C', '--chdir'],
  sudo: ['-D', '--chdir'],
  nsenter: ['-w', '--wd'],
  unshare: ['-w', '--wd'],
  'systemd-run': ['--working-directory'],
};

/**
 * The folder a wrapper's own options move the command it runs to (`sudo -D DIR`, `env -iC DIR`),
 * from its words (`words[0]` the wrapper), read as the wrapper reads them. Each of these wrappers
 * keeps the last such option (`env -C a -C b` runs in b, not a/b). Null when that value is not
 * literal (an expansion decides it); undefined when the program is no such wrapper or sets none.
 * The policy (below) and the reading of what a hook's launcher runs (app/launch-commands.ts) ask this.
 */
export function wrapperFolder(
  program: string,
  words: readonly { readonly value: string | null }[],
): string | null | undefined {
  const flags = WRAPPER_FOLDER_FLAGS[program];
  if (flags === undefined) return undefined;
  let folder: string | null | undefined;
  readWrapperOptions(program, words, 1, (option) => {
    if (flags.includes(option.flag)) folder = option.value;
    return false;
  });
  return folder;
}

/**
 * The folders a part's options move it to, in order (each relative to the one before), from its
 * command name at `at`: a wrapper's folder option, then what it runs (`timeout 5 env -C DIR CMD`,
 * `sudo -D DIR git -C SUB …`), then a command's own `-C dir`. Empty for most commands.
 */
export function folderOptionValues(words: readonly string[], at: number): string[] {
  const name = basename(words[at] ?? '');
  if (WRAPPERS[name] === undefined) {
    const options = DIRECTORY_OPTIONS[name];
    return options === undefined ? [] : directoryValues(words, at, options);
  }
  // Most wrapped commands have no option that could move a folder (`sudo -u root …`, `timeout 5 …`):
  // told by their words alone, with nothing unwrapped (a decision per Shell call asks this).
  if (!hasFolderOption(words, at)) return [];
  // A wrapper: each command it runs, wrappers removed one by one, with the options of each.
  const stages = unwrap(words.slice(at).map(asWord)).stages;
  const dirs: string[] = [];
  for (let s = 0; s < stages.length; s++) {
    const stage = stages[s]!;
    const program = basename(stage[0]?.value ?? '');
    const own = s + 1 < stages.length ? stage.slice(0, stage.length - stages[s + 1]!.length) : stage;
    if (WRAPPER_FOLDER_FLAGS[program] !== undefined) {
      const folder = wrapperFolder(program, own);
      if (typeof folder === 'string') dirs.push(folder);
    } else if (s === stages.length - 1) {
      const options = DIRECTORY_OPTIONS[program];
      if (options !== undefined)
        dirs.push(
          ...directoryValues(
            stage.map((word) => word.value ?? ''),
            0,
            options,
          ),
        );
    }
  }
  return dirs;
}

/** The values of a command's own folder options (`-C dir`, `-Cdir`, `--directory=dir`), in order. */
function directoryValues(words: readonly string[], at: number, options: readonly string[]): string[] {
  const dirs: string[] = [];
  for (let i = at + 1; i < words.length; i++) {
    const word = words[i]!;
    for (const option of options) {
      if (word === option && i + 1 < words.length) dirs.push(words[++i]!);
      else if (word.startsWith(option) && option.startsWith('--') && word[option.length] === '=')
        dirs.push(word.slice(option.length + 1));
      else if (word.startsWith(option) && !option.startsWith('--') && word.length > option.length)
        dirs.push(word.slice(option.length));
    }
  }
  return dirs;
}

/**
 * An option word that might be a folder option of a wrapper or command above: a short cluster with
 * C, D or w in it (`-iC`, `-D`, `-w`), a long option that may abbreviate --chdir, --wd,
 * --working-directory or --directory.
 */
const MAY_MOVE_FOLDER = /^-[^-]*[CDw]|^--[cwd]/;

function hasFolderOption(words: readonly string[], at: number): boolean {
  for (let i = at + 1; i < words.length; i++) {
    const word = words[i]!;
    if (word.startsWith('-') && MAY_MOVE_FOLDER.test(word)) return true;
  }
  return false;
}

/** A word the secret check split (quotes removed) as the wrappers' reader takes it. */
function asWord(value: string): ShellWord {
  return { value, text: value, splits: false };
}
