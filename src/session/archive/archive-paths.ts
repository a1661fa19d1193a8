/**
 * Which files of a session folder travel in a session archive (`kimi-ts export --zip`), and which
 * entry names an imported archive may have. One allow-list for both directions: what the session's
 * own recorders wrote (and redacted). Left out on purpose: the lock, background tasks' raw output
 * (`tasks/`), MCP outputs, notifications — raw tool output the wire does not redact.
 */

/** The archive's description of itself, always its first entry. */
export const MANIFEST_NAME = 'manifest.json';

const SESSION_FILE = /^(?:wire\.jsonl|state\.json|checkpoints\.jsonl|context(?:_\d{1,6})?\.jsonl)$/;
const SUBAGENT_FILE = /^(?:meta\.json|wire\.jsonl|state\.json|context(?:_\d{1,6})?\.jsonl)$/;
const AGENT_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** Whether `path` (forward slashes, relative to the session folder) is a file an archive carries. */
export function isArchivedSessionPath(path: string): boolean {
  const parts = path.split('/');
  if (parts.length === 1) return SESSION_FILE.test(parts[0]!);
  if (parts.length === 3 && parts[0] === 'subagents') {
    const [, agent, file] = parts as [string, string, string];
    return AGENT_ID.test(agent) && !agent.includes('..') && SUBAGENT_FILE.test(file);
  }
  return false;
}

/** Why an entry name is unsafe to extract anywhere, or null when it is a plain relative path. */
export function unsafeEntryName(name: string): string | null {
  if (name.length === 0) return 'an empty name';
  if (name.length > 512) return 'a name longer than 512 characters';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it looks for.
  if (/[\u0000-\u001f\u007f-\u009f]/.test(name)) return 'a control character in its name';
  if (name.includes('\\')) return 'a backslash in its name';
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) return 'an absolute path';
  const parts = name.replace(/\/$/, '').split('/');
  if (parts.some((part) => part === '..')) return 'a ".." in its path';
  if (parts.some((part) => part === '' || part === '.')) return 'an empty or "." part in its path';
  return null;
}

/** An entry name as it may appear in a message: printable, short, quoted. */
export function shownEntryName(name: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are replaced.
  const printable = name.replace(/[\u0000-\u001f\u007f-\u009f]/g, '?');
  return JSON.stringify(printable.length > 80 ? `${printable.slice(0, 77)}...` : printable);
}
