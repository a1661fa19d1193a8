import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { collect } from '../support/run-cli.js';
import { useScriptedCli } from '../support/scripted-cli.js';
import { WireClient } from '../support/wire-process-client.js';

const cli = useScriptedCli();

interface RequestBody {
  tools?: { function: { name: string } }[];
  thinking?: unknown;
  messages?: { role: string; content: unknown }[];
}

const body = (index: number): RequestBody => cli.server.requests[index]?.body as RequestBody;
const toolNames = (index: number): string[] => (body(index).tools ?? []).map((t) => t.function.name);

/** An agent file extending the default one, with `lines` under `agent:`. */
async function agentFile(lines: string[]): Promise<string> {
  const file = join(cli.sandbox.root, 'agent.yaml');
  await writeFile(
    file,
    ['version: 1', 'agent:', '  extend: default', ...lines.map((l) => `  ${l}`), ''].join('\n'),
  );
  return file;
}

/** A `--wire` child of the sandbox, initialized; closed with the test. */
async function wire(args: string[] = [], init: Record<string, unknown> = {}) {
  const child = cli.sandbox.spawn(['--wire', ...args]);
  cli.defer(() => child.kill());
  const client = new WireClient(child);
  const initialized = await client.request('initialize', { protocol_version: '1.10', ...init });
  return { child, client, initialized };
}

describe('agent files take Kimi CLI tool paths', () => {
  it('exclude_tools with a full Kimi CLI path removes the tool', async () => {
    const { sandbox } = await cli.setup([{ text: 'ok' }]);
    const file = await agentFile(['exclude_tools:', '  - "kimi_cli.tools.shell:Shell"', '  - FetchURL']);
    const result = await sandbox.run(['--print', '-p', 'hi', '--agent-file', file]);
    expect(result.stderr).toBe('');
    expect(toolNames(0)).not.toContain('Shell');
    expect(toolNames(0)).not.toContain('FetchURL');
    expect(toolNames(0)).toContain('ReadFile');
  });

  it('tools with Kimi CLI paths load the kimi-ts tools', async () => {
    const { sandbox } = await cli.setup([{ text: 'ok' }]);
    const file = await agentFile([
      'tools:',
      '  - "kimi_cli.tools.file:ReadFile"',
      '  - "kimi_cli.tools.file:Glob"',
    ]);
    const result = await sandbox.run(['--print', '-p', 'hi', '--agent-file', file]);
    expect(result.code).toBe(0);
    expect(toolNames(0).sort()).toEqual(['Glob', 'ReadFile']);
  });

  it('an exclude_tools entry that names no tool is an error, not ignored', async () => {
    const { server, sandbox } = await cli.setup([{ text: 'ok' }]);
    const file = await agentFile(['exclude_tools:', '  - "kimi_cli.tools.shell:Shel"']);
    const result = await sandbox.run(['--print', '-p', 'hi', '--agent-file', file]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'exclude_tools entry "kimi_cli.tools.shell:Shel" names none of the agent\'s tools',
    );
    expect(server.requests).toHaveLength(0);
  });
});

describe('thinking on the Kimi provider', () => {
  const kimi = { KIMI_TS_PROVIDER_TYPE: 'kimi' };

  it('sends thinking disabled by default, enabled with --thinking for kimi-for-coding, whose media tools load', async () => {
    const { sandbox } = await cli.setup([{ text: 'one' }, { text: 'two' }]);
    expect((await sandbox.run(['--print', '-p', 'hi'], { env: kimi })).code).toBe(0);
    expect(body(0).thinking).toEqual({ type: 'disabled' });
    // e2e-model has no image or video capability: no ReadMediaFile.
    expect(toolNames(0)).not.toContain('ReadMediaFile');
    const coding = { ...kimi, KIMI_MODEL_NAME: 'kimi-for-coding' };
    expect((await sandbox.run(['--print', '--thinking', '-p', 'hi'], { env: coding })).code).toBe(0);
    expect(body(1).thinking).toEqual({ type: 'enabled' });
    expect(toolNames(1)).toContain('ReadMediaFile');
  });
});

