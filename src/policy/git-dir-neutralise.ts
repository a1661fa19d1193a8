import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  renameSync,
  writeFileSync,
} from 'node:fs';
import { basename, resolve } from 'node:path';
import { configText, isPlainSetting, readConfigEntries, settingName } from './git-config-keys.js';

/** Where the moved-aside files of a git folder go: inside it, so nothing appears in the work tree. */
const QUARANTINE_PREFIX = 'kimi-ts-quarantine-';
/** A config larger than this is not read: moved aside whole. */
const MAX_CONFIG_BYTES = 1 << 20;

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
 * the repository stays usable. A `config` or `hooks` that is not a plain file or folder (a symlink)
 * is moved as it is, never followed.
 *
 * A background command may still be running and swap a folder for a symlink meanwhile: everything is
 * done through descriptors opened without following one (`/proc/self/fd/N/…`, Linux, where the
 * sandbox runs), each checked to be where it was found, so nothing outside the git folder is read,
 * moved or written.
 */
export async function neutraliseGitDir(
  gitDir: string,
  isGuarded: (realGitDir: string) => boolean,
  path: string | undefined,
): Promise<NeutralisedGitDir> {
  const opened: number[] = [];
  const openFolder = (at: string, expected: string): string => {
    const fd = openSync(at, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
    opened.push(fd);
    const base = `/proc/self/fd/${fd}`;
    if (readlinkSync(base) !== expected) throw new Error(`${expected} is not where it was found`);
    return base;
  };
  try {
    const dir = openFolder(gitDir, gitDir);
    let quarantine: string | null = null;
    let quarantineAt = '';
    const moved: string[] = [];
    let settings: string[] = [];
    const moveAside = (from: string, name: string) => {
      if (quarantine === null) {
        const made = basename(mkdtempSync(`${dir}/${QUARANTINE_PREFIX}`));
        quarantine = `${gitDir}/${made}`;
        quarantineAt = openFolder(`${dir}/${made}`, quarantine);
      }
      renameSync(from, `${quarantineAt}/${name.replace(/\//g, '.')}`);
      moved.push(name);
    };

    const config = `${dir}/config`;
    const configStat = lstatSync(config, { throwIfNoEntry: false });
    if (configStat !== undefined) {
      const text = configStat.isFile() ? readPlainFile(config) : null;
      const entries = text === null ? null : await readConfigEntries(text, path);
      const dropped = entries?.filter((entry) => !isPlainSetting(entry)) ?? null;
      if (dropped === null || dropped.length > 0) {
        settings =
          dropped === null
            ? ['(not a plain, readable config file: all of it)']
            : [...new Set(dropped.map(settingName))];
        moveAside(config, 'config');
        moved.pop(); // reported as settings
        if (entries !== null)
          writeFileSync(config, configText(entries.filter(isPlainSetting)), { flag: 'wx', mode: 0o644 });
      }
    }
    if (lstatSync(`${dir}/config.worktree`, { throwIfNoEntry: false }))
      moveAside(`${dir}/config.worktree`, 'config.worktree');

    const hooksStat = lstatSync(`${dir}/hooks`, { throwIfNoEntry: false });
    if (hooksStat?.isDirectory()) {
      const hooks = openFolder(`${dir}/hooks`, `${gitDir}/hooks`);
      for (const name of readdirSync(hooks))
        if (!name.endsWith('.sample')) moveAside(`${hooks}/${name}`, `hooks/${name}`);
    } else if (hooksStat !== undefined) moveAside(`${dir}/hooks`, 'hooks');

    const commondir = `${dir}/commondir`;
    if (lstatSync(commondir, { throwIfNoEntry: false }) && !isGuarded(commonDirOf(gitDir, commondir) ?? '')) {
      moveAside(commondir, 'commondir');
    }
    return { quarantine, settings, moved };
  } finally {
    for (const fd of opened) closeSync(fd);
  }
}

/** A regular file's text, opened without following a symlink; null if it is not one or too large. */
function readPlainFile(path: string): string | null {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return null;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile() || stat.size > MAX_CONFIG_BYTES) return null;
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}

function commonDirOf(gitDir: string, commondir: string): string | null {
  const text = readPlainFile(commondir);
  if (text === null) return null;
  try {
    return realpathSync(resolve(gitDir, text.trim()));
  } catch {
    return null;
  }
}
