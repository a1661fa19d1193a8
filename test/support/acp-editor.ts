import type { ChildProcess } from 'node:child_process';
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';
import { expect } from 'vitest';
import type { CliSandbox } from './run-cli.js';

export interface Editor {
  child: ChildProcess;
  updates: acp.SessionUpdate[];
  permissions: acp.RequestPermissionRequest[];
  /** Resolves with the first update that matches, whenever it arrives. */
  nextUpdate(match: (update: acp.SessionUpdate) => boolean): Promise<acp.SessionUpdate>;
  /** Resolves with the first permission request, whenever it arrives. */
  firstPermission(): Promise<acp.RequestPermissionRequest>;
}

export interface EditorOptions {
  sandbox: CliSandbox;
  /** The option picked for each permission request (default `approve`). */
  answer?: string;
  extraArgs?: string[];
  /** What the editor says it can do in `initialize`. */
  clientCapabilities?: acp.ClientCapabilities;
  /** Registers more client-side handlers (terminals, files) on the editor. */
  handlers?: (client: acp.ClientApp) => acp.ClientApp;
}

/**
 * Starts `kimi-ts acp` and connects an ACP client (the official SDK) to its stdio; `answer` picks
 * the option for each permission request. Runs `op`, then closes the connection and waits for exit.
 */
export async function runEditor<T>(
  options: EditorOptions,
  op: (ctx: acp.ClientContext, editor: Editor) => Promise<T>,
): Promise<{ result: T; exitCode: number | null }> {
  const box = options.sandbox;
  const child = box.spawn(['acp', '--config-file', box.configFile, ...(options.extraArgs ?? [])], {
    bare: true,
  });
  // stdout belongs to the ACP stream; only the exit is awaited here.
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const updates: acp.SessionUpdate[] = [];
  const permissions: acp.RequestPermissionRequest[] = [];
  const waiters: { match: (u: acp.SessionUpdate) => boolean; resolve: (u: acp.SessionUpdate) => void }[] = [];
  let permissionArrived: (request: acp.RequestPermissionRequest) => void = () => {};
  const firstPermission = new Promise<acp.RequestPermissionRequest>((resolve) => {
    permissionArrived = resolve;
  });
  const editor: Editor = {
    child,
    updates,
    permissions,
    nextUpdate: (match) =>
      new Promise((resolve) => {
        const seen = updates.find(match);
        if (seen) resolve(seen);
        else waiters.push({ match, resolve });
      }),
    firstPermission: () => firstPermission,
  };
  const base = acp
    .client({ name: 'test-editor' })
    .onNotification(acp.methods.client.session.update, ({ params }) => {
      updates.push(params.update);
      for (const waiter of [...waiters]) {
        if (waiter.match(params.update)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(params.update);
        }
      }
    })
    .onRequest(acp.methods.client.session.requestPermission, ({ params }) => {
      permissions.push(params);
      permissionArrived(params);
      return { outcome: { outcome: 'selected', optionId: options.answer ?? 'approve' } };
    });
  const client = options.handlers ? options.handlers(base) : base;
  const stream = acp.ndJsonStream(
    Writable.toWeb(child.stdin!) as WritableStream<Uint8Array>,
    Readable.toWeb(child.stdout!) as ReadableStream<Uint8Array>,
  );
  const result = await client.connectWith(stream, async (ctx) => {
    const init = await ctx.request(acp.methods.agent.initialize, {
      protocolVersion: acp.PROTOCOL_VERSION,
      ...(options.clientCapabilities ? { clientCapabilities: options.clientCapabilities } : {}),
    });
    expect(init.agentCapabilities?.loadSession).toBe(true);
    return op(ctx, editor);
  });
  child.stdin!.end();
  return { result, exitCode: await exited };
}
