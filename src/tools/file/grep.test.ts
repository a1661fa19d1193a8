import { execFileSync } from 'node:child_process';
import { mkdir, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGrepTool, type GrepBackend } from './grep.js';
import { findRipgrep } from './search/find-ripgrep.js';
import { briefOf, FileToolsHarness, outputText } from './test-support/file-tools-harness.js';

const hasRipgrep = findRipgrep() !== null;

let h: FileToolsHarness;
afterEach(async () => {
  await h.dispose();
});

async function put(path: string, content: string | Buffer, mtimeSeconds?: number): Promise<void> {
  const full = join(h.workDir, path);
  await mkdir(join(full, '..'), { recursive: true });
  await writeFile(full, content);
  if (mtimeSeconds !== undefined) await utimes(full, mtimeSeconds, mtimeSeconds);
}

/** A small repository: ignored, hidden, binary, secret and version-control files around real code. */
async function buildTree(): Promise<void> {
  await put('.git/HEAD', 'ref: refs/heads/main needle\n');
  await put('.gitignore', 'build/\n*.log\n');
  await put('src/app.ts', 'import x from "y";\nconst needle = 1;\nexport default needle;\n', 1_000_003);
  await put('src/util.ts', 'export const a = 1;\n', 1_000_002);
  await put('src/.hidden.ts', '// needle in a hidden file\n', 1_000_001);
  await put('README.md', 'The Needle project.\n', 1_000_000);
  await put('build/out.js', 'needle();\n');
  await put('debug.log', 'needle\n');
  await put('.env', 'API_KEY=needle-secret\n');
  // Secret by content only: a pasted token in an ordinary file.
  await put('notes/tokens.txt', `needle ghp_${'k'.repeat(36)}\n`);
  await put('data.bin', Buffer.from('needle\u0000binary'));
}

const backends: { name: GrepBackend; available: boolean }[] = [
  { name: 'builtin', available: true },
  { name: 'ripgrep', available: hasRipgrep },
];

