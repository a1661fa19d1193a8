import { describe, expect, it } from 'vitest';
import type { ToolDependencyTable } from '../toolset/loading/dependencies.js';
import type { LLMNotification } from '../wire/llm-notification.js';
import { setUpExtensions } from './contributions.js';
import { defineExtension, type Extension, type SessionServices } from './extension.js';
import { ShutdownList } from './shutdown-list.js';

/** Services with recognisable stand-ins; an extension sees only the ones it names. */
function servicesWith(rootDeps: ToolDependencyTable): SessionServices {
  return { home: '/home/kimi', env: { A: '1' }, rootDeps } as unknown as SessionServices;
}

const note = (text: string): LLMNotification => ({ type: 'note', text, hookFields: {} });

describe('setUpExtensions', () => {
  it('hands each extension only the services it names', async () => {
    const seen: string[][] = [];
    const extension = defineExtension({
      name: 'home-only',
      uses: ['home'],
      async setup(services) {
        seen.push(Object.keys(services));
        expect(services.home).toBe('/home/kimi');
        return {};
      },
    });
    await setUpExtensions([extension], servicesWith({}), {}, new ShutdownList());
    expect(seen).toEqual([['home']]);
  });

  it("puts each extension's tool dependencies in the root table, seen by the later ones", async () => {
    const deps: ToolDependencyTable = { workDir: '/w' };
    let seenByLater: unknown;
    const first = defineExtension({
      name: 'first',
      uses: [],
      async setup() {
        return { deps: { processEnv: { X: 'y' } } };
      },
    });
    const later = defineExtension({
      name: 'later',
      uses: ['rootDeps'],
      async setup({ rootDeps }) {
        seenByLater = rootDeps.processEnv;
        return {};
      },
    });
    await setUpExtensions([first, later], servicesWith(deps), deps, new ShutdownList());
    expect(seenByLater).toEqual({ X: 'y' });
    expect(deps).toEqual({ workDir: '/w', processEnv: { X: 'y' } });
  });

  it('closes what earlier extensions opened when a later one fails, last opened first', async () => {
    const closed: string[] = [];
    const opening = (name: string): Extension =>
      defineExtension({
        name,
        uses: [],
        async setup() {
          return {
            close: async () => {
              closed.push(name);
            },
          };
        },
      });
    const failing = defineExtension({
      name: 'failing',
      uses: [],
      async setup(): Promise<never> {
        throw new Error('cannot start');
      },
    });
    const shutdown = new ShutdownList();
    await expect(
      setUpExtensions([opening('a'), opening('b'), failing], servicesWith({}), {}, shutdown),
    ).rejects.toThrow('cannot start');
    await shutdown.runAll();
    await shutdown.runAll();
    expect(closed).toEqual(['b', 'a']);
  });

  it('combines notifications, waits, commands and after-load work in the order of the extensions', async () => {
    const order: string[] = [];
    const part = (name: string, notes: string[]): Extension =>
      defineExtension({
        name,
        uses: [],
        async setup() {
          return {
            llmNotifications: { claimForLLM: async (max) => notes.slice(0, max).map(note) },
            beforeFirstStep: async () => {
              order.push(`wait ${name}`);
            },
            afterToolsLoaded: async () => {
              order.push(`loaded ${name}`);
            },
            slashCommands: [{ name, description: '', aliases: [], run: async () => {} }],
          };
        },
      });
    const combined = await setUpExtensions(
      [part('a', ['a1', 'a2']), part('b', ['b1'])],
      servicesWith({}),
      {},
      new ShutdownList(),
    );
    const claimed = await combined.llmNotifications.claimForLLM(3, new AbortController().signal);
    expect(claimed.map((n) => n.text)).toEqual(['a1', 'a2', 'b1']);
    const limited = await combined.llmNotifications.claimForLLM(1, new AbortController().signal);
    expect(limited.map((n) => n.text)).toEqual(['a1']);
    await combined.beforeFirstStep(new AbortController().signal, { wire: null, approvalSource: undefined });
    await combined.afterToolsLoaded();
    expect(order).toEqual(['wait a', 'wait b', 'loaded a', 'loaded b']);
    expect(combined.slashCommands.map((c) => c.name)).toEqual(['a', 'b']);
    expect(combined.wireNotifications).toBeUndefined();
    expect(combined.planMode).toBeUndefined();
  });
});
