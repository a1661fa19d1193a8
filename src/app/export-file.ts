import { lstat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { kimiTsHome } from '../config/home.js';
import {
  HomeStartupFiles,
  ProtectedFiles,
  realPathOf,
  type SensitiveHomes,
  sensitiveReason,
} from '../policy/index.js';
import { replaceFileNoFollow, WriteTargetChangedError } from '../tools/file/no-follow-write.js';

/** Why kimi-ts may not write an export over this file (protected: rules, startup files), or null. */
export type ProtectedCheck = (target: { absolute: string; real: string }) => string | null;

export type ExportWrite = { kind: 'written'; file: string } | { kind: 'refused'; problem: string };

/**
 * Writes an export (`/export`, `kimi-ts export -o`, `vis --export`) that kimi-ts makes in its own
 * process, outside the sandbox and the policy. A command the model ran may have put a symlink where
 * the person will export (`session.md` → `~/.bashrc`): the export never writes through a symlink
 * (a file that is one is refused, and the bytes are renamed into place, which replaces whatever
 * appears there instead of following it), nor over a secret or protected file.
 */
export async function writeExportFile(
  path: string,
  content: string,
  checks: { homes: SensitiveHomes; protectedReason: ProtectedCheck },
): Promise<ExportWrite> {
  const absolute = resolve(path);
  const info = await lstat(absolute).catch(() => null);
  if (info?.isSymbolicLink())
    return refused(`${absolute} is a symlink: an export is not written through one (it may lead anywhere)`);
  if (info && !info.isFile()) return refused(`${absolute} is not a regular file`);
  const real = await realPathOf(absolute);
  const secret = sensitiveReason(real, checks.homes);
  if (secret !== null) return refused(`${real} is a secret file (${secret})`);
  const guarded = checks.protectedReason({ absolute, real });
  if (guarded !== null) return refused(`${real} is protected (${guarded})`);
  try {
    await replaceFileNoFollow({ path: absolute, real }, content);
  } catch (error) {
    if (error instanceof WriteTargetChangedError)
      return refused(`${absolute} changed while it was written; nothing was written`);
    throw error;
  }
  return { kind: 'written', file: real };
}

/**
 * The checks for an export from the command line (`kimi-ts export -o`, `vis --export`), with no
 * session: kimi-ts's home and the person's secret files, their startup files and git metadata.
 */
export function commandLineExportChecks(env: Readonly<Record<string, string | undefined>>): {
  homes: SensitiveHomes;
  protectedReason: ProtectedCheck;
} {
  const userHome = env.HOME?.trim() || homedir();
  const protectedFiles = new ProtectedFiles([], new HomeStartupFiles(userHome, () => []));
  return {
    homes: { userHome, kimiHome: kimiTsHome(env) },
    protectedReason: (target) => protectedFiles.reason(target),
  };
}

function refused(why: string): ExportWrite {
  return { kind: 'refused', problem: `Nothing was written: ${why}.` };
}
