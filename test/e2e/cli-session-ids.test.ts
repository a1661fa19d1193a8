import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { workDirKey } from '../../src/session/work-dir-key.js';
import { useScriptedCli } from '../support/scripted-cli.js';

const cli = useScriptedCli();

/** The ids of the sessions the sandbox's work dir has. */
async function sessionIds(): Promise<string[]> {
  const { home, workDir } = cli.sandbox;
  return readdir(join(home, 'sessions', workDirKey(workDir))).catch(() => []);
}

/** A saved session with this id and one exchange in it, written as the CLI writes one. */
async function savedSession(id: string, said: string): Promise<void> {
  const { home, workDir } = cli.sandbox;
  const dir = join(home, 'sessions', workDirKey(workDir), id);
  await mkdir(dir, { recursive: true });
  const lines = [
    { role: 'user', content: said },
    { role: 'assistant', content: `you said ${said}` },
  ];
  await writeFile(join(dir, 'context.jsonl'), `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
  const events = [
    { type: 'metadata', protocol_version: '1.10' },
    { timestamp: 1_700_000_000, message: { type: 'TurnBegin', payload: { user_input: said } } },
    { timestamp: 1_700_000_001, message: { type: 'TurnEnd', payload: {} } },
  ];
  await writeFile(join(dir, 'wire.jsonl'), `${events.map((event) => JSON.stringify(event)).join('\n')}\n`);
}

describe('short session ids', () => {
  it('-S takes the 8 characters the lists show, and resumes that session', async () => {
    const { server, sandbox } = await cli.setup([{ text: 'first' }, { text: 'second' }]);
    expect((await sandbox.run(['--print', '-p', 'remember the word teapot'])).code).toBe(0);
    const [id] = await sessionIds();
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const short = id!.slice(0, 8);
    const again = await sandbox.run(['--print', '-S', short, '-p', 'what was the word?']);
    expect(again.stderr).toBe('');
    expect(again.code).toBe(0);
    // Resumed, not a new session: the second request carries the first exchange.
    expect(JSON.stringify(server.requests[1]?.body)).toContain('remember the word teapot');
    expect(await sessionIds()).toEqual([id]);
  });

  it('an unknown short id is a usage error (exit 2), never a new session', async () => {
    const { server, sandbox } = await cli.setup([]);
    const result = await sandbox.run(['--print', '-S', '546b2274', '-p', 'hi']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("Try 'kimi-ts --help' for help.");
    expect(result.stderr).toContain('Invalid value for --session: There is no session "546b2274"');
    expect(result.stderr).toContain('full UUID');
    expect(server.requests).toHaveLength(0);
    expect(await sessionIds()).toEqual([]);
  });

  it('an ambiguous prefix names the sessions it starts and opens none (print and wire)', async () => {
    const { server, sandbox } = await cli.setup([]);
    await savedSession('abcd1111-0000-4000-8000-000000000001', 'one');
    await savedSession('abcd2222-0000-4000-8000-000000000002', 'two');
    for (const args of [
      ['--print', '-S', 'abcd', '-p', 'hi'],
      ['--wire', '-S', 'abcd'],
    ]) {
      const result = await sandbox.run(args);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('"abcd" is ambiguous');
      expect(result.stderr).toContain('abcd1111-0000-4000-8000-000000000001');
      expect(result.stderr).toContain('abcd2222-0000-4000-8000-000000000002');
    }
    expect(server.requests).toHaveLength(0);
    expect((await sessionIds()).sort()).toEqual([
      'abcd1111-0000-4000-8000-000000000001',
      'abcd2222-0000-4000-8000-000000000002',
    ]);
  });

  it('a full UUID that is not there yet makes the session with that id', async () => {
    const { sandbox } = await cli.setup([{ text: 'made' }]);
    const id = '0b7c2a4e-5d7f-4c3e-9a51-2f1e8d6c4b3a';
    const result = await sandbox.run(['--print', '-S', id, '-p', 'hi']);
    expect(result.code).toBe(0);
    expect(await sessionIds()).toEqual([id]);
  });

  it('export, sessions --checkpoints and vis --export take a unique prefix; an unknown one exits 2', async () => {
    const { sandbox } = await cli.setup([]);
    await savedSession('feedbeef-0000-4000-8000-000000000001', 'the sailing boat');
    await savedSession('c0ffee00-0000-4000-8000-000000000002', 'other');
    const exported = await sandbox.run(['export', 'feedbeef']);
    expect(exported.code).toBe(0);
    expect(exported.stdout).toContain('the sailing boat');
    const unknown = await sandbox.run(['export', 'deadbeef']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('There is no session "deadbeef"');
    const checkpoints = await sandbox.run(['sessions', '--checkpoints', 'c0ffee']);
    expect(checkpoints.stderr).toBe('');
    expect(checkpoints.code).toBe(0);
    const missing = await sandbox.run(['sessions', '--checkpoints', 'deadbeef']);
    expect(missing.code).toBe(2);
    const html = join(sandbox.root, 'picture.html');
    const vis = await sandbox.run(['vis', 'feedbeef', '--export', html], { bare: true });
    expect(vis.stderr).toContain('feedbeef-0000-4000-8000-000000000001');
    const visUnknown = await sandbox.run(['vis', 'deadbeef', '--export', html], { bare: true });
    expect(visUnknown.code).toBe(2);
  });

  it('/sessions ID and /import ID in the line shell take a unique prefix', async () => {
    const { sandbox } = await cli.setup([{ text: 'ok' }]);
    await savedSession('feedbeef-0000-4000-8000-000000000001', 'the sailing boat');
    await savedSession('feedbee2-0000-4000-8000-000000000002', 'other');
    const result = await sandbox.run(['--ui', 'line'], {
      input: '/import feedbeef-\n/sessions feedbee\n/sessions feedbee2\n/exit\n',
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('the conversation of session feedbeef-0000-4000-8000-000000000001');
    expect(result.stdout).toContain('"feedbee" is ambiguous');
    expect(result.stdout).toContain('session feedbee2-0000-4000-8000-000000000002');
  });
});
