import { describe, expect, it } from 'vitest';
import { RunCancelled } from '../../soul/errors.js';
import { Approval } from '../../toolset/approval/approval.js';
import { KimiToolset } from '../../toolset/kimi-toolset.js';
import { dispatchAll, toolCall } from '../../toolset/test-support/dispatch.js';
import { testPolicy, withTestPolicy } from '../../toolset/test-support/test-policy.js';
import { toolErrorKind } from '../../toolset/tool-errors.js';
import type { UserChannel, UserQuestion } from '../user-channel.js';
import { AFK_NOTE } from './ask-user-question.js';
import {
  answer,
  cancelWith,
  leaveOpen,
  questionUI,
  runToolsInSoul,
  wireUserChannel,
} from './test-support/question-ui.js';

async function toolsetWith(approval = new Approval()): Promise<KimiToolset> {
  const toolset = new KimiToolset({ policy: testPolicy({ workDir: process.cwd(), approval }), approval });
  await toolset.loadTools(
    ['kimi-ts/tools/ask-user/ask-user-question:AskUserQuestion'],
    { userChannel: wireUserChannel },
    { baseDir: '/' },
  );
  return toolset;
}

const DB_QUESTION = {
  question: 'Which database should the service use?',
  header: 'Database',
  options: [
    { label: 'Postgres (Recommended)', description: 'Already used by the other services.' },
    { label: 'SQLite', description: 'No server to run.' },
  ],
};
const ask = (questions: unknown[] = [DB_QUESTION]) => toolCall('ask-1', 'AskUserQuestion', { questions });

