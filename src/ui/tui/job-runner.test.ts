import { describe, expect, it } from 'vitest';
import { RunCancelled } from '../../soul/errors.js';
import { JobRunner } from './job-runner.js';
import { tuiStyle } from './tui-style.js';
import { TurnView } from './turn-view.js';

const style = tuiStyle(false);

function runner() {
  const events: string[] = [];
  const views: TurnView[] = [];
  const jobs = new JobRunner({
    style,
    startView: () => {
      const view = new TurnView({ style, workDir: '/w', thinking: 'stream' });
      views.push(view);
      events.push('started');
      return view;
    },
    tick: () => events.push('tick'),
    ended: () => events.push(`ended, running: ${jobs.running !== null}`),
  });
  return { jobs, events, views, text: () => views.map((view) => view.render(80).join('\n')).join('\n') };
}

describe('JobRunner', () => {
  it('is running with the job’s view while it works, idle (and says so) once it ends', async () => {
    const { jobs, events, views } = runner();
    expect(jobs.running).toBeNull();
    let seen: TurnView | undefined;
    await jobs.run(async (view) => {
      seen = jobs.running?.view;
      expect(view).toBe(views[0]);
    });
    expect(seen).toBe(views[0]);
    expect(jobs.running).toBeNull();
    expect(events.filter((e) => e !== 'tick')).toEqual(['started', 'ended, running: false']);
  });

  it('a cancel reaches the job’s signal and leaves “(interrupted)” in its view', async () => {
    const { jobs, text } = runner();
    const done = jobs.run(
      (_view, signal) =>
        new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason))),
    );
    expect(jobs.running).not.toBeNull();
    jobs.cancel();
    await done;
    expect(text()).toContain('(interrupted)');
    expect(jobs.running).toBeNull();
  });

  it('a hostile error message is shown inert (no escape sequence reaches the terminal)', async () => {
    const { jobs, text } = runner();
    await jobs.run(async () => {
      throw new Error('boom \x1b]0;owned\x07\x1b[2J done');
    });
    const shown = text();
    expect(shown).toContain('Error:');
    expect(shown).toContain('boom');
    expect(shown).not.toContain('\x1b]0;');
    expect(shown).not.toContain('\x1b[2J');
  });

  it('stop() cancels a job and gives up waiting after its timeout when the job ignores the cancel', async () => {
    const { jobs, events } = runner();
    let signal: AbortSignal | undefined;
    void jobs.run((_view, jobSignal) => {
      signal = jobSignal;
      return new Promise(() => {});
    });
    await jobs.stop(20);
    expect(signal?.aborted).toBe(true);
    expect(signal?.reason).toBeInstanceOf(RunCancelled);
    expect(jobs.running).toBeNull();
    // The job never ended: the host was not told it did.
    expect(events.filter((e) => e.startsWith('ended'))).toEqual([]);
  });
});
