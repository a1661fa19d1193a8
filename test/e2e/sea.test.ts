import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import {
  chmod,
  copyFile,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rm,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_NODE, collect } from '../support/run-cli.js';
import { useScriptedCli } from '../support/scripted-cli.js';
import { WireClient } from '../support/wire-process-client.js';

const repo = resolve(import.meta.dirname, '../..');
let folder: string;
let executable: string;
const cli = useScriptedCli();

// The executable is built here, from the Node that runs the CLI in this suite (CI runs it again
// under each maintained Node), out of the dist/ that `npm test` has just built.
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'kimi-ts-sea-'));
  executable = join(folder, 'kimi-ts');
  execFileSync(
    process.execPath,
    [join(repo, 'scripts/build-sea.mjs'), '--node', CLI_NODE, '--out', executable],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
}, 120_000);

afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

const asExecutable = { command: [] as string[] };
beforeAll(() => {
  asExecutable.command = [executable];
});

describe('the single executable (npm run build:sea)', () => {
  it('runs a print turn that reads, writes (the diff package) and runs a command, with its own prompts', async () => {
    const { server, sandbox } = await cli.setup([
      { toolCalls: [{ id: 'r1', name: 'ReadFile', args: { path: 'in.txt' } }] },
      { toolCalls: [{ id: 'w1', name: 'WriteFile', args: { path: 'out.txt', content: 'written\n' } }] },
      { toolCalls: [{ id: 's1', name: 'Shell', args: { command: 'cat out.txt' } }] },
      { text: 'All three done.' },
    ]);
    const { writeFile } = await import('node:fs/promises');
    await writeFile(join(sandbox.workDir, 'in.txt'), 'seed text\n');
    const result = await sandbox.run(['--print', '--yolo', '-p', 'do the three things'], asExecutable);
    expect(result.stderr).not.toContain('Error');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('All three done.');
    expect(await readFile(join(sandbox.workDir, 'out.txt'), 'utf8')).toBe('written\n');
    const first = server.requests[0]?.body as {
      tools: { function: { name: string; description: string } }[];
    };
    // Tool descriptions and the system prompt come from the executable's assets.
    const shell = first.tools.find((tool) => tool.function.name === 'Shell');
    expect(shell?.function.description.length).toBeGreaterThan(200);
    expect(JSON.stringify(server.requests[1]?.body)).toContain('seed text');
    expect(JSON.stringify(server.requests[3]?.body)).toContain('written');
    // Extracted once into the kimi-ts home; --version and info say which Node it is.
    const info = await sandbox.run(['info', '--json'], { ...asExecutable, bare: true });
    const nodeVersion = execFileSync(CLI_NODE, ['--version'], { encoding: 'utf8' }).trim();
    expect(JSON.parse(info.stdout)).toMatchObject({ node: nodeVersion });
    const version = await sandbox.run(['--version'], { ...asExecutable, bare: true });
    expect(version.stdout).toMatch(/^kimi-ts, version \d+\.\d+\.\d+/);

    // One folder per build; an older build's goes, and a copy missing files is extracted again.
    const builds = join(sandbox.home, 'cache', 'sea');
    const [build, ...others] = await readdir(builds);
    expect(others).toEqual([]);
    await mkdir(join(builds, '0.0.1-older-build'));
    await rm(join(builds, build!, '.complete'));
    await rm(join(builds, build!, 'dist', 'bin', 'cli.bundle.cjs'));
    const again = await sandbox.run(['info', '--json'], { ...asExecutable, bare: true });
    expect(again.code).toBe(0);
    expect(await readdir(builds)).toEqual([build]);
    expect((await stat(join(builds, build!, 'dist', 'bin', 'cli.bundle.cjs'))).size).toBeGreaterThan(100_000);
  });

  it('serves the wire protocol', async () => {
    const { sandbox } = await cli.setup([{ text: 'Hello from the executable.' }]);
    const child = sandbox.spawn(['--wire'], asExecutable);
    const client = new WireClient(child);
    const init = await client.request('initialize', {
      protocol_version: '1.10',
      client: { name: 't', version: '0' },
    });
    expect(init.result).toMatchObject({ protocol_version: '1.10', server: { name: 'kimi-ts' } });
    const prompt = await client.request('prompt', { user_input: 'hi' });
    expect(prompt.result).toEqual({ status: 'finished' });
    expect(client.eventTypes()).toContain('ContentPart');
    expect(JSON.stringify(client.messages)).toContain('Hello from the executable.');
    child.stdin!.end();
    expect((await collect(child)).code).toBe(0);
  });

  it('says which optional package is missing, and loads it when it is beside the executable', async () => {
    const { LoopbackServer } = await import('../support/loopback-server.js');
    const { messageDelta, messageStart, messageStop, sseResponder, textBlock } = await import(
      '../../src/kosong/providers/anthropic/test-support/anthropic-sse.js'
    );
    const anthropic = await LoopbackServer.start();
    try {
      const { sandbox } = await cli.setup([]);
      const config = JSON.stringify({
        default_model: 'claude',
        providers: { a: { type: 'anthropic', base_url: anthropic.url, api_key: 'sk-ant-e2e' } },
        models: { claude: { provider: 'a', model: 'claude-test', max_context_size: 200_000 } },
      });
      const args = ['--config', config, '-w', sandbox.workDir, '--print', '-p', 'hi'];
      const missing = await sandbox.run(args, { ...asExecutable, bare: true });
      expect(missing.code).not.toBe(0);
      expect(missing.stderr).toContain('@anthropic-ai/sdk');
      expect(missing.stderr).toContain(`npm install --prefix "${folder}" @anthropic-ai/sdk@`);

      await symlink(join(repo, 'node_modules'), join(folder, 'node_modules'));
      anthropic.enqueue(
        sseResponder([
          messageStart('msg_sea'),
          ...textBlock(0, ['Claude, ', 'beside it.']),
          messageDelta('end_turn', 4),
          messageStop(),
        ]),
      );
      const present = await sandbox.run(args, { ...asExecutable, bare: true });
      expect(present.stderr).toBe('');
      expect(present.stdout).toBe('Claude, beside it.\n');
    } finally {
      await rm(join(folder, 'node_modules'), { force: true });
      await anthropic.close();
    }
  });

  it("reads a loop with the shell parser it carries: a deny rule rules the loop's commands out, and it runs", async () => {
    const { sandbox, server } = await cli.setup(
      [
        { toolCalls: [{ id: 'c1', name: 'Shell', args: { command: 'for f in *.md; do wc -l "$f"; done' } }] },
        { text: 'Counted.' },
      ],
      { extraToml: ['[[permission.rules]]', 'decision = "deny"', 'pattern = "Shell(rm -rf*)"'].join('\n') },
    );
    await writeFile(join(sandbox.workDir, 'notes.md'), 'one\ntwo\n');
    const result = await sandbox.run(['--print', '--yolo', '-p', 'count the lines'], asExecutable);
    expect(result.stdout).toContain('Counted.');
    // Without the parser the loop is one opaque part that the deny rule cannot rule out: refused.
    const toolResult = JSON.stringify(server.requests[1]?.body);
    expect(toolResult).toContain('2 notes.md');
    expect(toolResult).not.toContain('cannot be ruled out');
  });

  it("loads no package from a parent folder's node_modules (anyone may plant one in /tmp)", async () => {
    // The executable in outer/bin/; packages planted in outer/node_modules, which Node's own lookup
    // reaches from outer/bin/node_modules: a provider SDK (it gets the key) and the shell parser
    // (the policy reads commands through it).
    const outer = await mkdtemp(join(tmpdir(), 'kimi-ts-sea-planted-'));
    try {
      await mkdir(join(outer, 'bin'));
      await copyFile(executable, join(outer, 'bin', 'kimi-ts'));
      await chmod(join(outer, 'bin', 'kimi-ts'), 0o755);
      const marker = join(outer, 'planted-code-ran');
      for (const name of ['@anthropic-ai/sdk', 'web-tree-sitter']) {
        const dir = join(outer, 'node_modules', name);
        await mkdir(dir, { recursive: true });
        await writeFile(
          join(dir, 'package.json'),
          JSON.stringify({ name, version: '99.0.0', main: 'index.js' }),
        );
        await writeFile(
          join(dir, 'index.js'),
          `require('node:fs').appendFileSync(${JSON.stringify(marker)}, ${JSON.stringify(`${name}\n`)});\n`,
        );
      }
      const { sandbox } = await cli.setup([
        { toolCalls: [{ id: 'c1', name: 'Shell', args: { command: 'for f in *.md; do wc -l "$f"; done' } }] },
        { text: 'Counted.' },
      ]);
      const planted = { command: [join(outer, 'bin', 'kimi-ts')] };
      // A loop goes to the shell parser: not found beside the executable, the command is asked (afk: refused).
      const shell = await sandbox.run(['--print', '-p', 'count the lines'], planted);
      expect(shell.stdout).toContain('Counted.');
      const config = JSON.stringify({
        default_model: 'claude',
        providers: { a: { type: 'anthropic', base_url: 'http://127.0.0.1:9/', api_key: 'sk-ant-e2e' } },
        models: { claude: { provider: 'a', model: 'claude-test', max_context_size: 200_000 } },
      });
      const anthropic = await sandbox.run(
        ['--config', config, '-w', sandbox.workDir, '--print', '-p', 'hi'],
        { ...planted, bare: true },
      );
      expect(anthropic.stderr).toContain(`npm install --prefix "${join(outer, 'bin')}" @anthropic-ai/sdk@`);
      expect(existsSync(marker)).toBe(false);
    } finally {
      await rm(outer, { recursive: true, force: true });
    }
  });
});
