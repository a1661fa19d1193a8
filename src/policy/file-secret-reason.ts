import { fileSecretContentReason } from './secret-content.js';
import { otherNameSecretReason, walksSettled } from './secret-other-names.js';
import { type SensitiveHomes, sensitiveReason } from './sensitive-files.js';
import { symlinkSecretNameReason } from './symlink-secret-names.js';

/**
 * Why a file the file tools read (ReadFile, Grep) holds secrets, or null, in the order of cost: by
 * its real path's name and place; by the name it was given and the names on its way when its last
 * part is a symlink (`.env -> config/prod-values`: `named` is the path as given, absolute); by
 * another name the secret walk found (the target of a secret-named symlink, a hard link of `.env`);
 * and, with `byContent`, by what it holds.
 */
export async function fileSecretReason(
  real: string,
  homes: SensitiveHomes,
  named: string | undefined,
  byContent: boolean,
): Promise<string | null> {
  const byName =
    sensitiveReason(real, homes) ??
    (named !== undefined && named !== real ? symlinkSecretNameReason(named) : null);
  if (byName !== null || !byContent) return byName;
  // A reading of the walk under way (a turn's first starts as the model is asked) may find the
  // file's other names: waited for, only then (most calls wait on no microtask).
  const walking = walksSettled();
  if (walking !== null) await walking;
  return otherNameSecretReason(real) ?? (await fileSecretContentReason(real));
}
