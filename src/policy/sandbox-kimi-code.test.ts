import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { kimiCodeFolders, kimiCodeReadOnly, kimiNpmConfigFiles } from './sandbox-kimi-code.js';
import { sandboxWritable } from './sandbox-protected.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'kimi-ts-code-')));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** `npm i -D kimi-ts` in a project that is the workspace. */
const project = join(root, 'project');
const installed = join(project, 'node_modules', 'kimi-ts');
mkdirSync(join(installed, 'dist'), { recursive: true });

/** A clone of kimi-ts worked on: the workspace is the install. */
const clone = join(root, 'clone');
mkdirSync(join(clone, 'dist'), { recursive: true });
mkdirSync(join(clone, 'node_modules'));

describe("kimi-ts's own code in a writable folder", () => {
  it('installed in the project: the whole node_modules it is looked up in (the install is in it)', () => {
    expect(kimiCodeFolders([project], installed)).toEqual([join(project, 'node_modules')]);
  });

  it('a scoped install counts as installed too', () => {
    const scoped = join(project, 'node_modules', '@me', 'kimi-ts');
    expect(kimiCodeFolders([project], scoped)).toEqual([join(project, 'node_modules')]);
  });

  it('a clone worked on: its dist and node_modules, not its sources', () => {
    expect(kimiCodeFolders([clone], clone)).toEqual([join(clone, 'dist'), join(clone, 'node_modules')]);
  });

  it('a workspace above the project: the node_modules of every folder up to it, made or not', () => {
    expect(kimiCodeFolders([root], installed)).toEqual([
      join(project, 'node_modules'),
      join(root, 'node_modules'),
    ]);
  });

  it('nothing when the install is outside every writable folder, or unknown', () => {
    expect(kimiCodeFolders([clone], installed)).toEqual([]);
    expect(kimiCodeFolders([join(project, 'src')], installed)).toEqual([]);
    expect(kimiCodeFolders([project], null)).toEqual([]);
  });

  it('a node_modules that is a link to elsewhere in the workspace: where it leads', () => {
    const linked = join(root, 'linked');
    mkdirSync(join(linked, 'dist'), { recursive: true });
    mkdirSync(join(linked, 'store'));
    symlinkSync(join(linked, 'store'), join(linked, 'node_modules'));
    expect(kimiCodeFolders([linked], linked)).toEqual([join(linked, 'dist'), join(linked, 'store')]);
  });
});

describe("npm's project config on the way to the install (`node-options` of the next `npx kimi-ts`)", () => {
  it('the .npmrc of each folder from the install up to the root, none inside the code folders', () => {
    expect(kimiNpmConfigFiles([project], installed)).toEqual([join(project, '.npmrc')]);
    expect(kimiNpmConfigFiles([clone], clone)).toEqual([join(clone, '.npmrc')]);
    const tools = join(root, 'with-tools');
    const inTools = join(tools, 'tools', 'kimi-ts');
    mkdirSync(inTools, { recursive: true });
    expect(kimiNpmConfigFiles([tools], inTools)).toEqual([
      join(inTools, '.npmrc'),
      join(tools, 'tools', '.npmrc'),
      join(tools, '.npmrc'),
    ]);
    expect(kimiNpmConfigFiles([join(project, 'src')], installed)).toEqual([]);
    expect(kimiNpmConfigFiles([project], null)).toEqual([]);
  });
});

describe('the sandbox keeps that code read-only', () => {
  it('binds each folder onto itself, making a missing one first (a placeholder, removed later)', () => {
    // This process's own install (the repository, or its dist in a temp clone) is not in `root`.
    const placeholders = new Set<string>();
    expect(kimiCodeReadOnly(kimiCodeFolders([root]), placeholders)).toEqual([]);
    expect(placeholders.size).toBe(0);
  });

  it("the file tools' write check refuses a write into it", () => {
    // By this process's install: a writable root holding it refuses writes in its code folders.
    const [code] = kimiCodeFolders([realpathSync('/')]);
    expect(code, 'this process runs from the repository: it has an install folder').toBeDefined();
    if (code === undefined) return;
    expect(sandboxWritable(join(code, 'x.js'), [realpathSync('/')])).toBe(false);
    expect(sandboxWritable(join(root, 'x.js'), [root])).toBe(true);
  });
});
