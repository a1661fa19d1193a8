import { describe, expect, it } from 'vitest';
import { collect } from '../support/run-cli.js';
import { useScriptedCli } from '../support/scripted-cli.js';

const cli = useScriptedCli();

describe('print mode with a reader that goes away', () => {
  // `kimi-ts -p … | head -c1`: the pipe closes before the answer is written. Writing to it fails
  // with EPIPE, which ends the run quietly (exit 0), not with an error and a stack trace. The
  // handler is attached when Node first builds process.stdout, after the model request has gone out.
  it('exits 0 without an error when stdout is closed before the answer', async () => {
    const { server, sandbox } = await cli.setup([{ text: 'x'.repeat(256 * 1024) }]);
    const child = sandbox.spawn(['--print', '-p', 'hi'], { input: '' });
    child.stdout?.destroy();
    const result = await collect(child);
    expect(server.requests).toHaveLength(1);
    expect(result.stderr).not.toMatch(/Error|EPIPE|at .*:\d+/);
    expect(result.code).toBe(0);
  });

  it('stream-json: exits 0 without an error too', async () => {
    const { sandbox } = await cli.setup([{ text: 'y'.repeat(256 * 1024) }]);
    const child = sandbox.spawn(['--print', '--output-format', 'stream-json', '-p', 'hi'], { input: '' });
    child.stdout?.destroy();
    const result = await collect(child);
    expect(result.stderr).not.toMatch(/Error|EPIPE|at .*:\d+/);
    expect(result.code).toBe(0);
  });
});
