import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { checkAdditionalDir } from './additional-dirs.js';
import { WorkRoots } from './work-roots.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'kimi-ts-work-roots-'));
  await mkdir(join(root, 'allowed', 'project'), { recursive: true });
  await mkdir(join(root, 'allowed-not'));
  await mkdir(join(root, 'home'));
  await writeFile(join(root, 'allowed', 'file'), 'x');
});
afterEach(() => rm(root, { recursive: true, force: true }));

it('a folder inside a root is allowed; a sibling whose name starts the same is not', () => {
  const roots = WorkRoots.of(['allowed'], root);
  expect(roots.refusal(join(root, 'allowed'), 'The work dir')).toBeNull();
  expect(roots.refusal(join(root, 'allowed', 'project'), 'The work dir')).toBeNull();
  expect(roots.refusal(join(root, 'allowed-not'), 'The work dir')).toMatch(/outside the folders/);
  expect(roots.refusal(join(root, 'allowed', '..', 'home'), 'The work dir')).toMatch(/outside the folders/);
});

it('a symlink inside a root that leads out is judged by where it leads', async () => {
  await symlink(join(root, 'home'), join(root, 'allowed', 'link'));
  const roots = WorkRoots.of([join(root, 'allowed')], '/');
  expect(roots.refusal(join(root, 'allowed', 'link'), 'The work dir')).toMatch(/outside the folders/);
  expect(roots.refusal(join(root, 'missing'), 'The work dir')).toMatch(/is not a folder on this worker/);
});

it('a root that is missing or a file is refused when the roots are made', () => {
  expect(() => WorkRoots.of(['missing'], root)).toThrow('--work-root missing: no such folder.');
  expect(() => WorkRoots.of(['allowed/file'], root)).toThrow('--work-root allowed/file: not a folder.');
});

it('/add-dir and --add-dir refuse a folder outside the roots, naming neither the roots', () => {
  const roots = WorkRoots.of(['allowed'], root);
  const work = join(root, 'allowed', 'project');
  expect(checkAdditionalDir(work, join(root, 'home'), roots)).toEqual({
    ok: false,
    problem: `The folder ${join(root, 'home')} is outside the folders this worker works in (its --work-root).`,
  });
  expect(checkAdditionalDir(work, '..', roots)).toMatchObject({ ok: true, dir: join(root, 'allowed') });
  expect(checkAdditionalDir(work, join(root, 'home'))).toMatchObject({ ok: true });
});

it("with() adds a worker's own folder (a --repo session's worktree)", () => {
  const roots = WorkRoots.of(['allowed'], root).with(join(root, 'home'));
  expect(roots.refusal(join(root, 'home'), 'The work dir')).toBeNull();
});

it("without roots (a worker with no --work-root): anywhere but a folder holding the user's home", () => {
  const roots = WorkRoots.anywhereBut(join(root, 'home'));
  expect(roots.refusal(join(root, 'allowed'), 'The work dir')).toBeNull();
  expect(roots.refusal(join(root, 'home', '..', 'allowed'), 'The work dir')).toBeNull();
  for (const holder of [join(root, 'home'), root, '/'])
    expect(roots.refusal(holder, 'The work dir')).toMatch(
      /holds the home folder of the user this worker runs as/,
    );
  // A worker's own worktree below the home passes.
  expect(roots.with(join(root, 'home')).refusal(join(root, 'home'), 'x')).not.toBeNull();
});

it("without roots: not in a dot-folder of the user's home (its settings and keys), nor the agent's own home", async () => {
  const home = join(root, 'home');
  for (const dir of ['.ssh', '.config/systemd/user', '.local/bin', '.kimi-ts', 'projects/app'])
    await mkdir(join(home, dir), { recursive: true });
  const roots = WorkRoots.anywhereBut(home);
  for (const dotted of ['.ssh', '.config/systemd/user', '.local/bin', '.kimi-ts'])
    expect(roots.refusal(join(home, dotted), 'The work dir')).toMatch(/lies in a dot-folder of the home/);
  // Through a symlink elsewhere too: judged by where it leads.
  await symlink(join(home, '.ssh'), join(root, 'allowed', 'keys'));
  expect(roots.refusal(join(root, 'allowed', 'keys'), 'The work dir')).toMatch(/lies in a dot-folder/);
  expect(roots.refusal(join(home, 'projects', 'app'), 'The work dir')).toBeNull();
  // The worker's own worktree of a --repo session (under its home's .kimi-ts) passes.
  const worktree = join(home, '.kimi-ts', 'worktrees');
  await mkdir(worktree);
  expect(roots.with(worktree).refusal(worktree, 'The work dir')).toBeNull();
  expect(roots.with(worktree).refusal(join(home, '.ssh'), 'The work dir')).not.toBeNull();
  // The default agent home (~/.kimi-ts) named as such: its worktree still passes, the rest not.
  const withKimi = WorkRoots.anywhereBut(home, join(home, '.kimi-ts'));
  expect(withKimi.with(worktree).refusal(worktree, 'The work dir')).toBeNull();
  expect(withKimi.refusal(worktree, 'The work dir')).toMatch(/own kimi-ts home/);
});

it("the worker's own kimi-ts home is never a work dir (its config, sessions), with roots or without", async () => {
  const agent = join(root, 'allowed', 'agent-home');
  await mkdir(join(agent, 'sessions'), { recursive: true });
  for (const roots of [
    WorkRoots.anywhereBut(join(root, 'home'), agent),
    WorkRoots.of(['allowed'], root, agent),
  ]) {
    for (const dir of [agent, join(agent, 'sessions'), join(root, 'allowed')])
      expect(roots.refusal(dir, 'The work dir')).toMatch(/own kimi-ts home/);
    expect(roots.refusal(join(root, 'allowed', 'project'), 'The work dir')).toBeNull();
    // A --repo session's worktree in it, made by the worker (not there yet when the roots are made).
    const worktree = join(agent, 'worktrees', 'fleet', 's1');
    const withOwn = roots.with(worktree);
    await mkdir(worktree, { recursive: true });
    expect(withOwn.refusal(worktree, 'The work dir')).toBeNull();
    expect(withOwn.refusal(join(agent, 'sessions'), 'The work dir')).not.toBeNull();
  }
});
