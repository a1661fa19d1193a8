import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useScriptedCli } from '../support/scripted-cli.js';
import type { ScriptedTurn } from '../support/scripted-llm-server.js';
import { onlySessionDir } from '../support/session-files.js';

/**
 * The chaos test through the built CLI: print-mode runs against the `chaos` provider (a Kimi
 * provider whose calls fail on a seeded schedule) over a loopback model that answers from the
 * history. The bulk of the schedule (500+ faults) runs in-process in src/soul/chaos-loop.test.ts;
 * these runs check what only the real process shows: the exit code, the files it leaves.
 */
const RUNS = 6;
const BASE_SEED = Number(process.env.CHAOS_SEED ?? 7_700);

interface ApiMessage {
  role: string;
  content?: unknown;
  tool_calls?: { id: string; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
}

/** Two steps with a side effect each (a Shell command appending its op), then an answer. */
function answerFromHistory(body: unknown): ScriptedTurn {
  const messages = (body as { messages: ApiMessage[] }).messages;
  const step = messages.filter((m) => m.role === 'assistant').length + 1;
  if (step > 2) return { text: 'All done.' };
  const op = `op-${step}`;
  return {
    text: `Step ${step}.`,
    toolCalls: [{ id: `call-${step}`, name: 'Shell', args: { command: `echo ${op} >> effects.log` } }],
    argumentFragments: 3,
  };
}

const cli = useScriptedCli();

async function chaosRun(seed: number) {
  const server = await cli.startServer();
  server.answerBy(answerFromHistory);
  const sandbox = await cli.createSandbox({
    baseUrl: server.baseUrl,
    extraToml: '[loop_control]\nstall_timeout_s = 0.3\n',
  });
  const { writeFile } = await import('node:fs/promises');
  const config = await readFile(sandbox.configFile, 'utf8');
  await writeFile(sandbox.configFile, config.replace('type = "openai_legacy"', 'type = "chaos"'));
  const result = await sandbox.run(['--print', '-p', 'go'], {
    env: {
      CHAOS_SEED: String(seed),
      CHAOS_ERROR_PROBABILITY: '0.45',
      CHAOS_ERROR_TYPES: 'cut_after_text,cut_after_call,cut_mid_arguments,stall,500',
      CHAOS_RETRY_AFTER: '0',
    },
  });
  return { result, sandbox, server };
}

async function contextRecords(home: string): Promise<ApiMessage[]> {
  const text = await readFile(join(await onlySessionDir(home), 'context.jsonl'), 'utf8');
  return text
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as ApiMessage)
    .filter((r) => ['user', 'assistant', 'tool'].includes(r.role));
}

describe('chaos through the CLI', () => {
  it(`${RUNS} print runs end 0 or 75 with paired context files and each side effect at most once`, async () => {
    const runs = await Promise.all(Array.from({ length: RUNS }, (_, i) => chaosRun(BASE_SEED + i)));
    for (const [i, { result, sandbox }] of runs.entries()) {
      const where = `run with CHAOS_SEED=${BASE_SEED + i} (stderr: ${result.stderr.slice(-300)})`;
      // Every fault of the schedule is retryable: a run succeeds (0) or runs out of attempts (75);
      // 1 (a permanent failure) would mean something else went wrong.
      expect([0, 75], where).toContain(result.code);
      const records = await contextRecords(sandbox.home);
      for (let r = 0; r < records.length; r++) {
        const record = records[r]!;
        expect(record.role, `${where}: a tool message out of place at ${r}`).not.toBe('tool');
        const ids = record.tool_calls?.map((c) => c.id) ?? [];
        expect(
          records.slice(r + 1, r + 1 + ids.length).map((m) => m.tool_call_id),
          where,
        ).toEqual(ids);
        r += ids.length;
      }
      const effects = await readFile(join(sandbox.workDir, 'effects.log'), 'utf8').catch(() => '');
      const ops = effects.split('\n').filter(Boolean);
      expect(new Set(ops).size, `${where}: ${ops.join(',')}`).toBe(ops.length);
      if (result.code === 0) expect(ops).toEqual(['op-1', 'op-2']);
    }
    // The schedule did strike: some run failed for good, or needed more requests than its 3 steps.
    expect(runs.some(({ result, server }) => result.code !== 0 || server.requests.length > 3)).toBe(true);
    // Six CLIs side by side, each retrying with backoff: 10 s on an idle machine, several times
    // that under load. The budget guards against a hang, not the speed (bench/ measures that).
  }, 120_000);
});
