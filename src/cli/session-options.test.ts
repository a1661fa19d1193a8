import { describe, expect, it } from 'vitest';
import { agentSessionOptions, type SessionFlags } from './session-options.js';

const place = {
  home: '/home/u/.kimi-ts',
  env: {},
  workDir: '/projects/web-chosen',
  onWarning: () => {},
  cwd: '/projects/launch',
};

describe('agentSessionOptions', () => {
  it('carries every session flag into the session and its extensions', () => {
    const flags: SessionFlags = {
      configFile: 'c.toml',
      model: 'fast',
      agentFile: 'agent.yaml',
      yolo: true,
      afk: true,
      sandbox: true,
      plan: true,
      thinking: false,
      maxStepsPerTurn: 3,
      maxRetriesPerStep: 2,
      maxRalphIterations: -1,
      skillsDir: 'skills',
      addDir: ['../shared', '/abs/dir', '~/notes'],
      mcpConfigFile: ['mcp.json'],
      mcpConfig: ['{"mcpServers":{}}'],
    };
    const { session, extensions } = agentSessionOptions(flags, place);
    expect(session).toMatchObject({
      workDir: '/projects/web-chosen',
      configFile: 'c.toml',
      modelAlias: 'fast',
      agentFile: 'agent.yaml',
      yolo: true,
      afk: true,
      sandbox: true,
      thinking: false,
      maxStepsPerTurn: 3,
      maxRetriesPerStep: 2,
      maxRalphIterations: -1,
      skillsDir: '/projects/launch/skills',
      // Relative to where the command ran, not to the session's work dir; `~` waits for the home.
      addDirs: ['/projects/shared', '/abs/dir', '~/notes'],
    });
    expect(extensions).toEqual({
      home: place.home,
      plan: true,
      addDirs: ['/projects/shared', '/abs/dir', '~/notes'],
    });
  });

  it("adds a client's folders and MCP servers to the command line's, and -w moves where paths start", () => {
    const { session } = agentSessionOptions(
      { workDir: 'sub', addDir: ['x'], mcpConfig: ['{"a":1}'] },
      { ...place, addDirs: ['/client/dir'], mcpConfigs: ['{"b":2}'] },
    );
    expect(session.addDirs).toEqual(['/projects/launch/sub/x', '/client/dir']);
    expect(session.inlineMcpConfigs).toEqual(['{"a":1}', '{"b":2}']);
  });
});
