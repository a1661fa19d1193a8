import { execFileSync } from 'node:child_process';
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  messageDelta,
  messageStart,
  messageStop,
  sseResponder,
  textBlock,
} from '../../src/kosong/providers/anthropic/test-support/anthropic-sse.js';
import { geminiStream, modelChunk } from '../../src/kosong/providers/gemini/test-support/gemini-sse.js';
import { LoopbackServer } from '../support/loopback-server.js';
import { CLI_NODE } from '../support/run-cli.js';
import { useScriptedCli } from '../support/scripted-cli.js';

const cli = useScriptedCli();

/** Runs the CLI with its code cache in the sandbox home (the default place), reporting its verdict. */
function runWithHomeCache(args: string[], bare = false) {
  return cli.sandbox.run(args, {
    bare,
    env: { KIMI_TS_CODE_CACHE_DIR: '', KIMI_TS_DEBUG_CODE_CACHE: '1' },
  });
}

describe('the kimi-ts launcher and its code cache', () => {
  it("saves a code cache after a run (dropping older builds' caches), uses it next time, and replaces a damaged one", async () => {
    const { sandbox } = await cli.setup([{ text: 'one' }, { text: 'two' }, { text: 'three' }]);
    const cacheDir = join(sandbox.home, 'cache', 'v8');

    await mkdir(cacheDir, { recursive: true });
    await writeFile(join(cacheDir, 'cli-v0.0.0-x64-1-1.bin'), 'the cache of an older build');
    const first = await runWithHomeCache(['--print', '-p', 'hi']);
    expect(first.code).toBe(0);
    expect(first.stdout).toBe('one\n');
    expect(first.stderr).toContain('kimi-ts code cache: none');
    const [file, ...others] = await readdir(cacheDir);
    expect(file).toMatch(/^cli-v\d+.*\.bin$/);
    expect(others).toEqual([]);
    const written = await stat(join(cacheDir, file!));

    const second = await runWithHomeCache(['--print', '-p', 'hi']);
    expect(second.stdout).toBe('two\n');
    expect(second.stderr).toContain('kimi-ts code cache: accepted');
    expect((await stat(join(cacheDir, file!))).mtimeMs).toBe(written.mtimeMs);

    await writeFile(join(cacheDir, file!), 'not a code cache');
    const third = await runWithHomeCache(['--print', '-p', 'hi']);
    expect(third.code).toBe(0);
    expect(third.stdout).toBe('three\n');
    expect(third.stderr).toContain('kimi-ts code cache: rejected');
    expect((await readFile(join(cacheDir, file!))).length).toBeGreaterThan(1000);
    expect(await readdir(cacheDir)).toEqual([file]);
  });

  it('starts with a cache whose content was damaged behind an intact header (rejected, then replaced)', async () => {
    const { sandbox } = await cli.setup([{ text: 'one' }, { text: 'two' }, { text: 'three' }]);
    const cacheDir = join(sandbox.home, 'cache', 'v8');
    expect((await runWithHomeCache(['--print', '-p', 'hi'])).code).toBe(0);
    const [file] = await readdir(cacheDir);
    const path = join(cacheDir, file!);
    // V8 checks a cache's header (version, flags, source length), not its content, unless told to:
    // bytes flipped past the header made V8 abort the process (SIGABRT) while reading it.
    const bytes = await readFile(path);
    for (let at = 4096; at < bytes.length; at += 7919) bytes[at] = bytes[at]! ^ 0xff;
    await writeFile(path, bytes);
    const damaged = await runWithHomeCache(['--print', '-p', 'hi']);
    expect(damaged.code, damaged.stderr).toBe(0);
    expect(damaged.stdout).toBe('two\n');
    expect(damaged.stderr).toContain('kimi-ts code cache: rejected');
    const next = await runWithHomeCache(['--print', '-p', 'hi']);
    expect(next.stdout).toBe('three\n');
    expect(next.stderr).toContain('kimi-ts code cache: accepted');
  });

  it('uses next time a cache written by a run that parsed a Shell command (its V8 flags are set from the start)', async () => {
    // Parsing a Shell command loads the bash grammar, which sets V8 flags; a cache carries a hash of
    // the flags, and one written after that change was rejected by every next start.
    const { sandbox } = await cli.setup([
      { toolCalls: [{ id: 's1', name: 'Shell', args: { command: 'echo parsed' } }] },
      { text: 'ran' },
      { text: 'again' },
    ]);
    const first = await runWithHomeCache(['--yolo', '--print', '-p', 'run it']);
    expect(first.code).toBe(0);
    expect(first.stderr).toContain('kimi-ts code cache: none');
    expect(await readdir(join(sandbox.home, 'cache', 'v8'))).toHaveLength(1);
    const second = await runWithHomeCache(['--print', '-p', 'hi']);
    expect(second.stdout).toBe('again\n');
    expect(second.stderr).toContain('kimi-ts code cache: accepted');
  });

  it('uses next time a cache written by a run that outlasted start-up (V8 tuned for start-up, then back to its defaults)', async () => {
    // The launcher keeps V8's optimizing compilers off and its young generation small during
    // start-up, and sets V8's defaults back after it. A cache carries a hash of the flags it was
    // written under: one written after start-up, under the defaults, would be rejected by every
    // next start, which compiles under the start-up flags.
    const { sandbox } = await cli.setup([{ text: 'late' }, { text: 'next' }]);
    const first = await cli.sandbox.run(['--print', '-p', 'hi'], {
      env: { KIMI_TS_CODE_CACHE_DIR: '', KIMI_TS_DEBUG_CODE_CACHE: '1', KIMI_TS_START_UP_MS: '0' },
    });
    expect(first.code).toBe(0);
    expect(first.stdout).toBe('late\n');
    expect(first.stderr).toContain('kimi-ts code cache: none');
    expect(await readdir(join(sandbox.home, 'cache', 'v8'))).toHaveLength(1);
    const second = await runWithHomeCache(['--print', '-p', 'hi']);
    expect(second.stdout).toBe('next\n');
    expect(second.stderr).toContain('kimi-ts code cache: accepted');
  });

  it("loads the built-in modules a start needs before it changes V8's flags (Node's own code cache for them stays valid)", async () => {
    // Node compiles its built-in modules with a code cache made under its default flags; once the
    // launcher has changed a flag, V8 rejects that cache (its flag hash differs) and every built-in
    // loaded after is compiled from source: crypto, fs/promises and http took ~3x as long.
    const { sandbox } = await cli.setup([{ text: 'answer' }]);
    const report = join(sandbox.home, 'built-ins-at-first-flag.json');
    const preload = join(sandbox.home, 'watch-first-flag.cjs');
    await mkdir(sandbox.home, { recursive: true });
    await writeFile(
      preload,
      `const v8 = require('node:v8');
const fs = require('node:fs');
const set = v8.setFlagsFromString;
let seen = false;
v8.setFlagsFromString = function (flag) {
  if (!seen) {
    seen = true;
    fs.writeFileSync(${JSON.stringify(report)}, JSON.stringify(process.moduleLoadList));
  }
  return set.call(this, flag);
};
`,
    );
    const run = await sandbox.run(['--print', '-p', 'hi'], { env: { NODE_OPTIONS: `--require ${preload}` } });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('answer\n');
    const loaded = JSON.parse(await readFile(report, 'utf8')) as string[];
    for (const name of ['crypto', 'fs/promises', 'http', 'perf_hooks', 'timers/promises'])
      expect(loaded, name).toContain(`NativeModule ${name}`);
    // The global `navigator` (zod asks for it at the config's parse) is a built-in from Node 21 on.
    if (Number(process.versions.node.split('.')[0]) >= 21)
      expect(loaded).toContain('NativeModule internal/navigator');
  });

  it('writes no cache for a run that never reached a turn, and none when turned off', async () => {
    const { sandbox } = await cli.setup([{ text: 'answer' }]);
    const version = await runWithHomeCache(['--version'], true);
    expect(version.code).toBe(0);
    expect(version.stdout).toMatch(/\d+\.\d+\.\d+/);
    const off = await sandbox.run(['--print', '-p', 'hi'], {
      env: { KIMI_TS_CODE_CACHE_DIR: '', KIMI_TS_NO_CODE_CACHE: '1' },
    });
    expect(off.stdout).toBe('answer\n');
    // No code cache (the agent's other caches, such as the sandbox probe's answer, may be there).
    await expect(readdir(join(sandbox.home, 'cache', 'v8'))).rejects.toThrow(/ENOENT/);
  });
});

