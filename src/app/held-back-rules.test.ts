import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { readPermissionRules } from '../policy/index.js';
import { heldBack } from './held-back-rules.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kimi-ts-held-back-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

it('names every allow rule of the project file, in its order, with its reason; deny and ask rules hold anyway', async () => {
  const projectFile = join(dir, 'permissions.toml');
  await writeFile(
    projectFile,
    [
      '[[permission.rules]]\ndecision = "allow"\npattern = "Shell(npm test)"\n',
      '[[permission.rules]]\ndecision = "deny"\npattern = "Shell(rm *)"\n',
      '[[permission.rules]]\ndecision = "allow"\npattern = "FetchURL(domain:169.254.169.254)"\nreason = "metadata"\n',
    ].join('\n'),
  );
  const loaded = await readPermissionRules({
    projectFile,
    userFile: join(dir, 'none.toml'),
    configRules: [],
    configFile: 'config.toml',
  });
  expect(heldBack(loaded, { projectFile })).toEqual([
    [`2 allow rules in ${projectFile}`],
    ['Shell(npm test)', 'FetchURL(domain:169.254.169.254) — metadata'],
  ]);
  expect(
    heldBack({ project: loaded.project.filter((r) => r.decision !== 'allow') }, { projectFile }),
  ).toEqual([[], []]);
});
