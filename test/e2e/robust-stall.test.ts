import { describe, expect, it } from 'vitest';
import { collect } from '../support/run-cli.js';
import { useScriptedCli } from '../support/scripted-cli.js';
import type { ScriptedTurn } from '../support/scripted-llm-server.js';
import { WireClient } from '../support/wire-process-client.js';

const cli = useScriptedCli();

/**
 * The model may stay silent 2 s. Shorter (it was 0.5 s) races the scheduler: on a loaded machine the
 * loopback server may take longer than that to read a request it then answers at once, and the
 * CLI abandons an attempt that was not a stall — or that the server never saw.
 */
const STALL_S = 2;
const stallAfterTwoSeconds = { extraToml: `[loop_control]\nstall_timeout_s = ${STALL_S}\n` };

describe('silence is explained', () => {
  it('print mode says it is waiting, then gives up with a clear error and exit 75', async () => {
    const { server, sandbox } = await cli.setup(
      [{ stall: 'before-headers' }, { stall: 'after-text', text: 'Let me' }],
      stallAfterTwoSeconds,
    );
    const result = await sandbox.run(['--print', '--max-retries-per-step', '2', '-p', 'hello?']);
    expect(result.code).toBe(75);
    expect(server.requests).toHaveLength(2);
    expect(result.stderr).toMatch(/\[waiting for the model: [\d.]+ s…\]/);
    expect(result.stderr).toContain(`The model sent nothing for ${STALL_S} s; the request was abandoned.`);
    expect(result.stdout).toBe('');
  });

  it('wire mode streams the waiting notifications to the client', async () => {
    const { sandbox } = await cli.setup(
      [{ stall: 'before-headers' }, { text: 'Here I am.' }],
      stallAfterTwoSeconds,
    );
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
        const own = await cli.startServer(Array.from({ length: 3 }, () => ({ ...failure })));
        const box = await cli.createSandbox({ baseUrl: own.baseUrl, ...stallAfterTwoSeconds });
        const result = await box.run(['--print', '--max-retries-per-step', String(attempts), '-p', 'hi']);
        const requests = own.requests.length;
        return { attempts, code: result.code, requests };
      }),
    );
    for (const { attempts, code, requests } of runs)
      expect({ code, requests }).toEqual({ code: 75, requests: attempts });
  });
});
