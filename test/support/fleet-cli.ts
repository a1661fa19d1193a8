import type { ChildProcess } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { RedisServer } from './redis-server.js';
import { type CliResult, type CliSandbox, collect, waitForOutput } from './run-cli.js';
import type { ScriptedCli } from './scripted-cli.js';

/** A worker process of the fleet (the built CLI), its output collected, killed after the test. */
export interface FleetWorkerProcess {
  child: ChildProcess;
  /** Settles when the process has exited. */
  result: Promise<CliResult>;
}

/** A real redis-server for this test, stopped and removed after it. */
export async function startRedis(cli: ScriptedCli): Promise<RedisServer> {
  const redis = await RedisServer.start();
  cli.defer(() => redis.remove());
  return redis;
}

/**
 * Starts `kimi-ts worker --queue URL …` in the sandbox and waits until it takes turns. `env` can give
 * it a home of its own (`KIMI_TS_HOME`): a worker on another machine, sharing no session folder.
 */
export async function startWorker(
  cli: ScriptedCli,
  sandbox: CliSandbox,
  queue: string,
  extra: string[] = [],
  env: Record<string, string> = {},
): Promise<FleetWorkerProcess> {
  const child = sandbox.spawn(['worker', '--queue', queue, ...extra], { env });
  const result = collect(child);
  cli.defer(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await result;
  });
  await waitForOutput(child.stderr!, /is taking turns from/);
  return { child, result };
}

/** `kimi-ts submit --queue URL -p PROMPT …`, run to its end. */
export function submit(
  sandbox: CliSandbox,
  queue: string,
  prompt: string,
  extra: string[] = [],
): Promise<CliResult> {
  return sandbox.run(['submit', '--queue', queue, '-p', prompt, ...extra]);
}

/** The folder of session `id` under the sandbox's home (wherever its work dir key put it). */
export async function sessionFolder(home: string, id: string): Promise<string> {
  const found = await findDir(join(home, 'sessions'), id);
  if (!found) throw new Error(`no folder of session ${id} under ${home}`);
  return found;
}

async function findDir(dir: string, name: string): Promise<string | null> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const path = join(dir, entry.name);
    if (entry.name === name) return path;
    const inner = await findDir(path, name);
    if (inner) return inner;
  }
  return null;
}

/** The JSON lines of a file. */
export async function jsonLines(file: string): Promise<Record<string, unknown>[]> {
  return (await readFile(file, 'utf8'))
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}
