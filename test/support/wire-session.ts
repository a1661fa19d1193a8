import type { CliSandbox } from './run-cli.js';
import { collect } from './run-cli.js';
import { type JsonRpcMessage, WireClient } from './wire-process-client.js';

export type ApprovalDecision = (request: { action: string }) => 'approve' | 'reject';

/**
 * `kimi-ts --wire` in `sandbox`, initialized, with its approvals answered by `decide`. `prompt` sends
 * one prompt and returns the messages that came back for it (a prompt answered with an error
 * throws); `close` ends stdin and waits for the process.
 */
export async function startWireSession(
  sandbox: CliSandbox,
  args: string[] = [],
  decide: ApprovalDecision = () => 'approve',
) {
  const child = sandbox.spawn(['--wire', ...args]);
  const client = new WireClient(child);
  const approvals = client.answerApprovals(decide);
  await client.request('initialize', { protocol_version: '1.10' });
  const prompt = async (text: string): Promise<JsonRpcMessage[]> => {
    const before = client.messages.length;
    const reply = await client.request('prompt', { user_input: text });
    if (reply.error !== undefined)
      throw new Error(`prompt ${JSON.stringify(text)} failed: ${JSON.stringify(reply.error)}`);
    return client.messages.slice(before);
  };
  const close = async () => {
    child.stdin!.end();
    return collect(child);
  };
  return { client, approvals, prompt, close, child };
}
