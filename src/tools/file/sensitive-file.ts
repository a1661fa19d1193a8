import { basename } from 'node:path';
import { type ToolReturnValue, toolError } from '../../kosong/index.js';

/** File names that hold secrets wherever they are. */
const SENSITIVE_NAMES = new Set(['.env', 'id_rsa', 'id_ed25519', 'id_ecdsa', 'credentials']);
/** `.env.*` files that by convention hold placeholders, not secrets. */
const HARMLESS_ENV_FILES = new Set(['.env.example', '.env.sample', '.env.template']);
/** Cloud credential files, matched on the end of the path. */
const SENSITIVE_PATH_SUFFIXES = ['.aws/credentials', '.gcp/credentials'];

/**
 * Whether a file probably holds credentials (dotenv files, SSH private keys, cloud credentials).
 * ReadFile refuses such files and Grep leaves them out of its results, so a secret does not end up
 * in the model's context (and the provider's logs) by accident.
 */
export function isSensitiveFile(path: string): boolean {
  const normalised = path.replaceAll('\\', '/');
  const name = basename(normalised);
  if (HARMLESS_ENV_FILES.has(name)) return false;
  if (SENSITIVE_NAMES.has(name) || name.startsWith('.env.')) return true;
  return SENSITIVE_PATH_SUFFIXES.some((suffix) => normalised === suffix || normalised.endsWith(`/${suffix}`));
}

export function sensitiveFileError(path: string): ToolReturnValue {
  return toolError(
    `\`${path}\` appears to contain secrets (matched sensitive file pattern). Reading this file is blocked to protect credentials.`,
    'Sensitive file',
  );
}
