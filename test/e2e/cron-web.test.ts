import { describe, expect, it } from 'vitest';
import { useBrowser } from '../support/browser.js';
import { useScriptedCli } from '../support/scripted-cli.js';
import { startWebFor } from '../support/web-server-client.js';

const cli = useScriptedCli();
const browser = useBrowser();

// A real browser and a CLI: generous on a loaded machine.
describe('kimi-ts web: a scheduled prompt', { timeout: 60_000 }, () => {
  it('fires as a turn of its own, marked as from a schedule, with its prompt as text', async () => {
    await cli.setup([
      {
        toolCalls: [
          {
            id: 'sched',
            name: 'CronCreate',
            args: { delay_seconds: 1, prompt: 'check <b>the</b> deploy', recurring: false },
          },
        ],
      },
      { text: 'Scheduled it.' },
      { text: 'The deploy looks healthy.' },
    ]);
    const web = await startWebFor(cli);
    const watched = await browser.newPage();
    cli.defer(() => watched.context.close());
    const { page } = watched;
    await page.goto(`${web.base}#token=${web.token}`);
    await page.locator('.status-bar .conn.open').waitFor({ timeout: 20_000 });
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('remind me in a second');
    await box.press('Enter');
    // CronCreate asks first: a schedule outlives the turn that made it.
    const panel = page.locator('.panel.approval[data-armed="true"]');
    await panel.waitFor();
    expect(await panel.textContent()).toContain('Schedule a prompt once in 1s: check <b>the</b> deploy');
    await page.keyboard.press('1');

    await page.getByText('The deploy looks healthy.').waitFor();
    const turn = page.locator('.turn', { hasText: 'The deploy looks healthy.' });
    expect(await turn.locator('.schedule').textContent()).toMatch(
      /⏰ scheduled prompt [0-9a-f]{8} \(once, made by the model\)/,
    );
    expect(await turn.locator('.user').textContent()).toBe('check <b>the</b> deploy');
    expect(await page.locator('.turn .user b').count()).toBe(0);
    expect(watched.errors).toEqual([]);
  });
});
