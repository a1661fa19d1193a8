import { existsSync } from 'node:fs';
import { chmod, lstat, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { basename, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useScriptedCli } from '../support/scripted-cli.js';
import type { ScriptedTurn } from '../support/scripted-llm-server.js';
import { onlySessionDir } from '../support/session-files.js';
import type { JsonRpcMessage } from '../support/wire-process-client.js';
import { type ApprovalDecision, startWireSession } from '../support/wire-session.js';

const cli = useScriptedCli();

/** Every file and folder under `dir` (not .git) with its bytes (hex) and mode. */
async function snapshot(dir: string, base = dir): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.name === '.git') continue;
    const path = join(dir, entry.name);
    const stats = await lstat(path);
    const key = relative(base, path);
    if (entry.isDirectory()) {
      out[`${key}/`] = (stats.mode & 0o777).toString(8);
      Object.assign(out, await snapshot(path, base));
    } else out[key] = `${(stats.mode & 0o777).toString(8)} ${(await readFile(path)).toString('hex')}`;
  }
  return out;
}

async function seedWorkDir(work: string): Promise<void> {
  await writeFile(join(work, 'a.txt'), 'alpha\nline two\n');
  await writeFile(join(work, 'run.sh'), '#!/bin/sh\necho hi\n');
  await chmod(join(work, 'run.sh'), 0o644);
  await writeFile(join(work, 'data.bin'), Buffer.from([0, 1, 2, 0xff, 0xfe, 0, 10, 13]));
  await writeFile(join(work, 'old.txt'), 'to be moved\n');
  await writeFile(join(work, 'del.txt'), 'to be deleted\n');
  await writeFile(join(work, 'sed.txt'), 'x marks the spot\n');
  await mkdir(join(work, 'src'));
  await writeFile(join(work, 'src', 'keep.ts'), 'export const keep = 1;\n');
}

/** A turn that changes files with the edit tools and with Shell. */
const CHANGING_TURN: ScriptedTurn[] = [
  {
    toolCalls: [
      { id: 'w1', name: 'WriteFile', args: { path: 'new.txt', content: 'created by the agent\n' } },
      { id: 'e1', name: 'StrReplaceFile', args: { path: 'a.txt', edit: { old: 'alpha', new: 'beta' } } },
      {
        id: 's1',
        name: 'Shell',
        args: {
          command:
            "rm del.txt && mv old.txt moved.txt && sed -i 's/x/y/' sed.txt && mkdir -p newdir/deep && " +
            "echo hi > newdir/deep/f.txt && chmod +x run.sh && printf '\\003\\004' > data.bin && rm -r src",
        },
      },
    ],
  },
  { text: 'All changed.' },
];

/** A wire session: initialize, then prompts; approvals answered by `decide`. */
const startWire = (decide?: ApprovalDecision) => startWireSession(cli.sandbox, [], decide);

function eventsOf(
  messages: JsonRpcMessage[],
  type: string,
): { type: string; payload: Record<string, unknown> }[] {
  return messages
    .filter((m) => m.method === 'event' && (m.params as { type: string }).type === type)
    .map((m) => m.params as { type: string; payload: Record<string, unknown> });
}

function textOf(messages: JsonRpcMessage[]): string {
  return eventsOf(messages, 'ContentPart')
    .map((e) => (e.payload as { text?: string }).text ?? '')
    .join('');
}

/** The user messages' text of one recorded model request. */
function userTexts(body: unknown): string[] {
  const messages = (body as { messages: { role: string; content: unknown }[] }).messages;
  return messages
    .filter((m) => m.role === 'user')
    .map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)));
}

