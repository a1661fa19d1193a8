import { childProcess } from '../../../util/child-process.js';
import {
  type FileHits,
  GrepFailure,
  type GrepRequest,
  type LineHit,
  type SearchLimits,
  type SearchOutcome,
  VCS_DIRECTORIES,
} from './search-types.js';

/** After SIGTERM, ripgrep gets this long before SIGKILL. */
export const KILL_GRACE_MS = 5_000;
/** How much of ripgrep's stderr is kept for an error message. */
const MAX_STDERR_CHARS = 4_000;

/** The command line for a search (without the binary). */
export function ripgrepArgs(request: GrepRequest, singleThread = false): string[] {
  // `--no-config` first: RIPGREP_CONFIG_PATH (inherited from whoever started us, or planted by a
  // command) could otherwise add flags such as `--pre=<program>`, which runs that program per file.
  const args = ['--no-config', '--hidden'];
  for (const dir of VCS_DIRECTORIES) args.push('--glob', `!${dir}`);
  if (request.mode !== 'content') args.push('--max-columns', '500');
  if (singleThread) args.push('-j', '1');
  if (request.ignoreCase) args.push('--ignore-case');
  if (request.multiline) args.push('--multiline', '--multiline-dotall');
  if (request.includeIgnored) args.push('--no-ignore');
  if (request.glob) args.push('--glob', request.glob);
  if (request.fileType) args.push('--type', request.fileType);
  switch (request.mode) {
    case 'files_with_matches':
      args.push('--files-with-matches', '--null');
      break;
    case 'count_matches':
      args.push('--count-matches', '--with-filename', '--null');
      break;
    case 'content':
      args.push(
        '--json',
        '--before-context',
        String(request.before),
        '--after-context',
        String(request.after),
      );
      break;
  }
  args.push('--', request.pattern, request.searchPath);
  return args;
}

interface RunResult {
  stdout: Buffer;
  stderr: string;
  exitCode: number | null;
  timedOut: boolean;
  bufferExceeded: boolean;
}

/**
 * Runs ripgrep, keeping at most `maxOutputBytes` of its output. On the deadline, the output budget
 * or cancellation it is stopped (SIGTERM, then SIGKILL after a grace period) and whatever it wrote
 * so far is returned; on cancellation the promise rejects once the process is gone.
 */
function runRipgrep(rgPath: string, args: string[], cwd: string, limits: SearchLimits): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    limits.signal.throwIfAborted();
    const child = childProcess().spawn(rgPath, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    let bytes = 0;
    let stderr = '';
    let timedOut = false;
    let bufferExceeded = false;
    let graceTimer: NodeJS.Timeout | undefined;
    const stop = (): void => {
      if (graceTimer || child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      graceTimer = setTimeout(() => child.kill('SIGKILL'), KILL_GRACE_MS);
    };
    const deadline = setTimeout(() => {
      timedOut = true;
      stop();
    }, limits.timeoutMs);
    const onAbort = (): void => stop();
    limits.signal.addEventListener('abort', onAbort, { once: true });

    child.stdout.on('data', (chunk: Buffer) => {
      if (bufferExceeded) return;
      const room = limits.maxOutputBytes - bytes;
      if (chunk.length > room) {
        chunks.push(chunk.subarray(0, room));
        bytes += room;
        bufferExceeded = true;
        stop();
        return;
      }
      chunks.push(chunk);
      bytes += chunk.length;
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < MAX_STDERR_CHARS) stderr += chunk.toString('utf8');
    });
    const finish = (): void => {
      clearTimeout(deadline);
      clearTimeout(graceTimer);
      limits.signal.removeEventListener('abort', onAbort);
    };
    child.on('error', (error) => {
      finish();
      reject(new GrepFailure(`could not run ripgrep (${rgPath}): ${error.message}`));
    });
    child.on('close', (exitCode) => {
      finish();
      if (limits.signal.aborted) {
        reject(limits.signal.reason);
        return;
      }
      resolve({
        stdout: Buffer.concat(chunks, bytes),
        stderr: stderr.slice(0, MAX_STDERR_CHARS).trim(),
        exitCode,
        timedOut,
        bufferExceeded,
      });
    });
  });
}

