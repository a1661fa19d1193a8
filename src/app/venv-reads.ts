import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { LauncherReads } from './launcher-read-types.js';

/**
 * What a virtual environment's interpreter (`.venv/bin/python scripts/check.py`) runs besides the
 * script: at start, Python's `site` reads every `.pth` file of its site-packages and runs the lines
 * that begin with `import`, and imports `sitecustomize` from there; the script imports its packages
 * from there. A command that planted a `.pth` file would run code of its own outside the sandbox at
 * the hook's next run. So site-packages is held with all it holds (the environment cannot be changed
 * while the session runs: `pip install` into it fails), and its `pyvenv.cfg` (where the interpreter
 * finds its standard library). A `.pth` line that puts a folder on the import path (an editable
 * install of the project) names code the model works on: said at start.
 */
export function venvInterpreterReads(reads: LauncherReads, interpreter: string): void {
  const venv = dirname(dirname(interpreter));
  const config = join(venv, 'pyvenv.cfg');
  if (statSync(config, { throwIfNoEntry: false })?.isFile() !== true) return;
  reads.files.push(config);
  for (const sitePackages of sitePackagesOf(venv)) {
    reads.folders.push(sitePackages);
    for (const folder of pthFolders(sitePackages)) {
      reads.notHeld.push({
        tree: folder,
        why: `a .pth file of the virtual environment ${venv} puts ${folder} on the import path`,
      });
    }
  }
}

/** lib/pythonX.Y/site-packages (and lib64's, where it is no link to lib). */
function sitePackagesOf(venv: string): string[] {
  const found: string[] = [];
  for (const lib of ['lib', 'lib64']) {
    const libDir = join(venv, lib);
    let names: string[];
    try {
      names = readdirSync(libDir);
    } catch {
      continue;
    }
    for (const name of names) {
      const sitePackages = join(libDir, name, 'site-packages');
      if (/^(python|pypy)/.test(name) && statSync(sitePackages, { throwIfNoEntry: false })?.isDirectory())
        found.push(sitePackages);
    }
  }
  return found;
}

/** The folders the `.pth` files of `sitePackages` add to the import path (their lines that are no `import`). */
function pthFolders(sitePackages: string): string[] {
  const folders: string[] = [];
  let names: string[];
  try {
    names = readdirSync(sitePackages);
  } catch {
    return folders;
  }
  for (const name of names) {
    if (!name.endsWith('.pth')) continue;
    let text: string;
    try {
      text = readFileSync(join(sitePackages, name), 'utf8');
    } catch {
      continue;
    }
    for (const raw of text.split('\n')) {
      const line = raw.trim();
      if (line === '' || line.startsWith('#') || /^import[ \t]/.test(line)) continue;
      const folder = resolve(sitePackages, line);
      if (statSync(folder, { throwIfNoEntry: false })?.isDirectory()) folders.push(folder);
    }
  }
  return folders;
}
