import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { SessionWrite } from '../util/write-fence.js';
import { defaultSessionState, setStateFence, updateSessionState, writeSessionState } from './state.js';

let dir: string;
let file: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kimi-ts-state-fence-'));
  file = join(dir, 'state.json');
});
afterEach(async () => {
  setStateFence(file, null);
  await rm(dir, { recursive: true, force: true });
});

it("a state write passes its file's fence first, with the bytes it writes; a refused one writes nothing", async () => {
  await writeSessionState(file, defaultSessionState());
  const seen: SessionWrite[] = [];
  let held = true;
  setStateFence(file, async (write) => {
    if (!held) throw new Error('lease lost');
    seen.push(write);
  });
  await updateSessionState(file, (state) => ({ ...state, custom_title: 'fenced' }));
  const written = await readFile(file, 'utf8');
  expect(seen).toEqual([{ file: 'state', op: 'replace', text: written }]);
  held = false;
  await expect(updateSessionState(file, (state) => ({ ...state, custom_title: 'too late' }))).rejects.toThrow(
    'lease lost',
  );
  expect(await readFile(file, 'utf8')).toBe(written);
  // Another session's state is not this fence's business.
  const other = join(dir, 'other.json');
  await writeSessionState(other, defaultSessionState());
  setStateFence(file, null);
  await updateSessionState(file, (state) => ({ ...state, custom_title: 'unfenced again' }));
  expect(await readFile(file, 'utf8')).toContain('unfenced again');
});
