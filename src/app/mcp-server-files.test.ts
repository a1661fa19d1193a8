import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { mcpServerFiles } from './mcp-server-files.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'kimi-ts-mcp-server-files-')));
afterAll(() => rmSync(root, { recursive: true, force: true }));

it("names the existing files a stdio server's command and args name, relative to its cwd", () => {
  const launch = join(root, 'launch');
  const home = join(root, 'home');
  mkdirSync(join(launch, 'mcp'), { recursive: true });
  mkdirSync(join(launch, 'tools', 'bin'), { recursive: true });
  mkdirSync(home, { recursive: true });
  writeFileSync(join(launch, 'mcp', 'server.sh'), '');
  writeFileSync(join(launch, 'tools', 'bin', 'serve'), '');
  writeFileSync(join(home, 'server.mjs'), '');
  const files = mcpServerFiles(
    {
      script: { kind: 'stdio', command: 'sh', args: ['mcp/server.sh', '--stdio'], env: {} },
      inCwd: { kind: 'stdio', command: './bin/serve', args: [], env: {}, cwd: 'tools' },
      home: { kind: 'stdio', command: 'node', args: ['~/server.mjs', 'missing.mjs'], env: {} },
      remote: {
        kind: 'remote',
        url: 'https://example.com/mcp/server.sh',
        headers: {},
        transport: 'auto',
        auth: null,
      },
    },
    launch,
    home,
  );
  expect(files).toEqual([
    join(launch, 'mcp', 'server.sh'),
    join(launch, 'tools', 'bin', 'serve'),
    join(home, 'server.mjs'),
  ]);
});
