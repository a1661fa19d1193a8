import { open, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useScriptedCli } from '../support/scripted-cli.js';
import { onlySessionDir } from '../support/session-files.js';
import { startVisCli } from '../support/vis-cli.js';

const cli = useScriptedCli();

const HUGE_BYTES = 500 * 1024 * 1024;

/** Appends one line of `bytes` bytes (a JSON string that never ends in time) to `path`, streaming. */
async function appendHugeLine(path: string, bytes: number): Promise<void> {
  const handle = await open(path, 'a');
  try {
    const head = Buffer.from('{"timestamp":1,"message":{"type":"TextPart","payload":{"text":"');
    const block = Buffer.alloc(1024 * 1024, 0x41);
    await handle.write(head);
    let written = head.length;
    while (written + block.length < bytes - 4) {
      await handle.write(block);
      written += block.length;
    }
    await handle.write(Buffer.alloc(bytes - 4 - written, 0x41));
    await handle.write('"}}}\n');
  } finally {
    await handle.close();
  }
}

/** The peak resident memory of a live process (VmHWM), in MiB. */
async function peakRssMiB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1]);
  return kb / 1024;
}

describe('a 500 MiB line in a session file', () => {
  it('kimi-ts vis skips it with bounded memory and names the line', async () => {
    const { sandbox } = await cli.setup([{ text: 'first answer' }, { text: 'second answer' }]);
    expect((await sandbox.run(['--print', '-p', 'hello'])).code).toBe(0);
    const dir = await onlySessionDir(sandbox.home);
    const wire = join(dir, 'wire.jsonl');
    const linesBefore = (await readFile(wire, 'utf8')).split('\n').length - 1;
    await appendHugeLine(wire, HUGE_BYTES);
    // A readable record after it: the reader goes on past the skipped line.
    await open(wire, 'a').then(async (h) => {
      await h.write(`${JSON.stringify({ timestamp: 2, message: { type: 'TurnEnd', payload: {} } })}\n`);
      await h.close();
    });

    const vis = await startVisCli(sandbox);
    cli.defer(() => vis.stop());
    const auth = { Authorization: `Bearer ${vis.token}` };
    const { sessions } = (await (
      await fetch(`${vis.origin}/api/vis/sessions`, { headers: auth })
    ).json()) as {
      sessions: { id: string }[];
    };
    const id = sessions[0]!.id;
    const response = await fetch(`${vis.origin}/api/vis/sessions/${id}/model`, { headers: auth });
    expect(response.status).toBe(200);
    const model = (await response.json()) as { problems: { line: number; message: string }[] };
    const hugeLine = linesBefore + 1;
    expect(model.problems).toContainEqual({
      line: hugeLine,
      message: expect.stringContaining(`Line ${hugeLine} is ${HUGE_BYTES} bytes long`),
    });
    const peak = await peakRssMiB(vis.child.pid!);
    expect(peak).toBeLessThan(300);
  }, 120_000);
});