describe('--debug', () => {
  it('runs the unbundled CLI so a fatal error shows a stack trace in the TypeScript sources', async () => {
    const { sandbox } = await cli.setup([]);
    const agentFile = join(sandbox.root, 'agent.yaml');
    await writeFile(join(sandbox.root, 'system.md'), 'You help.');
    await writeFile(
      agentFile,
      'version: 1\nagent:\n  name: broken\n  system_prompt_path: ./system.md\n  tools:\n    - "./nowhere.mjs:Nothing"\n',
    );
    const plain = await sandbox.run(['--print', '-p', 'hi', '--agent-file', agentFile]);
    expect(plain.code).toBe(1);
    expect(plain.stderr).toContain('Run with --debug for the full traceback.');
    const debug = await sandbox.run(['--print', '-p', 'hi', '--agent-file', agentFile, '--debug']);
    expect(debug.code).toBe(1);
    expect(debug.stderr).toMatch(/at .*src\/toolset\/loading\/tool-loader\.ts:\d+/);
  });
});

describe('kimi-ts mcp through the bundled CLI', () => {
  it('adds a stdio server, lists it and connects to it (the MCP SDK loads from node_modules)', async () => {
    const { sandbox } = await cli.setup([]);
    const everything = join(
      import.meta.dirname,
      '../../node_modules/@modelcontextprotocol/server-everything/dist/index.js',
    );
    const added = await sandbox.run(
      ['mcp', 'add', 'everything', '--', process.execPath, everything, 'stdio'],
      {
        bare: true,
      },
    );
    expect(added.code).toBe(0);
    expect(added.stdout).toContain('Added MCP server "everything"');
    const listed = await sandbox.run(['mcp', 'list'], { bare: true });
    expect(listed.stdout).toContain('everything');
    const tested = await sandbox.run(['mcp', 'test', 'everything'], { bare: true });
    expect(tested.code).toBe(0);
    expect(tested.stdout).toMatch(/Connected to "everything": \d+ tools\./);
    expect(tested.stdout).toContain('  - echo: ');
  });
});

