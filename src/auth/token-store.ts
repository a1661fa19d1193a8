import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../util/atomic-file.js';
import { builtOnFirstUse } from '../util/built-on-first-use.js';

/** OAuth tokens as kept on disk (Kimi CLI's `credentials/<name>.json` fields). */
export interface StoredTokens {
  access_token: string;
  refresh_token: string;
  /** Unix seconds; 0 when the server gave no lifetime. */
  expires_at: number;
  /** Seconds the access token was issued for (0 if unknown): the refresh threshold uses half of it. */
  expires_in: number;
  scope: string;
  token_type: string;
}

/** Built on first use: a session signed in with an API key reads no token file. */
function buildStoredTokensSchema() {
  return z.object({
    access_token: z.string().min(1),
    refresh_token: z.string().default(''),
    expires_at: z.number().default(0),
    expires_in: z.number().default(0),
    scope: z.string().default(''),
    token_type: z.string().default('Bearer'),
  });
}

const storedTokensSchema = builtOnFirstUse(buildStoredTokensSchema);

/**
 * The file of an OAuth key (`oauth/kimi-code` → `<home>/credentials/kimi-code.json`). Only the
 * part after the last `/` names it, so a key cannot point outside the folder.
 */
export function credentialsFile(home: string, key: string): string {
  const name = (key.split('/').pop() ?? '').replace(/[^A-Za-z0-9._-]/g, '_') || 'default';
  return join(home, 'credentials', `${name}.json`);
}

export async function readTokens(file: string): Promise<StoredTokens | null> {
  try {
    const parsed = storedTokensSchema().safeParse(JSON.parse(await readFile(file, 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Writes the tokens atomically, readable by the user alone (folder 0700, file 0600). */
export async function writeTokens(file: string, tokens: StoredTokens): Promise<void> {
  await mkdir(join(file, '..'), { recursive: true, mode: 0o700 });
  await writeFileAtomic(file, `${JSON.stringify(tokens, null, 2)}\n`, { mode: 0o600 });
}

export async function deleteTokens(file: string): Promise<boolean> {
  const existed = (await readTokens(file)) !== null;
  await rm(file, { force: true });
  return existed;
}
