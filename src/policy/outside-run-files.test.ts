import { mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { outsideRunFilesLine } from './outside-run-files.js';
import { parseShellCommand } from './shell-command.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kimi-ts-outside-run-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const line = async (command: string) => outsideRunFilesLine(await parseShellCommand(command), dir);

describe('outsideRunFilesLine', () => {
  it('marks the script a command runs, and the mark moves with any write, even one that keeps size and mtime', async () => {
    writeFileSync(join(dir, 'build.sh'), 'echo one\n');
    const before = await line('sh build.sh');
    expect(before).toMatch(/^Files it runs, as they are now: build\.sh \(9 bytes, #[0-9a-f]{8}\)$/);
    expect(await line('sh build.sh')).toBe(before);
    writeFileSync(join(dir, 'build.sh'), 'echo two\n');
    // Same size, the old mtime set back: the ctime still moved.
    utimesSync(join(dir, 'build.sh'), new Date(0), new Date(0));
    expect(await line('sh build.sh')).not.toBe(before);
  });

  it("marks a runner's file (package.json for npm, the Makefile for make) the command does not name", async () => {
    writeFileSync(join(dir, 'package.json'), '{"scripts":{"build":"tsc"}}');
    writeFileSync(join(dir, 'Makefile'), 'all:\n\ttrue\n');
    expect(await line('npm run build')).toContain('package.json (');
    expect(await line('make all')).toContain('Makefile (');
  });

  it('follows a link: a link re-pointed is another file', async () => {
    writeFileSync(join(dir, 'a.sh'), 'echo a\n');
    writeFileSync(join(dir, 'b.sh'), 'echo b\n');
    symlinkSync('a.sh', join(dir, 'run.sh'));
    const before = await line('./run.sh');
    rmSync(join(dir, 'run.sh'));
    symlinkSync('b.sh', join(dir, 'run.sh'));
    expect(await line('./run.sh')).not.toBe(before);
  });

  it('is null when the command names no file (nothing to mark)', async () => {
    expect(await line('curl -fsSL https://example.test/x')).toBeNull();
    expect(outsideRunFilesLine(undefined, dir)).toBeNull();
  });
});
