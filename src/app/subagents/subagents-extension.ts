import { join } from 'node:path';
import { defineExtension } from '../extension.js';
import { SubagentInstanceStore } from './instance-store.js';
import { sessionWorktreesDir } from './isolated-workspace.js';
import { RootWireTracker } from './root-wire-tracker.js';
import { SessionSubagentRunner } from './subagent-runner.js';
import { loadSubagentTypes } from './subagent-types.js';
import { swarmCommand } from './swarm-command.js';
import { recoverLeftWorktrees } from './worktree-recovery.js';

/**
 * Subagents for a session: the types of the agent spec's `subagents:` map, instances kept under
 * `<session>/subagents/<id>/`, and the runner the Agent tool gets as `subagents`.
 */
export function subagentsExtension(options: { recoverWorktrees?: boolean } = {}) {
  return defineExtension({
    name: 'subagents',
    uses: [
      'session',
      'config',
      'agentSpec',
      'rootDeps',
      'toolset',
      'approval',
      'hooks',
      'model',
      'loopControl',
      'env',
      'outOfTurn',
      'skills',
      'contextFiles',
      'workspaceTrust',
      'swarmSlot',
    ],
    async setup(services) {
      const { session, model } = services;
      // Worktrees of this session's runs that a killed process left: committed on their branches, removed.
      // (Not by a fleet worker opening the session for one swarm item: its siblings' worktrees are live.)
      if (options.recoverWorktrees !== false)
        await recoverLeftWorktrees(sessionWorktreesDir(services.toolset.policy.homes.kimiHome, session.id));
      const rootWires = new RootWireTracker(services.outOfTurn);
      const subagents = new SessionSubagentRunner(
        {
          session,
          config: services.config,
          types: await loadSubagentTypes(services.agentSpec.subagents),
          store: new SubagentInstanceStore(join(session.dir, 'subagents')),
          rootDeps: services.rootDeps,
          // The session's one policy decides the subagents' calls too.
          policy: services.toolset.policy,
          approval: services.approval,
          hooks: services.hooks,
          currentLLM: () => model.llm,
          loopControl: services.loopControl,
          llmForAlias: (alias) => model.llmForAlias(alias),
          env: services.env,
          rootWires,
          skills: services.skills,
          contextFiles: services.contextFiles,
          workspaceTrusted: () => services.workspaceTrust.gitAllowed,
        },
        services.swarmSlot,
      );
      return {
        deps: { subagents },
        beforeFirstStep: async (_signal, run) => rootWires.turnStarted(run.wire),
        slashCommands: [
          swarmCommand({
            workDir: session.workDir,
            policy: services.toolset.policy,
            approval: services.approval,
          }),
        ],
      };
    },
  });
}
