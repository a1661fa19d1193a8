import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { kimiInstallRoot, workspaceHoldingInstall } from './install-location.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'kimi-ts-install-')));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A project with kimi-ts installed in its node_modules (`npm i -D kimi-ts`). */
const project = join(root, 'project');
const install = join(project, 'node_modules', 'kimi-ts');
mkdirSync(join(install, 'dist', 'bin'), { recursive: true });
writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'app' }));
writeFileSync(join(install, 'package.json'), JSON.stringify({ name: 'kimi-ts', version: '0.1.0' }));
writeFileSync(join(install, 'dist', 'bin', 'cli.bundle.cjs'), '');
symlinkSync(project, join(root, 'project-link'));

describe('where kimi-ts runs from', () => {
  it('is the folder of the package.json named kimi-ts above its code, not the project around it', () => {
    expect(kimiInstallRoot(join(install, 'dist', 'bin', 'cli.bundle.cjs'))).toBe(install);
  });

  it('is none when no such package.json is found', () => {
    expect(kimiInstallRoot(join(project, 'src', 'x.js'))).toBeNull();
  });

  it('names the writable folder that holds it, by real path', () => {
    expect(workspaceHoldingInstall([join(root, 'elsewhere'), project], install)).toBe(project);
    expect(workspaceHoldingInstall([join(root, 'project-link')], install)).toBe(project);
    expect(workspaceHoldingInstall([join(root, 'elsewhere')], install)).toBeNull();
    expect(workspaceHoldingInstall([project], null)).toBeNull();
  });
});
