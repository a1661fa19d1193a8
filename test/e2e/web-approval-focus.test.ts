import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Page, WebSocket } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { deferred } from '../../src/util/deferred.js';
import { useBrowser, type WatchedPage } from '../support/browser.js';
import { useScriptedCli } from '../support/scripted-cli.js';
import type { ScriptedTurn } from '../support/scripted-llm-server.js';
import { startWebFor, type WebServerProcess } from '../support/web-server-client.js';

/**
 * Issue 24 on the web page: an approval is answered only by a key or click made for it after it was
 * shown and focused. It must not take the focus from a field the person is typing in (their next
 * space pressed "Approve once"), and keys typed in flight never answer it.
 */

const cli = useScriptedCli();
const browser = useBrowser();

interface OpenPage extends WatchedPage {
  /** The page's session stream (its WebSocket) last opened. */
  stream(): WebSocket;
}

async function openPage(web: WebServerProcess, options: { clock?: boolean } = {}): Promise<OpenPage> {
  const watched = await browser.newPage();
  cli.defer(() => watched.context.close());
  let stream: WebSocket | null = null;
  watched.page.on('websocket', (socket) => {
    if (socket.url().includes('/stream')) stream = socket;
  });
  // The page's timers (its render batching, a panel's first focus and its arming) on a clock the
  // test can stop: installed before the page loads, it runs as the real one until paused.
  if (options.clock) await watched.page.clock.install();
  await watched.page.goto(`${web.base}#token=${web.token}`);
  await watched.page.locator('.status-bar .conn.open').waitFor({ timeout: 20_000 });
  return {
    ...watched,
    stream() {
      if (stream === null) throw new Error('the page opened no session stream');
      return stream;
    },
  };
}

/**
 * Moves the page's stopped clock a millisecond at a time until `done`: the first moment of the
 * page's time that the state is reached, before any timer of a later moment runs.
 */
async function stepClockUntil(page: Page, done: () => Promise<boolean>): Promise<void> {
  for (let ms = 0; ms < 1_000; ms++) {
    if (await done()) return;
    await page.clock.runFor(1);
  }
  throw new Error('not reached in 1 s of the page’s time');
}

/** A turn that asks a question once `hold` settles, started from the page; the turn is running. */
async function startHeldQuestion(
  hold: Promise<void>,
  options: { clock?: boolean } = {},
): Promise<{ web: WebServerProcess; page: Page; stream(): WebSocket }> {
  const questions = [
    {
      question: 'Which branch?',
      header: 'Branch',
      multiSelect: false,
      options: [
        { label: 'main', description: '' },
        { label: 'dev', description: '' },
      ],
    },
  ];
  await cli.setup([
    {
      text: 'working on it… ',
      toolCalls: [{ id: 'q1', name: 'AskUserQuestion', args: { questions } }],
      holdBeforeToolCalls: hold,
    },
    { text: 'Thanks.' },
  ]);
  const web = await startWebFor(cli);
  const { page, stream } = await openPage(web, options);
  const message = page.getByRole('textbox', { name: 'Message' });
  await message.fill('start');
  await message.press('Enter');
  await page.getByText('working on it…').waitFor();
  return { web, page, stream };
}

const heldTouch = (file: string, hold: Promise<void>): ScriptedTurn => ({
  text: 'working on it… ',
  toolCalls: [{ id: 't1', name: 'Shell', args: { command: `touch ${file}` } }],
  // Not holdUntil: the tool call would run (and its approval appear) while the stream is held, and
  // take the focus from an empty steer box before the test typed in it.
  holdBeforeToolCalls: hold,
});

