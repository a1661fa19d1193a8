import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { ScriptedSession } from '../common/test-support/scripted-turn-session.js';
import { envelopeOf, TestWireClient } from './test-support/in-memory-wire-client.js';

let dir: string;
let session: ScriptedSession;
let client: TestWireClient;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kimi-ts-wire-trust-'));
  session = new ScriptedSession(dir, join(dir, 'wire.jsonl'));
  // A folder whose rules file has an allow rule: trusting it would change something.
  session.workspaceTrust.setHeldBack([`1 allow rule in ${dir}/.kimi-ts/permissions.toml`]);
  client = new TestWireClient(session);
});
afterEach(async () => {
  await client.close();
  expect(client.badLines).toEqual([]);
  await rm(dir, { recursive: true, force: true });
});

const trustRequests = () =>
  client.messages.filter((m) => m.method === 'request' && envelopeOf(m).type === 'WorkspaceTrustRequest');

describe('workspace trust over the wire (a kimi-ts extension)', () => {
  test('a client that declares nothing hears nothing of it, and its initialize answer is unchanged', async () => {
    const init = await client.request('initialize', { protocol_version: '1.10' });
    expect(init.result).not.toHaveProperty('workspace');
    expect((await client.request('prompt', { user_input: 'hi' })).result).toEqual({ status: 'finished' });
    expect(trustRequests()).toHaveLength(0);
    expect(session.workspaceTrust.trusted).toBe(false);
  });

  test('a client with the capability is asked once; a prompt waits for the answer; yes + remember records it', async () => {
    const init = await client.request('initialize', {
      protocol_version: '1.10',
      capabilities: { workspace_trust: true },
    });
    expect(init.result).toMatchObject({ workspace: { trusted: false, folder: dir } });
    const ask = await client.waitForRequest('WorkspaceTrustRequest');
    let promptDone = false;
    const prompt = client.request('prompt', { user_input: 'hi' }).then((r) => {
      promptDone = true;
      return r;
    });
    // Another message round-trip: the prompt is still waiting for the trust answer.
    await client.request('no_such_method');
    expect(promptDone).toBe(false);
    client.respond(ask.id, { trusted: true, remember: true });
    expect((await prompt).result).toEqual({ status: 'finished' });
    expect(session.workspaceTrust.trusted).toBe(true);
    expect(JSON.parse(await readFile(`${session.wireFile}.trusted-folders.json`, 'utf8')).folders).toEqual([
      dir,
    ]);
    await client.request('initialize', { protocol_version: '1.10', capabilities: { workspace_trust: true } });
    expect(trustRequests()).toHaveLength(1);
  });

  test('an answer that is not an explicit yes leaves the folder untrusted', async () => {
    await client.request('initialize', { protocol_version: '1.10', capabilities: { workspace_trust: true } });
    const ask = await client.waitForRequest('WorkspaceTrustRequest');
    client.respond(ask.id, { trusted: 'yes please' });
    expect((await client.request('prompt', { user_input: 'hi' })).result).toEqual({ status: 'finished' });
    expect(session.workspaceTrust.trusted).toBe(false);
    expect(client.stderr).toContain('the folder stays untrusted');
  });

  test('`trust_workspace: true` trusts the folder for the session without asking or recording', async () => {
    const init = await client.request('initialize', { protocol_version: '1.10', trust_workspace: true });
    expect(init.result).toMatchObject({ workspace: { trusted: true, source: 'client' } });
    expect(trustRequests()).toHaveLength(0);
    await expect(readFile(`${session.wireFile}.trusted-folders.json`, 'utf8')).rejects.toThrow();
  });
});
