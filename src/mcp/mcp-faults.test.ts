import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StdioServerConfig } from './config.js';
import { McpManager } from './mcp-manager.js';
import { FAULT_SERVER } from './test-support/everything-server.js';
import { callTool, isAlive, outputText, toolsetWithBuiltinEcho } from './test-support/toolset-fixture.js';

const faultServer: StdioServerConfig = {
  kind: 'stdio',
  command: process.execPath,
  args: [FAULT_SERVER],
  env: {},
};

let dir: string;
let managers: McpManager[] = [];
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kimi-ts-mcp-faults-'));
});
afterEach(async () => {
  await Promise.all(managers.map((manager) => manager.close()));
  managers = [];
  await rm(dir, { recursive: true, force: true });
});

function track(manager: McpManager): McpManager {
  managers.push(manager);
  return manager;
}

describe('a server that dies mid-call', () => {
  it('gives an error result, is marked failed with the reason, and the other server goes on', async () => {
    const { toolset } = toolsetWithBuiltinEcho();
    const manager = track(new McpManager({ servers: { doomed: faultServer, healthy: faultServer } }));
    const statuses: string[] = [];
    manager.onStatusChange((snapshot) => {
      statuses.push(snapshot.servers.map((server) => `${server.name}:${server.status}`).join(','));
    });
    // Both servers offer the same tools: the second to connect has them skipped, so pin each name.
    manager.start(toolset);
    await manager.waitForLoading();
    const owner = manager.statusSnapshot().servers.find((server) => server.tools.includes('crash'))!.name;
    const other = owner === 'doomed' ? 'healthy' : 'doomed';

    const result = await callTool(toolset, 'crash');
    expect(result.return_value.is_error).toBe(true);
    expect(result.return_value.message).toMatch(
      new RegExp(
        `MCP server \`${owner}\` stopped while running \`crash\`: the server process exited with code 3`,
      ),
    );
    expect(result.return_value.message).toContain('crashing on purpose');
    expect(manager.statusSnapshot().servers.find((server) => server.name === owner)?.status).toBe('failed');
    expect(statuses.at(-1)).toContain(`${owner}:failed`);
    expect(manager.problems().map((problem) => problem.message)).toContainEqual(
      expect.stringMatching(new RegExp(`"${owner}" failed: the server process exited with code 3`)),
    );

    // Its tools answer at once with the reason; the session (and the other server) go on.
    const later = await callTool(toolset, 'echo_text', { text: 'x' });
    expect(later.return_value.message).toMatch(
      /cannot run `echo_text`: the server process exited with code 3/,
    );
    expect(manager.statusSnapshot().servers.find((server) => server.name === other)?.status).toBe(
      'connected',
    );
  });
});

describe('startup', () => {
  it('fails a server that does not connect within the startup timeout, kills it, and never holds up the others', async () => {
    // The timeout is a bound on how long a healthy server takes here and now (a control run of the
    // fast one alone), not a fixed second that a loaded machine can miss: three times that, at least 1 s.
    const control = track(new McpManager({ servers: { fast: faultServer } }));
    const started = performance.now();
    control.start(toolsetWithBuiltinEcho().toolset);
    await control.waitForLoading();
    expect(control.statusSnapshot().servers[0]?.status).toBe('connected');
    const timeoutS = Math.max(1, Math.ceil((3 * (performance.now() - started)) / 1000));

    const { toolset } = toolsetWithBuiltinEcho();
    const pidFile = join(dir, 'slow.pid');
    const manager = track(
      new McpManager({
        servers: {
          slow: {
            kind: 'stdio',
            command: process.execPath,
            args: [
              '-e',
              `require('fs').writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setInterval(() => {}, 1000)`,
            ],
            env: {},
          },
          fast: faultServer,
        },
        startupTimeoutMs: timeoutS * 1000,
      }),
    );
    const events: string[] = [];
    manager.onStatusChange((snapshot) => {
      for (const server of snapshot.servers) {
        const event = `${server.name}:${server.status}`;
        if (!events.includes(event)) events.push(event);
      }
    });
    manager.start(toolset);
    // The slow server is running (not merely spawned) before its timeout is judged.
    const slowPid = Number(await waitForFile(pidFile));
    await manager.waitForLoading();

    expect(events.indexOf('fast:connected')).toBeGreaterThanOrEqual(0);
    expect(events.indexOf('fast:connected')).toBeLessThan(events.indexOf('slow:failed'));
    expect(manager.problems().filter((problem) => problem.kind === 'failed')).toEqual([
      {
        server: 'slow',
        kind: 'failed',
        message: `MCP server "slow" failed: it did not finish connecting within ${timeoutS} s (the startup timeout)`,
      },
    ]);
    expect(isAlive(slowPid)).toBe(false);
    expect(outputText(await callTool(toolset, 'echo_text', { text: 'ok' }))).toBe('ok');
    // The startup timeout follows the machine's speed (three control runs): so must the test's own.
  }, 120_000);

  it('stops connecting when closed during loading, leaving no process behind', async () => {
    const { toolset } = toolsetWithBuiltinEcho();
    const pidFile = join(dir, 'stuck.pid');
    const manager = new McpManager({
      servers: {
        stuck: {
          kind: 'stdio',
          command: process.execPath,
          args: [
            '-e',
            `require('fs').writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setInterval(() => {}, 1000)`,
          ],
          env: {},
        },
      },
    });
    manager.start(toolset);
    const written = await waitForFile(pidFile);
    await manager.close();
    expect(isAlive(Number(written))).toBe(false);
    expect(manager.statusSnapshot().servers[0]?.status).toBe('connecting');
  });
});

describe('secrets', () => {
  it('keeps configured credentials out of failure reasons', async () => {
    const { toolset } = toolsetWithBuiltinEcho();
    const manager = track(
      new McpManager({
        servers: {
          leaky: {
            kind: 'stdio',
            command: process.execPath,
            args: ['-e', 'console.error("login failed for key " + process.env.API_KEY); process.exit(1)'],
            env: { API_KEY: 'sk-very-secret-value' },
          },
        },
      }),
    );
    manager.start(toolset);
    await manager.waitForLoading();
    const [problem] = manager.problems();
    expect(problem?.message).toContain('login failed for key ***');
    expect(problem?.message).not.toContain('sk-very-secret-value');
  });
});

/** Resolves with the file's content once the child process has written it. */
async function waitForFile(path: string): Promise<string> {
  const { watch } = await import('node:fs');
  return new Promise((resolve) => {
    let found = false;
    const check = () =>
      void readFile(path, 'utf8').then(
        (text) => {
          if (!text || found) return;
          found = true;
          watcher.close();
          resolve(text);
        },
        () => undefined,
      );
    const watcher = watch(dir, check);
    // Written before the watch began (the server started while this awaited its import): no event comes.
    check();
  });
}
