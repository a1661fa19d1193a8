import type { ShellWord } from './shell-words.js';
import { joined, options, skipOptions, type ToolRun, unreadRun } from './tool-run.js';

const SSH = options([], [], 'BbcDEeFIiJLlmOoPpQRSWw', '46AaCfGgKkMNnqsTtVvXxYy');
/** An `-o` option, perhaps after flags, with its setting attached or not. */
const SETTING_OPTION = /^-[46AaCfGgKkMNnqsTtVvXxYy]*o(.*)$/s;
/**
 * ssh_config keys whose value is a command line: run here (ProxyCommand, LocalCommand,
 * KnownHostsCommand) or by the remote shell (RemoteCommand). ssh reads a key in quotes too.
 */
const COMMAND_SETTING =
  /^\s*("?)(?:proxycommand|localcommand|knownhostscommand|remotecommand)\1\s*[=\s]\s*(.*)$/is;

/** The command line an `-o` setting runs (`ProxyCommand=…`); undefined for any other setting. */
export function settingCommand(setting: string): string | undefined {
  return COMMAND_SETTING.exec(setting)?.[2];
}

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
      // `-o X`, `-oX`, and after flags (`-vo X`).
      const option = SETTING_OPTION.exec(value);
      const setting = option === null ? undefined : option[1] || args[k + 1]?.value;
      // `-o "$x"`: a setting an expansion decides may be a ProxyCommand.
      if (setting === null) unread = true;
      const command = setting ? settingCommand(setting) : undefined;
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
