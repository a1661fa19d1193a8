import * as acp from '@agentclientprotocol/sdk';
import { type ToolReturnValue, toolError } from '../../kosong/index.js';
import type { KimiTool, ToolCallContext } from '../../toolset/tool-definition.js';
import { ToolResultBuilder } from '../../toolset/tool-result-builder.js';
import { HIDE_OUTPUT_BLOCK } from './session-updates.js';

/** What the editor keeps of a command's output (the model gets at most this much anyway). */
const OUTPUT_BYTE_LIMIT = 50_000;

/** The editor side of a session that runs Shell commands in the editor's terminals. */
export interface TerminalHost {
  readonly client: acp.AgentContext;
  readonly sessionId: string;
  readonly workDir: string;
  /** Resolves once the editor was told about the tool call (its `tool_call` update went out). */
  announced(toolCallId: string, signal: AbortSignal): Promise<void>;
}

interface ShellParams {
  command: string;
  timeout: number;
  run_in_background: boolean;
}

function isForegroundCommand(params: unknown): params is ShellParams {
  const p = params as Partial<ShellParams> | null;
  return typeof p?.command === 'string' && typeof p.timeout === 'number' && p.run_in_background !== true;
}

/**
 * Shell for an editor that hosts terminals (ACP `terminal` capability), as Kimi CLI does: a
 * foreground command runs in a terminal of the editor, which the tool call shows live, and the model
 * gets the output and exit status as from Shell. Name, description, parameters and approval stay
 * those of `shell`; background commands still run here as background tasks, since an editor
 * terminal cannot outlive the turn's tool call.
 */
export function terminalShell(shell: KimiTool, host: TerminalHost): KimiTool {
  return {
    name: shell.name,
    description: shell.description,
    parameters: shell.parameters,
    effect: shell.effect,
    parse: (args) => shell.parse(args),
    ...(shell.approval ? { approval: shell.approval.bind(shell) } : {}),
    call: (params, ctx) =>
      isForegroundCommand(params) ? runInTerminal(params, ctx, host) : shell.call(params, ctx),
  };
}

type Ending =
  | { kind: 'exited'; status: acp.WaitForTerminalExitResponse }
  | { kind: 'timed_out' }
  | { kind: 'cancelled' }
  | { kind: 'lost'; error: unknown };

async function runInTerminal(
  { command, timeout }: ShellParams,
  ctx: ToolCallContext,
  host: TerminalHost,
): Promise<ToolReturnValue> {
  if (command.trim() === '') return toolError('Command cannot be empty.', 'Empty command');
  let terminal: acp.TerminalHandle;
  try {
    terminal = await host.client.createTerminal(
      { sessionId: host.sessionId, command, cwd: host.workDir, outputByteLimit: OUTPUT_BYTE_LIMIT },
      { cancellationSignal: ctx.signal },
    );
  } catch (error) {
    if (ctx.signal.aborted) throw ctx.signal.reason;
    return toolError(
      `Command execution failed: the editor could not open a terminal (${describe(error)}).`,
      'Execution failed',
    );
  }
  try {
    await host.announced(ctx.toolCall.id, ctx.signal);
    await host.client.notify(acp.methods.client.session.update, {
      sessionId: host.sessionId,
      update: {
        sessionUpdate: 'tool_call_update',
        toolCallId: ctx.toolCall.id,
        status: 'in_progress',
        content: [{ type: 'terminal', terminalId: terminal.id }],
      },
    });
    const ending = await waitForEnd(terminal, timeout * 1000, ctx.signal);
    if (ending.kind === 'timed_out' || ending.kind === 'cancelled') await terminal.kill().catch(() => {});
    if (ending.kind === 'cancelled') throw ctx.signal.reason ?? new Error('The command was cancelled.');
    if (ending.kind === 'lost') {
      return toolError(
        `Command execution failed: the editor's terminal stopped answering (${describe(ending.error)}).`,
        'Execution failed',
      );
    }
    const { output, truncated, exitStatus } = await terminal.currentOutput();
    const builder = new ToolResultBuilder().display(HIDE_OUTPUT_BLOCK);
    builder.write(output);
    const note = truncated ? " Output was cut to the editor's output limit." : '';
    if (ending.kind === 'timed_out') {
      return builder.error(
        `Command killed by timeout (${timeout}s)${note}`,
        `Killed by timeout (${timeout}s)`,
      );
    }
    const status = exitStatus ?? ending.status;
    if (status.signal) {
      return builder.error(
        `Command terminated by signal: ${status.signal}.${note}`,
        `Signal: ${status.signal}`,
      );
    }
    if (status.exitCode !== 0 && status.exitCode !== null && status.exitCode !== undefined) {
      return builder.error(
        `Command failed with exit code: ${status.exitCode}.${note}`,
        `Failed with exit code: ${status.exitCode}`,
      );
    }
    return builder.ok(`Command executed successfully.${note}`);
  } finally {
    // Releasing also kills a command still running; the editor keeps showing what it printed.
    await terminal.release().catch(() => {});
  }
}

/** Waits for the command to exit, the timeout to pass or the call to be cancelled, whichever is first. */
function waitForEnd(terminal: acp.TerminalHandle, timeoutMs: number, signal: AbortSignal): Promise<Ending> {
  return new Promise((resolve) => {
    const finish = (ending: Ending) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      resolve(ending);
    };
    const onAbort = () => finish({ kind: 'cancelled' });
    const timer = setTimeout(() => finish({ kind: 'timed_out' }), timeoutMs);
    signal.addEventListener('abort', onAbort, { once: true });
    if (signal.aborted) onAbort();
    terminal.waitForExit().then(
      (status) => finish({ kind: 'exited', status }),
      (error: unknown) => finish({ kind: 'lost', error }),
    );
  });
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
