import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
} from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { configText, isPlainSetting, readConfigEntries, settingName } from './git-config-keys.js';

/** Where the moved-aside files of a git folder go: inside it, so nothing appears in the work tree. */
const QUARANTINE_PREFIX = 'kimi-ts-quarantine-';

/** What was moved out of one git folder (nothing: an empty list). */
export interface NeutralisedGitDir {
  /** The quarantine folder, or null when nothing was moved. */
  readonly quarantine: string | null;
  /** Settings taken out of `config` (`section.name`, never a subsection or a value). */
  readonly settings: readonly string[];
  /** Other things moved: `hooks/post-checkout`, `config.worktree`, `commondir`, … */
  readonly moved: readonly string[];
}

/**
 * Takes out of a git folder a command made what would run a program when the person uses git there
 * outside the sandbox: every hook (git's `*.sample` files run nothing and stay), every config
 * setting not on the plain list (src/policy/git-config-keys.ts; the file is rewritten with the
 * plain ones, the original kept in the quarantine), `config.worktree`, and a `commondir` that leads
 * to a folder not itself guarded (`isGuarded`). Objects, refs, HEAD and the index are not touched:
 * the repository stays usable. A `config` or `hooks` that is a symlink is moved as the link (what it
 * leads to could be changed later by any command).
 */
export async function neutraliseGitDir(
  gitDir: string,
  isGuarded: (realGitDir: string) => boolean,
  path: string | undefined,
): Promise<NeutralisedGitDir> {
  // No symlink on the way (a folder swapped for one since it was found): looked at next time.
  if (realpathSync(gitDir) !== gitDir) throw new Error(`${gitDir} is not where it was found`);
  let quarantine: string | null = null;
  const moved: string[] = [];
  let settings: string[] = [];
  const moveAside = (name: string) => {
    quarantine ??= mkdtempSync(join(gitDir, QUARANTINE_PREFIX));
    const target = join(quarantine, name);
    if (name.includes('/')) mkdirSync(join(target, '..'), { recursive: true });
    renameSync(join(gitDir, name), target);
    moved.push(name);
  };

  const config = join(gitDir, 'config');
  const configStat = lstatSync(config, { throwIfNoEntry: false });
  if (configStat !== undefined) {
    const entries =
      configStat.isFile() || configStat.isSymbolicLink() ? await readConfigEntries(config, path) : null;
    const kept = entries?.filter(isPlainSetting) ?? [];
    const dropped = entries?.filter((entry) => !isPlainSetting(entry)) ?? null;
    if (dropped === null || dropped.length > 0 || !configStat.isFile()) {
      settings =
        dropped === null ? ['(unreadable config: all of it)'] : [...new Set(dropped.map(settingName))];
      moveAside('config');
      moved.pop(); // reported as settings
      if (entries !== null) await writeFile(config, configText(kept), { flag: 'wx', mode: 0o644 });
    }
  }
  if (lstatSync(join(gitDir, 'config.worktree'), { throwIfNoEntry: false })) moveAside('config.worktree');

  const hooks = join(gitDir, 'hooks');
  const hooksStat = lstatSync(hooks, { throwIfNoEntry: false });
  if (hooksStat?.isDirectory()) {
    for (const name of readdirSync(hooks)) if (!name.endsWith('.sample')) moveAside(`hooks/${name}`);
  } else if (hooksStat !== undefined) moveAside('hooks');

  const commondir = join(gitDir, 'commondir');
  if (lstatSync(commondir, { throwIfNoEntry: false }) && !isGuarded(commonDirOf(gitDir, commondir) ?? '')) {
    moveAside('commondir');
  }
  return { quarantine, settings, moved };
}

function commonDirOf(gitDir: string, commondir: string): string | null {
  try {
    return realpathSync(resolve(gitDir, readFileSync(commondir, 'utf8').trim()));
  } catch {
    return null;
  }
}
