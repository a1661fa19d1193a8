import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { ProcessStdioTransport } from './process-stdio-transport.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

it("starts a stdio MCP server found on PATH's absolute entries only, not the work tree's through `.`", async () => {
  // A person's `npx`-style server name, run in a stranger's repository that ships its own program of
  // that name, with `.` on the person's PATH.
  const dir = mkdtempSync(join(tmpdir(), 'kimi-ts-mcp-path-'));
  dirs.push(dir);
  const marker = join(dir, 'ran');
  writeFileSync(join(dir, 'planted-mcp-server'), `#!/bin/sh\ntouch '${marker}'\n`, { mode: 0o755 });
  const transport = new ProcessStdioTransport({
    command: 'planted-mcp-server',
    args: [],
    env: { PATH: `.:${process.env.PATH}` },
    cwd: dir,
  });
  await expect(transport.start()).rejects.toThrow(/ENOENT/);
  await transport.close();
  expect(existsSync(marker)).toBe(false);
});
