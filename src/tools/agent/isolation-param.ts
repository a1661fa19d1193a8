import { z } from 'zod';

/** The `isolation` parameter of Agent and AgentSwarm. */
export const isolationParam = z
  .enum(['none', 'worktree'])
  .default('none')
  .describe(
    'none: work in the current work dir. worktree: a git worktree of its own from HEAD; its changes are committed on a kimi-ts/... branch (not merged).',
  );