/** ripgrep's JSON carries text as `{text}` or, when not valid UTF-8, as `{bytes}` (base64). */
function jsonText(value: unknown): string {
  if (value === null || typeof value !== 'object') return '';
  const data = value as { text?: unknown; bytes?: unknown };
  if (typeof data.text === 'string') return data.text;
  if (typeof data.bytes === 'string') return Buffer.from(data.bytes, 'base64').toString('utf8');
  return '';
}

/** Complete records only: a process stopped mid-write leaves a last, partial one. */
function completeRecords(stdout: Buffer, separator: string): string[] {
  const text = stdout.toString('utf8');
  const records = text.split(separator);
  records.pop();
  return records;
}

function parseContent(stdout: Buffer): FileHits[] {
  const byPath = new Map<string, Map<number, LineHit>>();
  for (const record of completeRecords(stdout, '\n')) {
    let event: { type?: unknown; data?: Record<string, unknown> };
    try {
      event = JSON.parse(record) as typeof event;
    } catch {
      continue;
    }
    if ((event.type !== 'match' && event.type !== 'context') || !event.data) continue;
    const path = jsonText(event.data.path);
    const first = Number(event.data.line_number);
    if (!path || !Number.isInteger(first)) continue;
    let lines = byPath.get(path);
    if (!lines) {
      lines = new Map();
      byPath.set(path, lines);
    }
    const isMatch = event.type === 'match';
    // A multiline match arrives as one event covering several lines.
    const texts = jsonText(event.data.lines).replace(/\n$/, '').split('\n');
    texts.forEach((text, offset) => {
      const line = first + offset;
      const known = lines.get(line);
      if (!known || (isMatch && !known.isMatch)) {
        lines.set(line, { line, text: text.replace(/\r$/, ''), isMatch });
      }
    });
  }
  return [...byPath].map(([path, lines]) => ({
    path,
    lines: [...lines.values()].sort((a, b) => a.line - b.line),
    count: 0,
  }));
}

function parseOutput(request: GrepRequest, stdout: Buffer): FileHits[] {
  switch (request.mode) {
    case 'files_with_matches':
      return completeRecords(stdout, '\0').map((path) => ({ path, lines: [], count: 0 }));
    case 'count_matches':
      return completeRecords(stdout, '\n').flatMap((record) => {
        const split = record.lastIndexOf('\0');
        if (split === -1) return [];
        return [{ path: record.slice(0, split), lines: [], count: Number(record.slice(split + 1)) || 0 }];
      });
    case 'content':
      return parseContent(stdout);
  }
}

const isEagain = (stderr: string): boolean => /EAGAIN|Resource temporarily unavailable/i.test(stderr);

/**
 * Searches with ripgrep. Exit 1 means no match; exit 2 is an error unless results came out anyway
 * (some files unreadable), in which case ripgrep's complaint becomes a warning. A failure to spawn
 * threads (EAGAIN) is retried once with a single thread.
 */
export async function ripgrepSearch(
  rgPath: string,
  request: GrepRequest,
  limits: SearchLimits,
): Promise<SearchOutcome> {
  let run = await runRipgrep(rgPath, ripgrepArgs(request), request.workDir, limits);
  if (run.exitCode === 2 && isEagain(run.stderr)) {
    run = await runRipgrep(rgPath, ripgrepArgs(request, true), request.workDir, limits);
  }
  const files = parseOutput(request, run.stdout);
  const stoppedByUs = run.timedOut || run.bufferExceeded;
  if (!stoppedByUs && run.exitCode !== 0 && run.exitCode !== 1 && files.length === 0) {
    throw new GrepFailure(run.stderr || `ripgrep exited with code ${run.exitCode}`);
  }
  const warnings = run.exitCode === 2 && run.stderr ? [run.stderr] : [];
  return { files, timedOut: run.timedOut, bufferExceeded: run.bufferExceeded, warnings };
}