describe('optional packages outside the bundle', () => {
  it('runs a turn on the Anthropic provider, whose SDK loads from node_modules', async () => {
    const anthropic = await LoopbackServer.start();
    try {
      anthropic.enqueue(
        sseResponder([
          messageStart('msg_e2e'),
          ...textBlock(0, ['Hello from ', 'Claude.']),
          messageDelta('end_turn', 4),
          messageStop(),
        ]),
      );
      const { sandbox } = await cli.setup([]);
      const config = JSON.stringify({
        default_model: 'claude',
        providers: { a: { type: 'anthropic', base_url: anthropic.url, api_key: 'sk-ant-e2e' } },
        models: { claude: { provider: 'a', model: 'claude-test', max_context_size: 200_000 } },
      });
      const result = await sandbox.run(['--config', config, '-w', sandbox.workDir, '--print', '-p', 'hi'], {
        bare: true,
      });
      expect(result.stderr).toBe('');
      expect(result.stdout).toBe('Hello from Claude.\n');
      expect(anthropic.requests[0]?.headers.authorization).toBe('Bearer sk-ant-e2e');
    } finally {
      await anthropic.close();
    }
  });

  it('runs a turn on the Gemini provider, whose SDK loads from node_modules', async () => {
    const google = await LoopbackServer.start();
    try {
      google.enqueue(
        geminiStream([modelChunk([{ text: 'Hello from ' }]), modelChunk([{ text: 'Gemini.' }])]),
      );
      const { sandbox } = await cli.setup([]);
      const config = JSON.stringify({
        default_model: 'g',
        providers: { gp: { type: 'gemini', base_url: google.url, api_key: 'gm-e2e' } },
        models: { g: { provider: 'gp', model: 'gemini-test', max_context_size: 1_000_000 } },
      });
      const result = await sandbox.run(['--config', config, '-w', sandbox.workDir, '--print', '-p', 'hi'], {
        bare: true,
      });
      expect(result.stderr).toBe('');
      expect(result.stdout).toBe('Hello from Gemini.\n');
      expect(google.requests[0]?.headers['x-goog-api-key']).toBe('gm-e2e');
    } finally {
      await google.close();
    }
  });

  it('fetches a web page as Markdown with FetchURL (the HTML libraries load from node_modules)', async () => {
    const site = await LoopbackServer.start();
    try {
      site.fallback = (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(
          '<html><head><title>Notes</title></head><body><nav>menu</nav><article><h1>Release notes</h1>' +
            `<p>${'Version 2 brings faster start-up and fewer surprises. '.repeat(8)}</p></article></body></html>`,
        );
      };
      const server = await cli.startServer([
        { toolCalls: [{ id: 'f1', name: 'FetchURL', args: { url: `${site.url}/notes` } }] },
        { text: 'Read it.' },
      ]);
      // Loopback is a private address: print mode fetches it only with a rule naming the host.
      const sandbox = await cli.createSandbox({
        baseUrl: server.baseUrl,
        extraToml: '[[permission.rules]]\ndecision = "allow"\npattern = "FetchURL(domain:127.0.0.1)"\n',
      });
      const result = await sandbox.run(['--print', '-p', 'read the notes']);
      expect(result.code).toBe(0);
      const toolResult = JSON.stringify(server.requests[1]?.body);
      expect(toolResult).toContain('# Release notes');
      expect(toolResult).toContain('Version 2 brings faster start-up');
    } finally {
      await site.close();
    }
  });
});

