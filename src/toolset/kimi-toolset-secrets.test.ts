import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toolOk } from '../kosong/index.js';
import { REDACTED, SecretRegistry } from '../policy/secrets.js';
import { KimiToolset } from './kimi-toolset.js';
import { dispatchAll, toolCall } from './test-support/dispatch.js';
import { testPolicy } from './test-support/test-policy.js';
import { defineTool } from './tool-definition.js';
import { toolErrorKind } from './tool-errors.js';

const KEY = 'sk-secret-0123456789';

function toolsetWithSecret(onCall: (text: string) => void, reply: (text: string) => string) {
  const secrets = new SecretRegistry();
  secrets.add(KEY, 'env KIMI_API_KEY');
  const toolset = new KimiToolset({ policy: testPolicy({ workDir: process.cwd() }), secrets });
  toolset.add(
    defineTool({
      name: 'Echo',
      description: '',
      params: z.object({ text: z.string() }),
      effect: 'read-only',
      call: ({ text }) => {
        onCall(text);
        return toolOk(reply(text), `said ${reply(text)}`);
      },
    }),
  );
  return toolset;
}

describe('KimiToolset and secrets', () => {
  it('refuses a call whose arguments carry a secret, before the tool runs, naming only its source', async () => {
    const calls: string[] = [];
    const toolset = toolsetWithSecret(
      (text) => calls.push(text),
      (text) => text,
    );
    const [result] = await dispatchAll(toolset, [toolCall('1', 'Echo', { text: `curl ?k=${KEY}` })]);
    expect(calls).toEqual([]);
    expect(toolErrorKind(result!.return_value)).toBe('secret_in_arguments');
    expect(result!.return_value.message).toContain('env KIMI_API_KEY');
    expect(JSON.stringify(result)).not.toContain(KEY);
  });

  it('redacts a secret from everything a tool returns', async () => {
    const toolset = toolsetWithSecret(
      () => {},
      () => `the key is ${KEY}`,
    );
    const [result] = await dispatchAll(toolset, [toolCall('1', 'Echo', { text: 'hi' })]);
    expect(result!.return_value.output).toBe(`the key is ${REDACTED}`);
    expect(result!.return_value.message).toBe(`said the key is ${REDACTED}`);
    expect(JSON.stringify(result)).not.toContain(KEY);
  });
});
