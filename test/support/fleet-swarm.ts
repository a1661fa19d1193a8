import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import { deferred } from '../../src/util/deferred.js';
import { git } from './git.js';
import type { CliSandbox } from './run-cli.js';
import type { ScriptedCli } from './scripted-cli.js';
import type { ScriptedTurn } from './scripted-llm-server.js';

/**
 * The fleet swarm e2e tests' scenario: a root that calls AgentSwarm over three items (the same call
 * each time its step is asked for), subagents told apart by their prompt, and what the tests read.
 */
export interface ApiMessage {
  role: string;
  content?: unknown;
}

export const textOf = (m: ApiMessage | undefined): string =>
  m === undefined ? '' : typeof m.content === 'string' ? m.content : JSON.stringify(m.content ?? '');

export const ROOT_PROMPT = 'Run the swarm over the three parts.';
export const ITEMS = ['alpha', 'beta', 'gamma'];

/** The root's AgentSwarm call: the same call each time its step is asked for (the redone step too). */
export const swarmCall = (isolation: 'none' | 'worktree', maxConcurrency?: number): ScriptedTurn => ({
  toolCalls: [
    {
      id: 'swarm-1',
      name: 'AgentSwarm',
      args: {
        description: 'Parts',
        prompt_template: 'Task {{item}}: look at it.',
        items: ITEMS,
        isolation,
        ...(maxConcurrency ? { max_concurrency: maxConcurrency } : {}),
      },
    },
  ],
});

/** A subagent's report, long enough to need no continuation. */
export const reportFor = (item: string) => `Report for ${item}: ${'all is well with this part. '.repeat(10)}`;

/** The item a subagent's request is about, or null for the root's. */
export function itemOf(body: unknown): string | null {
  const messages = (body as { messages: ApiMessage[] }).messages;
  const first = textOf(messages.find((m) => m.role === 'user'));
  const match = /^Task (\w+):/.exec(first);
  return match ? (match[1] as string) : null;
}

export function lastRole(body: unknown): string | undefined {
  return (body as { messages: ApiMessage[] }).messages.at(-1)?.role;
}

export async function gitRepo(sandbox: CliSandbox): Promise<void> {
  git(sandbox.workDir, 'init', '-q', '-b', 'main');
  await writeFile(join(sandbox.workDir, 'README.md'), 'the project\n');
  git(sandbox.workDir, 'add', '-A');
  git(
    sandbox.workDir,
    '-c',
    'user.name=P',
    '-c',
    'user.email=p@example.invalid',
    'commit',
    '-q',
    '-m',
    'first',
  );
}

/** A promise the test opens itself (after the test at the latest). */
export function gate(cli: ScriptedCli): { promise: Promise<void>; open: () => void } {
  const { promise, resolve } = deferred();
  cli.defer(() => resolve());
  return { promise, open: () => resolve() };
}

export async function fleetStatus(sandbox: CliSandbox, url: string) {
  const result = await sandbox.run(['fleet', 'status', '--queue', url, '--json']);
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as {
    swarms: { jobId: string; sessionId: string; turn: number; children: number }[];
    items: { sessionId: string; index: number; worker: string }[];
    running: unknown[];
  };
}
