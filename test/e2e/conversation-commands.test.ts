import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { workDirKey } from '../../src/session/work-dir-key.js';
import { useScriptedCli } from '../support/scripted-cli.js';

const cli = useScriptedCli();

describe('/export and /import', () => {
  it('exports the conversation as Markdown; imports a text file or another session for the model', async () => {
    const { server, sandbox } = await cli.setup([
      { toolCalls: [{ id: 's1', name: 'Shell', args: { command: 'echo from-the-shell' } }] },
      { text: 'The shell said hello.' },
      { text: 'Second session answer.' },
      { text: 'I see the notes and the old session.' },
    ]);
    const first = await sandbox.run(['--print', '-p', 'run the greeting']);
    expect(first.code).toBe(0);
    const sessionsDir = join(sandbox.home, 'sessions', workDirKey(sandbox.workDir));
    const [firstId] = await readdir(sessionsDir);

    // /export into the work dir (default name) and to a named file.
    const exported = await sandbox.run(['-C', '--print', '-p', '/export']);
    expect(exported.stdout).toMatch(/The conversation was written to .*kimi-export-.*\.md\./);
    const [file] = (await readdir(sandbox.workDir)).filter((name) => name.startsWith('kimi-export-'));
    const markdown = await readFile(join(sandbox.workDir, file!), 'utf8');
    expect(markdown).toContain(`Session ${firstId} in ${sandbox.workDir}`);
    expect(markdown).toContain('## User\n\nrun the greeting');
    expect(markdown).toContain(
      '**Tool call** `Shell`\n\n```json\n{\n  "command": "echo from-the-shell"\n}\n```',
    );
    expect(markdown).toContain('from-the-shell');
    expect(markdown).toContain('## Assistant\n\nThe shell said hello.');
    expect(markdown).not.toContain('CHECKPOINT');
    await mkdir(join(sandbox.workDir, 'out'));
    await sandbox.run(['-C', '--print', '-p', '/export out/talk.md']);
    expect(await readFile(join(sandbox.workDir, 'out', 'talk.md'), 'utf8')).toContain(
      'The shell said hello.',
    );

    // A second session imports a file and the first session, and refuses what it cannot use.
    await writeFile(join(sandbox.workDir, 'notes.txt'), 'Deploy on Fridays only.\n');
    await writeFile(join(sandbox.workDir, 'blob.bin'), Buffer.from([1, 0, 2, 0]));
    const second = await sandbox.run(['--print', '-p', 'hello']);
    expect(second.stdout).toContain('Second session answer.');
    for (const [command, answer] of [
      ['/import notes.txt', `Imported ${join(sandbox.workDir, 'notes.txt')}.`],
      [`/import ${firstId}`, `Imported the conversation of session ${firstId}.`],
      ['/import blob.bin', 'blob.bin is not a text file.'],
      ['/import missing.txt', 'missing.txt does not exist'],
      ['/import', 'Usage: /import <file | session id>'],
    ] as const) {
      expect((await sandbox.run(['-C', '--print', '-p', command])).stdout).toContain(answer);
    }
    const last = await sandbox.run(['-C', '--print', '-p', 'what do you know?']);
    expect(last.stdout).toContain('I see the notes and the old session.');
    const told = JSON.stringify(server.requests.at(-1)?.body);
    expect(told).toContain('Deploy on Fridays only.');
    expect(told).toContain(`The user imported the conversation of session ${firstId} as reference`);
    expect(told).toContain('The shell said hello.');
  });
  it('kimi-ts export writes a session as Markdown: the latest by default, to stdout or a file', async () => {
    const { sandbox } = await cli.setup([{ text: 'First answer.' }, { text: 'Second answer.' }]);
    await sandbox.run(['--print', '-p', 'first question']);
    const [firstId] = await readdir(join(sandbox.home, 'sessions', workDirKey(sandbox.workDir)));
    await sandbox.run(['--print', '-p', 'second question']);
    const latest = await sandbox.run(['export', '-w', sandbox.workDir], { bare: true });
    expect(latest.code).toBe(0);
    expect(latest.stdout).toContain('## User\n\nsecond question');
    expect(latest.stdout).not.toContain('first question');
    const file = join(sandbox.root, 'first.md');
    const chosen = await sandbox.run(['export', firstId!, '-o', file, '-w', sandbox.workDir], { bare: true });
    expect(chosen.stderr).toContain(`Wrote session ${firstId} to ${file}.`);
    expect(await readFile(file, 'utf8')).toContain('## Assistant\n\nFirst answer.');
    const missing = await sandbox.run(['export', 'no-such-session', '-w', sandbox.workDir], { bare: true });
    // An id that names no session is a usage error.
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('There is no session "no-such-session"');
  });
});
