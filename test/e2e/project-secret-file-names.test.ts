import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { expect, it } from 'vitest';
import { useScriptedCli } from '../support/scripted-cli.js';

/**
 * Issue #24, "secrets by name and content" (red team red3): a workspace file is secret by a list of
 * names (src/policy/secret-file-names.ts) or a known token format. Common secret files of projects
 * with opaque values (Streamlit's and Rails' secrets, an Ansible vault password file, a kubeconfig)
 * are in neither: ReadFile in print mode hands them to the model.
 */

const cli = useScriptedCli();

const FILES: Record<string, string> = {
  '.streamlit/secrets.toml': 'db_password = "streamlit-secret-value-0001"',
  'config/secrets.yml': 'production:\n  secret_key_base: rails-secret-value-0002',
  '.vault_pass': 'ansible-secret-value-0003',
  'deploy/kubeconfig': 'users:\n- name: ci\n  user:\n    token: kube-secret-value-0004',
  'secrets.json': '{"stripe":"json-secret-value-0005"}',
};

it('ReadFile in print mode does not hand over common secret files of a project', async () => {
  const { server, sandbox } = await cli.setup([]);
  for (const [name, content] of Object.entries(FILES)) {
    await mkdir(dirname(join(sandbox.workDir, name)), { recursive: true });
    await writeFile(join(sandbox.workDir, name), `${content}\n`);
  }
  server.push(
    {
      toolCalls: Object.keys(FILES).map((path, i) => ({ id: `r${i}`, name: 'ReadFile', args: { path } })),
    },
    { text: 'done' },
  );
  const result = await sandbox.run(['--print', '--output-format', 'stream-json', '-p', 'look around']);
  expect(result.code).toBe(0);
  const { messages } = server.requests[1]!.body as { messages: { role: string; content: unknown }[] };
  const sent = JSON.stringify(messages.filter((m) => m.role === 'tool'));
  const leaked = Object.keys(FILES).filter((name) =>
    sent.includes(FILES[name]!.match(/[a-z]+-secret-value-\d+/)![0]),
  );
  expect(leaked).toEqual([]);
});
