import { setTimeout as delay } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { useBrowser } from '../support/browser.js';
import { collect, waitForOutput } from '../support/run-cli.js';
import { useScriptedCli } from '../support/scripted-cli.js';
import { startVisCli } from '../support/vis-cli.js';

/**
 * What a first look at `kimi-ts vis` tripped on (issue 27): ids without titles in the picker, a
 * "time by kind" that did not add up, clipped labels, a tool bar showing only its call, times only
 * relative to the start.
 */

const cli = useScriptedCli();
const browser = useBrowser();

/** What the timeline drew for each bar (`__kimiVis.labels()`). */
type DrawnLabels = ({ text: string; whole: boolean } | null)[];

describe('kimi-ts vis: the first look', { timeout: 90_000 }, () => {
  it('titles in the picker, time by kind adding up with approvals apart, whole labels, a tool bar’s call and result, clock times', async () => {
    const { sandbox } = await cli.setup([
      { text: 'Older answer.' },
      {
        text: 'Let me list it.',
        toolCalls: [{ id: 'c1', name: 'Shell', args: { command: 'echo listed-it' } }],
      },
      { text: 'Listed.' },
    ]);
    const older = await sandbox.run(['--print', '-p', 'an older session about the build']);
    expect(older.code, older.stderr).toBe(0);
    // The line shell asks before the command: an approval wait on the timeline. The person answers
    // after reading it (an answer typed ahead lands in the same millisecond: no wait to show).
    const child = sandbox.spawn(['--ui', 'line']);
    const finished = collect(child);
    const asked = waitForOutput(child.stdout!, /approve\?/);
    child.stdin!.write('list the work folder\n');
    await asked;
    await delay(50);
    child.stdin!.end('y\n/exit\n');
    const shell = await finished;
    expect(shell.code, shell.stderr).toBe(0);
    expect(shell.stdout).toContain('Listed.');

    const vis = await startVisCli(sandbox);
    cli.defer(() => vis.stop());
    const api = `${vis.origin}/api/vis/sessions`;
    const auth = { Authorization: `Bearer ${vis.token}` };
    const { sessions } = (await (await fetch(api, { headers: auth })).json()) as {
      sessions: { id: string; title: string }[];
    };
    expect(sessions.map((s) => s.title)).toEqual([
      'list the work folder',
      'an older session about the build',
    ]);
    const id = sessions[0]!.id;
    const model = (await (await fetch(`${api}/${id}/model`, { headers: auth })).json()) as {
      title: string;
      spans: { kind: string; label: string; resultEvent?: number }[];
      summary: { seconds: Record<string, number> };
    };
    expect(model.title).toBe('list the work folder');
    const { seconds } = model.summary;
    const parts = ['model', 'tools', 'approvals', 'questions', 'otherInTurns', 'betweenTurns'];
    expect(parts.reduce((sum, kind) => sum + (seconds[kind] ?? Number.NaN), 0)).toBeCloseTo(
      seconds.total!,
      6,
    );
    expect(seconds.approvals).toBeGreaterThan(0);

    const watched = await browser.newPage({ width: 1400, height: 900 });
    cli.defer(() => watched.context.close());
    const { page } = watched;
    await page.goto(vis.url);
    await page.waitForSelector('html[data-vis-rendered]', { timeout: 20_000 });

    // The picker names sessions by title, with when and a short id.
    const options = await page.locator('select[aria-label="session"] option').allTextContents();
    expect(options[0]).toMatch(new RegExp(`^list the work folder — .+ · ${id.slice(0, 8)}$`));
    expect(options[1]).toContain('an older session about the build');

    // Time by kind: approvals are their own part; the legend's parts make the whole.
    expect(await page.locator('[data-chart="time"] rect[data-kind="waiting for approval"]').count()).toBe(1);
    expect(await page.locator('[data-chart="time"] .legend').textContent()).toContain('waiting for approval');

    // Labels: the turn's bar label is drawn whole (after its bar when the bar is too short).
    const turnIndex = model.spans.findIndex((s) => s.kind === 'turn');
    const labels = (await page.evaluate('globalThis.__kimiVis.labels()')) as DrawnLabels;
    expect(labels[turnIndex]).toEqual({ text: model.spans[turnIndex]!.label, whole: true });

    // A click on the tool bar: its call and its result, with the clock time.
    const toolIndex = model.spans.findIndex((s) => s.kind === 'tool');
    expect(model.spans[toolIndex]!.resultEvent).toBeGreaterThan(0);
    const box = (await page.evaluate(`(() => {
      const hook = globalThis.__kimiVis;
      const b = hook.spanBox(${toolIndex});
      return { x: hook.left + b.x + Math.min(4, b.width / 2), y: hook.top + b.y + b.height / 2 };
    })()`)) as { x: number; y: number };
    await page.mouse.click(box.x, box.y);
    const details = page.locator('.detail');
    await expect.poll(() => details.count()).toBe(2);
    await expect.poll(() => details.nth(0).locator('pre').textContent()).toContain('"ToolCall"');
    await expect.poll(() => details.nth(1).locator('pre').textContent()).toContain('"ToolResult"');
    expect(await details.nth(1).locator('pre').textContent()).toContain('listed-it');
    expect(await details.nth(0).locator('h3').textContent()).toMatch(/the call \d{1,2}:\d{2}:\d{2}/);
    expect(await page.locator('.selected-bar').textContent()).toMatch(
      /Shell echo listed-it — .+ from \d{1,2}:\d{2}:\d{2}( [AP]M)? \(\+/,
    );
    expect(await page.locator('.line-list li .when').first().textContent()).toMatch(/^\d{1,2}:\d{2}:\d{2}/);
    await watched.screenshot('vis-first-hour', { docs: 'vis-tool-call.png' });
    expect(watched.errors).toEqual([]);
  });
});
