// The start of a print run loads no Node built-in it does not use before its first model request:
// node:child_process (and node:dgram behind it) is required at the first spawn, not with the CLI,
// whose commander and tools would load it at once; node:net's BlockList at the first address to
// classify; node:zlib at the first gzip-compressed tar the sandbox's secret walk lists, not with the
// sandbox. A preload in the CLI's own process writes the built-ins loaded when its first socket
// connects (the model request: nothing else connects first).
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { useScriptedCli } from '../support/scripted-cli.js';

const cli = useScriptedCli();

/** A `node --require` file that writes `process.moduleLoadList` to `out` when the first socket connects. */
function moduleListAtFirstConnect(out: string): string {
  return `const net = require('node:net');
const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function (...args) {
  net.Socket.prototype.connect = connect;
  require('node:fs').writeFileSync(${JSON.stringify(out)}, process.moduleLoadList.join('\\n'));
  return connect.apply(this, args);
};
`;
}

it('print mode sends its first model request before it loads node:child_process; the Shell still runs', async () => {
  const { sandbox } = await cli.setup([
    { text: 'Hello.' },
    { toolCalls: [{ id: 's1', name: 'Shell', args: { command: 'echo ran > out.txt' } }] },
    { text: 'Done.' },
  ]);
  const preload = join(sandbox.root, 'first-connect.cjs');
  const loaded = join(sandbox.root, 'loaded-at-first-connect.txt');
  await writeFile(preload, moduleListAtFirstConnect(loaded));

  // A first run in this agent home tries the sandbox once (a bwrap spawn) and keeps the verdict.
  expect((await sandbox.run(['--print', '-p', 'hi'])).code).toBe(0);

  const result = await sandbox.run(['--yolo', '--print', '-p', 'write out.txt'], {
    env: { NODE_OPTIONS: `--require ${preload}` },
  });

  expect(result.code, result.stderr).toBe(0);
  const modules = (await readFile(loaded, 'utf8')).split('\n');
  // The preload saw the request (the CLI's modules are loaded by then) ...
  expect(modules).toContain('NativeModule vm');
  // ... and no child_process, nor the dgram it brings.
  expect(modules).not.toContain('NativeModule child_process');
  expect(modules).not.toContain('NativeModule dgram');
  // Nor node:net's BlockList (the policy's address ranges are made at the first address to classify).
  expect(modules).not.toContain('NativeModule internal/blocklist');
  // Nor node:zlib (the secret walk's gzip listing; src/policy/archive-secret-members.ts).
  expect(modules).not.toContain('NativeModule zlib');
  // The first spawn loaded it after all.
  expect(await readFile(join(sandbox.workDir, 'out.txt'), 'utf8')).toBe('ran\n');
});
