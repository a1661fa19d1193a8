import { mkdir, readFile, rename, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { collect } from '../support/run-cli.js';
import { useScriptedCli } from '../support/scripted-cli.js';
import { type JsonRpcMessage, WireClient } from '../support/wire-process-client.js';

const cli = useScriptedCli();

/** The first approval request, then `swap` runs while "the person reads it", then it is approved. */
async function approveAfter(client: WireClient, swap: () => Promise<void>): Promise<string> {
  const ask = await client.waitFor((m) => m.method === 'request');
  const payload = (ask.params as { payload: { id: string; description: string } }).payload;
  await swap();
  client.send({ jsonrpc: '2.0', id: ask.id, result: { request_id: payload.id, response: 'approve' } });
  return payload.description;
}

function toolResultsOf(messages: readonly JsonRpcMessage[]): string {
  return JSON.stringify(
    messages.filter((m) => m.method === 'event' && (m.params as { type: string }).type === 'ToolResult'),
  );
}

describe('what is approved is what is written (wire mode)', () => {
  it('a symlink swapped in for notes.txt while the approval is shown: the outside file is untouched', async () => {
    const { sandbox } = await cli.setup([
      { toolCalls: [{ id: 'w1', name: 'WriteFile', args: { path: 'notes.txt', content: 'PWNED\n' } }] },
      { text: 'done' },
    ]);
    const notes = join(sandbox.workDir, 'notes.txt');
    const victim = join(sandbox.root, 'victim.txt');
    await writeFile(notes, 'my notes\n');
    await writeFile(victim, 'precious\n');
    const client = new WireClient(sandbox.spawn(['--wire']));
    const prompt = client.request('prompt', { user_input: 'write' });
    await approveAfter(client, async () => {
      await rename(notes, join(sandbox.workDir, 'notes.old'));
      await symlink(victim, notes);
    });
    expect((await prompt).result).toEqual({ status: 'finished' });
    client.child.stdin!.end();
    await collect(client.child);
    expect(await readFile(victim, 'utf8')).toBe('precious\n');
    const results = toolResultsOf(client.messages);
    expect(results).toContain('changed after the change was approved');
    expect(results).toContain('victim.txt');
  });

  it('a parent folder swapped for a symlink while the approval is shown: nothing outside is edited', async () => {
    const { sandbox } = await cli.setup([
      {
        toolCalls: [
          {
            id: 'e1',
            name: 'StrReplaceFile',
            args: { path: 'docs/a.md', edit: { old: 'alpha', new: 'PWNED' } },
          },
        ],
      },
      { text: 'done' },
    ]);
    const docs = join(sandbox.workDir, 'docs');
    await mkdir(docs);
    await writeFile(join(docs, 'a.md'), 'alpha\n');
    const outside = join(sandbox.root, 'elsewhere');
    await mkdir(outside);
    await writeFile(join(outside, 'a.md'), 'alpha\n');
    const client = new WireClient(sandbox.spawn(['--wire']));
    const prompt = client.request('prompt', { user_input: 'edit' });
    await approveAfter(client, async () => {
      await rename(docs, join(sandbox.workDir, 'docs.old'));
      await symlink(outside, docs);
    });
    expect((await prompt).result).toEqual({ status: 'finished' });
    client.child.stdin!.end();
    await collect(client.child);
    expect(await readFile(join(outside, 'a.md'), 'utf8')).toBe('alpha\n');
    expect(toolResultsOf(client.messages)).toContain('changed after the change was approved');
  });

  it('a symlink that was there before: the approval names the real file', async () => {
    const { sandbox } = await cli.setup([
      { toolCalls: [{ id: 'w1', name: 'WriteFile', args: { path: 'link.txt', content: 'new\n' } }] },
      { text: 'done' },
    ]);
    const target = join(sandbox.workDir, 'real.txt');
    await writeFile(target, 'old\n');
    await symlink(target, join(sandbox.workDir, 'link.txt'));
    const client = new WireClient(sandbox.spawn(['--wire']));
    const prompt = client.request('prompt', { user_input: 'write' });
    const description = await approveAfter(client, async () => {});
    expect(description).toContain(`the file written is \`${target}\``);
    expect((await prompt).result).toEqual({ status: 'finished' });
    client.child.stdin!.end();
    await collect(client.child);
    expect(await readFile(target, 'utf8')).toBe('new\n');
  });
});
