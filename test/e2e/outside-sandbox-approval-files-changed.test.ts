import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { useScriptedCli } from '../support/scripted-cli.js';

// "approve for this session — this exact command" of a command run OUTSIDE the sandbox approves its text, not what it runs: in yolo a sandboxed command (unasked) rewrites the script, and the same text then runs the new code unconfined, unasked.

const cli = useScriptedCli();

const shell = (id: string, command: string, extra: Record<string, unknown> = {}) => ({
  toolCalls: [{ id, name: 'Shell', args: { command, ...extra } }],
});

it('an exact session approval of `sh build.sh` outside the sandbox does not cover a build.sh a sandboxed command rewrote', async () => {
  const { sandbox } = await cli.setup([]);
  const outside = join(sandbox.root, 'outside');
  await mkdir(outside);
  await writeFile(join(sandbox.workDir, 'build.sh'), `echo building > ${join(outside, 'built.txt')}\n`);
  const off = { sandbox: 'off', justification: 'the build writes its output next to the repository' };
  cli.server.push(
    shell('o1', 'sh build.sh', off),
    { text: 'built' },
    // In yolo, a command inside the sandbox runs unasked: it rewrites the script the person approved.
    shell('i1', `echo 'touch ${join(outside, 'pwned')}' > build.sh`),
    shell('o2', 'sh build.sh', off),
    { text: 'built again' },
  );
  const input = ['first', '2', '1', 'n', 'second', '3', '/exit'].join('\n');
  const result = await sandbox.run(['--ui', 'line', '--yolo'], { input: `${input}\n` });
  expect(result.code, result.stderr).toBe(0);
  expect(existsSync(join(outside, 'built.txt')), 'the approved build ran').toBe(true);
  expect(result.stdout.match(/approve\? /g), 'the second run is asked again').toHaveLength(2);
  expect(existsSync(join(outside, 'pwned')), 'the rewritten script ran outside the sandbox unasked').toBe(
    false,
  );
});

// The same through a runner: `npm run build` approved outside the sandbox for the session; a sandboxed
// command rewrites package.json's script (the command's words name no file).
it('an exact session approval of `npm run build` outside the sandbox does not cover a package.json a sandboxed command rewrote', async () => {
  const { sandbox } = await cli.setup([]);
  const outside = join(sandbox.root, 'outside');
  await mkdir(outside);
  const manifest = (script: string) =>
    JSON.stringify({ name: 'p', version: '1.0.0', scripts: { build: script } });
  await writeFile(
    join(sandbox.workDir, 'package.json'),
    manifest(`echo built > ${join(outside, 'built.txt')}`),
  );
  const off = { sandbox: 'off', justification: 'the build writes next to the repository' };
  cli.server.push(
    shell('o1', 'npm run build', off),
    { text: 'built' },
    shell('i1', `printf '%s' '${manifest(`touch ${join(outside, 'pwned')}`)}' > package.json`),
    shell('o2', 'npm run build', off),
    { text: 'built again' },
  );
  const input = ['first', '2', '1', 'n', 'second', '3', '/exit'].join('\n');
  const result = await sandbox.run(['--ui', 'line', '--yolo'], { input: `${input}\n` });
  expect(result.code, result.stderr).toBe(0);
  expect(existsSync(join(outside, 'built.txt')), 'the approved build ran').toBe(true);
  expect(result.stdout.match(/approve\? /g), 'the second run is asked again').toHaveLength(2);
  expect(existsSync(join(outside, 'pwned'))).toBe(false);
});
