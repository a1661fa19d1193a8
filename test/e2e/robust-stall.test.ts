import { afterEach, describe, expect, it } from 'vitest';
import { CliSandbox, collect } from '../support/run-cli.js';
import { ScriptedLLMServer, type ScriptedTurn } from '../support/scripted-llm-server.js';
import { WireClient } from '../support/wire-process-client.js';

let server: ScriptedLLMServer;
let sandbox: CliSandbox;

async function setup(turns: ScriptedTurn[]) {
  server = await ScriptedLLMServer.start(turns);
  sandbox = await CliSandbox.create({
    baseUrl: server.baseUrl,
    extraToml: '[loop_control]\nstall_timeout_s = 0.5\n',
  });
}

afterEach(async () => {
  await server?.close();
  await sandbox?.remove();
});

describe('silence is explained', () => {
  it('print mode says it is waiting, then gives up with a clear error and exit 75', async () => {
    await setup([{ stall: 'before-headers' }, { stall: 'after-text', text: 'Let me' }]);
    const result = await sandbox.run(['--print', '--max-retries-per-step', '2', '-p', 'hello?']);
    expect(result.code).toBe(75);
    expect(server.requests).toHaveLength(2);
    expect(result.stderr).toMatch(/\[waiting for the model: [\d.]+ s…\]/);
    expect(result.stderr).toContain('The model sent nothing for 0.5 s; the request was abandoned.');
    expect(result.stdout).toBe('');
  });

  it('wire mode streams the waiting notifications to the client', async () => {
    await setup([{ stall: 'before-headers' }, { text: 'Here I am.' }]);
    const child = sandbox.spawn(['--wire']);
    const client = new WireClient(child);
    await client.request('initialize', { protocol_version: '1.10' });
    const prompt = client.request('prompt', { user_input: 'hello?' });
    const waiting = await client.waitFor(
      (m) => m.method === 'event' && JSON.stringify(m.params).includes('"type":"model.waiting"'),
    );
    expect(JSON.stringify(waiting.params)).toContain('waiting for the model');
    expect((await prompt).result).toEqual({ status: 'finished' });
    expect(client.eventTypes()).toContain('StepRetry');
    child.stdin!.end();
    expect((await collect(child)).code).toBe(0);
  });
});

describe('--max-retries-per-step counts every retryable failure the same', () => {
  const failures: [string, ScriptedTurn][] = [
    ['HTTP 500', { status: 500 }],
    ['a stall', { stall: 'before-headers' }],
    ['a cut stream', { text: 'half', cut: 'after-text' }],
  ];
  it.each(failures)('%s: as many requests as attempts', async (_kind, failure) => {
    const runs = await Promise.all(
      [1, 2].map(async (attempts) => {
        const own = await ScriptedLLMServer.start(Array.from({ length: 3 }, () => ({ ...failure })));
        const box = await CliSandbox.create({
          baseUrl: own.baseUrl,
          extraToml: '[loop_control]\nstall_timeout_s = 0.5\n',
        });
        const result = await box.run(['--print', '--max-retries-per-step', String(attempts), '-p', 'hi']);
        const requests = own.requests.length;
        await own.close();
        await box.remove();
        return { attempts, code: result.code, requests };
      }),
    );
    for (const { attempts, code, requests } of runs)
      expect({ code, requests }).toEqual({ code: 75, requests: attempts });
  });
});
