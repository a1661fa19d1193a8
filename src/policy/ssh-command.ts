import type { ShellWord } from './shell-words.js';
import { joined, options, skipOptions, type ToolRun, unreadRun } from './tool-run.js';

const SSH = options([], [], 'BbcDEeFIiJLlmOoPpQRSWw', '46AaCfGgKkMNnqsTtVvXxYy');
/** ssh_config keys whose value is a command ssh runs here (ProxyCommand, LocalCommand…). */
const LOCAL_COMMAND = /^\s*(?:proxycommand|localcommand|knownhostscommand)\s*[=\s]\s*(.*)$/is;

/** `ssh [options] HOST [CMD …]`: CMD's words joined are a command line the remote shell runs. */
export function sshRun(args: readonly ShellWord[]): ToolRun {
  const why = 'ssh runs a command line on another host';
  const lines: (string | null)[] = [];
  let unread = false;
  let host = false;
  let i = 0;
  for (;;) {
    const at = i;
    i = skipOptions(args, i, SSH);
    if (i === -1) return unreadRun(why);
    // `-o ProxyCommand=…` runs a command here; `-F FILE` reads settings nobody reads here.
    for (let k = at; k < i; k++) {
      const value = args[k]!.value ?? '';
      if (/^-[A-Za-z]*F/.test(value)) unread = true;
      const setting =
        value === '-o' ? args[k + 1]?.value : value.startsWith('-o') ? value.slice(2) : undefined;
      const command = setting ? LOCAL_COMMAND.exec(setting)?.[1] : undefined;
      if (command !== undefined) lines.push(command);
    }
    if (host || i >= args.length) break;
    host = true;
    i++;
    // OpenSSH reads options after the host too, up to the command.
    if (!args[i]?.value?.startsWith('-')) break;
  }
  const command = args.slice(i);
  if (command.length > 0) lines.push(joined(command));
  // No command: the remote shell may read its commands from ssh's input (unless -N asks for none),
  // which is not read here (`ssh -T git@host` only greets: asked, not denied, under a deny rule).
  if (command.length === 0 && !args.some((word) => /^-[A-Za-z]*N/.test(word.value ?? ''))) unread = true;
  return { why, words: null, lines, unread, readsInput: false };
}
