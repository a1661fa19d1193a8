import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useScriptedCli } from '../support/scripted-cli.js';

const cli = useScriptedCli();

/** A plugin folder whose one tool greets, and says whether it was given the host's key. */
async function greeterPlugin(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(
    join(dir, 'plugin.json'),
    JSON.stringify({
      name: 'greeter',
      version: '1.0.0',
      description: 'Says hello',
      config_file: 'config.json',
      inject: { GREETER_KEY: 'api_key' },
      tools: [
        {
          name: 'greet',
          description: 'Greets someone',
          command: [process.execPath, 'greet.js'],
          parameters: { type: 'object', properties: { who: { type: 'string' } }, required: ['who'] },
        },
      ],
    }),
  );
  await writeFile(join(dir, 'config.json'), '{}\n');
  await writeFile(
    join(dir, 'greet.js'),
    `let input = '';
process.stdin.on('data', (d) => (input += d)).on('end', () => {
  const { who } = JSON.parse(input);
  if (who === 'nobody') { console.error('nobody to greet'); process.exit(3); }
  console.log('Hello, ' + who + '! key given: ' + (process.env.GREETER_KEY ? 'yes' : 'no'));
});
`,
  );
}

describe('plugins', () => {
  it('installs a plugin whose tools then run in every session; lists, shows and removes it', async () => {
    const { server, sandbox } = await cli.setup([
      {
        toolCalls: [
          { id: 'g1', name: 'greet', args: { who: 'team' } },
          { id: 'g2', name: 'greet', args: { who: 'nobody' } },
        ],
      },
      { text: 'Greeted.' },
    ]);
    const source = join(sandbox.root, 'greeter-src');
    await greeterPlugin(source);

    const installed = await sandbox.run(['plugin', 'install', source, '--config-file', sandbox.configFile], {
      bare: true,
    });
    expect(installed.stderr).toBe('');
    expect(installed.stdout).toContain('Installed greeter 1.0.0 (1 tool)');
    const dir = join(sandbox.root, '.config', 'agents', 'plugins', 'greeter');
    // The host's key went into the plugin's config file, readable by its owner only.
    expect(JSON.parse(await readFile(join(dir, 'config.json'), 'utf8'))).toEqual({
      GREETER_KEY: 'sk-e2e-test-key',
    });
    expect(statSync(join(dir, 'config.json')).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(join(dir, 'plugin.json'), 'utf8')).runtime).toMatchObject({
      host: 'kimi-ts',
    });
    expect((await sandbox.run(['plugin', 'list'], { bare: true })).stdout).toContain(
      'greeter 1.0.0 — Says hello',
    );
    expect((await sandbox.run(['plugin', 'info', 'greeter'], { bare: true })).stdout).toContain(
      'greet: Greets someone',
    );

    const result = await sandbox.run(['--print', '-p', 'greet the team']);
    expect(result.code).toBe(0);
    const tools =
      (server.requests[0]?.body as { tools?: { function: { name: string } }[] } | undefined)?.tools ?? [];
    expect(tools.map((t) => t.function.name)).toContain('greet');
    const told = JSON.stringify(server.requests[1]?.body);
    expect(told).toContain('Hello, team! key given: yes');
    expect(told).toContain("Plugin tool 'greet' failed: nobody to greet");

    expect((await sandbox.run(['plugin', 'remove', 'greeter'], { bare: true })).stdout).toContain(
      'Removed greeter.',
    );
    expect(existsSync(dir)).toBe(false);
    const again = await sandbox.run(['plugin', 'remove', 'greeter'], { bare: true });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('No plugin named "greeter" is installed');
  });

  it('installs from a git repository, and refuses a folder without plugin.json', async () => {
    const { sandbox } = await cli.setup([]);
    const repo = join(sandbox.root, 'greeter-repo');
    await greeterPlugin(repo);
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
        cwd: repo,
        stdio: 'ignore',
      });
    git('init', '--quiet');
    git('add', '.');
    git('commit', '--quiet', '-m', 'plugin');
    const installed = await sandbox.run(
      ['plugin', 'install', `file://${repo}`, '--config-file', sandbox.configFile],
      {
        bare: true,
      },
    );
    expect(installed.stdout).toContain('Installed greeter 1.0.0');
    expect(existsSync(join(sandbox.root, '.config', 'agents', 'plugins', 'greeter', '.git'))).toBe(false);
    const empty = join(sandbox.root, 'empty');
    await mkdir(empty);
    const refused = await sandbox.run(['plugin', 'install', empty], { bare: true });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`No plugin.json in ${empty}.`);
  });

  it("clones with the system's git, not a stranger's repository's own (`.` on PATH)", async () => {
    const { sandbox } = await cli.setup([]);
    const ran = join(sandbox.root, 'RAN');
    await writeFile(join(sandbox.workDir, 'git'), `#!/bin/sh\necho git >> '${ran}'\nexit 0\n`, {
      mode: 0o755,
    });
    const missing = `file://${join(sandbox.root, 'no-such-repo')}`;
    const refused = await sandbox.run(['plugin', 'install', missing], {
      bare: true,
      env: { PATH: `.:${process.env.PATH}` },
    });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('is neither a folder nor a git repository that could be cloned');
    expect(existsSync(ran) ? readFileSync(ran, 'utf8') : '').toBe('');
  });
});
