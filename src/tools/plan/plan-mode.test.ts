import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readSessionState, updateSessionState } from '../../session/state.js';
import { isPlainPlanSlug, planFileOf } from './plan-mode.js';
import { PLAN_HEROES, SLUG_ATTEMPTS } from './plan-slug.js';
import { type PlanFixture, planFixture } from './test-support/plan-fixture.js';

let fixture: PlanFixture;
beforeEach(async () => {
  fixture = await planFixture();
});
afterEach(async () => {
  await fixture.cleanup();
});

const heroSlug = new RegExp(
  `^(${PLAN_HEROES.join('|')})-(${PLAN_HEROES.join('|')})-(${PLAN_HEROES.join('|')})$`,
);

describe('SessionPlanMode', () => {
  it('enters with a three-hero plan file under the plans folder and persists it in state.json', async () => {
    const changes: boolean[] = [];
    const planMode = await fixture.open({ onChange: (active) => changes.push(active) });
    expect(planMode.isActive()).toBe(false);
    expect(planMode.planFilePath()).toBeNull();

    const path = await planMode.enter();
    expect(dirname(path)).toBe(fixture.plansDir);
    expect(existsSync(fixture.plansDir)).toBe(true);
    const slug = basename(path, '.md');
    expect(slug).toMatch(heroSlug);
    expect(planMode.isActive()).toBe(true);
    expect(planMode.planFilePath()).toBe(path);
    expect(changes).toEqual([true]);

    const state = await readSessionState(fixture.statePath);
    expect(state).toMatchObject({ plan_mode: true, plan_slug: slug });
    expect(state.plan_session_id).toMatch(/^[0-9a-f]{32}$/);

    // Entering again changes nothing.
    expect(await planMode.enter()).toBe(path);
    expect(changes).toEqual([true]);
  });

  it('comes back after a restart with the same plan file, and exit clears the state but keeps the file', async () => {
    const first = await fixture.open();
    const path = await first.enter();
    await writeFile(path, '# Plan\n');

    const restarted = await fixture.open();
    expect(restarted.isActive()).toBe(true);
    expect(restarted.planFilePath()).toBe(path);
    expect(await restarted.readPlan()).toBe('# Plan\n');

    await restarted.exit();
    expect(restarted.isActive()).toBe(false);
    expect(restarted.planFilePath()).toBeNull();
    expect(await readSessionState(fixture.statePath)).toMatchObject({
      plan_mode: false,
      plan_session_id: null,
      plan_slug: null,
    });
    expect(existsSync(path)).toBe(true);

    // A new planning session gets a new file name.
    const again = await restarted.enter();
    expect(again).not.toBe(path);
  });

  it('names the plan file of a session that starts in plan mode without one (e.g. default_plan_mode)', async () => {
    await updateSessionState(fixture.statePath, (state) => ({ ...state, plan_mode: true }));
    const planMode = await fixture.open();
    expect(planMode.planFilePath()).toMatch(/\.md$/);
    const state = await readSessionState(fixture.statePath);
    expect(state.plan_slug).toMatch(heroSlug);
    expect(state.plan_session_id).not.toBeNull();
  });

  it('skips names already taken, and after 20 taken names adds part of the plan session id', async () => {
    // The first attempt picks heroes 0,0,0 (taken); the second 1,1,1 (free).
    const picks = [0, 0, 0, 1, 1, 1];
    const taken = `${PLAN_HEROES[0]}-${PLAN_HEROES[0]}-${PLAN_HEROES[0]}`;
    await (await fixture.open()).enter().then((p) => writeFile(join(dirname(p), `${taken}.md`), 'old'));
    const second = await fixture.open({ pickIndex: () => picks.shift() ?? 2 });
    await second.exit();
    const path = await second.enter();
    expect(basename(path, '.md')).toBe(`${PLAN_HEROES[1]}-${PLAN_HEROES[1]}-${PLAN_HEROES[1]}`);

    let attempts = 0;
    const third = await fixture.open({
      pickIndex: () => {
        attempts++;
        return 0;
      },
    });
    await third.exit();
    const fallback = await third.enter();
    expect(attempts).toBe(SLUG_ATTEMPTS * 3);
    const { plan_session_id } = await readSessionState(fixture.statePath);
    expect(basename(fallback, '.md')).toBe(`${taken}-${plan_session_id!.slice(0, 8)}`);
  });

  it('schedules the activation reminder only when a UI turns plan mode on', async () => {
    const planMode = await fixture.open();
    await planMode.enter();
    expect(planMode.consumeActivationReminder()).toBe(false);
    await planMode.exit();

    expect(await planMode.setFromUser(true)).toBe(true);
    expect(planMode.consumeActivationReminder()).toBe(true);
    expect(planMode.consumeActivationReminder()).toBe(false);

    planMode.scheduleActivationReminder();
    expect(await planMode.setFromUser(false)).toBe(false);
    expect(planMode.consumeActivationReminder()).toBe(false);
    planMode.scheduleActivationReminder(); // ignored while plan mode is off
    await planMode.enter();
    expect(planMode.consumeActivationReminder()).toBe(false);
    planMode.scheduleActivationReminder(); // e.g. --plan on a session already in plan mode
    expect(planMode.consumeActivationReminder()).toBe(true);
  });

  it('applies changes one at a time in the order they were asked for', async () => {
    const planMode = await fixture.open();
    await Promise.all([planMode.enter(), planMode.exit(), planMode.setFromUser(true), planMode.exit()]);
    expect(planMode.isActive()).toBe(false);
    expect((await readSessionState(fixture.statePath)).plan_mode).toBe(false);
  });

  it('clearPlan deletes the current plan file', async () => {
    const planMode = await fixture.open();
    const path = await planMode.enter();
    await writeFile(path, 'plan');
    await planMode.clearPlan();
    expect(existsSync(path)).toBe(false);
    expect(await planMode.readPlan()).toBeNull();
  });
});

describe("a saved plan_slug that is not a plain name (state.json from a fleet's store, a shared folder)", () => {
  it('names no file outside the plans folder: an active plan mode gets a new plain name', async () => {
    for (const slug of ['../../other-project/AGENTS', '/etc/motd', '..', '.hidden', 'a/b']) {
      await updateSessionState(fixture.statePath, (state) => ({
        ...state,
        plan_mode: true,
        plan_session_id: 'p1',
        plan_slug: slug,
      }));
      expect(
        planFileOf({ plan_mode: true, plan_session_id: 'p1', plan_slug: slug }, fixture.plansDir),
      ).toBeNull();
      const planMode = await fixture.open();
      const path = planMode.planFilePath();
      expect(path && dirname(path)).toBe(fixture.plansDir);
      expect(basename(path ?? '')).not.toContain(slug);
    }
    expect(isPlainPlanSlug('wolverine-storm-rogue-1a2b3c4d')).toBe(true);
  });
});
