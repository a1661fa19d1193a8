import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
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

const WRITING_TURNS = 3;

/** A first turn that writes nothing, then turns that each write 150 files under `dir` with Shell. */
const sessionTurns = (dir: string) => [
  { text: 'ready' },
  ...Array.from({ length: WRITING_TURNS }, (_, turn) => [
    {
      toolCalls: [
        {
          id: `s${turn}`,
          name: 'Shell',
          args: {
            command: `mkdir -p ${dir} && for i in $(seq 1 150); do echo "${turn} $i" > ${dir}/f$i.txt; done`,
          },
        },
      ],
    },
    { text: 'done' },
  ]).flat(),
];

/** Every file under `dir`, relative, with its bytes. */
async function snapshot(dir: string, prefix = ''): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) Object.assign(out, await snapshot(join(dir, entry.name), rel));
    else out[rel] = await readFile(join(dir, entry.name), 'utf8');
  }
  return out;
}

describe('two sessions of one work dir (two processes)', () => {
  it('checkpoint at the same time without blocking each other, and each rewinds to what it recorded', async () => {
    const { sandbox } = await cli.setup(sessionTurns('from-a'));
    const serverB = await cli.startServer(sessionTurns('from-b'));
    const sandboxB = await sandbox.pointedAt({ baseUrl: serverB.baseUrl });
    const work = sandbox.workDir;
    // A tree big enough that the two sessions' records overlap.
    for (let d = 0; d < 40; d++) {
      await mkdir(join(work, `pkg${d}`));
      await Promise.all(
        Array.from({ length: 100 }, (_, f) =>
          writeFile(join(work, `pkg${d}`, `m${f}.ts`), `export {} // ${d} ${f}\n`),
        ),
      );
    }
    const initial = await snapshot(work);
    const a = await startWireSession(sandbox);
    const b = await startWireSession(sandboxB);
    // Turn 1 of each writes nothing: both sessions record the initial tree, at the same time, before
    // anyone writes.
    await Promise.all([a.prompt('start'), b.prompt('start')]);
    await Promise.all(
      [a, b].map(async (wire) => {
        for (let turn = 0; turn < WRITING_TURNS; turn++) await wire.prompt(`write ${turn}`);
      }),
    );
    const final = await snapshot(work);
    expect(Object.keys(final).filter((p) => p.startsWith('from-')).length).toBe(300);

    // A goes back to before its turn 1 (B's files too: --force, they are someone else's to A).
    const doneA = rewindDone(await a.prompt('/rewind 1 --code --force'));
    expect(doneA).toMatchObject({ code_rewound: true });
    expect(await snapshot(work)).toEqual(initial);
    // A's redo brings back the tree as it was before A's rewind.
    expect(rewindDone(await a.prompt('/rewind --redo'))).toMatchObject({ redo: true });
    expect(await snapshot(work)).toEqual(final);
    // B, from its own checkpoints, goes back to before its turn 2: none of its files, the initial tree.
    const doneB = rewindDone(await b.prompt('/rewind 2 --code --force'));
    expect(doneB).toMatchObject({ code_rewound: true });
    const afterB = await snapshot(work);
    expect(Object.keys(afterB).filter((p) => p.startsWith('from-b/'))).toEqual([]);
    for (const [path, text] of Object.entries(initial)) expect(afterB[path]).toBe(text);

    const [endA, endB] = await Promise.all([a.close(), b.close()]);
    expect(endA.code).toBe(0);
    expect(endB.code).toBe(0);
    // Neither session lost a checkpoint to the other's lock.
    expect(endA.stderr + endB.stderr).not.toContain('could not be recorded');
    expect(endA.stderr + endB.stderr).not.toContain('index.lock');
  });
});
