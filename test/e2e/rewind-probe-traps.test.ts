import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useScriptedCli } from '../support/scripted-cli.js';
import { startWireSession } from '../support/wire-session.js';

const cli = useScriptedCli();

const shellTurn = (command: string) => [
  { toolCalls: [{ id: 's1', name: 'Shell', args: { command } }] },
  { text: 'done' },
];

/**
 * The model's command (in the sandbox, which lets it write the work tree) sets a trap for git's
 * nested-repository probe, which the checkpoint record after the step runs outside the sandbox: a
 * `HEAD` FIFO makes git wait forever, a `commondir` leading to /dev/zero makes it read without end.
 */
describe('a trap for git in a nested .git made by a command (wire mode)', () => {
  it('a HEAD FIFO: the turn ends, the files are recorded and rewound', async () => {
    await cli.setup(
      shellTurn('mkdir -p sub/.git/objects sub/.git/refs && mkfifo sub/.git/HEAD && echo a > sub/f.txt'),
    );
    const work = cli.sandbox.workDir;
    const wire = await startWireSession(cli.sandbox, []);
    await wire.prompt('set the trap');
    expect(await readFile(join(work, 'sub', 'f.txt'), 'utf8')).toBe('a\n');
    await wire.prompt('/rewind 1');
    // What the turn made is gone; the .git stays (never recorded).
    expect(existsSync(join(work, 'sub', 'f.txt'))).toBe(false);
    expect(existsSync(join(work, 'sub', '.git', 'HEAD'))).toBe(true);
    expect((await wire.close()).code).toBe(0);
  }, 60_000);

  it('a commondir leading to /dev/zero: the turn ends, the files are recorded and rewound', async () => {
    await cli.setup(
      shellTurn(
        'mkdir -p sub/.git/objects sub/.git/refs && echo "ref: refs/heads/main" > sub/.git/HEAD && ' +
          'ln -s /dev/zero sub/.git/commondir && echo b > sub/f.txt',
      ),
    );
    const work = cli.sandbox.workDir;
    const wire = await startWireSession(cli.sandbox, []);
    await wire.prompt('set the trap');
    await wire.prompt('/rewind 1');
    expect(existsSync(join(work, 'sub', 'f.txt'))).toBe(false);
    expect((await wire.close()).code).toBe(0);
  }, 60_000);

  it('a .gitignore FIFO in a folder: the turn ends, the rest is recorded and rewound', async () => {
    await cli.setup(
      shellTurn('mkdir ign && mkfifo ign/.gitignore && echo i > ign/f.txt && echo c > made.txt'),
    );
    const work = cli.sandbox.workDir;
    const wire = await startWireSession(cli.sandbox, []);
    await wire.prompt('set the trap');
    await wire.prompt('/rewind 1');
    expect(existsSync(join(work, 'made.txt'))).toBe(false);
    // Never recorded (git must not walk there): left as it is.
    expect(existsSync(join(work, 'ign', 'f.txt'))).toBe(true);
    expect((await wire.close()).code).toBe(0);
  }, 60_000);
});