describe('AskUserQuestion', () => {
  it('asks over the wire and returns the answers as JSON', async () => {
    const { ui, questions } = questionUI(() =>
      answer({ [DB_QUESTION.question]: 'SQLite', 'Which tests?': 'unit, e2e' }),
    );
    const multi = {
      question: 'Which tests?',
      options: [{ label: 'unit' }, { label: 'e2e' }, { label: 'bench' }],
      multi_select: true,
    };
    const { results, error } = await runToolsInSoul(await toolsetWith(), [ask([DB_QUESTION, multi])], ui);
    expect(error).toBeUndefined();
    expect(questions).toHaveLength(1);
    expect(questions[0]!.payload).toMatchObject({
      tool_call_id: 'ask-1',
      questions: [
        {
          question: DB_QUESTION.question,
          header: 'Database',
          options: DB_QUESTION.options,
          multi_select: false,
          body: '',
          other_label: '',
          other_description: '',
        },
        {
          question: 'Which tests?',
          header: '',
          options: [
            { label: 'unit', description: '' },
            { label: 'e2e', description: '' },
            { label: 'bench', description: '' },
          ],
          multi_select: true,
        },
      ],
    });
    expect(results[0]!.return_value).toEqual({
      is_error: false,
      output: JSON.stringify({ answers: { [DB_QUESTION.question]: 'SQLite', 'Which tests?': 'unit, e2e' } }),
      message: 'User has answered.',
      display: [{ type: 'brief', text: 'User answered' }],
    });
  });

  it('does not ask when no user is present (afk or runtime afk), but still asks in yolo', async () => {
    for (const approval of [new Approval({ state: { afk: true } }), runtimeAfk()]) {
      const { ui, questions } = questionUI(() => answer({ x: 'y' }));
      const { results } = await runToolsInSoul(await toolsetWith(approval), [ask()], ui);
      expect(questions).toHaveLength(0);
      expect(results[0]!.return_value).toMatchObject({
        is_error: false,
        output: JSON.stringify({ answers: {}, note: AFK_NOTE }),
      });
    }
    const { ui, questions } = questionUI(() => answer({ [DB_QUESTION.question]: 'Postgres (Recommended)' }));
    const { results } = await runToolsInSoul(
      await toolsetWith(new Approval({ state: { yolo: true } })),
      [ask()],
      ui,
    );
    expect(questions).toHaveLength(1);
    expect(results[0]!.return_value.message).toBe('User has answered.');
  });

  it('tells the model when the user dismissed the question', async () => {
    const { ui } = questionUI(() => answer({}));
    const { results } = await runToolsInSoul(await toolsetWith(), [ask()], ui);
    const value = results[0]!.return_value;
    expect(value).toMatchObject({
      is_error: false,
      message: 'User dismissed the question without answering.',
    });
    expect(JSON.parse(value.output as string)).toMatchObject({ answers: {} });
    expect(JSON.parse(value.output as string).note).toMatch(/dismissed the question/);
  });

  it('gives a clear error when the client cannot show questions', async () => {
    const { ui } = questionUI(() => cancelWith('The wire client does not support questions.'));
    const { results } = await runToolsInSoul(await toolsetWith(), [ask()], ui);
    expect(results[0]!.return_value).toMatchObject({ is_error: true });
    expect(results[0]!.return_value.message).toMatch(
      /^The connected client cannot show interactive questions\. Do NOT call this tool again/,
    );
  });

  it('cancels the question when the run is cancelled while waiting', async () => {
    const cancel = new AbortController();
    const { ui, questions } = questionUI(() => {
      queueMicrotask(() => cancel.abort(new Error('user pressed Ctrl-C')));
      return leaveOpen;
    });
    const { results, error } = await runToolsInSoul(await toolsetWith(), [ask()], ui, cancel.signal);
    expect(toolErrorKind(results[0]!.return_value)).toBe('cancelled');
    expect(questions[0]!.state.status).toBe('cancelled');
    expect(error === undefined || error instanceof RunCancelled).toBe(true);
  });

  it('reports that nobody can be asked outside a soul run', async () => {
    const [result] = await dispatchAll(await toolsetWith(), [ask()]);
    expect(result!.return_value).toMatchObject({ is_error: true });
    expect(result!.return_value.display).toEqual([{ type: 'brief', text: 'Wire unavailable' }]);
  });

  it('asks whoever the injected user channel leads to, with no wire at all', async () => {
    const asked: { questions: UserQuestion[]; toolCallId: string }[] = [];
    const userChannel: UserChannel = {
      async ask(questions, { toolCallId }) {
        asked.push({ questions, toolCallId });
        return { status: 'answered', answers: { [DB_QUESTION.question]: 'Postgres (Recommended)' } };
      },
      showPlan() {},
    };
    const toolset = new KimiToolset(withTestPolicy({ approval: new Approval() }));
    await toolset.loadTools(
      ['kimi-ts/tools/ask-user/ask-user-question:AskUserQuestion'],
      { userChannel },
      { baseDir: '/' },
    );
    const [result] = await dispatchAll(toolset, [ask()]);
    expect(asked.map((a) => [a.toolCallId, a.questions[0]!.question])).toEqual([
      ['ask-1', DB_QUESTION.question],
    ]);
    expect(result!.return_value).toMatchObject({
      is_error: false,
      output: JSON.stringify({ answers: { [DB_QUESTION.question]: 'Postgres (Recommended)' } }),
    });
  });

  it('accepts 1-4 questions of 2-4 options and refuses anything else', async () => {
    const toolset = await toolsetWith();
    const options = (n: number) => Array.from({ length: n }, (_, i) => ({ label: `option ${i}` }));
    const question = (n: number) => ({ question: 'Q?', options: options(n) });
    const invalid = [[], Array(5).fill(question(2)), [question(1)], [question(5)], [{ options: options(2) }]];
    for (const questions of invalid) {
      const [result] = await dispatchAll(toolset, [ask(questions)]);
      expect(toolErrorKind(result!.return_value)).toBe('validate');
    }
    const { ui } = questionUI(() => answer({ 'Q?': 'option 0' }));
    const { results } = await runToolsInSoul(toolset, [ask(Array(4).fill(question(4)))], ui);
    expect(results[0]!.return_value.is_error).toBe(false);
  });
});

function runtimeAfk(): Approval {
  const approval = new Approval();
  approval.setRuntimeAfk(true);
  return approval;
}
