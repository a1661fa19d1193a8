import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** The sessions folder of the (first) work dir that has sessions under a sandbox `home`. */
export async function workDirSessions(home: string): Promise<string> {
  const sessions = join(home, 'sessions');
  const [key] = await readdir(sessions);
  if (key === undefined) throw new Error(`no work dir has sessions in ${sessions}`);
  return join(sessions, key);
}

/** The folder of the one session (the first) of that work dir: its wire.jsonl, context.jsonl, state.json. */
export async function onlySessionDir(home: string): Promise<string> {
  const sessions = await workDirSessions(home);
  const [id] = await readdir(sessions);
  if (id === undefined) throw new Error(`no session in ${sessions}`);
  return join(sessions, id);
}
