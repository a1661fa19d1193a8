import { dirname } from 'node:path';
import { wrapperFolder } from '../policy/folder-options.js';
import { parseShellCommand, parseShellCommandNow } from '../policy/shell-command.js';
import { CODE_WORD, type ShellWord } from '../policy/shell-words.js';
import { basename, unwrap } from '../policy/shell-wrappers.js';
import { pathOfWord } from './files-named-by-words.js';

/**
 * The commands a hook's command line or an MCP server's command runs, each with the folder it runs
 * in, read as the policy reads a Shell command (shell-command.ts, shell-wrappers.ts): every part
 * (after `&&`, `;`, `|`, in a subshell, in the string of `bash -c`), each wrapper looked through
 * (`timeout 60 npm test` runs `npm test`), a `cd` followed. As the policy does (command-scope.ts),
 * order is not followed (a subshell's `cd` ends with it, a failed `cd` leaves the folder as it was):
 * every command may run in the working folder and in every folder a `cd` leads to.
 */
export interface LaunchCommand {
  /** Its words after quote removal; null where an expansion decides the word. */
  readonly words: readonly (string | null)[];
  readonly cwd: string;
  /** Folders its command line puts on PATH (a virtual environment activated): where a bare name may be found. */
  readonly pathBins?: readonly string[];
}

/** What cannot be read surely (a program or `cd` an expansion decides): said at start. */
export interface LaunchUnsure {
  readonly cwd: string;
  readonly why: string;
}

export interface LaunchReading {
  readonly commands: LaunchCommand[];
  readonly unsure: LaunchUnsure[];
}

/** Past this many folders (`cd` after `cd`), the command is not followed further. */
const MAX_FOLDERS = 16;
const CHANGES_FOLDER = new Set(['cd', 'pushd']);

/** A shell command line (a hook's command, a package.json script), run by `sh -c` in `cwd`. */
export async function commandLineLaunches(
  command: string,
  cwd: string,
  home: string,
): Promise<LaunchReading> {
  const reading: LaunchReading = { commands: [], unsure: [] };
  await addCommandLine(reading, command, cwd, home);
  return reading;
}

/** A command run without a shell (an MCP server's `command` and `args`), in `cwd`. */
export async function execLaunches(
  words: readonly string[],
  cwd: string,
  home: string,
): Promise<LaunchReading> {
  const reading: LaunchReading = { commands: [], unsure: [] };
  const nested = addStages(
    reading,
    words.map((value) => ({ value, text: value, splits: false })),
    cwd,
    home,
  );
  // Its `bash -c` strings: read whole by the parser, theirs in turn too.
  for (const { code, at } of nested) await addCommandLine(reading, code, at, home);
  return reading;
}

async function addCommandLine(
  reading: LaunchReading,
  command: string,
  cwd: string,
  home: string,
): Promise<void> {
  const parsed = parseShellCommandNow(command) ?? (await parseShellCommand(command));
  if (parsed.incomplete) {
    reading.unsure.push({
      cwd,
      why: `its command \`${command}\` does not read whole as a shell command line`,
    });
  }
  // The parts, each as written (its first invocation): `bash -c` strings are parts of their own.
  const parts = parsed.analysed.map((part) => part.invocations[0] ?? []).filter((words) => words.length > 0);
  const folders = [cwd];
  for (const words of parts) {
    const at = words[0]?.value === 'builtin' || words[0]?.value === 'command' ? 1 : 0;
    if (!CHANGES_FOLDER.has(words[at]?.value ?? '')) continue;
    const word = words.slice(at + 1).find((one) => one.value === null || !/^-[LPe@]*$/.test(one.value));
    const target = word === undefined ? home : (word.value ?? homeFolder(word.text, home));
    if (target === null) {
      reading.unsure.push({
        cwd,
        why: `\`${words.map((word) => word.text).join(' ')}\` changes to a folder an expansion decides`,
      });
      continue;
    }
    for (const folder of [...folders]) {
      const next = pathOfWord(target, folder, home);
      if (!folders.includes(next)) folders.push(next);
    }
    if (folders.length > MAX_FOLDERS) {
      reading.unsure.push({ cwd, why: 'its command changes folders more often than kimi-ts follows' });
      folders.length = MAX_FOLDERS;
    }
  }
  // A `bash -c` string of the line is parts of it already (the parser reads it as the policy does).
  const from = reading.commands.length;
  for (const words of parts) for (const folder of folders) addStages(reading, words, folder, home);
  const bins = pathBinsOf(parsed.analysed, folders, home);
  if (bins.length > 0)
    for (let i = from; i < reading.commands.length; i++)
      reading.commands[i] = { ...reading.commands[i]!, pathBins: bins };
}

/** `PATH=A:B:$PATH` (before a command, alone, or exported): its literal entries. */
const PATH_ASSIGNMENT = /(?:^|[\s;(])PATH=(["']?)([^\s"';)]*)\1/g;

/**
 * The folders a command line puts on PATH, from each folder it may run in: a virtual environment's
 * `source DIR/bin/activate` (`.` too) puts DIR/bin first, as `PATH=DIR/bin:$PATH` does. Order is not
 * followed, as for `cd`: a bare `python` anywhere on the line may be that environment's.
 */
function pathBinsOf(
  analysed: readonly { readonly text: string; readonly invocations: readonly (readonly ShellWord[])[] }[],
  folders: readonly string[],
  home: string,
): string[] {
  const named: string[] = [];
  for (const part of analysed) {
    const words = part.invocations[0] ?? [];
    const script = words[1]?.value;
    if ((words[0]?.value === 'source' || words[0]?.value === '.') && script?.endsWith('/activate'))
      named.push(dirname(script));
    if (!part.text.includes('PATH=')) continue;
    for (const found of part.text.matchAll(PATH_ASSIGNMENT))
      named.push(...found[2]!.split(':').filter((entry) => entry !== '' && !entry.includes('$')));
  }
  const bins: string[] = [];
  for (const name of named)
    for (const folder of folders) {
      const bin = pathOfWord(name, folder, home);
      if (!bins.includes(bin)) bins.push(bin);
    }
  return bins;
}

/**
 * Each stage of a command once its wrappers are removed (`timeout 60 npm test`, then `npm test`), in
 * the folder a wrapper's option leads to (`env -C DIR`, `sudo -D DIR`: policy/folder-options.ts); the command lines it gives a shell, with their folder.
 */
function addStages(
  reading: LaunchReading,
  words: readonly ShellWord[],
  cwd: string,
  home: string,
): { code: string; at: string }[] {
  const unwrapped = unwrap(words);
  let at = cwd;
  for (const stage of unwrapped.stages) {
    const first = stage[0];
    if (first === undefined || first === CODE_WORD) continue;
    if (first.value === null) {
      reading.unsure.push({ cwd: at, why: `\`${first.text}\`, a program an expansion decides, runs` });
      continue;
    }
    reading.commands.push({ words: stage.map((word) => word.value), cwd: at });
    const program = basename(first.value);
    const folder = wrapperFolder(program, stage);
    if (folder === null)
      reading.unsure.push({ cwd: at, why: `\`${program}\` changes to a folder an expansion decides` });
    else if (folder !== undefined) at = pathOfWord(folder, at, home);
  }
  return unwrapped.nested.map((code) => ({ code, at }));
}

/** `~` and `~/a/b` written plainly: the home folder and below it; null for any other expansion. */
function homeFolder(text: string, home: string): string | null {
  if (text === '~') return home;
  return /^~\/[A-Za-z0-9._/-]*$/.test(text) ? `${home}${text.slice(1)}` : null;
}
