import { describe, expect, it } from 'vitest';
import { useScriptedCli } from '../support/scripted-cli.js';

/**
 * Issue #24, secrets in the environment (found by a red team): commands get the person's environment
 * without the variables that hold credentials, by name or by a known format of their value.
 */

const cli = useScriptedCli();

/** What the model was sent back from the tools of the first step (only the tool messages). */
function toolMessages(body: unknown): string {
  const { messages } = body as { messages: { role: string; content: unknown }[] };
  return JSON.stringify(messages.filter((m) => m.role === 'tool').map((m) => m.content));
}

describe('credentials in the environment stay from the model', () => {
  // The filter missed a JWT value (GitLab's CI_JOB_JWT) and a Slack webhook URL (its path is the
  // secret): `env` handed them to the model.
  it('env prints CI_JOB_JWT and SLACK_WEBHOOK_URL', async () => {
    const { server, sandbox } = await cli.setup([
      { toolCalls: [{ id: 'e', name: 'Shell', args: { command: 'env' } }] },
      { text: 'done' },
    ]);
    const jwt = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJwcm9qZWN0X3BhdGg6Z3JvdXAvYXBwIn0.c2lnbmF0dXJlLXZhbHVl';
    const webhook = 'https://hooks.slack.com/services/T0123ABCD/B0123ABCD/abcdefghijklmnopqrstuvwx';
    const result = await sandbox.run(['--print', '--output-format', 'stream-json', '-p', 'show the env'], {
      env: { CI_JOB_JWT: jwt, SLACK_WEBHOOK_URL: webhook },
    });
    expect(result.code).toBe(0);
    const sent = toolMessages(server.requests[1]!.body);
    expect(sent).toContain('PWD=');
    expect(sent).not.toContain(jwt);
    expect(sent).not.toContain(webhook);
  });
});
