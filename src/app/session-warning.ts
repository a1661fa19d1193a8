import { heldBackLines } from '../util/held-back-lines.js';

/**
 * Something a session met that does not stop it, for the front end to report (the CLI prints the
 * text on stderr). The app itself never writes to a terminal.
 */
export type SessionWarning =
  | { kind: 'skills-unreadable'; message: string }
  | { kind: 'context-file-refused'; file: string; reason: string }
  | { kind: 'project-approval-not-saved'; message: string }
  | { kind: 'background-task-error'; message: string }
  | { kind: 'background-tasks-stopped'; tasks: readonly { id: string; description: string }[] }
  | { kind: 'mcp-server-problem'; server: string; message: string }
  | { kind: 'plugin-tool-skipped'; plugin: string; tool: string }
  | { kind: 'checkpoints-failed'; message: string }
  | { kind: 'sandbox-unavailable'; message: string }
  | { kind: 'sandbox-secret-walk-bound'; message: string }
  | { kind: 'trust-record-unreadable'; message: string }
  | {
      kind: 'workspace-untrusted';
      folder: string;
      /** The summary (`2 allow rules in …`), and each allow rule as written (held-back-rules.ts). */
      held: readonly string[];
      allowRules: readonly string[];
      trustedParent: string | null;
    }
  | { kind: 'install-in-workspace'; install: string; folder: string }
  | { kind: 'agent-code-in-workspace'; file: string; folder: string }
  | { kind: 'loaded-through-symlink'; file: string; link: string; real: string }
  | { kind: 'launcher-not-held'; starter: string; tree: string; why: string }
  | { kind: 'launcher-file-held'; starter: string; file: string }
  | { kind: 'hook-skipped'; message: string }
  | { kind: 'held-hard-links'; files: readonly string[] };

export type WarningSink = (warning: SessionWarning) => void;

/** The warning as one or more lines of text, each ending in a newline. */
export function describeSessionWarning(warning: SessionWarning): string {
  switch (warning.kind) {
    case 'skills-unreadable':
      return `Skills could not be loaded: ${warning.message}\n`;
    case 'context-file-refused':
      return `${warning.file} is not read into the model's context: ${warning.reason}.\n`;
    case 'project-approval-not-saved':
      return `Could not save the project approval: ${warning.message}\n`;
    case 'background-task-error':
      return `background tasks: ${warning.message}\n`;
    case 'background-tasks-stopped': {
      const lines = warning.tasks.map((task) => `  ${task.id}: ${task.description}`).join('\n');
      return `Stopped ${warning.tasks.length} background task(s) at exit:\n${lines}\n`;
    }
    case 'mcp-server-problem':
      return `MCP server ${warning.server}: ${warning.message}\n`;
    case 'plugin-tool-skipped':
      return `Plugin ${warning.plugin}: tool ${warning.tool} is not added; a tool of that name exists.\n`;
    case 'checkpoints-failed':
    case 'sandbox-unavailable':
    case 'sandbox-secret-walk-bound':
    case 'hook-skipped':
      return `${warning.message}\n`;
    case 'trust-record-unreadable':
      return `${warning.message}\n`;
    case 'install-in-workspace':
      return `kimi-ts runs from ${warning.install}, inside the folder ${warning.folder} that commands may write, and the sandbox is not on: a command the model runs could change the code kimi-ts loads later in its own process. Turn the sandbox on, or install kimi-ts outside the workspace (npm i -g kimi-ts), when you work on code you do not trust.\n`;
    case 'agent-code-in-workspace':
      return `${warning.file}, which kimi-ts loads or runs outside any sandbox (the agent spec and the tool code it names, a hook's or an MCP server's script), lies inside the folder ${warning.folder} that commands may write, and the sandbox is not on: a command the model runs could change it. Turn the sandbox on, or keep such files outside the workspace, when you work on code you do not trust.\n`;
    case 'held-hard-links':
      return `kimi-ts gave ${warning.files.length === 1 ? 'this file' : 'these files'} a copy of ${warning.files.length === 1 ? 'its' : 'their'} own, same bytes and mode: ${warning.files.join(', ')}. Each was a hard link: another name for it in the workspace, which commands may write, would have changed what the sandbox holds read-only (rules, git hooks and config, scripts that run outside it). The other names keep the old file.\n`;
    case 'loaded-through-symlink':
      return `kimi-ts loads ${warning.file} through the symlink ${warning.link}, which lies in a folder commands may write: a command could replace that link, and the next start with the same path would load what it then leads to, outside any sandbox. Give the real path (${warning.real}) instead.\n`;
    case 'launcher-not-held':
      return `${warning.starter} runs outside any sandbox, and ${warning.why}: ${warning.tree} lies in a folder commands may write, and the sandbox cannot hold it read-only (the model works there), so a command could change what it runs. Point it at code outside the workspace when you work on code you do not trust.\n`;
    case 'launcher-file-held': {
      const example = warning.file.endsWith('/package.json')
        ? ' (`npm install x` writes package.json)'
        : warning.file.endsWith('/site-packages')
          ? ' (`pip install x` writes site-packages)'
          : '';
      return `${warning.file} is read-only for commands in the sandbox: ${warning.starter} reads it and is run with no sandbox, so no command may change what it runs. A command that writes it${example} fails; change it yourself, or run that command with the sandbox off.\n`;
    }
    case 'workspace-untrusted': {
      const parent = warning.trustedParent
        ? ` (the trusted ${warning.trustedParent} above it does not cover a sub-folder's own rules file)`
        : '';
      // Then each rule, revealed and one a line, as the trust question lists them: the person who
      // trusts with --trust-workspace has seen every rule it puts in force.
      const rules = heldBackLines({ enables: [], allowRules: warning.allowRules }).map((line) => `${line}\n`);
      return `The folder ${warning.folder} is not trusted${parent}, so its ${warning.held.join(', ')} are not in force. Trust it with --trust-workspace (or once in the interactive UI).\n${rules.join('')}`;
    }
  }
}

/** The text of an error value, for a warning's `message`. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