describe('the Node that runs the CLI', () => {
  it('is the one KIMI_TS_TEST_NODE names (CI runs this suite under each maintained Node)', async () => {
    const { sandbox } = await cli.setup([]);
    const expected = execFileSync(CLI_NODE, ['--version'], { encoding: 'utf8' }).trim();
    const info = await sandbox.run(['info', '--json'], { bare: true });
    expect(info.code).toBe(0);
    expect(JSON.parse(info.stdout)).toMatchObject({ node: expected });
  });
});

describe('--version and --help, answered by the launcher alone', () => {
  it('prints what commander prints, without loading the bundle', async () => {
    const { sandbox } = await cli.setup([]);
    const traced = { KIMI_TS_DEBUG_CODE_CACHE: '1' };
    for (const [long, short] of [
      ['--version', '-V'],
      ['--help', '-h'],
    ] as const) {
      const quick = await sandbox.run([long], { bare: true, env: traced });
      expect(quick.code).toBe(0);
      // The bundle says whether it used the code cache on stderr; the quick answer never loads it.
      expect(quick.stderr).toBe('');
      const throughBundle = await sandbox.run(['--yolo', long], { bare: true, env: traced });
      expect(throughBundle.stderr).toContain('kimi-ts code cache:');
      expect(quick.stdout).toBe(throughBundle.stdout);
      const unbundled = await sandbox.run([long, '--debug'], { bare: true });
      expect(quick.stdout).toBe(unbundled.stdout);
      expect((await sandbox.run([short], { bare: true })).stdout).toBe(quick.stdout);
    }
    const help = await sandbox.run(['--help'], { bare: true });
    expect(help.stdout).toMatch(/^Usage: kimi-ts \[options\] \[command\] \[prompt\.\.\.\]\n/);
    expect(help.stdout).toContain('--max-ralph-iterations <n>');
    const version = await sandbox.run(['--version'], { bare: true });
    const { version: packageVersion } = JSON.parse(
      await readFile(join(import.meta.dirname, '../../package.json'), 'utf8'),
    ) as { version: string };
    expect(version.stdout).toBe(`kimi-ts, version ${packageVersion}\n`);
  });
});
