import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useScriptedCli } from '../support/scripted-cli.js';

const CONFIG_KEY = 'sk-config-guessme-7d3a91c4e2';
const GH_TOKEN = `ghp_${'T0k3n'.repeat(7)}x`;
const NPM_TOKEN = `npm_${'N'.repeat(36)}`;

const cli = useScriptedCli();

interface ToolCallSpec {
  id: string;
  name: string;
  args: Record<string, unknown>;
}

/** Runs every call in print mode (one per turn step) and returns each tool result's text by id. */
async function runCalls(calls: ToolCallSpec[], extraArgs: string[] = []): Promise<Map<string, string>> {
  const { sandbox, server } = await cli.setup(
    [...calls.map((call) => ({ toolCalls: [call] })), { text: 'done' }],
    { apiKey: CONFIG_KEY },
  );
  const dir = sandbox.workDir;
  await writeFile(join(dir, '.envrc'), 'export DB_PASSWORD=envrc-secret-1\n');
  await writeFile(join(dir, 'prod.env'), 'DB_PASSWORD=prod-secret-2\n');
  await writeFile(join(dir, '.env~'), 'DB_PASSWORD=backup-secret-3\n');
  await writeFile(join(dir, '.npmrc'), `//registry.npmjs.org/:_authToken=${NPM_TOKEN}\n`);
  await mkdir(join(dir, '.git'));
  await writeFile(
    join(dir, '.git', 'config'),
    `[remote "origin"]\n\turl = https://x-access-token:${GH_TOKEN}@github.com/o/r.git\n`,
  );
  await writeFile(join(dir, 'notes.txt'), `remember: ${GH_TOKEN}\n`);
  await writeFile(join(dir, 'readme.md'), 'nothing hidden here\n');
  const result = await sandbox.run(['--print', '--output-format', 'stream-json', '-p', 'go', ...extraArgs]);
  expect(result.code).toBe(0);
  const out = new Map<string, string>();
  for (const line of result.stdout.trim().split('\n')) {
    const message = JSON.parse(line) as { role: string; tool_call_id?: string; content: unknown };
    if (message.role === 'tool' && message.tool_call_id)
      out.set(message.tool_call_id, JSON.stringify(message.content));
  }
  // Nothing secret reached the model, whatever the tool.
  const sent = JSON.stringify(server.requests.map((r) => r.body));
  for (const secret of [
    'envrc-secret-1',
    'prod-secret-2',
    'backup-secret-3',
    NPM_TOKEN,
    GH_TOKEN,
    CONFIG_KEY,
  ])
    expect(sent).not.toContain(secret);
  return out;
}

// The sandbox's HOME is its root: `~/config.toml` is the file given by --config-file.
describe('secret files by name and by content (print mode: nobody can approve)', () => {
  it('ReadFile refuses .envrc, prod.env, .env~, a project .npmrc, .git/config with a token, a file holding a token', async () => {
    const paths = ['.envrc', 'prod.env', '.env~', '.npmrc', '.git/config', 'notes.txt'];
    const results = await runCalls([
      ...paths.map((path, i) => ({ id: `r${i}`, name: 'ReadFile', args: { path } })),
      { id: 'ok', name: 'ReadFile', args: { path: 'readme.md' } },
    ]);
    for (const [i, path] of paths.entries()) {
      const text = results.get(`r${i}`) ?? '';
      expect(text, path).toContain('is a secret file');
    }
    expect(results.get('r4')).toMatch(/holds a (GitHub token|URL with a password)/);
    expect(results.get('r5')).toContain('holds a GitHub token');
    expect(results.get('ok')).toContain('nothing hidden here');
  });

  it('the config file given by --config-file is secret: ReadFile and Grep count mode are refused', async () => {
    const results = await runCalls([
      { id: 'read', name: 'ReadFile', args: { path: '~/config.toml' } },
      {
        id: 'right',
        name: 'Grep',
        args: { pattern: 'sk-config-g', path: '~/config.toml', output_mode: 'count_matches' },
      },
      {
        id: 'wrong',
        name: 'Grep',
        args: { pattern: 'sk-config-x', path: '~/config.toml', output_mode: 'count_matches' },
      },
    ]);
    expect(results.get('read')).toContain('a config file the agent loaded');
    for (const id of ['right', 'wrong']) expect(results.get(id)).toContain('is a secret file');
    expect(results.get('right')).toBe(results.get('wrong')?.replace('sk-config-x', 'sk-config-g'));
  });

  it('Grep over the work dir leaves secret files out in every mode, silently', async () => {
    const results = await runCalls([
      {
        id: 'files',
        name: 'Grep',
        args: { pattern: 'secret|ghp_|_authToken', output_mode: 'files_with_matches' },
      },
      {
        id: 'count',
        name: 'Grep',
        args: { pattern: 'secret|ghp_|_authToken', output_mode: 'count_matches' },
      },
      { id: 'content', name: 'Grep', args: { pattern: 'secret|ghp_|_authToken', output_mode: 'content' } },
      { id: 'glob', name: 'Glob', args: { pattern: '*env*' } },
    ]);
    for (const id of ['files', 'count', 'content'])
      expect(results.get(id), id).toContain('No matches found.');
    for (const name of ['.envrc', 'prod.env', 'notes.txt', '.npmrc'])
      expect(results.get('files')).not.toContain(name);
    expect(results.get('glob')).not.toContain('prod.env');
    expect(results.get('glob')).not.toContain('.envrc');
  });

  it('a Shell command naming a secret path is a secret read: refused here', async () => {
    const commands = [
      'cat prod.env',
      'base64 < .envrc',
      'cp ../config.toml copied.txt',
      'rev .env~',
      'cat .git/config',
      // A loop's words name the files its body reads.
      'for f in *.env; do rev "$f"; done',
      'for f in readme.md .envrc; do base64 "$f"; done',
    ];
    const results = await runCalls([
      ...commands.map((command, i) => ({ id: `s${i}`, name: 'Shell', args: { command } })),
      { id: 'ok', name: 'Shell', args: { command: 'cat readme.md' } },
    ]);
    for (const [i, command] of commands.entries()) {
      expect(results.get(`s${i}`), command).toContain('reads a secret file');
    }
    expect(results.get('ok')).toContain('nothing hidden here');
  });
});
