import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useScriptedCli } from '../support/scripted-cli.js';
import type { JsonRpcMessage } from '../support/wire-process-client.js';
import { startWireSession } from '../support/wire-session.js';

const cli = useScriptedCli();

function rewindDone(messages: JsonRpcMessage[]): Record<string, unknown> | undefined {
  const event = messages.find(
    (m) => m.method === 'event' && (m.params as { type: string }).type === 'RewindDone',
  );
  return (event?.params as { payload: Record<string, unknown> } | undefined)?.payload;
}

/** Everything the CLI said for a prompt, as text (the rewind's summary and refusals are said). */
const said = (messages: JsonRpcMessage[]) => JSON.stringify(messages);

const shellTurn = (command: string) => [
  { toolCalls: [{ id: 's1', name: 'Shell', args: { command } }] },
  { text: 'done' },
];

describe('/rewind decides through the policy (wire mode)', () => {
  it('keeps a file a deny rule forbids to write, restores the rest without asking the person who typed it', async () => {
    await cli.setup(shellTurn('echo agent > a.txt && echo agent > secret/keys.txt'), {
      extraToml: [
        '[[permission.rules]]',
        'decision = "deny"',
        'pattern = "Write(secret/**)"',
        'reason = "keys are managed by hand"',
      ].join('\n'),
    });
    const work = cli.sandbox.workDir;
    await writeFile(join(work, 'a.txt'), 'a\n');
    await mkdir(join(work, 'secret'));
    await writeFile(join(work, 'secret', 'keys.txt'), 'k1\n');
    const wire = await startWireSession(cli.sandbox);
    await wire.prompt('change both');
    const rewound = await wire.prompt('/rewind 1 --code');
    const done = rewindDone(rewound);
    expect(done?.restored).toEqual(['a.txt']);
    const kept = done!.kept as { path: string; reason: string }[];
    expect(kept.map((k) => k.path)).toEqual(['secret/keys.txt']);
    expect(kept[0]!.reason).toContain('Write(secret/**)');
    expect(kept[0]!.reason).toContain('keys are managed by hand');
    expect(await readFile(join(work, 'a.txt'), 'utf8')).toBe('a\n');
    expect(await readFile(join(work, 'secret', 'keys.txt'), 'utf8')).toBe('agent\n');
    // The person typed /rewind: no question about a plain restore; the summary names what is kept.
    expect(wire.approvals.filter((a) => a.action === 'rewind files')).toEqual([]);
    expect(said(rewound)).toContain('secret/keys.txt: kept');
    expect((await wire.close()).code).toBe(0);
  });

  it('never writes through a symlink planted after the checkpoint (one no checkpoint records)', async () => {
    const outside = await mkdtemp(join(tmpdir(), 'kimi-ts-outside-'));
    cli.defer(() => rm(outside, { recursive: true, force: true }));
    // The link is ignored by .gitignore, so it is in no checkpoint and the plan does not remove it.
    await cli.setup(shellTurn(`rm -r data && ln -s ${outside} data && echo data >> .gitignore`));
    const work = cli.sandbox.workDir;
    await writeFile(join(work, '.gitignore'), 'build/\n');
    await mkdir(join(work, 'data'));
    await writeFile(join(work, 'data', 'rows.csv'), '1,2\n');
    const wire = await startWireSession(cli.sandbox);
    await wire.prompt('move data out');
    const done = rewindDone(await wire.prompt('/rewind 1 --code'));
    expect(done?.restored).toEqual(['.gitignore']);
    const kept = done!.kept as { path: string; reason: string }[];
    expect(kept.map((k) => k.path)).toEqual(['data/rows.csv']);
    expect(kept[0]!.reason).toContain('outside the workspace');
    expect(await readdir(outside)).toEqual([]);
    expect(await readFile(join(work, '.gitignore'), 'utf8')).toBe('build/\n');
    expect((await wire.close()).code).toBe(0);
  });

  it('in yolo the policy approves the restore: no approval request is sent', async () => {
    await cli.setup(shellTurn('echo agent > a.txt && rm b.txt'));
    const work = cli.sandbox.workDir;
    await writeFile(join(work, 'a.txt'), 'a\n');
    await writeFile(join(work, 'b.txt'), 'b\n');
    const wire = await startWireSession(cli.sandbox, ['--yolo'], () => 'reject');
    await wire.prompt('change and delete');
    const done = rewindDone(await wire.prompt('/rewind 1'));
    expect((done!.restored as string[]).sort()).toEqual(['a.txt', 'b.txt']);
    expect(wire.approvals).toEqual([]);
    expect(await readFile(join(work, 'b.txt'), 'utf8')).toBe('b\n');
    expect((await wire.close()).code).toBe(0);
  });

  it('in plan mode the rewind is refused: no file and nothing of the conversation changes', async () => {
    await cli.setup(shellTurn('echo agent > a.txt && echo new > created.txt'));
    const work = cli.sandbox.workDir;
    await writeFile(join(work, 'a.txt'), 'a\n');
    const wire = await startWireSession(cli.sandbox);
    await wire.prompt('change a');
    await wire.client.request('set_plan_mode', { enabled: true });
    const messages = await wire.prompt('/rewind 1');
    expect(rewindDone(messages)).toBeUndefined();
    expect(said(messages)).toContain('Rewind refused');
    expect(said(messages)).toContain('Plan mode is active');
    expect(wire.approvals.filter((a) => a.action === 'rewind files')).toEqual([]);
    expect(await readFile(join(work, 'a.txt'), 'utf8')).toBe('agent\n');
    expect(existsSync(join(work, 'created.txt'))).toBe(true);
    // Out of plan mode the same rewind goes through.
    await wire.client.request('set_plan_mode', { enabled: false });
    const done = rewindDone(await wire.prompt('/rewind 1'));
    expect(done).toMatchObject({ code_rewound: true, conversation_rewound: true });
    expect(await readFile(join(work, 'a.txt'), 'utf8')).toBe('a\n');
    expect((await wire.close()).code).toBe(0);
  });
});