describe.each(backends)('Grep with the $name search', ({ name, available }) => {
  beforeEach(async () => {
    h = await FileToolsHarness.create({ specs: [] });
    h.toolset.add(
      createGrepTool({ workDir: h.workDir, policy: h.toolset.policy, description: 'grep', backend: name }),
    );
    await buildTree();
  });

  const grep = (args: Record<string, unknown>) => h.call('Grep', args);

  it.skipIf(!available)(
    'lists matching files, newest first, without ignored, binary, VCS or secret files',
    async () => {
      const result = await grep({ pattern: 'needle' });
      expect(result.is_error).toBe(false);
      expect(result.output).toBe('src/app.ts\nsrc/.hidden.ts');
      // Left out without a word: a note naming them only when they match would answer guesses.
      expect(result.message).toBe('');
      expect(JSON.stringify(result)).not.toContain('needle-secret');
      expect(JSON.stringify(result)).not.toContain('tokens.txt');
    },
  );

  it.skipIf(!available)('searches ignored files with include_ignored, and ignores case with -i', async () => {
    const all = await grep({ pattern: 'needle', include_ignored: true, '-i': true });
    expect(String(all.output).split('\n').sort()).toEqual([
      'README.md',
      'build/out.js',
      'debug.log',
      'src/.hidden.ts',
      'src/app.ts',
    ]);
  });

  it.skipIf(!available)(
    'refuses a FIFO named as the path at once, instead of reading it until the timeout',
    async () => {
      execFileSync('mkfifo', [join(h.workDir, 'pipe')]);
      const result = await grep({ pattern: 'needle', path: 'pipe', output_mode: 'content' });
      expect(result.is_error).toBe(true);
      expect(result.output).toBe('');
      expect(result.message).toContain('`pipe` is not a file or folder.');
    },
  );

  it.skipIf(!available)('shows matching lines with numbers, or without', async () => {
    const numbered = await grep({ pattern: 'needle', output_mode: 'content', path: 'src' });
    expect(numbered.output).toBe(
      '.hidden.ts:1:// needle in a hidden file\napp.ts:2:const needle = 1;\napp.ts:3:export default needle;',
    );
    const plain = await grep({ pattern: 'export', output_mode: 'content', '-n': false });
    expect(plain.output).toBe('src/app.ts:export default needle;\nsrc/util.ts:export const a = 1;');
  });

  it.skipIf(!available)('adds context lines with - separators and -- between groups', async () => {
    await put('ctx.txt', ['a', 'MATCH 1', 'b', 'c', 'd', 'e', 'MATCH 2', 'f'].join('\n'));
    const around = await grep({ pattern: 'MATCH', path: 'ctx.txt', output_mode: 'content', '-C': 1 });
    expect(around.output).toBe(
      [
        'ctx.txt-1-a',
        'ctx.txt:2:MATCH 1',
        'ctx.txt-3-b',
        '--',
        'ctx.txt-6-e',
        'ctx.txt:7:MATCH 2',
        'ctx.txt-8-f',
      ].join('\n'),
    );
    const after = await grep({
      pattern: 'MATCH 1',
      path: 'ctx.txt',
      output_mode: 'content',
      '-A': 2,
      '-C': 5,
    });
    // -A wins over -C for the lines after; -C still gives the lines before.
    expect(after.output).toBe(['ctx.txt-1-a', 'ctx.txt:2:MATCH 1', 'ctx.txt-3-b', 'ctx.txt-4-c'].join('\n'));
    const ignored = await grep({ pattern: 'MATCH 1', path: 'ctx.txt', '-C': 3 });
    expect(ignored.output).toBe('ctx.txt');
  });

  it.skipIf(!available)('counts matches per file with a total', async () => {
    await put('src/many.ts', 'needle needle\nneedle\n');
    const result = await grep({ pattern: 'needle', output_mode: 'count_matches', path: 'src' });
    expect(result.output).toBe('.hidden.ts:1\napp.ts:2\nmany.ts:3');
    expect(result.message).toBe('Found 6 total occurrences across 3 files.');
  });

  it.skipIf(!available)('filters by glob (with braces and negation) and by type', async () => {
    expect((await grep({ pattern: 'needle', glob: '*.md', '-i': true })).output).toBe('README.md');
    expect(
      (await grep({ pattern: 'ee', glob: '*.{md,ts}', '-i': true, output_mode: 'count_matches' })).output,
    ).toBe('README.md:1\nsrc/.hidden.ts:1\nsrc/app.ts:2');
    expect((await grep({ pattern: 'needle', glob: '!src/**' })).output).toBe('');
    expect((await grep({ pattern: 'needle', type: 'md', '-i': true })).output).toBe('README.md');
    const unknown = await grep({ pattern: 'needle', type: 'no-such-type' });
    expect(unknown.is_error).toBe(true);
    expect(unknown.message).toMatch(/^Failed to grep\. Error: .*no-such-type/);
  });

  it.skipIf(!available)('returns 250 lines by default and pages through the rest with offset', async () => {
    await put('lots.txt', Array.from({ length: 251 }, (_, i) => `hit ${i + 1}`).join('\n'));
    const first = await grep({ pattern: 'hit', path: 'lots.txt', output_mode: 'content' });
    const lines = outputText(first).split('\n');
    expect(lines).toHaveLength(250);
    expect(lines.at(-1)).toBe('lots.txt:250:hit 250');
    expect(first.message).toBe('Results truncated to 250 lines (total: 251). Use offset=250 to see more.');
    const next = await grep({ pattern: 'hit', path: 'lots.txt', output_mode: 'content', offset: 250 });
    expect([next.output, next.message]).toEqual(['lots.txt:251:hit 251', '']);
    const all = await grep({ pattern: 'hit', path: 'lots.txt', output_mode: 'content', head_limit: 0 });
    expect(outputText(all).split('\n')).toHaveLength(251);
    const exact = await grep({
      pattern: 'hit [0-9]{1,2}$|hit 1[0-9]{2}$|hit 2[0-4][0-9]$|hit 250$',
      path: 'lots.txt',
      output_mode: 'content',
    });
    expect(outputText(exact).split('\n')).toHaveLength(250);
    expect(exact.message).toBe('');
    const page = await grep({
      pattern: 'hit',
      path: 'lots.txt',
      output_mode: 'content',
      head_limit: 10,
      offset: 20,
    });
    expect(outputText(page).split('\n')[0]).toBe('lots.txt:21:hit 21');
    expect(page.message).toBe('Results truncated to 10 lines (total: 251). Use offset=30 to see more.');
  });

  it.skipIf(!available)('matches across lines in multiline mode', async () => {
    await put('m.txt', 'one\nstart here\nmiddle\nend there\ntwo\n');
    const single = await grep({ pattern: 'start.*end', path: 'm.txt', output_mode: 'content' });
    expect(single.message).toBe('No matches found.');
    const multi = await grep({
      pattern: 'start.*end',
      path: 'm.txt',
      output_mode: 'content',
      multiline: true,
    });
    expect(multi.output).toBe('m.txt:2:start here\nm.txt:3:middle\nm.txt:4:end there');
  });

  it.skipIf(!available)('reports no matches, a missing path and a bad pattern', async () => {
    const none = await grep({ pattern: 'zebra' });
    expect([none.is_error, none.output, none.message]).toEqual([false, '', 'No matches found.']);
    const missing = await grep({ pattern: 'x', path: 'nowhere' });
    expect([missing.message, briefOf(missing)]).toEqual(['`nowhere` does not exist.', 'Path not found']);
    const bad = await grep({ pattern: 'unclosed(' });
    expect(briefOf(bad)).toBe('Failed to grep');
    expect(bad.message).toMatch(/^Failed to grep\. Error: /);
  });

  it.skipIf(!available)('searches outside the workspace when given a path there', async () => {
    await writeFile(join(h.outsideDir, 'far.txt'), 'needle far away\n');
    const result = await grep({ pattern: 'needle', path: h.outsideDir, output_mode: 'content' });
    expect(result.output).toBe('far.txt:1:needle far away');
  });

  it.skipIf(!available)('keeps sensitive files out of content and counts too', async () => {
    const content = await grep({ pattern: 'API_KEY', output_mode: 'content' });
    expect(content.output).toBe('');
    expect(content.message).toBe('No matches found.');
    // A right guess and a wrong one about the secret answer the same in count mode.
    const right = await grep({ pattern: 'API_KEY=needle-s', output_mode: 'count_matches' });
    const wrong = await grep({ pattern: 'API_KEY=needle-x', output_mode: 'count_matches' });
    expect([right.output, right.message]).toEqual([wrong.output, wrong.message]);
    const token = await grep({ pattern: 'ghp_k', output_mode: 'count_matches' });
    expect([token.output, token.message]).toEqual(['', 'No matches found.']);
  });
});

