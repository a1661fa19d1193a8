import {
  chmodSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { breakHeldHardLinks } from './held-hard-links.js';
import { NO_AGENT_CODE } from './sandbox-agent-code.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'kimi-ts-hard-links-')));
afterAll(() => rmSync(root, { recursive: true, force: true }));

it('gives each held file that is a hard link a copy of its own (bytes and mode kept); leaves the rest', () => {
  const work = join(root, 'work');
  mkdirSync(join(work, '.git', 'hooks'), { recursive: true });
  mkdirSync(join(work, '.kimi-ts'));
  mkdirSync(join(work, 'scripts'));
  const hook = join(work, '.git', 'hooks', 'pre-commit');
  writeFileSync(hook, '#!/bin/sh\n');
  chmodSync(hook, 0o750);
  linkSync(hook, join(work, 'scripts', 'check.sh'));
  const rules = join(work, '.kimi-ts', 'permissions.toml');
  writeFileSync(rules, '# rules\n');
  linkSync(rules, join(work, 'notes.md'));
  writeFileSync(join(work, '.git', 'config'), '[core]\n');
  const shared = join(work, 'shared.txt');
  writeFileSync(shared, 'x');
  linkSync(shared, join(work, 'other.txt'));

  expect(breakHeldHardLinks([work], NO_AGENT_CODE).sort()).toEqual([rules, hook].sort());
  expect(statSync(hook).nlink).toBe(1);
  expect(statSync(hook).mode & 0o777).toBe(0o750);
  expect(readFileSync(hook, 'utf8')).toBe('#!/bin/sh\n');
  expect(statSync(rules).nlink).toBe(1);
  // The other name is the old file, apart now; a file nothing holds keeps its links.
  writeFileSync(join(work, 'notes.md'), 'changed');
  expect(readFileSync(rules, 'utf8')).toBe('# rules\n');
  expect(statSync(shared).nlink).toBe(2);
  expect(breakHeldHardLinks([work], NO_AGENT_CODE)).toEqual([]);
});
