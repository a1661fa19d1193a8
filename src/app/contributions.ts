import type { WireNotificationSource } from '../soul/run-soul.js';
import type { SlashCommand } from '../soul/slash-commands.js';
import type { DynamicInjection } from '../soul/soul-parts.js';
import type { ToolDependencyTable } from '../toolset/loading/dependencies.js';
import type { RunContext } from '../toolset/run-scope.js';
import type { Notification } from '../wire/events.js';
import type { LLMNotification, LLMNotificationSource } from '../wire/llm-notification.js';
import type { BackgroundWork } from './agent-session.js';
import type {
  Extension,
  ExtensionContribution,
  ExternalToolRegistrar,
  PlanModeHandlers,
  SessionServices,
} from './extension.js';
import { redactNotification } from './redact-tool-output.js';
import type { ShutdownList } from './shutdown-list.js';

/** What the session's extensions added, put together. */
export interface SessionContributions {
  injections: DynamicInjection[];
  /** Every extension's notifications for the model, in the extensions' order. */
  llmNotifications: LLMNotificationSource;
  /** Every extension's notifications for the front ends; absent when none has any. */
  wireNotifications: WireNotificationSource | undefined;
  beforeFirstStep(signal: AbortSignal, run: RunContext): Promise<void>;
  afterToolsLoaded(): Promise<void>;
  slashCommands: SlashCommand[];
  planMode: PlanModeHandlers | undefined;
  backgroundWork: BackgroundWork | undefined;
  externalTools: ExternalToolRegistrar | undefined;
}

/**
 * Sets the extensions up in order, each with the services it names. Their tool dependencies go into
 * `deps` (the table `services.rootDeps` shows), their closers into `shutdown` as soon as each is
 * set up, so a later failure still closes what the earlier ones opened.
 */
export async function setUpExtensions(
  extensions: readonly Extension[],
  services: SessionServices,
  deps: ToolDependencyTable,
  shutdown: ShutdownList,
): Promise<SessionContributions> {
  const added: ExtensionContribution[] = [];
  for (const extension of extensions) {
    const contribution = await extension.setup(pick(services, extension.uses));
    if (contribution.close) shutdown.add(contribution.close);
    Object.assign(deps, contribution.deps);
    added.push(contribution);
  }
  return combine(added);
}

function pick<K extends keyof SessionServices>(
  services: SessionServices,
  names: readonly K[],
): Pick<SessionServices, K> {
  const picked: Partial<SessionServices> = {};
  for (const name of names) Object.assign(picked, { [name]: services[name] });
  return picked as Pick<SessionServices, K>;
}

function combine(added: readonly ExtensionContribution[]): SessionContributions {
  const llmSources = added.flatMap((c) => (c.llmNotifications ? [c.llmNotifications] : []));
  const wireSources = added.flatMap((c) => (c.wireNotifications ? [c.wireNotifications] : []));
  const waits = added.flatMap((c) => (c.beforeFirstStep ? [c.beforeFirstStep] : []));
  const afterLoad = added.flatMap((c) => (c.afterToolsLoaded ? [c.afterToolsLoaded] : []));
  return {
    injections: added.flatMap((c) => c.injections ?? []),
    llmNotifications: {
      claimForLLM: async (max, signal) => {
        const out: LLMNotification[] = [];
        for (const source of llmSources) {
          if (out.length >= max) break;
          out.push(...(await source.claimForLLM(max - out.length, signal)));
        }
        return out.map(redactNotification);
      },
    },
    wireNotifications:
      wireSources.length === 0
        ? undefined
        : {
            drainWire: async (max, signal) => {
              const out: Notification[] = [];
              for (const source of wireSources) {
                if (out.length >= max) break;
                out.push(...(await source.drainWire(max - out.length, signal)));
              }
              return out;
            },
          },
    beforeFirstStep: async (signal, run) => {
      for (const wait of waits) await wait(signal, run);
    },
    afterToolsLoaded: async () => {
      for (const run of afterLoad) await run();
    },
    slashCommands: added.flatMap((c) => c.slashCommands ?? []),
    planMode: lastOf(added.map((c) => c.planMode)),
    backgroundWork: lastOf(added.map((c) => c.backgroundWork)),
    externalTools: lastOf(added.map((c) => c.externalTools)),
  };
}

/** The last one given (a later extension replaces an earlier one's service). */
function lastOf<T>(values: readonly (T | undefined)[]): T | undefined {
  return values.filter((value) => value !== undefined).at(-1);
}
