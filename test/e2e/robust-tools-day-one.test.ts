import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { collect, waitForOutput } from '../support/run-cli.js';
import { useScriptedCli } from '../support/scripted-cli.js';
import { WireClient } from '../support/wire-process-client.js';

const cli = useScriptedCli();

interface Message {
  role: string;
  content: unknown;
  tool_call_id?: string;
}

describe('day-one mistakes get a one-line answer', () => {
  it('-m with an unknown alias names it and the configured ones, not the setup tutorial', async () => {
    const { server, sandbox } = await cli.setup([]);
    const result = await sandbox.run(['--print', '-m', 'nosuch', '-p', 'hi']);
    // A usage error: exit 2, the usage line, the hint to --help and the one line that matters.
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /\nError: Invalid value for --model: unknown model alias 'nosuch'; configured: e2e\n$/,
    );
    expect(result.stderr).not.toContain('KIMI_BASE_URL');
    expect(server.requests).toHaveLength(0);
  });

  it('an unknown slash command is answered locally; an empty wire prompt is refused', async () => {
    const { server, sandbox } = await cli.setup([]);
    const print = await sandbox.run(['--print', '-p', '/nosuch now']);
    expect(print.code).toBe(0);
    expect(print.stdout).toBe('unknown command /nosuch — /help lists them\n');

    const child = sandbox.spawn(['--wire']);
    const client = new WireClient(child);
    await client.request('initialize', { protocol_version: '1.10' });
    const empty = await client.request('prompt', { user_input: '   ' });
    expect(empty.error).toMatchObject({
      code: -32602,
      message: 'The prompt is empty: nothing was sent to the model.',
    });
    const parts = await client.request('prompt', { user_input: [{ type: 'text', text: '' }] });
    expect(parts.error?.code).toBe(-32602);
    const unknown = await client.request('prompt', { user_input: '/nosuch' });
    expect(unknown.result).toEqual({ status: 'finished' });
    const said = client.messages.filter(
      (m) => m.method === 'event' && (m.params as { type: string }).type === 'ContentPart',
    );
    expect(JSON.stringify(said.at(-1)?.params)).toContain('unknown command /nosuch — /help lists them');
    child.stdin!.end();
    expect((await collect(child)).code).toBe(0);
    // Nothing of it reached the model.
    expect(server.requests).toHaveLength(0);
  });

  it('the status after a step carries the input tokens reported (as Kimi CLI); /status counts the answer too', async () => {
    const { sandbox } = await cli.setup([
      { text: 'Counted.', usage: { prompt_tokens: 100, completion_tokens: 20 } },
    ]);
    const child = sandbox.spawn(['--wire']);
    const client = new WireClient(child);
    await client.request('initialize', { protocol_version: '1.10' });
    await client.request('prompt', { user_input: 'count' });
    const status = client.messages
      .filter((m) => m.method === 'event' && (m.params as { type: string }).type === 'StatusUpdate')
      .map((m) => (m.params as { payload: { context_tokens?: number } }).payload.context_tokens)
      .filter((n) => n !== undefined && n !== null);
    expect(status.at(-1)).toBe(100);
    await client.request('prompt', { user_input: '/status' });
    const text = client.messages
      .filter((m) => m.method === 'event' && (m.params as { type: string }).type === 'ContentPart')
      .map((m) => JSON.stringify(m.params))
      .join('');
    expect(text).toContain('Context: 120 tokens');
    child.stdin!.end();
    expect((await collect(child)).code).toBe(0);
  });

  it('a tool call with an empty name gets an error result like an unknown tool', async () => {
    const { server, sandbox } = await cli.setup([
      { toolCalls: [{ id: 'e1', name: '', args: { a: 1 } }] },
      { text: 'Noted.' },
    ]);
    const result = await sandbox.run(['--print', '--output-format', 'stream-json', '-p', 'go']);
    expect(result.code).toBe(0);
    const history = (server.requests[1]?.body as { messages: Message[] } | undefined)?.messages ?? [];
    const tool = history.find((m) => m.role === 'tool');
    expect(tool?.tool_call_id).toBe('e1');
    expect(JSON.stringify(tool?.content)).toContain('not found');
  });

  it('a base_url that is not a URL stops at start, naming the file, table and key', async () => {
    const { sandbox } = await cli.setup([]);
    const config = join(sandbox.root, 'bad-url.toml');
    await writeFile(
      config,
      'default_model = "m"\n[providers.local]\ntype = "openai_legacy"\nbase_url = "not a url"\n[models.m]\nprovider = "local"\nmodel = "x"\nmax_context_size = 1000\n',
    );
    const result = await sandbox.run(
      ['--config-file', config, '-w', sandbox.workDir, '--print', '-p', 'hi'],
      {
        bare: true,
      },
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `Invalid config in ${config}: providers.local.base_url: must be an http:// or https:// URL`,
    );
  });

  it('a missing api_key names the config file and the provider table', async () => {
    const { server, sandbox } = await cli.setup([]);
    const config = join(sandbox.root, 'no-key.toml');
    await writeFile(
      config,
      `default_model = "m"\n[providers.moon]\ntype = "kimi"\nbase_url = "${server.baseUrl}"\n[models.m]\nprovider = "moon"\nmodel = "x"\nmax_context_size = 1000\n`,
    );
    const result = await sandbox.run(
      ['--config-file', config, '-w', sandbox.workDir, '--print', '-p', 'hi'],
      {
        bare: true,
      },
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`Invalid config in ${config}: providers.moon.api_key: is empty`);
    expect(server.requests).toHaveLength(0);
  });

  it('print mode says on stderr which background tasks it waits for', async () => {
    // The job ends only once the test has seen the message: it is said while the wait lasts, however
    // long the turn that started the job took.
    const { sandbox } = await cli.setup([
      {
        toolCalls: [
          {
            id: 'b1',
            name: 'Shell',
            args: {
              command: 'until [ -f go ]; do sleep 0.05; done; echo finished',
              run_in_background: true,
              description: 'short job',
            },
          },
        ],
      },
      { text: 'Started it.' },
      { text: 'It finished.' },
    ]);
    const child = sandbox.spawn(['--print', '--yolo', '-p', 'run it in the background'], { input: '' });
    const done = collect(child);
    await waitForOutput(child.stderr!, /waiting for 1 background task to finish: \S+ \(at most \d+s more\)/);
    await writeFile(join(sandbox.workDir, 'go'), '');
    const result = await done;
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('It finished.');
  });
});
