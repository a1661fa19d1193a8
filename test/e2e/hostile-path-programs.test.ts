import { existsSync, readFileSync, watch } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { useScriptedCli } from '../support/scripted-cli.js';
import { toolResults } from '../support/stream-json.js';
import { startWebServer } from '../support/web-server-client.js';

/**
 * A person whose PATH has a relative entry (`.`, as some shells' rc files add) runs kimi-ts in a
 * stranger's repository. The repository ships its own `bwrap`, `git` and `rg` at its top: none may run (kimi-ts
 * runs each from the work dir: the sandbox's launcher, the checkpoints' git, the Grep tool's search).
 */

const cli = useScriptedCli();

it("a repository's own bwrap, git and rg, on a PATH with `.` in it, never run", async () => {
  const { sandbox } = await cli.setup([
    { toolCalls: [{ id: 'c1', name: 'Shell', args: { command: 'echo ran-in-sandbox' } }] },
    { toolCalls: [{ id: 'c2', name: 'Grep', args: { pattern: 'build' } }] },
    { text: 'Done.' },
  ]);
  const ran = join(sandbox.root, 'RAN');
  for (const program of ['bwrap', 'git', 'rg'])
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
  // Which of them ran, if any (one name a line).
  expect(existsSync(ran) ? readFileSync(ran, 'utf8') : '').toBe('');
  // The search did run (the real rg, or the built-in one): the .gitignore's line was found.
  expect(result.stdout).toContain('.gitignore');
});

it("doctor, run in a stranger's repository with `.` on PATH, runs none of its programs", async () => {
  const { sandbox } = await cli.setup([]);
  const ran = join(sandbox.root, 'RAN');
  for (const program of ['bwrap', 'git', 'rg'])
    await writeFile(join(sandbox.workDir, program), `#!/bin/sh\necho ${program} >> '${ran}'\nexit 0\n`, {
      mode: 0o755,
    });
  // sandbox.run starts the CLI in the work dir, as a person in that repository does.
  const result = await sandbox.run(['doctor'], { env: { PATH: `.:${process.env.PATH}` } });
  expect(result.stdout).toMatch(/git/);
  expect(existsSync(ran) ? readFileSync(ran, 'utf8') : '').toBe('');
});

it("web --open, run in a stranger's repository with `.` on PATH, opens the page with the system's xdg-open, not the repository's", async () => {
  const { sandbox } = await cli.setup([]);
  const ran = join(sandbox.root, 'RAN');
  // The repository's own: it would get the page's address with its access token.
  await writeFile(join(sandbox.workDir, 'xdg-open'), `#!/bin/sh\necho "$@" >> '${ran}'\n`, { mode: 0o755 });
  // The system's, stood in for by one in an absolute PATH entry after the '.': it says it ran.
  const bin = join(sandbox.root, 'bin');
  await mkdir(bin);
  const opened = join(bin, 'opened');
  await writeFile(
    join(bin, 'xdg-open'),
    `#!/bin/sh\necho "$@" > '${opened}.tmp' && mv '${opened}.tmp' '${opened}'\n`,
    {
      mode: 0o755,
    },
  );
  const seen = new Promise<void>((resolve) => {
    const watcher = watch(bin, (_event, name) => {
      if (name === 'opened') {
        watcher.close();
        resolve();
      }
    });
  });
  const web = await startWebServer(sandbox, ['--open'], [], { PATH: `.:${bin}:${process.env.PATH}` });
  try {
    await seen;
    expect(readFileSync(opened, 'utf8')).toContain('#token=');
    expect(existsSync(ran) ? readFileSync(ran, 'utf8') : '').toBe('');
  } finally {
    await web.stop();
  }
});

it.each([
  ['in the sandbox', []],
  ['with the sandbox off', ['--sandbox', 'off']],
])(
  "a read-only command, %s, with `.` on PATH, runs the system's programs, not the repository's bash or ls",
  async (_where, flags) => {
    // `ls` is read-only: no question. The repository's own `ls` (or a `bash` that runs every command)
    // is not what the policy judged.
    const { sandbox } = await cli.setup([
      { toolCalls: [{ id: 'c1', name: 'Shell', args: { command: 'ls' } }] },
      { text: 'Done.' },
    ]);
    const ran = join(sandbox.root, 'RAN');
    for (const program of ['bash', 'ls'])
      await writeFile(join(sandbox.workDir, program), `#!/bin/sh\necho ${program} >> '${ran}'\nexit 0\n`, {
        mode: 0o755,
      });
    await writeFile(join(sandbox.workDir, 'listed-file.txt'), 'x\n');
    const result = await sandbox.run(['--print', '--output-format', 'stream-json', ...flags, '-p', 'list'], {
      env: { PATH: `.:${process.env.PATH}` },
    });
    expect(result.code).toBe(0);
    expect(existsSync(ran) ? readFileSync(ran, 'utf8') : '').toBe('');
    // The real ls ran: its listing reached the model.
    expect(result.stdout).toContain('listed-file.txt');
  },
);

