import { existsSync, lstatSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rm, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { AgentCode } from './sandbox-agent-code.js';
import { agentCodeForLaunch, makeAgentPlaceholders } from './sandbox-placeholders.js';

let root: string;
let work: string;
beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'kimi-ts-placeholders-')));
  work = join(root, 'work');
  await mkdir(work);
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

it('makes what is missing inside a root, each time it is asked, and records what it made', async () => {
  let gitFiles = [join(work, '.gitconfig')];
  const agentCode: AgentCode = {
    byFolder: [],
    byFile: [],
    madeWhenMissing: [join(work, 'scripts'), join(root, 'outside')],
    emptyWhenMissing: [join(work, 'local.gitconfig')],
    // What git's config names now: asked at every call (a config changed, a folder added).
    gitPlaceholders: () => ({ folders: [join(work, '.githooks')], files: gitFiles }),
  };
  const placeholders = new Set<string>();
  makeAgentPlaceholders(agentCode, [work], placeholders);
  expect([...placeholders].sort()).toEqual(
    [
      join(work, 'scripts'),
      join(work, 'local.gitconfig'),
      join(work, '.githooks'),
      join(work, '.gitconfig'),
    ].sort(),
  );
  expect(lstatSync(join(work, '.githooks')).isDirectory()).toBe(true);
  expect(lstatSync(join(work, '.gitconfig')).size).toBe(0);
  expect(existsSync(join(root, 'outside'))).toBe(false);
  // Another session removed the placeholder it shared; a config names one more: both made again.
  await unlink(join(work, '.gitconfig'));
  gitFiles = [join(work, '.gitconfig'), join(work, 'team.gitconfig')];
  const later = new Set<string>();
  makeAgentPlaceholders(agentCode, [work], later);
  expect([...later].sort()).toEqual([join(work, '.gitconfig'), join(work, 'team.gitconfig')].sort());
  expect(lstatSync(join(work, 'team.gitconfig')).isFile()).toBe(true);
});

it("asks git's config names once per launch, and only when wanted", () => {
  let asked = 0;
  const agentCode: AgentCode = {
    byFolder: [],
    byFile: [],
    madeWhenMissing: [],
    gitConfigNamed: () => {
      asked++;
      return [join(work, '.husky')];
    },
  };
  const launch = agentCodeForLaunch(agentCode);
  expect(asked).toBe(0);
  expect(launch?.gitConfigNamed?.([])).toEqual([join(work, '.husky')]);
  expect(launch?.gitConfigNamed?.([])).toEqual([join(work, '.husky')]);
  expect(asked).toBe(1);
  // The next launch asks again.
  agentCodeForLaunch(agentCode)?.gitConfigNamed?.([]);
  expect(asked).toBe(2);
});
