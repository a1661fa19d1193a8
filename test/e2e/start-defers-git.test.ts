// The start of a print run does nothing before its first model request that can wait: the git of
// the turn's first checkpoint (and the pruning of old ones) starts once the model's answer has begun.
// A `git` on PATH that logs each call tells what ran, and when, as the scripted model sees it.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { LoopbackServer } from '../support/loopback-server.js';
import { useScriptedCli } from '../support/scripted-cli.js';
import { answerTurn } from '../support/scripted-llm-server.js';

const cli = useScriptedCli();

/** A folder with a `git` that appends its arguments to `log`, then runs the real git. */
async function loggingGit(dir: string, log: string): Promise<string> {
  const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  const bin = join(dir, 'logging-git');
  await mkdir(bin);
  await writeFile(log, '');
  await writeFile(join(bin, 'git'), `#!/bin/sh\necho "$*" >> '${log}'\nexec '${realGit}' "$@"\n`);
  await chmod(join(bin, 'git'), 0o755);
  return bin;
}

it('print mode sends its first model request before it starts any git; the checkpoints still record', async () => {
  const server = await LoopbackServer.start();
  cli.defer(() => server.close());
  const sandbox = await cli.createSandbox({ baseUrl: `${server.url}/v1` });
  const log = join(sandbox.root, 'git-calls.log');
  const bin = await loggingGit(sandbox.root, log);
  await writeFile(join(sandbox.workDir, 'notes.txt'), 'original\n');
  const env = { PATH: `${bin}:${process.env.PATH}` };
  // A first session in the work dir creates its checkpoint store: a later start finds one to open.
  // (Its first record of this small plain folder needs no git at all: record-in-process.ts.)
  server.enqueue((_req, res) => answerTurn({ text: 'Hello.' }, res));
  expect((await sandbox.run(['--print', '-p', 'hi'], { env })).code).toBe(0);
  const stores = await readdir(join(sandbox.home, 'checkpoints'));
  expect(
    stores.filter((key) => existsSync(join(sandbox.home, 'checkpoints', key, 'store.git', 'HEAD'))),
  ).toHaveLength(1);
  await writeFile(log, '');

  let gitBeforeAnswer: string | undefined;
  server.enqueue(
    async (_req, res) => {
      // The request is here and no byte of the answer has left: what git ran so far ran before it.
      gitBeforeAnswer = await readFile(log, 'utf8');
      await answerTurn(
        { toolCalls: [{ id: 's1', name: 'Shell', args: { command: 'echo changed > notes.txt' } }] },
        res,
      );
    },
    (_req, res) => answerTurn({ text: 'Done.' }, res),
  );

  const result = await sandbox.run(['--yolo', '--print', '-p', 'change the notes'], { env });

  expect(result.code, result.stderr).toBe(0);
  expect(gitBeforeAnswer).toBe('');
  // The logging git is the one the checkpoints use, and they recorded the turn after all: the
  // Shell's change is in the store, so /rewind can take it back.
  expect(await readFile(log, 'utf8')).toMatch(/\badd\b/);
  expect(await readFile(join(sandbox.workDir, 'notes.txt'), 'utf8')).toBe('changed\n');
  expect(result.stderr).not.toContain('could not be recorded');
});
