import { watch } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { toolKit } from '../../toolset/loading/dependencies.js';
import { cleanDispatch, toolCall } from '../../toolset/test-support/dispatch.js';
import { testPolicy } from '../../toolset/test-support/test-policy.js';
import { toolErrorKind } from '../../toolset/tool-errors.js';
import { createGrepTool, GREP_BACKEND_ENV, Grep } from './grep.js';
import { findRipgrep } from './search/find-ripgrep.js';
import { ripgrepArgs } from './search/ripgrep-search.js';
import { briefOf, FileToolsHarness } from './test-support/file-tools-harness.js';

let h: FileToolsHarness;
beforeEach(async () => {
  h = await FileToolsHarness.create({ specs: [] });
});
afterEach(async () => {
  await h.dispose();
});

/** A stand-in `rg`: a real executable whose behaviour the test scripts (it ignores the search itself). */
async function fakeRipgrep(script: string): Promise<string> {
  const path = join(h.root, 'fake-rg');
  await writeFile(path, `#!/bin/sh\n${script}\n`, { mode: 0o755 });
  return path;
}

/** Resolves with the pid the fake rg writes to `pidFile` once it runs. */
function pidWhenStarted(pidFile: string): Promise<number> {
  return new Promise((resolve) => {
    const watcher = watch(h.root, () => check());
    const check = (): void => {
      readFile(pidFile, 'utf8').then(
        (text) => {
          if (!text.endsWith('\n')) return;
          watcher.close();
          resolve(Number(text.trim()));
        },
        () => {},
      );
    };
    check();
  });
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('Grep over a ripgrep process', () => {
  it('passes the fixed arguments and the parameters to ripgrep', () => {
    const args = ripgrepArgs({
      pattern: '-dash',
      searchPath: '/w',
      workDir: '/w',
      glob: '*.ts',
      fileType: 'ts',
      mode: 'files_with_matches',
      before: 0,
      after: 0,
      ignoreCase: true,
      multiline: true,
      includeIgnored: true,
    });
    expect(args).toEqual([
      '--no-config',
      '--hidden',
      ...['.git', '.svn', '.hg', '.bzr', '.jj', '.sl'].flatMap((dir) => ['--glob', `!${dir}`]),
      '--max-columns',
      '500',
      '--ignore-case',
      '--multiline',
      '--multiline-dotall',
      '--no-ignore',
      '--glob',
      '*.ts',
      '--type',
      'ts',
      '--files-with-matches',
      '--null',
      '--',
      '-dash',
      '/w',
    ]);
  });

  it('kills ripgrep at the deadline and returns what it printed so far', async () => {
    const pidFile = join(h.root, 'pid');
    const rg = await fakeRipgrep(
      `printf '%s\\0' "${h.workDir}/found.txt"\necho $$ > "${pidFile}"\nexec sleep 30`,
    );
    h.toolset.add(
      createGrepTool({
        workDir: h.workDir,
        policy: h.toolset.policy,
        description: '',
        ripgrepPath: rg,
        timeoutMs: 300,
      }),
    );
    const result = await h.call('Grep', { pattern: 'x' });
    expect(result.output).toBe('found.txt');
    expect(result.message).toBe('Grep timed out after 0.3s. Partial results returned.');
    expect(isRunning(Number((await readFile(pidFile, 'utf8')).trim()))).toBe(false);
  });

  it('kills ripgrep when the call is cancelled', async () => {
    const pidFile = join(h.root, 'pid');
    const rg = await fakeRipgrep(`echo $$ > "${pidFile}"\nexec sleep 30`);
    h.toolset.add(
      createGrepTool({ workDir: h.workDir, policy: h.toolset.policy, description: '', ripgrepPath: rg }),
    );
    const controller = new AbortController();
    const pending = Promise.resolve(
      h.toolset.handle(toolCall('1', 'Grep', { pattern: 'x' }), cleanDispatch(controller.signal)),
    );
    const pid = await pidWhenStarted(pidFile);
    expect(isRunning(pid)).toBe(true);
    controller.abort();
    const result = await pending;
    expect(toolErrorKind(result.return_value)).toBe('cancelled');
    expect(isRunning(pid)).toBe(false);
  });

  it('retries once with one thread when ripgrep cannot start its threads', async () => {
    const log = join(h.root, 'calls');
    const rg = await fakeRipgrep(
      [
        `echo "$*" >> "${log}"`,
        'case " $* " in',
        `  *" -j 1 "*) printf '%s\\0' "${h.workDir}/a.txt"; exit 0;;`,
        '  *) echo "failed to spawn thread: Resource temporarily unavailable (os error 11) EAGAIN" >&2; exit 2;;',
        'esac',
      ].join('\n'),
    );
    h.toolset.add(
      createGrepTool({ workDir: h.workDir, policy: h.toolset.policy, description: '', ripgrepPath: rg }),
    );
    const result = await h.call('Grep', { pattern: 'x' });
    expect(result.output).toBe('a.txt');
    expect((await readFile(log, 'utf8')).trim().split('\n')).toHaveLength(2);
  });

  it("reports ripgrep's error when it fails without results", async () => {
    const rg = await fakeRipgrep('echo "regex parse error: unclosed group" >&2\nexit 2');
    h.toolset.add(
      createGrepTool({ workDir: h.workDir, policy: h.toolset.policy, description: '', ripgrepPath: rg }),
    );
    const result = await h.call('Grep', { pattern: '(' });
    expect([result.message, briefOf(result)]).toEqual([
      'Failed to grep. Error: regex parse error: unclosed group',
      'Failed to grep',
    ]);
  });

  it('keeps the results and warns when ripgrep could not read some files', async () => {
    const rg = await fakeRipgrep(
      `printf '%s\\0' "${h.workDir}/ok.txt"\necho "secret/: Permission denied (os error 13)" >&2\nexit 2`,
    );
    h.toolset.add(
      createGrepTool({ workDir: h.workDir, policy: h.toolset.policy, description: '', ripgrepPath: rg }),
    );
    const result = await h.call('Grep', { pattern: 'x' });
    expect(result.output).toBe('ok.txt');
    expect(result.message).toBe(
      'Some files could not be searched: secret/: Permission denied (os error 13).',
    );
  });
});

describe(`${GREP_BACKEND_ENV}`, () => {
  it('forces a backend: `ripgrep` fails plainly when rg is missing, `builtin` never needs it', async () => {
    const saved = { path: process.env.PATH, backend: process.env[GREP_BACKEND_ENV] };
    const deps = { workDir: h.workDir, descriptionVars: {}, policy: testPolicy({ workDir: h.workDir }) };
    try {
      process.env.PATH = h.root;
      process.env[GREP_BACKEND_ENV] = 'ripgrep';
      h.toolset.add(await Grep.create(deps, toolKit));
      const missing = await h.call('Grep', { pattern: 'x' });
      expect(missing.message).toBe('Failed to grep. Error: ripgrep (rg) was not found on PATH');
      h.toolset.remove('Grep');
      process.env[GREP_BACKEND_ENV] = 'builtin';
      h.toolset.add(await Grep.create(deps, toolKit));
      await writeFile(join(h.workDir, 'f.txt'), 'x marks the spot\n');
      expect((await h.call('Grep', { pattern: 'x' })).output).toBe('f.txt');
    } finally {
      process.env.PATH = saved.path;
      if (saved.backend === undefined) delete process.env[GREP_BACKEND_ENV];
      else process.env[GREP_BACKEND_ENV] = saved.backend;
    }
  });
});

describe('RIPGREP_CONFIG_PATH', () => {
  const realRipgrep = findRipgrep();
  it.skipIf(realRipgrep === null)(
    'is ignored: a config file naming a `--pre` program never runs it',
    async () => {
      const marker = join(h.root, 'evil-ran');
      const evil = join(h.root, 'evil');
      await writeFile(evil, `#!/bin/sh\necho ran > "${marker}"\ncat "$1"\n`, { mode: 0o755 });
      const config = join(h.root, 'ripgreprc');
      await writeFile(config, `--pre=${evil}\n`);
      await writeFile(join(h.workDir, 'f.txt'), 'needle\n');
      h.toolset.add(
        createGrepTool({
          workDir: h.workDir,
          policy: h.toolset.policy,
          description: '',
          ripgrepPath: realRipgrep ?? '',
        }),
      );
      const saved = process.env.RIPGREP_CONFIG_PATH;
      process.env.RIPGREP_CONFIG_PATH = config;
      try {
        const result = await h.call('Grep', { pattern: 'needle' });
        expect(result.output).toBe('f.txt');
      } finally {
        if (saved === undefined) delete process.env.RIPGREP_CONFIG_PATH;
        else process.env.RIPGREP_CONFIG_PATH = saved;
      }
      await expect(readFile(marker, 'utf8')).rejects.toThrow(/ENOENT/);
    },
  );
});
