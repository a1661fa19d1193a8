import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Approval } from '../toolset/approval/approval.js';
import type { KimiToolset } from '../toolset/kimi-toolset.js';
import type { MCPStatusSnapshot } from '../wire/events.js';
import { McpManager } from './mcp-manager.js';
import { EVERYTHING_SERVER, FAULT_SERVER } from './test-support/everything-server.js';
import { callTool, isAlive, outputText, toolsetWithBuiltinEcho } from './test-support/toolset-fixture.js';

let dir: string;
let toolset: KimiToolset;
let approval: Approval;
let manager: McpManager;
const snapshots: MCPStatusSnapshot[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kimi-ts-mcp-manager-'));
  ({ toolset, approval } = toolsetWithBuiltinEcho());
  process.env.KIMI_TS_MCP_TEST_LEAK = 'must-not-reach-the-server';
  manager = new McpManager({
    servers: {
      everything: { kind: 'stdio', command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'], env: {} },
      faults: {
        kind: 'stdio',
        command: process.execPath,
        args: [FAULT_SERVER],
        env: { FAULT_SECRET: 'from-config' },
      },
      missing: { kind: 'stdio', command: 'kimi-ts-no-such-command', args: [], env: {} },
      exits: {
        kind: 'stdio',
        command: process.execPath,
        args: ['-e', 'console.error("bad settings: port missing"); process.exit(2)'],
        env: {},
      },
    },
    toolCallTimeoutMs: 500,
    outputDir: join(dir, 'mcp-outputs'),
  });
  manager.onStatusChange((snapshot) => snapshots.push(snapshot));
  manager.start(toolset);
  expect(manager.isLoading).toBe(true);
  await manager.waitForLoading();
});

afterAll(async () => {
  await manager?.close();
  delete process.env.KIMI_TS_MCP_TEST_LEAK;
  await rm(dir, { recursive: true, force: true });
});

describe('loading', () => {
  it('connects the working servers and reports each failure by name with its reason', () => {
    const snapshot = manager.statusSnapshot();
    expect(snapshot.loading).toBe(false);
    expect(snapshot.servers.map(({ name, status }) => [name, status])).toEqual([
      ['everything', 'connected'],
      ['faults', 'connected'],
      ['missing', 'failed'],
      ['exits', 'failed'],
    ]);
    expect(snapshot).toMatchObject({ connected: 2, total: 4 });
    expect(snapshot.tools).toBe(snapshot.servers[0]!.tools.length + snapshot.servers[1]!.tools.length);

    const problems = manager.problems().map((problem) => problem.message);
    expect(problems).toContainEqual(
      expect.stringMatching(/"missing" failed: could not start `kimi-ts-no-such-command`.*ENOENT/),
    );
    expect(problems).toContainEqual(
      expect.stringMatching(/"exits" failed: .*exited with code 2.*bad settings: port missing/),
    );
  });

  it('moves every server through pending/connecting before it settles, and ends with loading false', () => {
    expect(snapshots[0]?.servers.some((server) => server.status === 'connecting')).toBe(true);
    expect(snapshots.at(-1)?.loading).toBe(false);
  });

  it('registers one tool per remote tool, skipping (and reporting) names that are taken or unusable', () => {
    const everything = manager.statusSnapshot().servers[0]!;
    expect(everything.tools).toContain('get-sum');
    expect(everything.tools).not.toContain('echo');
    expect(manager.problems().map((problem) => problem.message)).toEqual(
      expect.arrayContaining([
        'Tool "echo" of MCP server "everything" was not added: a built-in tool already has this name',
        expect.stringMatching(
          /Tool "bad.name" of MCP server "faults" was not added: its name is not accepted/,
        ),
        expect.stringMatching(
          /"simulate-research-query" of MCP server "everything" was not added: it can only run as an MCP task/,
        ),
      ]),
    );
    expect(toolset.find('echo')?.description).toBe('A built-in echo.');
    const sum = toolset.find('get-sum');
    expect(sum?.description).toMatch(/^A tool from the MCP \(Model Context Protocol\) server `everything`\./);
    expect(sum?.parameters).toMatchObject({ type: 'object', properties: { a: { type: 'number' } } });
  });
});

