// Records what the built CLI prints for `--version` and `--help` in dist/bin/quick-answers.json, so
// the launcher (src/bin/kimi-ts.cts) can answer those two without loading the bundle. Runs after
// bundle.mjs; the old record is removed first, so the answers come from commander itself.
import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const bin = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'bin');
const file = join(bin, 'quick-answers.json');
rmSync(file, { force: true });
const answer = (flag) =>
  execFileSync(process.execPath, [join(bin, 'kimi-ts.cjs'), flag], {
    encoding: 'utf8',
    env: { ...process.env, KIMI_TS_NO_CODE_CACHE: '1' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
writeFileSync(file, `${JSON.stringify({ version: answer('--version'), help: answer('--help') })}\n`);