describe('wire mode as Kimi CLI answers it', () => {
  it('replay sends a past approval request as an event, never as a live request (requests: 0)', async () => {
    const { sandbox } = await cli.setup([
      { toolCalls: [{ id: 'call-1', name: 'Shell', args: { command: 'echo replayed' } }] },
      { text: 'done' },
    ]);
    const first = await wire();
    first.client.answerApprovals(() => 'approve');
    expect((await first.client.request('prompt', { user_input: 'run it' })).result).toEqual({
      status: 'finished',
    });
    first.child.stdin!.end();
    await collect(first.child);
    const [id] = (await sandbox.run(['sessions'])).stdout.split(/\s+/);

    const second = await wire(['-S', id!.slice(0, 8)]);
    const replay = await second.client.request('replay');
    expect(replay.result).toMatchObject({ status: 'finished', requests: 0 });
    expect(second.client.messages.filter((m) => m.method === 'request')).toEqual([]);
    expect(second.client.eventTypes()).toContain('ApprovalRequest');
  });

  it('StatusUpdate carries the input tokens the provider reported; /clear and /compact send one', async () => {
    await cli.setup([{ text: 'answer', usage: { prompt_tokens: 1234, completion_tokens: 50 } }]);
    const { client } = await wire();
    await client.request('prompt', { user_input: 'hi' });
    const status = (await client.event('StatusUpdate')).params as { payload: Record<string, unknown> };
    expect(status.payload.context_tokens).toBe(1234);

    const before = client.messages.length;
    // One exchange is enough to compact (Kimi CLI); no model call is needed for it.
    await client.request('prompt', { user_input: '/compact' });
    const compacted = client.messages.slice(before);
    const types = compacted
      .filter((m) => m.method === 'event')
      .map((m) => (m.params as { type: string }).type);
    expect(types).toEqual(expect.arrayContaining(['CompactionBegin', 'CompactionEnd', 'StatusUpdate']));
    expect(JSON.stringify(compacted)).toContain('The context has been compacted.');
    expect(cli.server.requests).toHaveLength(1);

    // A provider that reports no usage: the context numbers stay empty, nothing is guessed.
    cli.server.push({ text: 'no numbers', usage: null });
    const unreported = client.messages.length;
    await client.request('prompt', { user_input: 'again' });
    const empty = client.messages
      .slice(unreported)
      .find((m) => m.method === 'event' && (m.params as { type: string }).type === 'StatusUpdate');
    expect(empty?.params).toMatchObject({ type: 'StatusUpdate' });
    expect((empty!.params as { payload: Record<string, unknown> }).payload).toMatchObject({
      token_usage: null,
      context_tokens: null,
      max_context_tokens: null,
      context_usage: null,
    });

    const cleared = client.messages.length;
    await client.request('prompt', { user_input: '/clear' });
    const after = client.messages.slice(cleared).filter((m) => m.method === 'event');
    expect(after.map((m) => (m.params as { type: string }).type)).toContain('StatusUpdate');
  });

  it('an empty model name does not stop wire mode: each prompt gets -32001 "LLM is not set"', async () => {
    const { server, sandbox } = await cli.setup([]);
    const config = join(sandbox.root, 'empty-model.toml');
    await writeFile(
      config,
      [
        'default_model = "m"',
        '[providers.p]',
        'type = "kimi"',
        `base_url = "${server.baseUrl}"`,
        'api_key = "sk-x"',
        '[models.m]',
        'provider = "p"',
        'model = ""',
        'max_context_size = 1000',
      ].join('\n'),
    );
    const { client, initialized } = await wire(['--config-file', config]);
    expect(initialized.result).toMatchObject({ protocol_version: '1.10' });
    for (const input of ['one', 'two']) {
      const answer = await client.request('prompt', { user_input: input });
      expect(answer.error).toMatchObject({ code: -32001, message: 'LLM is not set' });
    }
    expect(server.requests).toHaveLength(0);
  });

  it("counts hook subscriptions sent in initialize in hooks.configured; unknown methods get Kimi CLI's words", async () => {
    await cli.setup([]);
    const { client, initialized } = await wire([], {
      hooks: [
        { id: 'h1', event: 'PreToolUse', matcher: 'Shell' },
        { id: 'h2', event: 'PreToolUse' },
        { id: 'h3', event: 'Stop' },
      ],
    });
    expect((initialized.result as { hooks: { configured: unknown } }).hooks.configured).toEqual({
      PreToolUse: 2,
      Stop: 1,
    });
    expect((await client.request('frobnicate')).error).toEqual({
      code: -32601,
      message: 'Unexpected method received: frobnicate',
    });
  });
});

describe('tool wording programs key on', () => {
  it("Glob refuses a pattern starting with ** in Kimi CLI's words", async () => {
    const { sandbox } = await cli.setup([
      { toolCalls: [{ id: 'g1', name: 'Glob', args: { pattern: '**/*.ts' } }] },
      { text: 'ok' },
    ]);
    expect((await sandbox.run(['--print', '--yolo', '-p', 'find'])).code).toBe(0);
    expect(JSON.stringify(body(1).messages)).toContain(
      "Pattern `**/*.ts` starts with '**' which is not allowed. This would recursively search all directories and may include large directories like `node_modules`. Use more specific patterns instead.",
    );
  });
});

describe('ACP', () => {
  it('session/new and session/resume answer with models {currentModelId, availableModels} and configOptions', async () => {
    const { sandbox } = await cli.setup([{ text: 'a saved session' }], {
      extraToml: [
        '[models.other]',
        'provider = "local"',
        'model = "other-model"',
        'max_context_size = 1000',
        'capabilities = ["thinking"]',
      ].join('\n'),
    });
    expect((await sandbox.run(['--print', '-p', 'hi'])).code).toBe(0);
    const [saved] = (await sandbox.run(['sessions'])).stdout.split(/\s+/);
    const child = sandbox.spawn(['acp', '--config-file', sandbox.configFile], { bare: true });
    cli.defer(() => child.kill());
    const client = new WireClient(child);
    await client.request('initialize', { protocolVersion: 1, clientCapabilities: {} });
    const answer = await client.request('session/new', { cwd: sandbox.workDir, mcpServers: [] });
    expect(answer).toMatchObject({ result: {} });
    const created = answer.result as {
      sessionId: string;
      models: unknown;
      configOptions: unknown[];
    };
    expect(created.models).toEqual({
      currentModelId: 'e2e',
      availableModels: [
        { modelId: 'e2e', name: 'e2e-model' },
        { modelId: 'other', name: 'other-model' },
        { modelId: 'other,thinking', name: 'other-model (thinking)' },
      ],
    });
    expect(created.configOptions.length).toBeGreaterThan(0);
    const resume = await client.request('session/resume', {
      sessionId: saved,
      cwd: sandbox.workDir,
      mcpServers: [],
    });
    expect(resume).toMatchObject({ result: { models: { currentModelId: 'e2e' } } });
    expect((resume.result as { configOptions: unknown[] }).configOptions.length).toBeGreaterThan(0);
  });
});
