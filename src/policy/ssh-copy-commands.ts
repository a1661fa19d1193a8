import { sshArgvWords, wordsAsLine } from './program-word-splits.js';
import { type ShellWord, UNKNOWN_WORD } from './shell-words.js';
import { settingCommand } from './ssh-command.js';
import type { ToolRun } from './tool-run.js';

/** A program's short options (OpenSSH's getopt: they end at the first operand): letters with a value, and without. */
interface ShortOptions {
  readonly valueLetters: string;
  readonly flagLetters: string;
}

const SCP: ShortOptions = { valueLetters: 'cDFiJloPSX', flagLetters: '346ABCOpqRrTv' };
const SFTP: ShortOptions = { valueLetters: 'BbcDFiJloPRSsX', flagLetters: '46AaCfNpqrv' };

/** Each option's letter with its value (null when an expansion decides it); null when one is not read here. */
function optionsOf(args: readonly ShellWord[], known: ShortOptions): [string, string | null][] | null {
  const found: [string, string | null][] = [];
  for (let i = 0; i < args.length; i++) {
    const value = args[i]!.value;
    if (value === null) return null; // may be any option (`$opts`)
    if (value === '--') break;
    if (!value.startsWith('-') || value === '-') break;
    for (let at = 1; at < value.length; at++) {
      const letter = value[at]!;
      if (known.flagLetters.includes(letter)) continue;
      if (!known.valueLetters.includes(letter)) return null;
      const rest = value.slice(at + 1);
      found.push([letter, rest !== '' ? rest : (args[++i]?.value ?? null)]);
      break;
    }
  }
  return found;
}

/**
 * `scp`/`sftp [options] …`: the programs they start here. `-S PROG` is run in ssh's place with
 * ssh's arguments (a program, no shell: its name as one word, arguments nobody here names);
 * `-o ProxyCommand=…` is a line ssh runs here (RemoteCommand on the other host); `-F FILE` holds
 * settings nobody reads here. sftp's `-D 'SERVER ARGS'` is split by sftp and run here instead of a
 * connection; its `-s` names the server the remote shell runs; its input or batch file (`-b`) may
 * hold `!command` lines a local shell runs: never read here. Null for a copy that runs none of these.
 */
export function sshCopyRun(program: 'scp' | 'sftp', args: readonly ShellWord[]): ToolRun | null {
  const why = `${program} runs a program or command line named in its options`;
  const found = optionsOf(args, program === 'scp' ? SCP : SFTP);
  if (found === null) return { why, words: null, lines: [], unread: true, readsInput: false };
  const lines: (string | null)[] = [];
  let words: ShellWord[] | null = null;
  let unread = program === 'sftp';
  for (const [letter, value] of found) {
    if (letter === 'F') unread = true;
    else if (letter === 'o') {
      if (value === null) unread = true;
      else {
        const command = settingCommand(value);
        if (command !== undefined) lines.push(command);
      }
    } else if (letter === 'S') {
      words = [value === null ? UNKNOWN_WORD : { value, text: value, splits: false }, UNKNOWN_WORD];
    } else if (letter === 'D' && program === 'sftp') {
      const server = value === null ? null : sshArgvWords(value);
      if (value === null || server !== null) lines.push(server === null ? null : wordsAsLine(server, false));
    } else if (letter === 's' && program === 'sftp') lines.push(value);
  }
  if (words === null && lines.length === 0 && !unread) return null;
  return { why, words, lines, unread, readsInput: false };
}
