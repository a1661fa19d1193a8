import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { closeAll, useScriptedCli } from './scripted-cli.js';

describe('closeAll', () => {
  it('closes last first, every closer even after a failure, then throws the first failure', async () => {
    const closed: string[] = [];
    const closers = [
      () => closed.push('server'),
      async () => {
        closed.push('sandbox');
        throw new Error('first failure');
      },
      () => {
        closed.push('terminal');
        throw new Error('second failure');
      },
    ];
    await expect(closeAll(closers)).rejects.toThrow('second failure');
    expect(closed).toEqual(['terminal', 'sandbox', 'server']);
  });
});

describe('useScriptedCli', () => {
  const cli = useScriptedCli();
  let previousRoot: string | undefined;

  it('names nothing before setup, then the server and the sandbox it started', async () => {
    expect(() => cli.sandbox).toThrow(/call setup\(\) or createSandbox\(\) first/);
    expect(() => cli.server).toThrow(/call setup\(\) first/);
    const { server, sandbox } = await cli.setup([{ text: 'hi' }]);
    expect(cli.server).toBe(server);
    expect(cli.sandbox).toBe(sandbox);
    const extra = await cli.startServer();
    expect(cli.server).toBe(server);
    const own = await cli.createSandbox({ baseUrl: extra.baseUrl });
    expect(cli.sandbox).toBe(own);
    previousRoot = sandbox.root;
    expect(existsSync(previousRoot)).toBe(true);
  });

  it('removed the sandboxes of the test before, and forgot them', () => {
    expect(previousRoot && existsSync(previousRoot)).toBe(false);
    expect(() => cli.sandbox).toThrow(/first/);
  });
});
