import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isWithinDirectory } from '../util/path-within.js';

/**
 * What each live sandbox of the agent's home holds read-only in the workspace (agentCodeHolds: the
 * placeholders among them), so that one session ending does not remove a placeholder another still
 * relies on. Two sessions in one folder: the first makes an empty `.gitconfig` for the include its
 * repository names; the second finds it there and holds it as it is; the first, ending, removes its
 * placeholder (still empty), and the second's command then running could create the file (a bind
 * whose file is removed outside is gone from the command's view too). Its next command makes the
 * placeholder again (sandbox-placeholders.ts); this closes the gap while one runs.
 *
 * One file per sandbox in `<kimi home>/cache/held-names/`, named `<pid>-<random>`, one real path a
 * line, written when what it holds changes (at its start and at a command's launch) and removed when
 * it is disposed. A file whose process is gone is ignored (and removed). A placeholder left because
 * another holds it is recorded for the last session out to remove. Sessions with another agent home
 * do not see each other's.
 */
export class HeldNamesRegistry {
  private readonly name = `${process.pid}-${randomBytes(4).toString('hex')}`;
  private written: string | null = null;

  constructor(private readonly folder: string) {}

  /** Records what this sandbox holds now; nothing written when it did not change. */
  record(paths: readonly string[]): void {
    const text = paths.join('\n');
    if (text === this.written) return;
    try {
      mkdirSync(this.folder, { recursive: true, mode: 0o700 });
      const file = join(this.folder, this.name);
      const temp = `${file}.tmp`;
      writeFileSync(temp, text, { mode: 0o600 });
      renameSync(temp, file);
      this.written = text;
    } catch {
      // Not writable (a read-only home): the other sessions cannot see this one's holds; its own
      // placeholders are made again at each launch all the same.
    }
  }

  /** Whether another live sandbox holds `path`, a folder holding it, or something inside it. */
  heldByOthers(path: string): boolean {
    let names: string[];
    try {
      names = readdirSync(this.folder);
    } catch {
      return false;
    }
    for (const name of names) {
      if (name === this.name || name.endsWith('.tmp') || name.startsWith(ORPHANS)) continue;
      const file = join(this.folder, name);
      if (!isAlive(Number.parseInt(name, 10))) {
        forget(file);
        continue;
      }
      let text: string;
      try {
        text = readFileSync(file, 'utf8');
      } catch {
        continue;
      }
      for (const held of text.split('\n'))
        if (held !== '' && (isWithinDirectory(path, held) || isWithinDirectory(held, path))) return true;
    }
    return false;
  }

  /**
   * Placeholders this sandbox made and leaves, still empty, because another holds them: the last
   * session out removes them (takeOrphans), so none stays in the person's tree for good.
   */
  leave(paths: readonly string[]): void {
    if (paths.length === 0) return;
    try {
      mkdirSync(this.folder, { recursive: true, mode: 0o700 });
      const file = join(this.folder, `${ORPHANS}${this.name}`);
      writeFileSync(`${file}.tmp`, paths.join('\n'), { mode: 0o600 });
      renameSync(`${file}.tmp`, file);
    } catch {
      // Not writable: they stay, empty.
    }
  }

  /** The placeholders other sandboxes left (leave), taken over by this one: their records are removed. */
  takeOrphans(): string[] {
    let names: string[];
    try {
      names = readdirSync(this.folder);
    } catch {
      return [];
    }
    const paths: string[] = [];
    for (const name of names) {
      if (!name.startsWith(ORPHANS) || name.endsWith('.tmp')) continue;
      const file = join(this.folder, name);
      try {
        paths.push(
          ...readFileSync(file, 'utf8')
            .split('\n')
            .filter((path) => path !== ''),
        );
      } catch {
        continue;
      }
      forget(file);
    }
    return paths;
  }

  /** This sandbox holds nothing any more. */
  dispose(): void {
    if (this.written !== null) forget(join(this.folder, this.name));
    this.written = null;
  }
}

/** The prefix of the files listing placeholders left for the last session out. */
const ORPHANS = 'orphans-';

function forget(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // gone already
  }
}

/** Whether a process with this id runs (one of another user's counts: EPERM). */
function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
