import type { HookConfig } from '../hooks/config.js';
import { describeSandboxStatus, type SandboxStatus } from '../policy/sandbox.js';
import type { Context } from '../soul/context/context.js';
import { type SlashCommand, say } from '../soul/slash-commands.js';
import type { SoulLLM } from '../soul/soul-parts.js';
import type { Approval } from '../toolset/approval/approval.js';
import { VERSION } from '../version.js';

export interface StatusSources {
  sessionId: string;
  context: Context;
  approval: Approval;
  llm(): SoulLLM | null;
  /** The config's alias of the model in use; null when the environment alone set it up. */
  modelAlias(): string | null;
  title(): string | null;
  planMode(): boolean;
  sandbox: SandboxStatus | null;
}

/** `/status` (`/usage`): the session, its model, the context in use and the approval and plan modes. */
export function statusCommand(sources: StatusSources): SlashCommand {
  return {
    name: 'status',
    description: 'The session at a glance: model, context in use, approval modes, plan mode',
    aliases: ['usage'],
    async run({ soul }) {
      const llm = sources.llm();
      const used = sources.context.tokenCount;
      const max = llm?.maxContextSize ?? 0;
      const share = max > 0 ? ` (${Math.round((used / max) * 100)}% of ${max})` : '';
      const { approval } = sources;
      const modes = [
        approval.yolo && 'yolo',
        approval.afk && 'afk',
        sources.planMode() && 'plan mode',
      ].filter(Boolean);
      const title = sources.title();
      const model = llm
        ? `${sources.modelAlias() ?? 'set by environment variables'} (${llm.provider.modelName})`
        : 'none configured';
      say(
        soul,
        [
          `Session: ${sources.sessionId}${title ? ` (${title})` : ''}`,
          `Model: ${model}`,
          `Context: ${used} tokens${share}`,
          `Sandbox: ${describeSandboxStatus(sources.sandbox)}`,
          `Modes: ${modes.length > 0 ? modes.join(', ') : 'none: actions with side effects need approval'}`,
        ].join('\n'),
      );
    },
  };
}

/** `/hooks`: the hooks of the config, one line each. */
export function hooksCommand(hooks: readonly HookConfig[]): SlashCommand {
  return {
    name: 'hooks',
    description: 'The hooks of the config ([[hooks]]): event, matcher, command',
    aliases: [],
    async run({ soul }) {
      say(
        soul,
        hooks.length === 0
          ? 'No hooks are configured ([[hooks]] in the config).'
          : hooks
              .map(
                (h) =>
                  `- ${h.event}${h.matcher ? ` [${h.matcher}]` : ''}: ${h.command} (timeout ${h.timeout} s)`,
              )
              .join('\n'),
      );
    },
  };
}

/** `/version`. */
export const versionCommand: SlashCommand = {
  name: 'version',
  description: 'The version of kimi-ts',
  aliases: [],
  async run({ soul }) {
    say(soul, `kimi-ts ${VERSION}`);
  },
};