describe('Grep with the built-in search: limits', () => {
  beforeEach(async () => {
    h = await FileToolsHarness.create({ specs: [] });
    await buildTree();
  });

  it('returns what it found when the time is up, and fails when it found nothing', async () => {
    h.toolset.add(
      createGrepTool({
        workDir: h.workDir,
        policy: h.toolset.policy,
        description: '',
        backend: 'builtin',
        timeoutMs: 0,
      }),
    );
    // Files are searched in name order and the clock is checked after each: `.hidden.ts` comes first.
    const partial = await h.call('Grep', { pattern: 'needle', path: 'src' });
    expect(partial.output).toBe('.hidden.ts');
    expect(partial.message).toBe('Grep timed out after 0s. Partial results returned.');
    const nothing = await h.call('Grep', { pattern: 'export', path: 'src' });
    expect([nothing.message, briefOf(nothing)]).toEqual([
      'Grep timed out after 0s. Try a more specific path or pattern.',
      'Grep timed out',
    ]);
  });

  it('stops at the output budget', async () => {
    h.toolset.add(
      createGrepTool({
        workDir: h.workDir,
        policy: h.toolset.policy,
        description: '',
        backend: 'builtin',
        maxOutputBytes: 10,
      }),
    );
    const result = await h.call('Grep', { pattern: 'e', output_mode: 'content', path: 'src' });
    expect(result.message).toBe('Output exceeded buffer limit. Some results omitted.');
    expect(outputText(result).split('\n')).toHaveLength(1);
  });
});
