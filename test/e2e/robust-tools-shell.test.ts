import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isProcessAlive } from '../../src/tools/shell/process-group.js';
import { waitForProcess } from '../support/processes.js';
import { CLI, CLI_NODE, collect } from '../support/run-cli.js';
import { useScriptedCli } from '../support/scripted-cli.js';

const cli = useScriptedCli();

interface ToolMessage {
  role: string;
  content: unknown;
}

/** The text of the tool message the model got in its second request. */
function toolResultText(): string {
  const body = cli.server.requests[1]?.body as { messages: ToolMessage[] } | undefined;
  const tool = body?.messages.find((m) => m.role === 'tool');
  return typeof tool?.content === 'string' ? tool.content : JSON.stringify(tool?.content ?? null);
}

/** Peak resident memory of a live process, from `/proc/<pid>/status` (VmHWM), in MiB. */
async function peakRssMiB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kib = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1]);
  return kib / 1024;
}

describe('Shell returns when the command exits', () => {
  it('a grandchild holding the pipe does not make the command time out; it is reported, then stopped at exit', async () => {
    const { sandbox } = await cli.setup([
      {
        toolCalls: [
          {
            id: 'c1',
            name: 'Shell',
            args: { command: 'sleep 303 & echo $! > sleeper.pid; echo started', timeout: 5 },
          },
        ],
      },
      { text: 'It started.' },
    ]);
    // Unsandboxed: in the sandbox the grandchild ends with the command (its PID namespace goes).
    const result = await sandbox.run(['--sandbox', 'off', '--print', '--yolo', '-p', 'start it']);
    expect(result.code).toBe(0);
    const text = toolResultText();
    expect(text).toContain('started');
    expect(text).not.toContain('timeout');
    expect(text).toContain('Command executed successfully.');
    expect(text).toContain('A process it started in the background is still running');
    // kimi-ts took the command's process group with it when it exited.
    const pid = Number((await readFile(join(sandbox.workDir, 'sleeper.pid'), 'utf8')).trim());
    expect(pid).toBeGreaterThan(0);
    // Its signal is sent as the CLI exits; the sleeper dies when the kernel next runs it (on a
    // loaded machine, a moment after the CLI is gone).
    await waitForProcess(() => (isProcessAlive(pid) ? null : true), `the sleeper ${pid} to be stopped`, 5000);
  });
});

describe('Shell output is bounded while it streams', () => {
  it('one 100 MB line keeps memory low and is cut to the cap, the rest counted', async () => {
    let release!: () => void;
    const held = new Promise((resolve) => {
      release = () => resolve(undefined);
    });
    const { server, sandbox } = await cli.setup([
      {
        toolCalls: [
          { id: 'big', name: 'Shell', args: { command: 'head -c 100000000 /dev/zero | tr "\\0" x' } },
        ],
      },
      { text: 'That was long.', holdUntil: held },
    ]);
    const child = sandbox.spawn(['--print', '--yolo', '-p', 'print a lot'], { input: '' });
    const done = collect(child);
    // The second request carries the tool's result: the command ran to its end by now.
    await server.waitForRequests(2);
    const peak = await peakRssMiB(child.pid!);
    release();
    const result = await done;
    expect(result.code).toBe(0);
    // Before output was cut while streaming, this one line took 1.5 GB; on Node 24 the optimizing
    // compile of the bash grammar's lexer added 500 MiB (see src/policy/wasm-baseline-compiler.ts).
    expect(peak).toBeLessThanOrEqual(200);
    const text = toolResultText();
    expect(text.length).toBeLessThan(10_000);
    expect(text).toContain('[...truncated]');
    expect(text).toContain('of 100,000,000 output characters were left out');
  });
});

/** The V8 of the CLI's Node runs tier-up jobs synchronously when it can (Node 22 and later). */
function syncTierUpFlag(): string[] {
  const options = execFileSync(CLI_NODE, ['--v8-options']).toString();
  return options.includes('--wasm-sync-tier-up') ? ['--wasm-sync-tier-up'] : [];
}

/** `Compiled function …#22 using TurboFan, took … bodysize 159934 …` lines of `--trace-wasm-compilation-times`. */
function wasmCompiles(trace: string): { tier: string; bodySize: number }[] {
  // Not anchored at a line's start: V8's compile threads print at once, and a line can begin with
  // another thread's unfinished `Compiled function 0x…` (seen on Node 22 under load).
  return [...trace.matchAll(/#\d+ using (\w+), took [^;\n]*; bodysize (\d+)/g)].map((m) => ({
    tier: m[1] ?? '',
    bodySize: Number(m[2]),
  }));
}

/**
 * A command line long enough that one parse spends the lexer's tier-up budget on Node 20, 22 and 24
 * (a short one like `sleep 1` does not). The `sleep` gives an asynchronous tier-up (Node 20) time
 * to land while the CLI still runs.
 */
const LEXER_HEAVY_COMMAND =
  'for f in one two three; do printf "%s\\n" "$f" | tr a-z A-Z | sed -e "s/O/0/g" > /dev/null; done; ' +
  'head -c 1000 /dev/zero | tr "\\0" x | wc -c && sleep 1 && echo "parsed: $(date +%s)"';

describe("The bash grammar's lexer stays in V8's baseline compiler", () => {
  it('the first Shell decision never sends the 160 KB lexer function to the optimizing compiler', async () => {
    const { sandbox } = await cli.setup([
      { toolCalls: [{ id: 'c1', name: 'Shell', args: { command: LEXER_HEAVY_COMMAND } }] },
      { text: 'Parsed.' },
    ]);
    const result = await sandbox.run(['--print', '--yolo', '-p', 'run it'], {
      command: [CLI_NODE, '--trace-wasm-compilation-times', ...syncTierUpFlag(), CLI],
    });
    expect(result.code).toBe(0);
    // The lexer is the one function of tree-sitter-bash.wasm past 100 KB of code.
    const lexer = wasmCompiles(result.stdout).filter((c) => c.bodySize > 100_000);
    // It was compiled (the trace is seen) by the baseline compiler, and by nothing else: on Node 24
    // the optimizing compile took a 690 MB compiler zone.
    expect(lexer.map((c) => c.tier)).toContain('Liftoff');
    expect(lexer.filter((c) => c.tier !== 'Liftoff')).toEqual([]);
  });
});
