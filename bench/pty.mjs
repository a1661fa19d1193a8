// The terminal UI benchmarks' command lines, run in a pseudo-terminal with util-linux `script`.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

const quote = (s) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * `argv` in a 120×40 pseudo-terminal (xterm-256color), `env` over this process's: write keys to its
 * stdin, read the screen's bytes from its stdout. The child is `script`; the command runs under it.
 */
export function spawnInPty(argv, env) {
  const child = spawn('script', ['-qfec', argv.map(quote).join(' '), '/dev/null'], {
    env: { ...process.env, ...env, TERM: 'xterm-256color', COLUMNS: '120', LINES: '40' },
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  child.stdout.setEncoding('utf8');
  return child;
}

/**
 * The built CLI's terminal UI on `workDir`, with a config written in `dir` whose one model is served
 * at `baseUrl` (Chat Completions).
 */
export function tuiCliArgv(dir, baseUrl, workDir) {
  const config = join(dir, 'config.toml');
  writeFileSync(
    config,
    `default_model = "m"\n[providers.p]\ntype = "openai_legacy"\nbase_url = "${baseUrl}"\napi_key = "k"\n[models.m]\nprovider = "p"\nmodel = "m"\nmax_context_size = 100000\n`,
  );
  return [
    process.execPath,
    join(root, 'dist/bin/kimi-ts.cjs'),
    '--ui',
    'tui',
    '--config-file',
    config,
    '-w',
    workDir,
  ];
}
