import { Allow, parse as parsePartialJson } from 'partial-json';

/** The argument that best says what a call does, per built-in tool; `null` means show nothing. */
const KEY_FIELDS: Readonly<Record<string, string | null>> = {
  Agent: 'description',
  Shell: 'command',
  ReadFile: 'path',
  ReadMediaFile: 'path',
  WriteFile: 'path',
  StrReplaceFile: 'path',
  Glob: 'pattern',
  Grep: 'pattern',
  SearchWeb: 'query',
  FetchURL: 'url',
  Think: 'thought',
  TaskOutput: 'task_id',
  TaskStop: 'task_id',
  WaitFor: 'task_id',
  CronCreate: 'cron',
  CronDelete: 'id',
  CronList: null,
  SendDMail: null,
  SetTodoList: null,
};

const PATH_FIELDS = new Set(['path']);

export const KEY_ARGUMENT_WIDTH = 50;

/**
 * The one-line summary every front end shows next to a tool call (the TUI, the shell, print mode,
 * ACP, the web page, vis): "the key argument", declared once. Browser-safe. Works on arguments that are still streaming
 * (incomplete JSON is completed as far as it goes). Paths inside `workDir` are shown relative to it;
 * the text is shortened in the middle to 50 characters. Unknown tools show their raw arguments;
 * unreadable or empty arguments give null.
 */
export function extractKeyArgument(
  toolName: string,
  argumentsJson: string | null,
  workDir: string,
): string | null {
  if (argumentsJson == null || argumentsJson.trim() === '') return null;
  let args: unknown;
  try {
    args = parsePartialJson(argumentsJson, Allow.ALL);
  } catch {
    return null;
  }
  if (toolName === 'TaskList') {
    if (!isRecord(args)) return null;
    return args.active_only === false ? 'all' : 'active';
  }
  if (!(toolName in KEY_FIELDS)) return shortenMiddle(argumentsJson.trim(), KEY_ARGUMENT_WIDTH);
  const field = KEY_FIELDS[toolName];
  if (!field || !isRecord(args)) return null;
  const value = args[field];
  if (value === undefined || value === null || value === '') return null;
  let text = typeof value === 'string' ? value : JSON.stringify(value);
  if (PATH_FIELDS.has(field)) text = relativeToWorkDir(text, workDir);
  return shortenMiddle(text, KEY_ARGUMENT_WIDTH);
}

/** Cuts the middle out of a long text, keeping both ends: `"src/very/lo…/file.ts"`. Newlines become spaces. */
export function shortenMiddle(text: string, width: number): string {
  const flat = text.replace(/\s*\n\s*/g, ' ');
  const chars = [...flat];
  if (chars.length <= width) return flat;
  const keep = width - 1;
  const head = Math.ceil(keep / 2);
  return `${chars.slice(0, head).join('')}…${chars.slice(chars.length - (keep - head)).join('')}`;
}

/** `path` relative to `workDir` when inside it (no `node:path`: the web page runs this too). */
function relativeToWorkDir(path: string, workDir: string): string {
  const sep = workDir.includes('/') || !workDir.includes('\\') ? '/' : '\\';
  const base = workDir.endsWith(sep) ? workDir.slice(0, -1) : workDir;
  if (path === base) return '.';
  return base && path.startsWith(base + sep) ? path.slice(base.length + 1) : path;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