it("`npx kimi-ts` in a stranger's repository: its node_modules/.bin on PATH (absolute, as npm exec puts it) runs none of its programs", async () => {
  // npm exec (npx) puts the project's node_modules/.bin first on PATH, as an absolute path. A
  // repository that ships node_modules/.bin/git would be the checkpoints' git (outside any sandbox),
  // its bwrap the sandbox, its bash every command, its ls a read-only command let through unasked.
  const { sandbox } = await cli.setup([
    { toolCalls: [{ id: 'c1', name: 'Shell', args: { command: 'ls' } }] },
    { toolCalls: [{ id: 'c2', name: 'Grep', args: { pattern: 'build' } }] },
    { text: 'Done.' },
  ]);
  const ran = join(sandbox.root, 'RAN');
  const bin = join(sandbox.workDir, 'node_modules', '.bin');
  await mkdir(bin, { recursive: true });
  for (const program of ['bwrap', 'git', 'rg', 'bash', 'ls'])
    await writeFile(join(bin, program), `#!/bin/sh\necho ${program} >> '${ran}'\nexit 0\n`, { mode: 0o755 });
  await writeFile(join(sandbox.workDir, '.gitignore'), 'build/\n');
  await writeFile(join(sandbox.workDir, 'listed-file.txt'), 'x\n');
  const result = await sandbox.run(['--print', '--output-format', 'stream-json', '-p', 'list and search'], {
    env: { PATH: `${bin}:${process.env.PATH}` },
  });
  expect(result.code).toBe(0);
  expect(existsSync(ran) ? readFileSync(ran, 'utf8') : '').toBe('');
  expect(result.stdout).toContain('listed-file.txt');
  expect(result.stdout).toContain('.gitignore');
});

it('a folder added with --add-dir (writable to every command) on PATH: none of the programs in it run', async () => {
  // The session's commands can write there (the sandbox binds it writable): a `git` or `bash` one of
  // them planted would run next, the checkpoints' git outside any sandbox.
  const { sandbox } = await cli.setup([
    { toolCalls: [{ id: 'c1', name: 'Shell', args: { command: 'ls' } }] },
    { toolCalls: [{ id: 'c2', name: 'Grep', args: { pattern: 'build' } }] },
    { text: 'Done.' },
  ]);
  const ran = join(sandbox.root, 'RAN');
  const added = join(sandbox.root, 'added');
  const bin = join(added, 'bin');
  await mkdir(bin, { recursive: true });
  for (const program of ['bwrap', 'git', 'rg', 'bash', 'ls'])
    await writeFile(join(bin, program), `#!/bin/sh\necho ${program} >> '${ran}'\nexit 0\n`, { mode: 0o755 });
  await writeFile(join(sandbox.workDir, '.gitignore'), 'build/\n');
  await writeFile(join(sandbox.workDir, 'listed-file.txt'), 'x\n');
  const result = await sandbox.run(
    ['--print', '--output-format', 'stream-json', '--add-dir', added, '-p', 'list and search'],
    { env: { PATH: `${bin}:${process.env.PATH}` } },
  );
  expect(result.code).toBe(0);
  expect(existsSync(ran) ? readFileSync(ran, 'utf8') : '').toBe('');
  expect(result.stdout).toContain('listed-file.txt');
  expect(result.stdout).toContain('.gitignore');
});

it('kimi-ts run in the home: a program a command plants in a writable folder of it (~/go/bin on PATH) never runs outside the sandbox', async () => {
  // Where a planted program, run outside the sandbox, would say so (a command cannot write there).
  const outside = await mkdtemp(join(tmpdir(), 'kimi-ts-e2e-ran-'));
  cli.defer(() => rm(outside, { recursive: true, force: true }));
  const ran = join(outside, 'RAN');
  // Written by the model's command, inside the sandbox: `~/go` is the person's work there, writable.
  const plant = [
    'mkdir -p ~/go/bin',
    ...['git', 'rg', 'bwrap'].map(
      (program) =>
        `printf '#!/bin/sh\\necho ${program} >> ${ran}\\nexit 0\\n' > ~/go/bin/${program} && chmod +x ~/go/bin/${program}`,
    ),
    'echo planted',
  ].join(' && ');
  const { sandbox } = await cli.setup([
    { toolCalls: [{ id: 'c1', name: 'Shell', args: { command: plant } }] },
    { toolCalls: [{ id: 'c2', name: 'Shell', args: { command: 'echo second > go/second.txt' } }] },
    { toolCalls: [{ id: 'c3', name: 'Grep', args: { pattern: 'build' } }] },
    { text: 'Done.' },
  ]);
  const home = sandbox.workDir;
  // The person's Go folder (a new entry at the top of the home cannot be made in the sandbox).
  await mkdir(join(home, 'go'));
  await writeFile(join(home, '.gitignore'), 'build/\n');
  const result = await sandbox.run(['--print', '--output-format', 'stream-json', '-p', 'go'], {
    env: { HOME: home, PATH: `${join(home, 'go', 'bin')}:${process.env.PATH}` },
  });
  expect(result.code, result.stderr).toBe(0);
  const [planted] = toolResults(result.stdout);
  expect(planted).toContain('Command executed successfully');
  expect(existsSync(join(home, 'go', 'bin', 'git')), 'the plant is there').toBe(true);
  expect(existsSync(ran) ? readFileSync(ran, 'utf8') : '').toBe('');
  expect(readFileSync(join(home, 'go', 'second.txt'), 'utf8')).toBe('second\n');
});
