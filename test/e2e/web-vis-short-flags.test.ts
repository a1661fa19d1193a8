import { describe, expect, test } from 'vitest';
import { collect } from '../support/run-cli.js';
import { useScriptedCli } from '../support/scripted-cli.js';
import { startVisCli } from '../support/vis-cli.js';
import { startWebServer } from '../support/web-server-client.js';

/**
 * Kimi CLI's short flags of `web` and `vis` through the built CLI: `-h` host, `-p` port, `-n`
 * network. The subcommand's help is `--help` only; the main command's `-h` is still its help, and
 * its `-p` (the prompt) before the subcommand is not taken for a port.
 */

const cli = useScriptedCli();

describe('kimi-ts web / vis: -h/--host, -n/--network, -p/--port', { timeout: 60_000 }, () => {
  test('web -h ADDR -p 0 binds that address; web --help lists the short flags', async () => {
    await cli.setup([]);
    const web = await startWebServer(cli.sandbox, ['-h', '127.0.0.2', '-p', '0']);
    cli.defer(() => web.stop());
    expect(web.base).toMatch(/^http:\/\/127\.0\.0\.2:\d+\/$/);
    expect(web.port).toBeGreaterThan(0);
    const listed = await web.api('/api/work-dirs');
    expect(listed.status).toBe(200);

    const help = await cli.sandbox.run(['web', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/-h, --host <address>/);
    expect(help.stdout).toMatch(/-p, --port <port>/);
    expect(help.stdout).toMatch(/-n, --network/);
    expect(help.stdout).toMatch(/--help\s+display help/);
    expect(help.stdout).not.toMatch(/-h, --help/);
  });

  test('web -n binds every address: another loopback address answers (it refuses without -n)', async () => {
    await cli.setup([]);
    const web = await startWebServer(cli.sandbox, ['-n', '-p', '0']);
    cli.defer(() => web.stop());
    // Bound to 0.0.0.0, 127.0.0.9 reaches the server (an HTTP answer of any status).
    const answered = await fetch(`http://127.0.0.9:${web.port}/api/work-dirs`).then((r) => r.status);
    expect(answered).toBeGreaterThanOrEqual(200);
    const loopbackOnly = await startWebServer(cli.sandbox, ['-p', '0']);
    cli.defer(() => loopbackOnly.stop());
    const refused = await fetch(`http://127.0.0.9:${loopbackOnly.port}/api/work-dirs`).then(
      () => 'answered',
      () => 'refused',
    );
    expect(refused).toBe('refused');
  });

  test('web -h without an address is an error, not the help', async () => {
    await cli.setup([]);
    const result = await cli.sandbox.run(['web', '-h']);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/argument missing|option '-h, --host <address>'/);
    expect(result.stdout).not.toContain('Usage: kimi-ts web');
  });

  test('vis -h ADDR -p 0 serves there; vis --help lists them', async () => {
    await cli.setup([]);
    const vis = await startVisCli(cli.sandbox, ['-h', '127.0.0.3', '-p', '0']);
    cli.defer(() => vis.stop());
    expect(vis.origin).toMatch(/^http:\/\/127\.0\.0\.3:\d+$/);
    const help = await cli.sandbox.run(['vis', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/-h, --host <host>/);
    expect(help.stdout).toMatch(/-p, --port <port>/);
    expect(help.stdout).toMatch(/-n, --network/);
  });

  test("the main command's -h is still its help, and its -p before `web` is not the port", async () => {
    await cli.setup([]);
    const help = await cli.sandbox.run(['-h']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: kimi-ts [options] [command]');
    // `-p web` is a prompt whose text is "web": print mode runs it (no subcommand at all).
    const printed = collect(cli.sandbox.spawn(['--print', '-p', 'web'], { input: '' }));
    const result = await printed;
    expect(result.stdout + result.stderr).not.toContain('serving on');
  });
});
