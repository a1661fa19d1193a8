import type { RuleSources, SessionPolicy } from '../policy/index.js';
import { type SlashCommand, say } from '../soul/slash-commands.js';
import type { Approval } from '../toolset/approval/approval.js';
import type { ProjectApprovals } from '../toolset/approval/project-approvals.js';

export interface PermissionsSources {
  policy: SessionPolicy;
  approval: Approval;
  projectApprovals: ProjectApprovals;
  sources: RuleSources;
}

/** `/permissions`: the rules in force (first match wins, deny first) and where each comes from. */
export function permissionsCommand(parts: PermissionsSources): SlashCommand {
  return {
    name: 'permissions',
    description:
      'List the permission rules in force, where each comes from, and what is approved for this session',
    aliases: [],
    async run() {
      const { policy, approval, sources } = parts;
      const rules = policy.ruleSet.rules;
      const lines = ['Permission rules (deny rules first, then the first allow/ask rule that matches):'];
      if (rules.length === 0) lines.push('  (none)');
      for (const rule of rules) lines.push(`  ${rule.describe()}`);
      lines.push(
        '',
        `Rule files: ${sources.projectFile} (project), ${sources.userFile} (user), [[permission.rules]] in ${sources.configFile}`,
        '',
        `Modes: ${[approval.yolo && 'yolo', approval.afk && 'afk', approval.runtimeAfk && 'print (no person to ask)'].filter(Boolean).join(', ') || 'default (ask)'}`,
      );
      const session = approval.toJSON();
      const remembered = [
        ...session.auto_approve_actions.map((action) => `every "${action}"`),
        ...(session.auto_approve_exact ?? []).map((exact) => `"${exact.action}": ${exact.description}`),
        ...policy
          .approvedPrefixes()
          .map(({ toolName, prefix }) => `${toolName} commands starting with "${prefix}"`),
        ...parts.projectApprovals
          .list()
          .map((scope) =>
            scope.scope === 'action'
              ? `every "${scope.action}" (project)`
              : `"${scope.action}": ${scope.description} (project)`,
          ),
      ];
      lines.push(
        'Approved for this session:',
        ...(remembered.length > 0 ? remembered.map((r) => `  ${r}`) : ['  (nothing)']),
      );
      lines.push(
        '',
        'Always asked, even in yolo (refused where no person can answer): secret files (the agent home, .env, ~/.ssh, credentials, private keys, shell histories) and hosts on loopback, private or link-local addresses.',
      );
      say(lines.join('\n'));
    },
  };
}
