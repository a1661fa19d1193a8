export { SubagentInstanceStore, type SubagentRecord, type SubagentStatus } from './instance-store.js';
export { SessionSubagentRunner } from './subagent-runner.js';
export { loadSubagentTypes, type SubagentType } from './subagent-types.js';
export { subagentsExtension } from './subagents-extension.js';