describe('/rewind through the built CLI (wire mode)', () => {
  it('puts back every byte and mode after edits and Shell commands, and rewinds the conversation', async () => {
    await cli.setup([...CHANGING_TURN, { text: 'fresh answer' }]);
    const work = cli.sandbox.workDir;
    await seedWorkDir(work);
    // Once the session is up: its sandbox makes an empty, read-only `.kimi-ts` at the start.
    const wire = await startWire();
    const before = await snapshot(work);
    await wire.prompt('change the files please');
    expect(existsSync(join(work, 'newdir', 'deep', 'f.txt'))).toBe(true);
    expect(await readFile(join(work, 'a.txt'), 'utf8')).toContain('beta');

    const rewound = await wire.prompt('/rewind 1');
    const done = eventsOf(rewound, 'RewindDone');
    expect(done).toHaveLength(1);
    expect(done[0]!.payload).toMatchObject({ turn: 1, code_rewound: true, conversation_rewound: true });
    expect(await snapshot(work)).toEqual(before);
    expect(existsSync(join(work, 'newdir'))).toBe(false);
    // The person typed /rewind: no approval asked; the diff summary said once, then one result line.
    expect(wire.approvals.filter((a) => a.action === 'rewind files')).toEqual([]);
    const text = textOf(rewound);
    expect(text.match(/created since removed/g)).toHaveLength(1);
    expect(text).toContain('- new.txt');
    expect(text.match(/Rewound to before turn 1/g)).toHaveLength(1);

    await wire.prompt('a new question');
    const last = cli.server.requests.at(-1)!;
    const texts = userTexts(last.body).join('\n');
    expect(texts).toContain('a new question');
    expect(texts).not.toContain('change the files please');
    const result = await wire.close();
    expect(result.code).toBe(0);
    // wire.jsonl records the event.
    const session = await onlySessionDir(cli.sandbox.home);
    expect(await readFile(join(session, 'wire.jsonl'), 'utf8')).toContain('"RewindDone"');
  });

  it('--code alone keeps the conversation; --conversation alone keeps the files; --redo returns', async () => {
    await cli.setup([...CHANGING_TURN, { text: 'second' }, { text: 'third' }]);
    const work = cli.sandbox.workDir;
    await seedWorkDir(work);
    // Once the session is up: its sandbox makes an empty, read-only `.kimi-ts` at the start.
    const wire = await startWire();
    const before = await snapshot(work);
    await wire.prompt('change the files please');
    const changed = await snapshot(work);

    const code = await wire.prompt('/rewind 1 --code');
    expect(eventsOf(code, 'RewindDone')[0]!.payload).toMatchObject({
      code_rewound: true,
      conversation_rewound: false,
    });
    expect(await snapshot(work)).toEqual(before);
    await wire.prompt('/rewind --redo');
    expect(await snapshot(work)).toEqual(changed);

    await wire.prompt('what next');
    expect(userTexts(cli.server.requests.at(-1)!.body).join('\n')).toContain('change the files please');

    const conversation = await wire.prompt('/rewind 1 --conversation');
    expect(eventsOf(conversation, 'RewindDone')[0]!.payload).toMatchObject({
      code_rewound: false,
      conversation_rewound: true,
    });
    expect(await snapshot(work)).toEqual(changed);
    await wire.prompt('start over');
    const texts = userTexts(cli.server.requests.at(-1)!.body).join('\n');
    expect(texts).toContain('start over');
    expect(texts).not.toContain('change the files please');
    expect(texts).not.toContain('what next');
    expect((await wire.close()).code).toBe(0);
  });

  it('a rule that asks still asks, and a rejected approval changes nothing', async () => {
    await cli.setup([...CHANGING_TURN, { text: 'after' }], {
      extraToml: ['[[permission.rules]]', 'decision = "ask"', 'pattern = "Write(a.txt)"'].join('\n'),
    });
    const work = cli.sandbox.workDir;
    await seedWorkDir(work);
    const wire = await startWire((p) => (p.action === 'rewind files' ? 'reject' : 'approve'));
    await wire.prompt('change the files please');
    const changed = await snapshot(work);
    const reply = await wire.prompt('/rewind 1');
    expect(eventsOf(reply, 'RewindDone')).toHaveLength(0);
    expect(textOf(reply)).toMatch(/rejected/i);
    expect(await snapshot(work)).toEqual(changed);
    await wire.prompt('still there?');
    expect(userTexts(cli.server.requests.at(-1)!.body).join('\n')).toContain('change the files please');
    expect((await wire.close()).code).toBe(0);
  });

  it('works in print mode too, and `kimi-ts sessions --checkpoints ID` lists the checkpoints', async () => {
    await cli.setup(CHANGING_TURN);
    const work = cli.sandbox.workDir;
    await seedWorkDir(work);
    const before = await snapshot(work);
    const first = await cli.sandbox.run(['--print', '-p', 'change the files please']);
    expect(first.code).toBe(0);
    expect(await snapshot(work)).not.toEqual(before);
    const rewind = await cli.sandbox.run([
      '--print',
      '-C',
      '--output-format',
      'stream-json',
      '-p',
      '/rewind 1',
    ]);
    expect(rewind.code).toBe(0);
    expect(rewind.stdout).toContain('"type":"RewindDone"');
    expect(await snapshot(work)).toEqual(before);
    // With nothing to ask (yolo), the summary and the outcome are two texts of one answer: the
    // outcome starts a line of its own instead of being glued to the summary's last file name.
    const redo = await cli.sandbox.run(['--print', '--yolo', '-C', '-p', '/rewind --redo']);
    expect(redo.code).toBe(0);
    expect(redo.stdout).toMatch(/\nRedone: \d+ files restored/);
    expect(await snapshot(work)).not.toEqual(before);

    const id = basename(await onlySessionDir(cli.sandbox.home));
    const listed = await cli.sandbox.run(['sessions', '--checkpoints', id]);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/^1 +start .*change the files please/m);
    expect(listed.stdout).toMatch(/^1 +end +\S+ \S+ +\d+/m);
    expect(listed.stdout).toContain('rewind to before turn 1 (files and conversation)');
    const bad = await cli.sandbox.run(['sessions', '--checkpoints', '../../etc']);
    expect(bad.code).not.toBe(0);
  });

  it('works in the line shell: the diff summary once, no question, one result line, the files back', async () => {
    await cli.setup([
      { toolCalls: [{ id: 's1', name: 'Shell', args: { command: 'echo new > made.txt && rm a.txt' } }] },
      { text: 'Made it.' },
    ]);
    const work = cli.sandbox.workDir;
    await writeFile(join(work, 'a.txt'), 'alpha\n');
    // The agent's command is approved (y); the rewind the person typed is not asked about.
    const result = await cli.sandbox.run([], { input: 'make a file\ny\n/rewind 1\n/exit\n' });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Made it.');
    expect(result.stdout).toMatch(/Files: 1 file deleted since restored, 1 file created since removed/);
    expect(result.stdout.match(/ewound to before turn 1/gi)).toHaveLength(1);
    expect(result.stdout).toContain('Rewound to before turn 1: 1 file restored, 1 removed');
    expect(existsSync(join(work, 'made.txt'))).toBe(false);
    expect(await readFile(join(work, 'a.txt'), 'utf8')).toBe('alpha\n');
  });
});
