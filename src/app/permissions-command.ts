import {
  isRuleInForce,
  type LoadedRules,
  type PermissionRule,
  type RuleSourceKind,
  type RuleSources,
  type SessionPolicy,
} from '../policy/index.js';
import { type SlashCommand, say } from '../soul/slash-commands.js';
import type { Approval } from '../toolset/approval/approval.js';
import type { ProjectApprovals } from '../toolset/approval/project-approvals.js';
import type { WorkspaceTrustView } from './workspace-trust.js';

export interface PermissionsSources {
  policy: SessionPolicy;
  approval: Approval;
  projectApprovals: ProjectApprovals;
  sources: RuleSources;
  /** Every rule read, in force or not. */
  rules: () => LoadedRules;
  trust: WorkspaceTrustView;
  /** Set (a fleet job's session): `/permissions trust` and `distrust` say this and change nothing. */
  trustChangeRefused?: string | undefined;
}

const SOURCE_LABEL: Record<RuleSourceKind, string> = {
  project: 'project file',
  user: 'user file',
  config: 'user config',
};

/** `/permissions`: the rules in force (first match wins, deny first) and where each comes from. */
export function permissionsCommand(parts: PermissionsSources): SlashCommand {
  return {
    name: 'permissions',
    description:
      'List the permission rules in force, where each comes from, and what is approved for this session; /permissions trust or distrust: trust this folder or not, remembered',
    aliases: [],
    async run({ soul, args }) {
      const { approval, sources, trust } = parts;
      const change = args.trim().toLowerCase();
      if ((change === 'trust' || change === 'distrust') && parts.trustChangeRefused)
        return say(soul, parts.trustChangeRefused);
      if (change === 'trust') {
        await trust.trust({ remember: true, source: 'person' });
        say(
          soul,
          `Workspace ${trust.folder}: trusted, remembered. Its allow rules are in force from now on.`,
        );
        return;
      }
      if (change === 'distrust') {
        await trust.decline();
        say(
          soul,
          `Workspace ${trust.folder}: not trusted, remembered (not asked again). ${trust.trusted ? 'This session keeps its trust; the next one starts untrusted.' : 'Its allow rules stay off.'}`,
        );
        return;
      }
      if (change) {
        say(soul, 'Usage: /permissions, /permissions trust, or /permissions distrust');
        return;
      }
      const loaded = parts.rules();
      const lines = ['Permission rules (deny rules first, then the first allow/ask rule that matches):'];
      const all: [RuleSourceKind, PermissionRule][] = [
        ...loaded.project.map((rule) => ['project', rule] as [RuleSourceKind, PermissionRule]),
        ...loaded.user.map((rule) => ['user', rule] as [RuleSourceKind, PermissionRule]),
        ...loaded.config.map((rule) => ['config', rule] as [RuleSourceKind, PermissionRule]),
      ];
      if (all.length === 0) lines.push('  (none)');
      for (const [source, rule] of all) {
        const status = isRuleInForce(source, rule, trust.trusted)
          ? ''
          : '  [not in force: workspace not trusted]';
        lines.push(`  ${rule.describe()} [${SOURCE_LABEL[source]}]${status}`);
      }
      lines.push(
        '',
        `Workspace ${trust.folder}: ${trust.trusted ? `trusted (${trust.source})` : `not trusted${trust.declined ? ' (you said no; not asked again)' : ''}${trust.trustedParent ? ` (inside the trusted ${trust.trustedParent}, whose trust does not cover a sub-folder's own rules file)` : ''} — its allow rules are not in force (/permissions trust, --trust-workspace, or answer yes when asked at start)`}`,
      );
      lines.push(
        '',
        `Rule files: ${sources.projectFile} (project), ${sources.userFile} (user), [[permission.rules]] in ${sources.configFile}`,
        '',
        `Modes: ${[approval.yolo && 'yolo', approval.afk && 'afk', approval.runtimeAfk && 'print (no person to ask)'].filter(Boolean).join(', ') || 'default (ask)'}`,
      );
      const session = approval.toJSON();
      const remembered = [
        ...parts.policy
          .sessionPrefixes()
          .map(({ toolName, prefix }) => `${toolName} commands starting with \`${prefix}\` (session)`),
        ...session.auto_approve_actions.map((action) => `every "${action}"`),
        ...(session.auto_approve_exact ?? []).map((exact) => `"${exact.action}": ${exact.description}`),
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
      say(soul, lines.join('\n'));
    },
  };
}
