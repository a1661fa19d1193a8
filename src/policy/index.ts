export { isWithinDirectory } from '../util/path-within.js';
export * from './approval-actions.js';
export type { Effect, EffectKind, FileTarget, ReadAccess, ResolvedAddress } from './effects.js';
export { HomeStartupFiles } from './home-startup-files.js';
export { type AddressClass, classifyAddress, HostResolutionError, resolveHost } from './network-address.js';
export type { PathClass } from './path-class.js';
export {
  InvalidRuleError,
  PermissionRule,
  type PermissionRuleSpec,
  TOOL_ALIASES,
} from './permission-rule.js';
export {
  appendRule,
  isRuleInForce,
  type LoadedRules,
  loadPermissionRules,
  PermissionRulesError,
  permissionSectionSchema,
  type RuleSourceKind,
  type RuleSources,
  readPermissionRules,
  rulesInForce,
} from './permission-rules-file.js';
export type { DecisionStep, PolicyDecision, PolicyRequest, ToolQuestion } from './policy-decision.js';
export { isProjectRulesFile, ProtectedFiles } from './protected-files.js';
export { expandHome, realPathOf, resolveFileTarget } from './real-path.js';
export { RuleSet } from './rule-set.js';
export type { PolicySandbox } from './sandbox-exit.js';
export { type SensitiveHomes, secretNameReason, sensitiveReason } from './sensitive-files.js';
export {
  type PlanModeView,
  type PolicyModes,
  type SessionApprovalView,
  SessionPolicy,
  type SessionPolicyOptions,
} from './session-policy.js';
export { type ParsedCommand, parseShellCommand } from './shell-command.js';
