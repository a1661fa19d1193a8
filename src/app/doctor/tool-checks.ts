import { execFile } from 'node:child_process';
import { homedir } from 'node:os';
import { createCommandSandbox } from '../../policy/sandbox.js';
import { findRipgrep } from '../../tools/file/search/find-ripgrep.js';
import { trustedPathEntries } from '../../util/path-entries.js';
import { check, type DoctorCheck } from './doctor-check.js';

const PROBE_TIMEOUT_MS = 10_000;

/** The Node versions package.json's `engines` names. */
export function checkNode(version = process.version): DoctorCheck {
  const [major = 0, minor = 0] = version.replace(/^v/, '').split('.').map(Number);
  const supported = (major === 20 && minor >= 11) || major === 22 || major === 24;
  return check(
    'node',
    supported ? 'ok' : 'fail',
    `${version} (${supported ? 'supported' : 'not supported'}: 20.11+, 22 or 24)`,
  );
}

export function checkRipgrep(path: string | undefined): DoctorCheck {
  const rg = findRipgrep(path);
  return rg
    ? check('ripgrep', 'ok', `${rg} (Grep and Glob use it)`, false)
    : check(
        'ripgrep',
        'warn',
        'rg not found on PATH: Grep and Glob fall back to a slower built-in search',
        false,
      );
}

export async function checkGit(env: NodeJS.ProcessEnv, signal?: AbortSignal): Promise<DoctorCheck> {
  // PATH's absolute entries only, as every git kimi-ts runs: doctor runs where the person stands, often
  // a stranger's repository, and a `.` on PATH ran the repository's own `git` there.
  const run = await runQuietly('git', ['--version'], { ...env, PATH: trustedPathEntries(env.PATH) }, signal);
  return run.ok
    ? check('git', 'ok', run.stdout.trim(), false)
    : check('git', 'warn', `git cannot run (${run.problem}): file checkpoints and /rewind need it`, false);
}

/**
 * bubblewrap found, and a real `bwrap … true` with the sandbox's own arguments run: a kernel without
 * user namespaces has bwrap installed and still cannot sandbox. Essential only when the config
 * asks for the sandbox.
 */
export async function checkSandbox(options: {
  env: NodeJS.ProcessEnv;
  workDir: string;
  home: string;
  wanted: boolean;
  signal?: AbortSignal | undefined;
}): Promise<DoctorCheck> {
  const { env, workDir, home, wanted } = options;
  const name = 'bubblewrap sandbox';
  const state = createCommandSandbox(
    { mode: 'workspace-write', network: false },
    { workDir, additionalDirs: () => [], userHome: env.HOME || homedir(), kimiHome: home, path: env.PATH },
  );
  if (state.kind === 'unavailable')
    return check(name, wanted ? 'fail' : 'warn', `${state.problem} ${state.fix}`, wanted);
  if (state.kind === 'off') return check(name, 'warn', 'no sandbox command', wanted);
  let run: Awaited<ReturnType<typeof runQuietly>>;
  try {
    const [shell, ...args] = await state.sandbox.prefix(workDir);
    run = shell
      ? await runQuietly(shell, [...args, 'true'], env, options.signal)
      : { ok: false, problem: 'no sandbox command' };
  } finally {
    // The probe's own placeholder (the empty `.kimi-ts` the sandbox makes) goes again after it.
    await state.sandbox.commandEnded();
    state.sandbox.dispose();
  }
  return run.ok
    ? check(name, 'ok', 'bwrap ran a sandboxed command (the sandbox works here)', wanted)
    : check(
        name,
        wanted ? 'fail' : 'warn',
        `bwrap is installed but cannot sandbox here: ${run.problem}`,
        wanted,
      );
}

async function runQuietly(
  file: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  signal?: AbortSignal,
): Promise<{ ok: true; stdout: string } | { ok: false; problem: string }> {
  return new Promise((resolve) => {
    execFile(
      file,
      args,
      { env, timeout: PROBE_TIMEOUT_MS, signal, encoding: 'utf8' },
      (error, stdout, stderr) => {
        if (!error) return resolve({ ok: true, stdout });
        const code = (error as NodeJS.ErrnoException).code;
        const said = stderr.trim().split('\n').at(-1);
        resolve({ ok: false, problem: said || (typeof code === 'string' ? code : error.message) });
      },
    );
  });
}
