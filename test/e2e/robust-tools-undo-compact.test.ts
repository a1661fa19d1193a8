import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useScriptedCli } from '../support/scripted-cli.js';
import { workDirSessions } from '../support/session-files.js';

const cli = useScriptedCli();

async function titles(): Promise<string[]> {
  const sessions = await workDirSessions(cli.sandbox.home);
  const ids = await readdir(sessions);
  const read = (id: string) =>
    readFile(join(sessions, id, 'state.json'), 'utf8').then(
      (text) => (JSON.parse(text) as { custom_title: string | null }).custom_title,
    );
  return (await Promise.all(ids.map(read))).map(String).sort();
}

describe('/undo and /compact in the line shell', () => {
  it('/undo after /compact lists only real turns, keeps the summary of earlier ones; /compact keeps the title', async () => {
    const { server, sandbox } = await cli.setup([
      { text: 'Answer one.' },
      { text: 'Answer two.' },
      { text: 'SUMMARY of the first turn' },
      { text: 'Answer three.' },
      { text: 'Answer again.' },
    ]);
    const lines = [
      'first question',
      'second question',
      '/compact',
      'third question',
      '/undo',
      '/undo 1',
      'once more',
    ];
    const result = await sandbox.run([], { input: `${lines.join('\n')}\n/exit\n` });
    expect(result.code).toBe(0);
    // The compacted first turn cannot be undone any more, and /compact is not a turn.
    expect(result.stdout).toContain('  1. second question\n  2. third question\n(/undo N goes back');
    expect(result.stdout).toContain('(the request you undid: second question)');
    const last = JSON.stringify(server.requests.at(-1)?.body);
    expect(last).toContain('SUMMARY of the first turn');
    expect(last).not.toContain('second question');
    expect(last).not.toContain('Answer two.');
    expect(last).not.toContain('third question');
    expect(await titles()).toEqual(['Fork: first question', 'first question']);
  });
});
