import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { toolErrorKind } from '../../toolset/tool-errors.js';
import { briefOf, FileToolsHarness, type HarnessOptions } from './test-support/file-tools-harness.js';

let h: FileToolsHarness;

/** For driving the tool's approval and call by hand, as the toolset does, with something in between. */
function directCallContext() {
  const toolCall = { type: 'function' as const, id: '1', function: { name: 'WriteFile', arguments: '{}' } };
  return { toolCall, signal: new AbortController().signal };
}
async function setup(options: HarnessOptions = {}): Promise<FileToolsHarness> {
  h = await FileToolsHarness.create({ specs: ['kimi-ts/tools/file/write-file:WriteFile'], ...options });
  return h;
}
afterEach(async () => {
  await h.dispose();
});

describe('WriteFile', () => {
  it('asks with the action `edit file`, a description and diff blocks, then writes', async () => {
    await setup();
    const path = join(h.workDir, 'notes.txt');
    const result = await h.call('WriteFile', { path: 'notes.txt', content: 'hello\nworld\n' });
    expect(result.is_error).toBe(false);
    expect(result.output).toBe('');
    expect(result.message).toBe('File successfully overwritten. Current size: 12 bytes.');
    const diff = {
      type: 'diff',
      path,
      old_text: '',
      new_text: 'hello\nworld',
      old_start: 1,
      new_start: 1,
      is_summary: false,
    };
    expect(result.display).toEqual([diff]);
    expect(h.requests).toHaveLength(1);
    expect(h.requests[0]).toMatchObject({
      sender: 'WriteFile',
      action: 'edit file',
      description: `Write file \`${path}\``,
      display: [diff],
    });
    expect(await readFile(path, 'utf8')).toBe('hello\nworld\n');
  });

  it('overwrites an existing file, showing only the changed hunk', async () => {
    await setup();
    const path = join(h.workDir, 'f.txt');
    const before = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join('\n');
    await writeFile(path, `${before}\n`);
    const after = before.replace('line 10', 'LINE TEN');
    const result = await h.call('WriteFile', { path: 'f.txt', content: `${after}\n` });
    expect(result.display).toEqual([
      {
        type: 'diff',
        path,
        old_text: 'line 7\nline 8\nline 9\nline 10\nline 11\nline 12\nline 13',
        new_text: 'line 7\nline 8\nline 9\nLINE TEN\nline 11\nline 12\nline 13',
        old_start: 7,
        new_start: 7,
        is_summary: false,
      },
    ]);
  });

  it('appends, creating the file when it is missing', async () => {
    await setup();
    const path = join(h.workDir, 'log.txt');
    const first = await h.call('WriteFile', { path: 'log.txt', content: 'one\n', mode: 'append' });
    expect(first.message).toBe('File successfully appended to. Current size: 4 bytes.');
    const second = await h.call('WriteFile', { path: 'log.txt', content: 'two\n', mode: 'append' });
    expect(second.message).toBe('File successfully appended to. Current size: 8 bytes.');
    expect(second.display).toMatchObject([{ old_text: 'one', new_text: 'one\ntwo' }]);
    expect(await readFile(path, 'utf8')).toBe('one\ntwo\n');
  });

  it('summarises a change to a file of more than 10,000 lines in one block', async () => {
    await setup();
    const content = 'x\n'.repeat(10_001);
    const result = await h.call('WriteFile', { path: 'big.txt', content });
    expect(result.display).toEqual([
      {
        type: 'diff',
        path: join(h.workDir, 'big.txt'),
        old_text: '(0 lines before the change)',
        new_text: '(10001 lines after the change)',
        old_start: 1,
        new_start: 1,
        is_summary: true,
      },
    ]);
  });

  it('leaves the file alone when the user rejects', async () => {
    await setup({ answer: 'reject' });
    const path = join(h.workDir, 'keep.txt');
    await writeFile(path, 'original');
    const result = await h.call('WriteFile', { path: 'keep.txt', content: 'changed' });
    expect(toolErrorKind(result)).toBe('rejected');
    expect(await readFile(path, 'utf8')).toBe('original');
  });

  it('asks with the outside action for an absolute path outside the workspace', async () => {
    await setup();
    const path = join(h.outsideDir, 'o.txt');
    const result = await h.call('WriteFile', { path, content: 'x' });
    expect(result.is_error).toBe(false);
    expect(h.requests[0]).toMatchObject({
      action: 'edit file outside of working directory',
      description: `Write file \`${path}\``,
    });
  });

  it('uses the plain action inside an additional directory', async () => {
    await setup();
    h.additionalDirs.push(h.outsideDir);
    await h.call('WriteFile', { path: join(h.outsideDir, 'o.txt'), content: 'x' });
    expect(h.requests[0]?.action).toBe('edit file');
  });

  it('refuses without asking: relative path outside, missing parent, a directory, an empty path', async () => {
    await setup();
    const outside = await h.call('WriteFile', { path: '../outside/o.txt', content: 'x' });
    expect([outside.message, briefOf(outside)]).toEqual([
      '`../outside/o.txt` is not an absolute path. You must provide an absolute path to write a file outside the working directory.',
      'Invalid path',
    ]);
    const parent = await h.call('WriteFile', { path: 'no/such/dir/f.txt', content: 'x' });
    expect([parent.message, briefOf(parent)]).toEqual([
      '`no/such/dir/f.txt` parent directory does not exist.',
      'Parent directory not found',
    ]);
    await mkdir(join(h.workDir, 'sub'));
    const dir = await h.call('WriteFile', { path: 'sub', content: 'x' });
    expect([dir.message, briefOf(dir)]).toEqual(['`sub` is not a file.', 'Invalid path']);
    const empty = await h.call('WriteFile', { path: '', content: 'x' });
    expect(briefOf(empty)).toBe('Empty file path');
    expect(h.requests).toEqual([]);
    expect(existsSync(join(h.outsideDir, 'o.txt'))).toBe(false);
  });

  it('stays refused when the reason disappears between approval and the call', async () => {
    await setup({ answer: 'approve' });
    // The parent appears while the toolset waits for approval of another call: not re-judged.
    const tool = h.toolset.find('WriteFile')!;
    const params = { path: 'later/f.txt', content: 'x', mode: 'overwrite' };
    const ctx = directCallContext();
    const plan = await tool.approval!(params, ctx);
    expect(plan).toEqual({ autoApprove: 'the call is refused before it changes anything' });
    await mkdir(join(h.workDir, 'later'));
    const result = await tool.call(params, ctx);
    expect(briefOf(result)).toBe('Parent directory not found');
    expect(existsSync(join(h.workDir, 'later', 'f.txt'))).toBe(false);
  });
});

