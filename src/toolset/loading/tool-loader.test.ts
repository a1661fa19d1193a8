import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Approval } from '../approval/approval.js';
import { KimiToolset } from '../kimi-toolset.js';
import { dispatchAll, toolCall } from '../test-support/dispatch.js';
import { testPolicy, withTestPolicy } from '../test-support/test-policy.js';
import { DEFAULT_BUILTIN_ROOT, resolveToolModule } from './module-resolution.js';
import { InvalidToolError, loadTools, ToolDependencyError } from './tool-loader.js';

let dir: string;
beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'kimi-ts-tool-loader-')));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function write(relative: string, text: string): Promise<string> {
  const path = join(dir, relative);
  await mkdir(join(path, '..'), { recursive: true });
  await writeFile(path, text);
  return path;
}

/** `${NAME}` written without tripping the linter's template-in-string check. */
const ph = (name: string): string => `\${${name}}`;

/** A user-written tool module: plain JS, no imports, everything from the injected kit. */
const GREETER = `
export const Greeter = {
  dependencies: ['workDir', 'descriptionVars'],
  async create({ workDir, descriptionVars }, { defineTool, z, toolOk, loadToolDescription }) {
    return defineTool({
      name: 'Greet',
      description: await loadToolDescription(new URL('./greet.md', import.meta.url), descriptionVars),
      params: z.object({ who: z.string().describe('Whom to greet') }),
      effect: 'read-only',
      call: ({ who }) => toolOk('Hello ' + who + ' from ' + workDir),
    });
  },
};
`;

