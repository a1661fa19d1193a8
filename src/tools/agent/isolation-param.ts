import { z } from 'zod';

/**
 * The `isolation` parameter of Agent and AgentSwarm, built when their parameters are (on first use:
 * a start builds neither).
 */
export const isolationParam = () =>
  z
    .enum(['none', 'worktree'])
    .default('none')
    .describe(
      'none: work in the current work dir. worktree: a git worktree of its own from HEAD; its changes are committed on a kimi-ts/... branch (not merged).',
    );
