import { dirname, join, relative, sep } from 'node:path';
import type { ContextFileGuard } from './context-file-guard.js';
import { findGitRoot } from './project-root.js';

/** All AGENTS.md text put in the system prompt together, at most (bytes). */
export const AGENTS_MD_MAX_BYTES = 32 * 1024;

/** In each folder, in this order: `.kimi/AGENTS.md`, then the first of `AGENTS.md` / `agents.md`. */
const KIMI_FILE = join('.kimi', 'AGENTS.md');
const PLAIN_FILES = ['AGENTS.md', 'agents.md'];

interface Found {
  path: string;
  bytes: Buffer;
}

/**
 * The project instructions for a work dir, as Kimi CLI gathers them: every AGENTS.md from the root of
 * the git project down to the work dir (just the work dir outside git), in that order, each headed by
 * where it came from. Together they get 32 KiB, handed out from the work dir upwards: the file
 * nearest the work dir is the most specific, so an ancestor is what gets cut. Empty when there is none.
 * A file that leads outside the project or to a secret file (a symlink a command made) is left out
 * (the guard reports it).
 */
export async function readAgentsMd(workDir: string, guard: ContextFileGuard): Promise<string> {
  const dirs = await foldersFromProjectRoot(workDir);
  // Every candidate is read at once (most do not exist); the order is restored below.
  const perDir = await Promise.all(
    dirs.map(async (dir) => {
      const [kimi, ...plain] = await Promise.all(
        [KIMI_FILE, ...PLAIN_FILES].map(async (name) => {
          const path = join(dir, name);
          const bytes = await readIfFile(path, guard);
          return bytes ? { path, bytes } : null;
        }),
      );
      return [kimi, plain.find((file) => file !== null)].filter((file): file is Found => !!file);
    }),
  );
  const found = perDir.flat();
  let budget = AGENTS_MD_MAX_BYTES;
  const kept = new Map<Found, string>();
  for (const file of [...found].reverse()) {
    if (budget <= 0) break;
    const cut = file.bytes.length > budget;
    // A cut may split a UTF-8 character; the decoder then drops the broken end to U+FFFD, harmlessly.
    const text = file.bytes.subarray(0, budget).toString('utf8').trimEnd();
    kept.set(file, cut ? `${text}\n[truncated: the AGENTS.md files together exceed 32 KiB]` : text);
    budget -= Math.min(file.bytes.length, budget);
  }
  return found
    .filter((file) => kept.has(file))
    .map((file) => `<!-- ${displayPath(file.path, workDir)} -->\n${kept.get(file)}`)
    .join('\n\n');
}

/** The work dir and its ancestors up to the root of its git project, outermost first. */
async function foldersFromProjectRoot(workDir: string): Promise<string[]> {
  const root = await findGitRoot(workDir);
  if (root === null) return [workDir];
  const chain = [workDir];
  for (let dir = workDir; dir !== root; dir = dirname(dir)) chain.push(dirname(dir));
  return chain.reverse();
}

function displayPath(path: string, workDir: string): string {
  const rel = relative(workDir, path);
  return rel.startsWith(`..${sep}`) || rel === '..' ? path : rel;
}

async function readIfFile(path: string, guard: ContextFileGuard): Promise<Buffer | null> {
  try {
    const read = await guard.readOrReport(path, 'project');
    if (read.kind !== 'read') return null;
    return read.bytes.toString('utf8').trim() ? read.bytes : null;
  } catch {
    return null;
  }
}