describe('calls', () => {
  it('calls a remote tool and returns its text', async () => {
    const result = await callTool(toolset, 'get-sum', { a: 2, b: 3 });
    expect(result.return_value.is_error).toBe(false);
    expect(outputText(result)).toBe('The sum of 2 and 3 is 5.');
  });

  it('returns images as image parts', async () => {
    const result = await callTool(toolset, 'get-tiny-image');
    const output = result.return_value.output;
    expect(Array.isArray(output) && output.some((part) => part.type === 'image_url')).toBe(true);
    expect(Array.isArray(output) && output.find((part) => part.type === 'image_url')).toMatchObject({
      image_url: { url: expect.stringMatching(/^data:image\/png;base64,/) },
    });
  });

  it('converts every kind of block the fault server sends', async () => {
    const result = await callTool(toolset, 'every_block');
    expect(outputText(result)).toBe(
      'plain text<image_url><audio_url>resource text[Unsupported content: embedded resource file:///report.pdf (application/pdf)][Resource link: data.csv <file:///data.csv> (text/csv)]',
    );
  });

  it('turns an isError result into an error result that keeps the output', async () => {
    const result = await callTool(toolset, 'fails');
    expect(result.return_value.is_error).toBe(true);
    expect(outputText(result)).toBe('the thing you asked for does not exist');
  });

  it('gives a stdio server its configured env and only a safe part of ours', async () => {
    expect(outputText(await callTool(toolset, 'read_env', { name: 'FAULT_SECRET' }))).toBe('from-config');
    expect(outputText(await callTool(toolset, 'read_env', { name: 'KIMI_TS_MCP_TEST_LEAK' }))).toBe(
      '(unset)',
    );
  });

  it('asks for approval with the action mcp:<name> when not auto-approving', async () => {
    approval.setYolo(false);
    const asked: string[] = [];
    const stop = approval.runtime.subscribe((event) => {
      if (event.type !== 'request_created') return;
      asked.push(`${event.record.action} | ${event.record.description}`);
      queueMicrotask(() => approval.runtime.resolve(event.record.id, { response: 'reject' }));
    });
    try {
      const result = await callTool(toolset, 'get-sum', { a: 1, b: 1 });
      expect(result.return_value.is_error).toBe(true);
      // The person sees the arguments, as for built-in tools.
      expect(asked).toHaveLength(1);
      expect(asked[0]).toMatch(
        /^mcp:get-sum \| Call MCP tool `get-sum` \(server `[^`]+`\) with arguments:\n/,
      );
      expect(asked[0]).toContain('{\n  "a": 1,\n  "b": 1\n}');
      // Long arguments say how much of them is not shown.
      await callTool(toolset, 'get-sum', { a: 'x'.repeat(5000), b: 1 });
      expect(asked[1]).toMatch(/\n… 1\d{3} more characters of the arguments not shown$/);
    } finally {
      stop();
      approval.setYolo(true);
    }
  });

  it('answers a call that runs past tool_call_timeout_ms with a timeout error naming the key', async () => {
    const result = await callTool(toolset, 'hang');
    expect(result.return_value.is_error).toBe(true);
    expect(result.return_value.message).toMatch(
      /did not answer within 500 ms.*`tool_call_timeout_ms` under `\[mcp\.client\]`/,
    );
    expect(result.return_value.display).toEqual([{ type: 'brief', text: 'Timeout' }]);
    expect(manager.statusSnapshot().servers[1]?.status).toBe('connected');
  });

  it('stops a call when its signal aborts, and the server keeps working', async () => {
    const controller = new AbortController();
    const pending = callTool(toolset, 'hang', {}, controller.signal);
    controller.abort(new Error('turn cancelled'));
    const result = await pending;
    expect(result.return_value.is_error).toBe(true);
    expect(result.return_value.display).toEqual([{ type: 'brief', text: 'Cancelled' }]);
    expect(outputText(await callTool(toolset, 'echo_text', { text: 'still here' }))).toBe('still here');
  });

  it('pages a 300,000-character result: the rest is saved and the notice says how to read it', async () => {
    const result = await callTool(toolset, 'huge');
    const text = outputText(result);
    const notice = /\[Output truncated: [\s\S]*\]$/.exec(text)?.[0] ?? '';
    const path = /saved in (\S+) \(/.exec(notice)?.[1] ?? '';
    const line = Number(/line_offset (\d+)/.exec(notice)?.[1]);
    expect(path.startsWith(join(dir, 'mcp-outputs'))).toBe(true);
    expect(text.length - notice.length).toBeLessThanOrEqual(100_000 + 2);

    const file = await readFile(path, 'utf8');
    const saved = file.split('\n');
    expect(saved).toHaveLength(3000);
    // Nothing is lost: what was shown is the start of the file, and reading from the resume line
    // on leaves no gap (it starts at or before the first character not shown).
    const shown = text.slice(0, text.length - notice.length).replace(/\n\n$/, '');
    expect(shown.length).toBe(100_000);
    expect(file.startsWith(shown)).toBe(true);
    const resumeOffset = saved.slice(0, line - 1).join('\n').length + 1;
    expect(resumeOffset).toBeLessThanOrEqual(shown.length + 1);
    expect(resumeOffset + saved[line - 1]!.length).toBeGreaterThanOrEqual(shown.length);
    expect(saved[2999]).toMatch(/^row 03000 x+$/);
  });

  it('wraps a 300,000-character single line so ReadFile can read every piece', async () => {
    const text = outputText(await callTool(toolset, 'huge', { single_line: true }));
    const path = /saved in (\S+) \(/.exec(text)?.[1] ?? '';
    const lines = (await readFile(path, 'utf8')).split('\n');
    expect(lines).toHaveLength(300);
    expect(lines.every((line) => line.length <= 1_000)).toBe(true);
    expect(text).toMatch(/lines longer than 1000 characters are wrapped/);
  });

  it('saves an image that does not fit instead of dropping it silently', async () => {
    const result = await callTool(toolset, 'big_image');
    const text = outputText(result);
    expect(text.startsWith('before the imageafter the image')).toBe(true);
    const mediaPath = /saved as files instead: (\S+) \(image\/png\)/.exec(text)?.[1] ?? '';
    expect((await readFile(mediaPath)).length).toBe(Buffer.byteLength('A'.repeat(120_000), 'base64'));
  });
});

describe('close', () => {
  it('ends every server process', async () => {
    const pid = Number(outputText(await callTool(toolset, 'pid')));
    expect(isAlive(pid)).toBe(true);
    await manager.close();
    expect(isAlive(pid)).toBe(false);
    const after = await callTool(toolset, 'get-sum', { a: 1, b: 2 });
    expect(after.return_value.is_error).toBe(true);
  });
});
