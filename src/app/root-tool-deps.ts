import type { Config } from '../config/schema.js';
import type { Session } from '../session/session.js';
import type { SessionState } from '../session/state.js';
import type { ToolDependencyTable } from '../toolset/loading/dependencies.js';
import type { SessionModel } from './session-model.js';
import { createSessionStore } from './session-store.js';
import { videoUploaderOf } from './video-uploader.js';
import { wireUserChannel } from './wire-user-channel.js';

/** What the root agent's tools are injected with, before the extensions add theirs. */
export function rootToolDeps(parts: {
  config: Config;
  env: Readonly<Record<string, string | undefined>>;
  session: Session;
  state: SessionState;
  additionalDirs: string[];
  model: SessionModel;
}): ToolDependencyTable {
  const { config, env, session } = parts;
  return {
    workDir: session.workDir,
    descriptionVars: { ...env, KIMI_WORK_DIR: session.workDir },
    additionalDirs: parts.additionalDirs,
    session: createSessionStore(session, parts.state.todos),
    modelCapabilities: parts.model.capabilities,
    uploadVideo: videoUploaderOf(parts.model.llm?.provider),
    webServices: {
      search: serviceOf(config.services?.moonshot_search),
      fetch: serviceOf(config.services?.moonshot_fetch),
    },
    backgroundConfig: {
      maxRunningTasks: config.background.max_running_tasks,
      keepAliveOnExit: config.background.keep_alive_on_exit,
      agentTaskTimeoutS: config.background.agent_task_timeout_s,
      killGracePeriodMs: config.background.kill_grace_period_ms,
      notificationTailLines: config.background.notification_tail_lines,
      notificationTailChars: config.background.notification_tail_chars,
    },
    role: 'root',
    processEnv: env,
    userChannel: wireUserChannel,
  };
}

function serviceOf(service: Config['services'][keyof Config['services']]) {
  if (!service) return undefined;
  return { baseUrl: service.base_url, apiKey: service.api_key, customHeaders: service.custom_headers };
}
