import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { useScriptedCli } from '../support/scripted-cli.js';

/**
 * A person whose PATH has a relative entry (`.`, as some shells' rc files add) runs kimi-ts in a
 * stranger's repository. The repository ships its own `bwrap` and `git` at its top: neither may run
 * (kimi-ts runs both, in the work dir: the sandbox's launcher and the checkpoints' git).
 */

const cli = useScriptedCli();

it("a repository's own bwrap and git, on a PATH with `.` in it, never run", async () => {
  const { sandbox } = await cli.setup([
    { toolCalls: [{ id: 'c1', name: 'Shell', args: { command: 'echo ran-in-sandbox' } }] },
    { text: 'Done.' },
  ]);
  const ran = join(sandbox.root, 'RAN');
  for (const program of ['bwrap', 'git'])
    await writeFile(join(sandbox.workDir, program), `#!/bin/sh\necho ${program} >> '${ran}'\nexit 0\n`, {
      mode: 0o755,
    });
  // An ignore file: the checkpoints ask git (not the in-process first record) from the first step.
  await writeFile(join(sandbox.workDir, '.gitignore'), 'build/\n');
  const result = await sandbox.run(['--print', '--output-format', 'stream-json', '-p', 'run it'], {
    env: { PATH: `.:${process.env.PATH}` },
  });
  expect(result.code).toBe(0);
  expect(result.stdout).toContain('ran-in-sandbox');
  expect(existsSync(ran)).toBe(false);
});
