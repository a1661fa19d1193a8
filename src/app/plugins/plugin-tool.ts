import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { type ToolReturnValue, toolError, toolOk } from '../../kosong/index.js';
import type { CommandSandbox } from '../../policy/sandbox.js';
import { type LaunchDescriptors, openLaunchDescriptors } from '../../policy/sandbox-bind-fds.js';
import { killGroupOnExit, killProcessGroup } from '../../tools/shell/process-group.js';
import { withPrefix } from '../../tools/shell/spawn-command.js';
import type { KimiTool } from '../../toolset/tool-definition.js';
import { childProcess } from '../../util/child-process.js';
import { withTrustedPath } from '../../util/path-entries.js';
import type { PluginToolSpec } from './plugin-spec.js';

/** How long a plugin tool may run (Kimi CLI's limit). */
export const PLUGIN_TOOL_TIMEOUT_MS = 120_000;

const MAX_OUTPUT_CHARS = 100_000;

/**
 * A tool a plugin declares: its command runs in the plugin's folder with the call's parameters as
 * JSON on stdin, and what it prints is the result (a failing exit gives an error with its stderr).
 * Host values the plugin's `inject` names are put in the command's environment, read fresh for each
 * call. Every call is asked for (`plugin:<tool>`), as the command can do anything.
 */
export function pluginTool(options: {
  spec: PluginToolSpec;
  pluginName: string;
  pluginDir: string;
  /** Environment variable → host value key (`{"KIMI_API_KEY": "api_key"}`). */
  inject: Readonly<Record<string, string>>;
  hostValues: () => Record<string, string>;
  env: Readonly<Record<string, string | undefined>>;
  /** Runs the command sandboxed, as Shell commands are. */
  sandbox?: CommandSandbox | null | undefined;
}): KimiTool<Record<string, unknown>> {
  const { spec } = options;
  return {
    name: spec.name,
    description: spec.description || `Tool ${spec.name} of the plugin ${options.pluginName}.`,
    parameters: spec.parameters ?? { type: 'object', properties: {} },
    effect: 'external',
    parse: (args) =>
      args !== null && typeof args === 'object' && !Array.isArray(args)
        ? { ok: true, params: args as Record<string, unknown> }
        : { ok: false, error: 'The arguments must be a JSON object.' },
    approval: (params) => ({
      action: `plugin:${spec.name}`,
      description: `Run ${spec.name} of the plugin ${options.pluginName} with ${JSON.stringify(params)}`,
    }),
    call: (params, ctx) => runPluginCommand(options, params, ctx.signal),
  };
}

async function runPluginCommand(
  options: Parameters<typeof pluginTool>[0],
  params: Record<string, unknown>,
  signal: AbortSignal,
): Promise<ToolReturnValue> {
  const { spec } = options;
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(options.env)) if (value !== undefined) env[key] = value;
  const host = options.hostValues();
  for (const [variable, key] of Object.entries(options.inject)) {
    if (host[key] !== undefined) env[variable] = host[key];
  }
  const [program, ...args] = spec.command as [string, ...string[]];
  const sandboxLaunch = await options.sandbox?.launch(options.pluginDir);
  const launch = withPrefix(sandboxLaunch?.argv, program, args);
  let child: ChildProcessWithoutNullStreams;
  let descriptors: LaunchDescriptors | undefined;
  try {
    // The seccomp program and the bind sources, checked to be what the sandbox decided on.
    if (sandboxLaunch) descriptors = openLaunchDescriptors(sandboxLaunch);
    child = childProcess().spawn(launch.file, launch.args, {
      cwd: options.pluginDir,
      env: withTrustedPath(env),
      stdio: ['pipe', 'pipe', 'pipe', ...(descriptors?.stdio ?? [])],
      detached: true,
    }) as ChildProcessWithoutNullStreams;
  } catch (error) {
    options.sandbox?.commandEnded();
    const message = error instanceof Error ? error.message : String(error);
    return toolError(`Plugin tool '${spec.name}' could not start: ${message}`, 'Failed');
  } finally {
    // The child has its own copies now.
    descriptors?.close();
  }
  const forgetGroup = child.pid !== undefined ? killGroupOnExit(child.pid) : () => {};
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => {
    if (stdout.length < MAX_OUTPUT_CHARS) stdout += text;
  });
  child.stderr.setEncoding('utf8').on('data', (text: string) => {
    if (stderr.length < MAX_OUTPUT_CHARS) stderr += text;
  });
  child.stdin.on('error', () => {}); // a command that does not read its input
  child.stdin.end(JSON.stringify(params));
  let stopped: 'timeout' | 'cancelled' | null = null;
  let killing: Promise<void> = Promise.resolve();
  const stop = (why: 'timeout' | 'cancelled') => {
    if (stopped) return;
    stopped = why;
    // The whole group: whatever the command started goes too.
    if (child.pid !== undefined) killing = killProcessGroup(child.pid, { graceMs: 2000 });
  };
  const timer = setTimeout(() => stop('timeout'), PLUGIN_TOOL_TIMEOUT_MS);
  const onAbort = () => stop('cancelled');
  signal.addEventListener('abort', onAbort, { once: true });
  if (signal.aborted) onAbort();
  const exit = await new Promise<{ code: number | null; error?: Error }>((resolve) => {
    child.once('error', (error) => resolve({ code: null, error }));
    child.once('close', (code) => resolve({ code }));
  });
  clearTimeout(timer);
  signal.removeEventListener('abort', onAbort);
  await killing;
  forgetGroup();
  // A git folder the command made is cleaned before the result (the note waits for the next Shell result).
  await options.sandbox?.commandEnded();
  if (stopped === 'cancelled') throw signal.reason ?? new Error('The plugin tool was cancelled.');
  if (stopped === 'timeout') {
    return toolError(
      `Plugin tool '${spec.name}' timed out after ${PLUGIN_TOOL_TIMEOUT_MS / 1000}s.`,
      'Timeout',
    );
  }
  if (exit.error)
    return toolError(`Plugin tool '${spec.name}' could not start: ${exit.error.message}`, 'Failed');
  if (exit.code !== 0) {
    const detail = stderr.trim() || stdout.trim() || `exit code ${exit.code}`;
    return toolError(`Plugin tool '${spec.name}' failed: ${detail}`, `Exit ${exit.code}`);
  }
  return toolOk(stdout.trim());
}