describe('loading tools from "module:Export" specs', () => {
  it('loads a user-written .mjs tool by relative path, injects its dependencies and fills its description', async () => {
    await write('agent/tools/greeter.mjs', GREETER);
    await write(
      'agent/tools/greet.md',
      `Greets someone in ${ph('KIMI_WORK_DIR')}. Keeps ${ph('UNKNOWN')} as is.\n`,
    );
    const toolset = new KimiToolset({ policy: testPolicy({ workDir: process.cwd() }) });
    const loaded = await toolset.loadTools(
      ['./tools/greeter.mjs:Greeter'],
      { workDir: '/w', descriptionVars: { KIMI_WORK_DIR: '/w' } },
      { baseDir: join(dir, 'agent') },
    );
    expect(loaded.skipped).toEqual([]);
    expect(toolset.tools).toEqual([
      {
        name: 'Greet',
        description: `Greets someone in /w. Keeps ${ph('UNKNOWN')} as is.`,
        parameters: {
          type: 'object',
          properties: { who: { type: 'string', description: 'Whom to greet' } },
          required: ['who'],
        },
      },
    ]);
    const [result] = await dispatchAll(toolset, [toolCall('1', 'Greet', { who: 'Ann' })]);
    expect(result!.return_value.output).toBe('Hello Ann from /w');
  });

  it('a user-written tool asks approval without naming its call, as the tool interface always allowed', async () => {
    // A run context passed explicitly (run-scope.ts) is for kimi-ts's own tools; one written outside
    // runs inside the tool-call stores, so `approval.request(sender, action, description)` finds its call.
    await write(
      'agent/asker.mjs',
      `export const Asker = {
  dependencies: ['approval'],
  create({ approval }, { defineTool, z, toolOk }) {
    return defineTool({
      name: 'Ask',
      description: 'Asks, then answers.',
      params: z.object({}),
      effect: 'read-only',
      call: async () => {
        const answer = await approval.request('Ask', 'ask something', 'Ask something');
        return toolOk(answer.approved ? 'approved' : 'rejected');
      },
    });
  },
};`,
    );
    const approval = new Approval();
    approval.runtime.subscribe((event) => {
      if (event.type === 'request_created')
        queueMicrotask(() => approval.runtime.resolve(event.record.id, { response: 'approve' }));
    });
    const toolset = new KimiToolset({ policy: testPolicy({ workDir: process.cwd(), approval }), approval });
    await toolset.loadTools(['./asker.mjs:Asker'], { approval }, { baseDir: join(dir, 'agent') });
    const [result] = await dispatchAll(toolset, [toolCall('1', 'Ask', {})]);
    expect(result!.return_value).toMatchObject({ is_error: false, output: 'approved' });
  });

  it('resolves absolute paths, paths without extension, packages beside the agent, and kimi-ts/ modules', async () => {
    const absolute = await write('abs/tool.mjs', `export const Ready = ${readyTool('Abs')}`);
    await write('agent/local.mjs', `export default ${readyTool('Local')}`);
    await write(
      'agent/node_modules/acme-tools/package.json',
      JSON.stringify({ name: 'acme-tools', type: 'module', exports: './main.js' }),
    );
    await write('agent/node_modules/acme-tools/main.js', `export const Acme = ${readyTool('Acme')}`);
    await write('builtin/tools/pkg/index.mjs', `export const Builtin = ${readyTool('Builtin')}`);
    const { tools } = await loadTools(
      [`${absolute}:Ready`, './local:default', 'acme-tools:Acme', 'kimi-ts/tools/pkg:Builtin'],
      {},
      { baseDir: join(dir, 'agent'), builtinRoot: join(dir, 'builtin') },
    );
    expect(tools.map((t) => t.name)).toEqual(['Abs', 'Local', 'Acme', 'Builtin']);
  });

  it('maps kimi-ts/ to the folder the toolset itself lives in by default', () => {
    const url = resolveToolModule('kimi-ts/toolset/tool-definition.js', { baseDir: dir });
    expect(fileURLToPath(url)).toMatch(/[\\/]toolset[\\/]tool-definition\.(js|ts)$/);
    expect(fileURLToPath(url).startsWith(DEFAULT_BUILTIN_ROOT)).toBe(true);
  });

  it('skips a tool that declines with SkipThisTool, quietly', async () => {
    await write(
      'media.mjs',
      `export const Media = { dependencies: [], create(_deps, { SkipThisTool }) { throw new SkipThisTool('model has no image input'); } };`,
    );
    await write('ok.mjs', `export const Ok = ${readyTool('Ok')}`);
    const { tools, skipped } = await loadTools(['./media.mjs:Media', './ok.mjs:Ok'], {}, { baseDir: dir });
    expect(tools.map((t) => t.name)).toEqual(['Ok']);
    expect(skipped).toEqual([{ spec: './media.mjs:Media', reason: 'model has no image input' }]);
  });

  it('runs factories concurrently and keeps the tools in spec order', async () => {
    // Slow waits until Fast has been created: loaded one after the other, this would never settle.
    await write(
      'gate.mjs',
      `let open; export const opened = new Promise((resolve) => { open = resolve; }); export const openGate = () => open();`,
    );
    await write(
      'slow.mjs',
      `import { opened } from './gate.mjs';
       export const Slow = { dependencies: [], async create() { await opened; return ${readyTool('Slow')}; } };`,
    );
    await write(
      'fast.mjs',
      `import { openGate } from './gate.mjs';
       export const Fast = { dependencies: [], async create() { openGate(); return ${readyTool('Fast')}; } };`,
    );
    const { tools } = await loadTools(['./slow.mjs:Slow', './fast.mjs:Fast'], {}, { baseDir: dir });
    expect(tools.map((t) => t.name)).toEqual(['Slow', 'Fast']);
  });

  it('names the tool and the dependency when a dependency is unknown', async () => {
    await write(
      'needy.mjs',
      `export const Needy = { dependencies: ['approval', 'laborMarket'], create() { throw new Error('not reached'); } };`,
    );
    const error = await loadTools(
      ['./needy.mjs:Needy'],
      { approval: new Approval() },
      { baseDir: dir },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolDependencyError);
    expect((error as ToolDependencyError).message).toMatch(/\.\/needy\.mjs:Needy depends on "laborMarket"/);
    expect(error).toMatchObject({ spec: './needy.mjs:Needy', dependency: 'laborMarket' });
  });

  it('reports every bad spec at once', async () => {
    await write('broken.mjs', 'export const Broken = {;');
    await write('empty.mjs', 'export const Something = 1;');
    await write('ok.mjs', `export const Ok = ${readyTool('Ok')}`);
    const specs = [
      './missing.mjs:Tool',
      './broken.mjs:Broken',
      './empty.mjs:Tool',
      './empty.mjs:Something',
      './ok.mjs:Ok',
      'no-colon',
    ];
    const error = await loadTools(specs, {}, { baseDir: dir }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidToolError);
    const failures = (error as InvalidToolError).failures;
    expect(failures.map((f) => f.spec)).toEqual([
      './missing.mjs:Tool',
      './broken.mjs:Broken',
      './empty.mjs:Tool',
      './empty.mjs:Something',
      'no-colon',
    ]);
    expect(failures[0]!.reason).toMatch(/not found/);
    expect(failures[2]!.reason).toMatch(/no export named "Tool"/);
    expect(failures[3]!.reason).toMatch(/neither a tool nor a tool factory/);
    expect((error as Error).message).toContain('./broken.mjs:Broken');
  });

  it('rejects a factory that returns something that is not a tool, and duplicate names', async () => {
    await write('bad.mjs', `export const Bad = { dependencies: [], create() { return { name: 'Bad' }; } };`);
    await write('one.mjs', `export const A = ${readyTool('Same')}; export const B = ${readyTool('Same')}`);
    const error = await loadTools(
      ['./bad.mjs:Bad', './one.mjs:A', './one.mjs:B'],
      {},
      { baseDir: dir },
    ).catch((e: unknown) => e);
    expect((error as InvalidToolError).failures.map((f) => f.spec)).toEqual(['./bad.mjs:Bad', './one.mjs:B']);
  });

  it('gives tools the toolset and its approval', async () => {
    await write(
      'meta.mjs',
      `export const Meta = { dependencies: ['toolset', 'approval'], create({ toolset, approval }, { defineTool, z, toolOk }) {
        return defineTool({ name: 'Meta', description: '', params: z.object({}), effect: 'read-only',
          call: () => toolOk(toolset.allTools.map((t) => t.name).join(',') + ' ' + typeof approval.request) });
      } };`,
    );
    const toolset = new KimiToolset(withTestPolicy({ approval: new Approval() }));
    await toolset.loadTools(['./meta.mjs:Meta'], {}, { baseDir: dir });
    const [result] = await dispatchAll(toolset, [toolCall('1', 'Meta', {})]);
    expect(result!.return_value.output).toBe('Meta function');
  });
});

/** A finished tool written as a plain object (no zod): JSON Schema parameters and its own parse. */
function readyTool(name: string): string {
  return `{ name: ${JSON.stringify(name)}, description: '', parameters: { type: 'object' }, effect: 'read-only',
    parse: (args) => ({ ok: true, params: args }),
    call: () => ({ is_error: false, output: ${JSON.stringify(name)}, message: '', display: [] }) }`;
}
