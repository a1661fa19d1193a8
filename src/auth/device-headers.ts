import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { arch, hostname, release, type, version } from 'node:os';
import { join } from 'node:path';
import { VERSION } from '../version.js';

/**
 * The `X-Msh-*` headers Kimi CLI sends with every request to Kimi Code's OAuth server
 * (kimi-cli `src/kimi_cli/auth/oauth.py`, `_common_headers`): the platform, the version, and
 * the device (name, model, OS version and a random id kept in `<home>/device_id`). Values are
 * cut to ASCII, as there, since HTTP headers carry nothing else.
 */
export function kimiCodeDeviceHeaders(home: string): Record<string, string> {
  const headers = {
    'X-Msh-Platform': 'kimi_cli',
    'X-Msh-Version': VERSION,
    'X-Msh-Device-Name': hostname(),
    'X-Msh-Device-Model': `${type()} ${release()} ${arch()}`,
    'X-Msh-Os-Version': version(),
    'X-Msh-Device-Id': deviceId(home),
  };
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, asciiHeader(value)]));
}

/** The id of this installation: made once (a random UUID's hex), kept 0600 under the home. */
function deviceId(home: string): string {
  const file = join(home, 'device_id');
  try {
    const stored = readFileSync(file, 'utf8').trim();
    if (/^[0-9a-f]{32}$/.test(stored)) return stored;
  } catch {
    // Not made yet.
  }
  const id = randomUUID().replaceAll('-', '');
  try {
    mkdirSync(home, { recursive: true, mode: 0o700 });
    writeFileSync(file, id, { mode: 0o600 });
  } catch {
    // A read-only home: the id lives for this run only.
  }
  return id;
}

function asciiHeader(value: string): string {
  const ascii = value.replace(/[^\x20-\x7e]/g, '').trim();
  return ascii || 'unknown';
}
