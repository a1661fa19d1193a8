import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { toolErrorKind } from '../../toolset/tool-errors.js';
import { briefOf, FileToolsHarness } from './test-support/file-tools-harness.js';
import { applyEdits } from './text-edits.js';

let h: FileToolsHarness;
beforeEach(async () => {
  h = await FileToolsHarness.create({ specs: ['kimi-ts/tools/file/str-replace-file:StrReplaceFile'] });
});
afterEach(async () => {
  await h.dispose();
});

async function put(name: string, content: string): Promise<string> {
  const path = join(h.workDir, name);
  await writeFile(path, content);
  return path;
}

describe('StrReplaceFile', () => {
  it('replaces the first occurrence, asking with `edit file` and the diff', async () => {
    const path = await put('a.py', 'x = 1\ny = 1\nx = 1\n');
    const result = await h.call('StrReplaceFile', { path: 'a.py', edit: { old: 'x = 1', new: 'x = 2' } });
    expect(result.is_error).toBe(false);
    expect(result.message).toBe('File successfully edited. Applied 1 edit(s) with 1 total replacement(s).');
    expect(await readFile(path, 'utf8')).toBe('x = 2\ny = 1\nx = 1\n');
    const diff = {
      type: 'diff',
      path,
      old_text: 'x = 1\ny = 1\nx = 1',
      new_text: 'x = 2\ny = 1\nx = 1',
      old_start: 1,
      new_start: 1,
      is_summary: false,
    };
    expect(result.display).toEqual([diff]);
    expect(h.requests[0]).toMatchObject({
      sender: 'StrReplaceFile',
      action: 'edit file',
      description: `Edit file \`${path}\``,
      display: [diff],
    });
  });

  it('applies a list of edits in order, counting replace_all occurrences', async () => {
    const path = await put('b.txt', 'foo foo bar\nbaz\n');
    const result = await h.call('StrReplaceFile', {
      path: 'b.txt',
      edit: [
        { old: 'foo', new: 'qux', replace_all: true },
        { old: 'baz', new: 'BAZ' },
      ],
    });
    expect(result.message).toBe('File successfully edited. Applied 2 edit(s) with 3 total replacement(s).');
    expect(await readFile(path, 'utf8')).toBe('qux qux bar\nBAZ\n');
  });

  it('treats replacement text literally ($& and friends)', async () => {
    const path = await put('c.txt', 'price\n');
    await h.call('StrReplaceFile', { path: 'c.txt', edit: { old: 'price', new: "$& costs $$5 $'" } });
    expect(await readFile(path, 'utf8')).toBe("$& costs $$5 $'\n");
  });

  it('edits CRLF files when the model writes LF line breaks', async () => {
    const path = await put('win.txt', 'one\r\ntwo\r\nthree\r\n');
    const result = await h.call('StrReplaceFile', {
      path: 'win.txt',
      edit: { old: 'one\ntwo', new: '1\n2' },
    });
    expect(result.is_error).toBe(false);
    expect(await readFile(path, 'utf8')).toBe('1\r\n2\r\nthree\r\n');
  });

  it('fails when nothing changes, without asking', async () => {
    await put('d.txt', 'abc\n');
    const missing = await h.call('StrReplaceFile', { path: 'd.txt', edit: { old: 'zzz', new: 'y' } });
    expect([missing.message, briefOf(missing)]).toEqual([
      'No replacements were made. The old string was not found in the file.',
      'No replacements made',
    ]);
    const same = await h.call('StrReplaceFile', { path: 'd.txt', edit: { old: 'abc', new: 'abc' } });
    expect(briefOf(same)).toBe('No replacements made');
    const empty = await h.call('StrReplaceFile', { path: 'd.txt', edit: { old: '', new: 'y' } });
    expect(briefOf(empty)).toBe('Invalid edit');
    expect(h.requests).toEqual([]);
  });

  it('reports a missing file, a directory and a relative path outside the workspace', async () => {
    const missing = await h.call('StrReplaceFile', { path: 'nope.txt', edit: { old: 'a', new: 'b' } });
    expect([missing.message, briefOf(missing)]).toEqual(['`nope.txt` does not exist.', 'File not found']);
    await mkdir(join(h.workDir, 'sub'));
    const dir = await h.call('StrReplaceFile', { path: 'sub', edit: { old: 'a', new: 'b' } });
    expect([dir.message, briefOf(dir)]).toEqual(['`sub` is not a file.', 'Invalid path']);
    const outside = await h.call('StrReplaceFile', { path: '../outside/x', edit: { old: 'a', new: 'b' } });
    expect(outside.message).toBe(
      '`../outside/x` is not an absolute path. You must provide an absolute path to edit a file outside the working directory.',
    );
  });

  it('asks with the outside action for an absolute path outside the workspace', async () => {
    const path = join(h.outsideDir, 'o.txt');
    await writeFile(path, 'old');
    await h.call('StrReplaceFile', { path, edit: { old: 'old', new: 'new' } });
    expect(h.requests[0]).toMatchObject({
      action: 'edit file outside of working directory',
      description: `Edit file \`${path}\``,
    });
    expect(await readFile(path, 'utf8')).toBe('new');
  });

  it('leaves the file alone when the user rejects', async () => {
    await h.dispose();
    h = await FileToolsHarness.create({
      specs: ['kimi-ts/tools/file/str-replace-file:StrReplaceFile'],
      answer: 'reject',
    });
    const path = await put('keep.txt', 'keep');
    const result = await h.call('StrReplaceFile', { path: 'keep.txt', edit: { old: 'keep', new: 'lose' } });
    expect(toolErrorKind(result)).toBe('rejected');
    expect(await readFile(path, 'utf8')).toBe('keep');
  });
});

describe('StrReplaceFile in plan mode', () => {
  it('refuses files other than the plan file', async () => {
    await put('src.ts', 'a');
    h.planMode.active = true;
    const result = await h.call('StrReplaceFile', { path: 'src.ts', edit: { old: 'a', new: 'b' } });
    expect(briefOf(result)).toBe('Plan mode restriction');
    expect(await readFile(join(h.workDir, 'src.ts'), 'utf8')).toBe('a');
  });

  it('asks for the plan file to be created first, then edits it without asking', async () => {
    h.planMode.active = true;
    const plan = h.planMode.planFile;
    const early = await h.call('StrReplaceFile', { path: plan, edit: { old: 'a', new: 'b' } });
    expect(early.message).toBe(
      'The current plan file does not exist yet. Use WriteFile to create it before calling StrReplaceFile.',
    );
    await mkdir(join(plan, '..'), { recursive: true });
    await writeFile(plan, '# Plan\n- step a\n');
    const result = await h.call('StrReplaceFile', { path: plan, edit: { old: 'step a', new: 'step b' } });
    expect(result.is_error).toBe(false);
    expect(h.requests).toEqual([]);
    expect(await readFile(plan, 'utf8')).toBe('# Plan\n- step b\n');
  });
});

describe('applyEdits', () => {
  it('counts replacements against the original text', () => {
    // The second edit's text only exists after the first edit: it applies but counts 0.
    expect(
      applyEdits('a', [
        { old: 'a', new: 'b', replace_all: false },
        { old: 'b', new: 'c', replace_all: false },
      ]),
    ).toEqual({ text: 'c', replacements: 1 });
  });
});
