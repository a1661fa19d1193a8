import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { keptReadOnlyByHome } from './sandbox-home.js';
import { kimiCodeFolders } from './sandbox-kimi-code.js';
import { pinnedParents, pinsWithin } from './sandbox-pinned-parents.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'kimi-ts-pins-')));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const none = () => false;

describe('the folders between a writable root and what the sandbox holds in it', () => {
  it('a clone of kimi-ts in a plain subfolder: each folder on the way, outermost first', () => {
    const workspace = join(root, 'clone-in-tools');
    const install = join(workspace, 'tools', 'kimi-ts');
    mkdirSync(join(install, 'dist'), { recursive: true });
    const folders = kimiCodeFolders([workspace], install);
    expect(folders).toEqual([
      join(install, 'dist'),
      join(install, 'node_modules'),
      join(workspace, 'tools', 'node_modules'),
      join(workspace, 'node_modules'),
    ]);
    const tools = join(workspace, 'tools');
    expect(pinnedParents(folders, [workspace], none)).toEqual([
      '--bind',
      tools,
      tools,
      '--bind',
      install,
      install,
    ]);
    // Gone (moved away outside the sandbox): nothing held is there, nothing bound.
    rmSync(tools, { recursive: true });
    expect(pinnedParents(folders, [workspace], none)).toEqual([]);
  });

  it('none in the usual layouts: installed in the workspace, a clone worked on, a config beside the work', () => {
    const project = join(root, 'project');
    const installed = join(project, 'node_modules', 'kimi-ts');
    mkdirSync(join(installed, 'dist'), { recursive: true });
    expect(pinnedParents(kimiCodeFolders([project], installed), [project], none)).toEqual([]);
    expect(pinnedParents([join(project, 'kimi.toml'), project], [project], none)).toEqual([]);
    expect(pinnedParents([join(root, 'elsewhere', 'kimi.toml')], [project], none)).toEqual([]);
  });

  it('a config file and an agent home deeper in the workspace; a symlink on the way is not bound', () => {
    const workspace = join(root, 'deep');
    mkdirSync(join(workspace, 'conf', 'kimi'), { recursive: true });
    mkdirSync(join(workspace, 'state', 'home'), { recursive: true });
    symlinkSync(join(workspace, 'state'), join(workspace, 'linked'));
    const pins = pinnedParents(
      [
        join(workspace, 'conf', 'kimi', 'kimi.toml'),
        join(workspace, 'state', 'home'),
        join(workspace, 'linked', 'x', 'y'),
      ],
      [workspace],
      none,
    );
    const paths = [join(workspace, 'conf'), join(workspace, 'state'), join(workspace, 'conf', 'kimi')];
    expect(pins).toEqual(paths.flatMap((p) => ['--bind', p, p]));
    expect(pinsWithin(pins, join(workspace, 'conf'))).toEqual(
      [paths[0]!, paths[2]!].flatMap((p) => ['--bind', p, p]),
    );
  });

  it("the innermost root holding a path; the home's dot folders, read-only already, are not bound again", () => {
    const home = join(root, 'home');
    const addDir = join(home, '.local', 'share', 'proj');
    mkdirSync(join(addDir, 'conf'), { recursive: true });
    mkdirSync(join(home, '.config', 'gh'), { recursive: true });
    mkdirSync(join(home, 'work', 'conf'), { recursive: true });
    const held = [
      join(home, '.config', 'gh', 'hosts.yml'),
      join(home, 'work', 'conf', 'kimi.toml'),
      join(addDir, 'conf', 'kimi.toml'),
    ];
    const pins = pinnedParents(held, [home, addDir], (dir, r) => keptReadOnlyByHome(dir, r, home));
    const paths = [join(home, 'work'), join(home, 'work', 'conf'), join(addDir, 'conf')];
    expect(pins).toEqual(paths.flatMap((p) => ['--bind', p, p]));
  });
});
