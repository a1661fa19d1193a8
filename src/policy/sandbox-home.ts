import { type Dirent, existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { isHomeStartupEntry } from '../util/home-startup-entry.js';
import { isWithinDirectory } from '../util/path-within.js';
import { realOrGiven } from '../util/real-or-given.js';

/**
 * bubblewrap's arguments that keep the home's startup files out of a command's reach when the
 * workspace holds the home (the work dir or an add-dir is the home or a folder above it): what a
 * command writes in `~/.bashrc`, `~/.profile`, `~/.gitconfig`, `~/.ssh/…`, `~/.config/…` or
 * `~/.local/bin` runs later, outside any sandbox. Empty otherwise (the home is then read-only
 * anyway, as the rest of the file system).
 *
 * Goes right after the workspace's own binds, before anything bound on top of them (`.git`,
 * `.kimi-ts`, nested repositories, hidden paths), which stay as they were:
 *
 * 1. the home again, read-only: every entry in it, and the home folder itself, so a dot file that
 *    does not exist yet (`~/.bash_profile`, `~/.zshrc`) cannot be made either — no placeholder is
 *    left in the person's home, as an empty `~/.bash_profile` would stop bash reading `~/.profile`;
 * 2. each other entry of the home (not a dot entry, not `~/bin`, not a symlink, which bwrap would
 *    follow) writable again, as the workspace it is;
 * 3. each workspace folder inside the home (an add-dir under `~/.local/share`) writable again.
 *
 * What this costs: a command cannot make a new entry at the top of the home (`~/new-file`); in its
 * folders it can.
 */
export function homeStartupFilesReadOnly(workspace: readonly string[], userHome: string): string[] {
  const home = realOrGiven(resolve(userHome));
  if (!workspace.some((dir) => isWithinDirectory(home, dir)) || !isFolder(home)) return [];
  const args = ['--ro-bind', home, home];
  let entries: Dirent[];
  try {
    entries = readdirSync(home, { withFileTypes: true });
  } catch {
    return args; // unreadable: the whole home stays read-only
  }
  for (const entry of entries) {
    if (isHomeStartupEntry(entry.name)) continue;
    if (!entry.isDirectory() && !entry.isFile()) continue;
    const path = join(home, entry.name);
    args.push('--bind', path, path);
  }
  for (const dir of workspace) {
    if (dir === home || !isWithinDirectory(dir, home) || !existsSync(dir)) continue;
    // Inside a writable entry already (a project folder): bound with it.
    const top = relative(home, dir).split(sep)[0] ?? '';
    if (!isHomeStartupEntry(top)) continue;
    args.push('--bind', dir, dir);
  }
  return args;
}

function isFolder(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isDirectory() ?? false;
}

/**
 * Whether `homeStartupFilesReadOnly` keeps `dir` read-only: the home itself or a folder in one of its
 * startup entries (`~/.config/…`), when the home lies in `root`, the innermost writable root holding
 * `dir` (a workspace inside a startup entry, an add-dir under `~/.local/share`, is writable again).
 * `realHome`: the home's real path.
 */
export function keptReadOnlyByHome(dir: string, root: string, realHome: string): boolean {
  if (!isWithinDirectory(realHome, root) || !isWithinDirectory(dir, realHome)) return false;
  return dir === realHome || isHomeStartupEntry(relative(realHome, dir).split(sep)[0] ?? '');
}