describe('WriteFile in plan mode', () => {
  it('refuses any file but the plan file', async () => {
    await setup();
    h.planMode.active = true;
    const result = await h.call('WriteFile', { path: 'src.ts', content: 'x' });
    expect(result.message).toBe(
      `Plan mode is active. You may only edit the current plan file: \`${h.planMode.planFile}\`.`,
    );
    expect(briefOf(result)).toBe('Plan mode restriction');
    expect(existsSync(join(h.workDir, 'src.ts'))).toBe(false);
    expect(h.requests).toEqual([]);
  });

  it('writes the plan file without asking, creating its folder', async () => {
    await setup({ answer: 'reject' });
    h.planMode.active = true;
    const result = await h.call('WriteFile', { path: h.planMode.planFile, content: '# Plan\n' });
    expect(result.is_error).toBe(false);
    expect(h.requests).toEqual([]);
    expect(await readFile(h.planMode.planFile, 'utf8')).toBe('# Plan\n');
  });

  it('does not write the plan file unasked once plan mode ended before the call ran', async () => {
    await setup();
    h.planMode.active = true;
    await mkdir(join(h.planMode.planFile, '..'), { recursive: true });
    const tool = h.toolset.find('WriteFile')!;
    const params = { path: h.planMode.planFile, content: 'x', mode: 'overwrite' };
    const ctx = directCallContext();
    expect(await tool.approval!(params, ctx)).toHaveProperty('autoApprove');
    h.planMode.active = false;
    const result = await tool.call(params, ctx);
    expect(briefOf(result)).toBe('Plan mode changed');
    expect(existsSync(h.planMode.planFile)).toBe(false);
  });

  it('is free outside plan mode to write where the plan file would be (with approval)', async () => {
    await setup();
    await mkdir(join(h.planMode.planFile, '..'), { recursive: true });
    await h.call('WriteFile', { path: h.planMode.planFile, content: 'x' });
    expect(h.requests).toHaveLength(1);
  });
});
