import { chmod, mkdir, readFile, rename, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileToolsHarness } from './test-support/file-tools-harness.js';

let h: FileToolsHarness;
afterEach(async () => {
  await h.dispose();
});

function directCallContext(name: string) {
  const toolCall = { type: 'function' as const, id: '1', function: { name, arguments: '{}' } };
  return { toolCall, signal: new AbortController().signal };
}

/** Drives approval, then `between` (what an attacker does while the person reads), then the call. */
async function approveSwapCall(tool: string, params: object, between: () => Promise<void>) {
  const found = h.toolset.find(tool)!;
  const parsed = found.parse(params);
  if (!parsed.ok) throw new Error('bad params');
  const ctx = directCallContext(tool);
  const plan = await found.approval!(parsed.params, ctx);
  await between();
  return { plan, result: await found.call(parsed.params, ctx) };
}

describe('file writes land where the approval said, or nowhere', () => {
  it('WriteFile: a symlink swapped in for the file after the approval is not followed', async () => {
    h = await FileToolsHarness.create({ specs: ['kimi-ts/tools/file/write-file:WriteFile'] });
    const notes = join(h.workDir, 'notes.txt');
    const victim = join(h.outsideDir, 'victim.txt');
    await writeFile(notes, 'old notes\n');
    await writeFile(victim, 'precious\n');
    const { result } = await approveSwapCall(
      'WriteFile',
      { path: 'notes.txt', content: 'pwned\n' },
      async () => {
        await rename(notes, `${notes}.moved`);
        await symlink(victim, notes);
      },
    );
    expect(result.is_error).toBe(true);
    expect(result.message).toContain('changed after the change was approved');
    expect(result.message).toContain(victim);
    expect(await readFile(victim, 'utf8')).toBe('precious\n');
  });

  it('WriteFile append: a symlink swapped in is not followed', async () => {
    h = await FileToolsHarness.create({ specs: ['kimi-ts/tools/file/write-file:WriteFile'] });
    const notes = join(h.workDir, 'notes.txt');
    const victim = join(h.outsideDir, 'victim.txt');
    await writeFile(notes, 'old\n');
    await writeFile(victim, 'precious\n');
    const { result } = await approveSwapCall(
      'WriteFile',
      { path: 'notes.txt', content: 'more\n', mode: 'append' },
      async () => {
        await rename(notes, `${notes}.moved`);
        await symlink(victim, notes);
      },
    );
    expect(result.is_error).toBe(true);
    expect(await readFile(victim, 'utf8')).toBe('precious\n');
  });

  it('StrReplaceFile: a parent folder swapped for a symlink after the approval is not followed', async () => {
    h = await FileToolsHarness.create({ specs: ['kimi-ts/tools/file/str-replace-file:StrReplaceFile'] });
    const dir = join(h.workDir, 'docs');
    await mkdir(dir);
    await writeFile(join(dir, 'a.txt'), 'alpha\n');
    const outsideDocs = join(h.outsideDir, 'docs');
    await mkdir(outsideDocs);
    await writeFile(join(outsideDocs, 'a.txt'), 'alpha\n');
    const { result } = await approveSwapCall(
      'StrReplaceFile',
      { path: 'docs/a.txt', edit: { old: 'alpha', new: 'beta' } },
      async () => {
        await rename(dir, `${dir}.moved`);
        await symlink(outsideDocs, dir);
      },
    );
    expect(result.is_error).toBe(true);
    expect(result.message).toContain('changed after the change was approved');
    expect(await readFile(join(outsideDocs, 'a.txt'), 'utf8')).toBe('alpha\n');
  });

  it('a relative path with `..` that leads outside is refused; one that stays inside works', async () => {
    h = await FileToolsHarness.create({ specs: ['kimi-ts/tools/file/write-file:WriteFile'] });
    await mkdir(join(h.workDir, 'sub'));
    const outside = await h.call('WriteFile', { path: '../outside/x.txt', content: 'x' });
    expect(outside.is_error).toBe(true);
    const inside = await h.call('WriteFile', { path: 'sub/../y.txt', content: 'y' });
    expect(inside.is_error).toBe(false);
    expect(await readFile(join(h.workDir, 'y.txt'), 'utf8')).toBe('y');
  });

  it('the approval names the real file when the path goes through a symlink that was there', async () => {
    h = await FileToolsHarness.create({ specs: ['kimi-ts/tools/file/write-file:WriteFile'] });
    const real = join(h.workDir, 'real.txt');
    await writeFile(real, 'a\n');
    await symlink(real, join(h.workDir, 'link.txt'));
    const result = await h.call('WriteFile', { path: 'link.txt', content: 'b\n' });
    expect(result.is_error).toBe(false);
    expect(h.requests[0]?.description).toContain(`the file written is \`${real}\``);
    expect(await readFile(real, 'utf8')).toBe('b\n');
  });

  it('an edit keeps the file mode (a 0600 file stays 0600)', async () => {
    h = await FileToolsHarness.create({ specs: ['kimi-ts/tools/file/str-replace-file:StrReplaceFile'] });
    const file = join(h.workDir, 'private.txt');
    await writeFile(file, 'alpha\n');
    await chmod(file, 0o600);
    const result = await h.call('StrReplaceFile', {
      path: 'private.txt',
      edit: { old: 'alpha', new: 'beta' },
    });
    expect(result.is_error).toBe(false);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await readFile(file, 'utf8')).toBe('beta\n');
  });
});
