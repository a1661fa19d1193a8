import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { useScriptedCli } from '../support/scripted-cli.js';

const cli = useScriptedCli();

/**
 * kimi-ts run in the home folder, with `~/.local/bin` on PATH (Debian's and Ubuntu's profiles put it
 * there): the sandbox lets a command write the work dir, so `~/.local/bin` too. A `git` planted
 * there was the checkpoints' git at the next record: run outside any sandbox, asked by nobody.
 * Now the sandbox keeps `~/.local` read-only in that case (src/policy/sandbox-home.ts).
 */
it('run in ~ with ~/.local/bin on PATH: a git a sandboxed command plants there never runs', async () => {
  const { sandbox, server } = await cli.setup([]);
  // The planted program writes where only a program outside the sandbox can.
  const ran = join(sandbox.root, 'RAN');
  const plant = `printf '#!/bin/sh\\necho outside > "${ran}"\\nexec /usr/bin/git "$@"\\n' > ~/.local/bin/git`;
  server.push(
    {
      toolCalls: [
        {
          id: 'c1',
          name: 'Shell',
          args: { command: `mkdir -p ~/.local/bin && ${plant} && chmod +x ~/.local/bin/git` },
        },
      ],
    },
    { toolCalls: [{ id: 'c2', name: 'Shell', args: { command: 'echo second > f.txt' } }] },
    { text: 'Done.' },
  );
  const home = sandbox.workDir;
  const result = await sandbox.run(['--print', '-p', 'go'], {
    env: { HOME: home, PATH: `${join(home, '.local', 'bin')}:${process.env.PATH}` },
  });
  expect(result.code).toBe(0);
  // The sandbox keeps the home's dot entries read-only when the workspace holds the home: no plant.
  expect(existsSync(join(home, '.local', 'bin', 'git'))).toBe(false);
  expect(existsSync(ran) ? readFileSync(ran, 'utf8') : '').toBe('');
}, 60_000);
