import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { bwrapArguments } from './sandbox.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'kimi-ts-held-hidden-')));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The index of the last `flag from to` triple binding `to`. */
function lastBind(args: readonly string[], flag: string, to: string): number {
  for (let i = args.length - 1; i >= 2; i--) if (args[i] === to && args[i - 2] === flag) return i;
  return -1;
}

it('what is hidden inside a held folder, or is one, is hidden again after the folder is bound', () => {
  const work = join(root, 'work');
  const agent = join(work, 'agent');
  const home = join(agent, 'home');
  mkdirSync(home, { recursive: true });
  writeFileSync(join(agent, 'agent.yaml'), 'version: 1\n');
  writeFileSync(join(agent, 'config.toml'), 'api_key = "k"\n');
  const args = bwrapArguments(
    { mode: 'workspace-write', network: false },
    {
      workDir: work,
      additionalDirs: () => [],
      userHome: join(root, 'user'),
      kimiHome: home,
      configFiles: [join(agent, 'config.toml')],
      agentCode: { byFolder: [join(agent, 'agent.yaml')], byFile: [], madeWhenMissing: [] },
      path: undefined,
    },
    work,
    new Set(),
  );
  const held = lastBind(args, '--ro-bind', agent);
  expect(held).toBeGreaterThan(0);
  expect(lastBind(args, '--ro-bind', join(agent, 'config.toml'))).toBeGreaterThan(held);
  expect(args[lastBind(args, '--ro-bind', join(agent, 'config.toml')) - 1]).toBe('/dev/null');
  expect(args.lastIndexOf(home)).toBeGreaterThan(held);
  expect(args[args.lastIndexOf(home) - 1]).toBe('--remount-ro');
  expect(args.slice(held).join(' ')).toContain(`--tmpfs ${home}`);
});

it("a held folder that is itself hidden (the agent's home) stays hidden", () => {
  const work = join(root, 'work-home');
  const home = join(work, 'state', 'home');
  mkdirSync(home, { recursive: true });
  writeFileSync(join(home, 'agent.yaml'), 'version: 1\n');
  const args = bwrapArguments(
    { mode: 'workspace-write', network: false },
    {
      workDir: work,
      additionalDirs: () => [],
      userHome: join(root, 'user'),
      kimiHome: home,
      agentCode: { byFolder: [join(home, 'agent.yaml')], byFile: [], madeWhenMissing: [] },
      path: undefined,
    },
    work,
    new Set(),
  );
  const held = lastBind(args, '--ro-bind', home);
  expect(held).toBeGreaterThan(0);
  expect(args.slice(held).join(' ')).toContain(`--tmpfs ${home} --remount-ro ${home}`);
});
