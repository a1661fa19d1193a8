import type { Config } from '../config/schema.js';
import { type CommandSandbox, createCommandSandbox, type SandboxContext } from '../policy/sandbox.js';

/**
 * The session's command sandbox from `[sandbox]` and `--sandbox` (which turns it on in the config's
 * mode, or `workspace-write` when the config says `off`); null when it is off. Throws when it was
 * asked for and cannot run here.
 */
export function sessionSandbox(
  config: Config,
  flag: boolean | undefined,
  context: SandboxContext,
): CommandSandbox | null {
  const configured = config.sandbox.mode;
  const mode = flag && configured === 'off' ? 'workspace-write' : configured;
  return createCommandSandbox({ mode, network: config.sandbox.network }, context);
}