describe('kimi-ts web: typing never answers an approval', { timeout: 60_000 }, () => {
  it('typing in the steer box as the approval appears: the focus and every space stay there', async () => {
    const release = deferred();
    await cli.setup([heldTouch('typed.txt', release.promise), { text: 'All done.' }]);
    const web = await startWebFor(cli);
    const { page } = await openPage(web);
    const message = page.getByRole('textbox', { name: 'Message' });
    await message.fill('start');
    await message.press('Enter');
    await page.getByText('working on it…').waitFor();
    const steer = page.getByRole('textbox', { name: 'Steer the running turn' });
    // Focus by the element, not a click at its position: under load the footer may still move
    // between Playwright's hit check and its click, which left the focus on the page's body.
    await steer.focus();
    await expect
      .poll(() => steer.evaluate((el) => el === el.ownerDocument.activeElement), {
        message: 'steer box focused',
      })
      .toBe(true);
    await page.keyboard.type('please also ');
    // Where the keys went, if not there (a loaded machine once showed an empty box here).
    const focused = await page.evaluate(
      "document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.tagName",
    );
    expect({ value: await steer.inputValue(), focused }).toEqual({
      value: 'please also ',
      focused: 'Steer the running turn',
    });
    release.resolve();
    await page.locator('.panel.approval').waitFor();
    await page.keyboard.type('update the readme ');
    await page.locator('.panel.approval[data-armed="true"]').waitFor();
    // Well after the panel is armed: spaces and an Enter-free sentence, typed where the person types.
    await page.keyboard.type('and the changelog too ');
    // The panel never took the focus: what was typed stayed in the steer box, spaces included.
    expect(
      await page.evaluate("document.activeElement?.closest('.approval') === null"),
      'focus outside the approval',
    ).toBe(true);
    expect(await steer.inputValue()).toMatch(/(^|please also update the readme )and the changelog too $/);
    expect(existsSync(join(cli.sandbox.workDir, 'typed.txt'))).toBe(false);
    await page.getByText('click a choice to answer').waitFor();
    // A click made for the panel answers it.
    await page.getByRole('button', { name: 'Approve once' }).click();
    await page.getByText('All done.').waitFor();
    expect(existsSync(join(cli.sandbox.workDir, 'typed.txt')), 'the approved command ran').toBe(true);
    await web.stop();
  });

  it('keys typed in flight after the panel took the focus (spaces, Enter) do not answer it', async () => {
    const release = deferred();
    await cli.setup([heldTouch('in-flight.txt', release.promise)]);
    const web = await startWebFor(cli);
    const { page } = await openPage(web);
    const message = page.getByRole('textbox', { name: 'Message' });
    await message.fill('start');
    await message.press('Enter');
    await page.getByText('working on it…').waitFor();
    release.resolve();
    await page.locator('.panel.approval').waitFor();
    // The composer was empty: the panel takes the focus (in an effect, a frame after it is drawn: a
    // check made as it is drawn once found the focus still in the composer); what the person goes
    // on typing lands there.
    await page.locator('.panel.approval :focus').waitFor();
    await page.keyboard.type('so then we go on with the next part of it ', { delay: 40 });
    await page.keyboard.press('Enter');
    await page.keyboard.press(' ');
    expect(existsSync(join(cli.sandbox.workDir, 'in-flight.txt'))).toBe(false);
    expect(await page.locator('.panel.approval').count()).toBe(1);
    await page.locator('.panel.approval[data-armed="true"]').waitFor();
    await page.getByRole('button', { name: / Reject$/ }).click();
    // A rejection ends the turn: the panel goes, the command never ran.
    await page.locator('.panel.approval').waitFor({ state: 'detached' });
    expect(existsSync(join(cli.sandbox.workDir, 'in-flight.txt'))).toBe(false);
    await web.stop();
  });

  it('a question or a trust panel that appears while the person types leaves the focus and the keys in the steer box', async () => {
    const release = deferred();
    const { web, page } = await startHeldQuestion(release.promise);
    const steer = page.getByRole('textbox', { name: 'Steer the running turn' });
    await steer.focus();
    await page.keyboard.type('please also ');
    release.resolve();
    await page.locator('.panel.question').waitFor();
    await page.keyboard.type('look at the tests ');
    expect(
      await page.evaluate("document.activeElement?.closest('.question') === null"),
      'focus outside the question',
    ).toBe(true);
    expect(await steer.inputValue()).toMatch(/look at the tests $/);
    // Nothing typed reached the question: it is still open, its own field empty.
    expect(await page.locator('.panel.question').count()).toBe(1);
    await page.locator('.panel.question').getByLabel('dev').check();
    await page.locator('.panel.question[data-armed="true"]').waitFor();
    await page.locator('.panel.question').getByRole('button', { name: 'Answer' }).click();
    await page.getByText('Thanks.').waitFor();
    await web.stop();
  });

  it('keys typed in flight after the question took the focus (spaces, Enter) neither pick nor send', async () => {
    const release = deferred();
    const { web, page } = await startHeldQuestion(release.promise);
    release.resolve();
    const panel = page.locator('.panel.question');
    // The composer was empty: the panel takes the focus (its first option); the person types on.
    await panel.locator(':focus').waitFor();
    await page.keyboard.type('so then we go on with the next part of it ', { delay: 40 });
    await page.keyboard.press('Enter');
    // A Space would have checked the focused option, and the Enter sent it: neither happened.
    expect(await panel.count()).toBe(1);
    expect(await panel.locator('input:checked').count()).toBe(0);
    await page.locator('.panel.question[data-armed="true"]').waitFor();
    // A choice made for it, with the pointer, answers it.
    await panel.getByLabel('dev').check();
    await panel.getByRole('button', { name: 'Answer' }).click();
    await page.getByText('Thanks.').waitFor();
    // One answer reached the model: the option clicked, not the one a typed space would have checked.
    expect(cli.server.requests).toHaveLength(2);
    const answered = cli.server.requests[1]?.body as { messages: { role: string; content: unknown }[] };
    const results = answered.messages.filter((m) => m.role === 'tool').map((m) => JSON.stringify(m.content));
    expect(results).toHaveLength(1);
    expect(results[0]).toContain('dev');
    expect(results[0]).not.toContain('main');
    await web.stop();
  });

  it('an Enter pressed as a question appears (the composer was empty) does not send the question', async () => {
    const release = deferred();
    const { web, page, stream } = await startHeldQuestion(release.promise, { clock: true });
    // The page's time stops: each Enter below lands where it is meant to, however slow the machine
    // (on the real clock a check made as the panel was drawn once ran before the panel took the
    // focus, and an Enter 300 ms late would be one made for the panel).
    await page.clock.pauseAt(Date.now() + 60_000);
    const arrived = stream().waitForEvent('framereceived', {
      predicate: (frame) => String(frame.payload).includes('Which branch?'),
    });
    release.resolve();
    await arrived;
    const panel = page.locator('.panel.question');
    await stepClockUntil(page, async () => (await panel.count()) === 1);
    // Drawn, not yet focused (its first focus runs a frame later): an Enter now lands in the empty
    // steer box, which sends nothing, and answers nothing.
    const steer = page.getByRole('textbox', { name: 'Steer the running turn' });
    expect(
      await steer.evaluate((el) => ({
        focused: el === el.ownerDocument.activeElement,
        value: (el as { value?: string }).value,
      })),
      'the focus as the question is drawn',
    ).toEqual({ focused: true, value: '' });
    await page.keyboard.press('Enter');
    expect(await panel.count()).toBe(1);
    await stepClockUntil(page, async () => (await panel.locator(':focus').count()) === 1);
    // The panel took the focus (nothing was being typed); an Enter at once is one typed in flight.
    await page.keyboard.press('Enter');
    expect(await panel.count()).toBe(1);
    await page.clock.resume();
    await page.locator('.panel.question[data-armed="true"]').waitFor();
    expect(await panel.count()).toBe(1);
    expect(cli.server.requests).toHaveLength(1);
    await panel.getByLabel('main').check();
    await panel.getByRole('button', { name: 'Answer' }).click();
    await page.getByText('Thanks.').waitFor();
    await web.stop();
  });
});
