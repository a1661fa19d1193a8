import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { UILoop } from '../soul/run-soul.js';
import { type CreateAgentSessionOptions, createAgentSession } from './create-agent-session.js';
import { defaultExtensions } from './default-extensions.js';

let root: string;
let workDir: string;
let home: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'kimi-ts-session-modes-'));
  workDir = join(root, 'work');
  home = join(root, 'home');
  await mkdir(workDir);
  await mkdir(home);
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const config = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    default_model: 'm',
    providers: { p: { type: '_scripted_echo', env: { KIMI_TS_SCRIPTS: '[]' } } },
    models: { m: { provider: 'p', model: 'm', max_context_size: 100_000 } },
    ...extra,
  });

const open = (options: Partial<CreateAgentSessionOptions> = {}, extra: Record<string, unknown> = {}) =>
  createAgentSession({
    workDir,
    home,
    env: { HOME: root, PATH: process.env.PATH },
    inlineConfig: config(extra),
    extensions: defaultExtensions({ home, addDirs: [] }),
    ...options,
  });

const drain: UILoop = async (wire) => {
  for await (const _batch of wire.subscribe({ merge: false }).batches()) {
    // Nothing to show: the test reads the session's modes.
  }
};

describe('AgentSession.modes (what a status bar shows)', () => {
  it('has the sandbox on by default (where bubblewrap runs), the rest off; --sandbox off turns it off', async () => {
    const session = await open();
    try {
      expect(session.modes).toEqual({
        yolo: false,
        afk: false,
        sandbox: {
          state: 'on',
          mode: 'workspace-write',
          network: false,
          blocksUnixSockets: true,
          hideWorkspaceSecrets: true,
          scanWorkspaceTokens: true,
        },
      });
    } finally {
      await session.close();
    }
    const off = await open({ sandbox: 'off' });
    try {
      expect(off.modes).toEqual({ yolo: false, afk: false, sandbox: null });
    } finally {
      await off.close();
    }
  });

  it('says where the sandbox is wanted but cannot run (no bubblewrap on PATH), once', async () => {
    const warnings: string[] = [];
    const session = await open({
      env: { HOME: root, PATH: join(root, 'no-bwrap-here') },
      onWarning: (warning) => warnings.push(warning.kind === 'sandbox-unavailable' ? warning.message : ''),
    });
    try {
      expect(session.modes.sandbox).toEqual({
        state: 'unavailable',
        mode: 'workspace-write',
        network: false,
        blocksUnixSockets: false,
        hideWorkspaceSecrets: true,
        scanWorkspaceTokens: true,
      });
      expect(warnings.join('')).toContain('sudo apt-get install bubblewrap');
    } finally {
      await session.close();
    }
  });

  it('follows --yolo, default_yolo and the /yolo and /afk commands at once', async () => {
    const flagged = await open({ yolo: true });
    try {
      expect(flagged.modes.yolo).toBe(true);
      await flagged.runTurn('/yolo', drain, new AbortController().signal);
      expect(flagged.modes.yolo).toBe(false);
      await flagged.runTurn('/afk', drain, new AbortController().signal);
      expect(flagged.modes.afk).toBe(true);
    } finally {
      await flagged.close();
    }
    const configured = await open({}, { default_yolo: true });
    try {
      expect(configured.modes.yolo).toBe(true);
    } finally {
      await configured.close();
    }
  });

  it.runIf(process.platform === 'linux')('names the sandbox with --sandbox, or [sandbox] mode', async () => {
    const flagged = await open({ sandbox: true });
    try {
      expect(flagged.modes.sandbox).toMatchObject({ state: 'on', mode: 'workspace-write', network: false });
    } finally {
      await flagged.close();
    }
    const configured = await open({ sandbox: true }, { sandbox: { mode: 'read-only', network: true } });
    try {
      expect(configured.modes.sandbox).toMatchObject({ state: 'on', mode: 'read-only', network: true });
    } finally {
      await configured.close();
    }
  });
});
