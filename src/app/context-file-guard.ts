import { constants } from 'node:fs';
import { open, readlink, realpath } from 'node:fs/promises';
import { type SensitiveHomes, sensitiveReason } from '../policy/index.js';
import { isWithinDirectory } from '../util/path-within.js';
import { realOrGiven } from '../util/real-or-given.js';

/**
 * Where a file kimi-ts reads into the model's context by itself may come from:
 * - `project`: AGENTS.md, project skills — only from the project's folders (by real path);
 * - `anywhere`: a file the person named (`/import`) — any place but a secret file.
 */
export type ContextFileScope = 'project' | 'anywhere';

export type ContextFileRead =
  | { kind: 'read'; bytes: Buffer }
  | { kind: 'missing' }
  | { kind: 'refused'; reason: string };

export interface ContextFilePlaces {
  homes: SensitiveHomes;
  /** The project's folders (its root, the work dir, `--skills-dir`): `project` files must lie inside. */
  projectFolders: readonly string[];
  /**
   * The person's own skill folders (in the home, `extra_skill_dirs`, plugins): what lies there by
   * real path is read as it is (`~/.kimi/skills` is inside a secret folder); a file found there may
   * lead anywhere but to a secret file (a skill linked to the person's dotfiles).
   */
  ownFolders: readonly string[];
}

/**
 * The check on files kimi-ts reads into the model's context outside the sandbox and the policy
 * (AGENTS.md, skills, `/import`). A command the model ran may have made such a file a symlink to a
 * secret the sandbox hides (`ln -s ~/.aws/credentials AGENTS.md`): the file is opened first and
 * judged by the real path of what was opened, so a symlink swapped in between cannot slip past.
 */
export class ContextFileGuard {
  private readonly projectFolders: readonly string[];
  /** The own folders as given and by real path. */
  private readonly ownFolders: readonly string[];
  private readonly warned = new Set<string>();

  constructor(
    private readonly places: ContextFilePlaces,
    private readonly onRefused: (file: string, reason: string) => void = () => {},
  ) {
    this.projectFolders = places.projectFolders.map(realOrGiven);
    this.ownFolders = [...places.ownFolders, ...places.ownFolders.map(realOrGiven)];
  }

  /** The same check, with the project's folders widened (an isolated subagent's worktree). */
  withProjectFolders(folders: readonly string[]): ContextFileGuard {
    const wider = new ContextFileGuard(
      { ...this.places, projectFolders: [...this.places.projectFolders, ...folders] },
      this.onRefused,
    );
    for (const file of this.warned) wider.warned.add(file);
    return wider;
  }

  /** Why the file found at `given`, at `real` by real path, may not go into the context, or null. */
  refusal(given: string, real: string, scope: ContextFileScope): string | null {
    if (this.isOwn(real)) return null;
    const secret = sensitiveReason(real, this.places.homes);
    if (secret !== null) return `it leads to ${real}, a secret file (${secret})`;
    switch (scope) {
      case 'anywhere':
        return null;
      case 'project':
        if (this.isOwn(given) || this.projectFolders.some((dir) => isWithinDirectory(real, dir))) return null;
        return `it leads to ${real}, outside the project`;
    }
  }

  private isOwn(path: string): boolean {
    return this.ownFolders.some((dir) => isWithinDirectory(path, dir));
  }

  /**
   * Reads a regular file when the check lets it (no FIFO or device: nothing that blocks). The caller
   * says why a file is refused; `readOrReport` reports it itself.
   */
  async read(path: string, scope: ContextFileScope): Promise<ContextFileRead> {
    const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK).catch(() => null);
    if (handle === null) return { kind: 'missing' };
    try {
      if (!(await handle.stat()).isFile()) return { kind: 'missing' };
      const reason = this.refusal(path, await openedRealPath(handle.fd, path), scope);
      if (reason !== null) return { kind: 'refused', reason };
      return { kind: 'read', bytes: await handle.readFile() };
    } finally {
      await handle.close();
    }
  }

  /** `read`, for a file kimi-ts reads by itself: a refusal is reported to the person (once per file). */
  async readOrReport(path: string, scope: ContextFileScope): Promise<ContextFileRead> {
    const read = await this.read(path, scope);
    if (read.kind === 'refused') this.report(path, read.reason);
    return read;
  }

  /** Tells the person (once per file) that a file was left out of the context, and why. */
  report(file: string, reason: string): void {
    if (this.warned.has(file)) return;
    this.warned.add(file);
    this.onRefused(file, reason);
  }
}

/**
 * The real path of the file an open descriptor holds (Linux names it in /proc); elsewhere the real
 * path of the name, a moment later.
 */
async function openedRealPath(fd: number, path: string): Promise<string> {
  try {
    return await readlink(`/proc/self/fd/${fd}`);
  } catch {
    return realpath(path);
  }
}
