import { lstat, realpath } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { PluginError } from './plugin-error.js';

/**
 * Where `path` (relative to the plugin folder `root`) really is, symlinks followed: the file's real
 * path, or for a file that does not exist yet its nearest existing parent's real path joined with
 * the rest. Throws a PluginError naming `field` when that is outside the plugin's own folder.
 */
export async function resolveInsidePlugin(root: string, path: string, field: string): Promise<string> {
  if (isAbsolute(path)) {
    throw new PluginError(
      `plugin.json: ${field}: "${path}" must be a path inside the plugin's folder, not absolute.`,
    );
  }
  const realRoot = await realpath(root);
  const target = await realPathOf(resolve(realRoot, path));
  if (!isInside(realRoot, target)) {
    throw new PluginError(
      `plugin.json: ${field}: "${path}" resolves outside the plugin's folder (to ${target}); refused.`,
    );
  }
  return target;
}

/** Whether a command word names a file by path (`./run.sh`, `bin/tool`) rather than a program on PATH. */
export function isRelativePath(word: string): boolean {
  return !isAbsolute(word) && (word.includes('/') || word.includes('\\') || word === '..' || word === '.');
}

async function realPathOf(path: string): Promise<string> {
  const missing: string[] = [];
  let current = path;
  for (;;) {
    try {
      const real = await realpath(current);
      return missing.length === 0 ? real : resolve(real, ...missing.reverse());
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
      if (
        await lstat(current).then(
          () => true,
          () => false,
        )
      ) {
        throw new PluginError(`${current} is a symlink to nothing; a plugin's paths must be real files.`);
      }
      const parent = dirname(current);
      if (parent === current) return path;
      missing.push(current.slice(parent.length).replace(/^[\\/]/, ''));
      current = parent;
    }
  }
}

function isInside(root: string, target: string): boolean {
  const rel = relative(root, target);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}
