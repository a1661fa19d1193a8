import { useRef, useState } from 'preact/hooks';
import { revealInvisible } from '../../../util/reveal-invisible.js';
import { askingAgentLabel } from '../../common/asking-agent.js';
import { MODIFIER_KEYS } from './answer-guard.js';
import type { PendingQuestion } from './conversation-state.js';
import { MarkdownView } from './markdown-view.js';
import { useAnswerGuard } from './use-answer-guard.js';
import { useArmedPanel } from './use-armed-panel.js';
import type { QuestionAnswers, QuestionItem } from './wire-types.js';

const OTHER = '\u0000other';

/**
 * Keys made for the question's choices: pick (Space), send (Enter), move (Tab, the arrows of a radio
 * group), leave. Any other key on a choice is typing meant for somewhere else.
 */
const CHOICE_KEYS = new Set([
  'Enter',
  ' ',
  'Tab',
  'Escape',
  'ArrowUp',
  'ArrowDown',
  'ArrowLeft',
  'ArrowRight',
]);

/**
 * The question panel of AskUserQuestion: each question with its options (radio buttons, or check
 * boxes for multi-select) and a free-text "Other". Answers map the question text to the chosen
 * label(s), comma-joined for multi-select; Dismiss answers nothing.
 */
export function QuestionPanel({
  question,
  onAnswer,
}: {
  question: PendingQuestion;
  onAnswer: (answers: QuestionAnswers) => void;
}) {
  const { request } = question;
  const asker = askingAgentLabel(request);
  const [picked, setPicked] = useState<Record<number, string[]>>({});
  const [other, setOther] = useState<Record<number, string>>({});
  const panel = useRef<HTMLFormElement>(null);
  // Before useArmedPanel: its first focus is the one the guard must hear of.
  const { guard } = useAnswerGuard(panel, request.id);
  // An Enter or a click in the first moments sends nothing; typing elsewhere keeps its focus.
  const armed = useArmedPanel(panel, request.id, 'input');

  const toggle = (index: number, label: string, multi: boolean) =>
    setPicked((now) => {
      const current = now[index] ?? [];
      const next = multi
        ? current.includes(label)
          ? current.filter((l) => l !== label)
          : [...current, label]
        : [label];
      return { ...now, [index]: next };
    });

  // Keys typed in flight (the panel took the focus as the person went on typing) never pick or send:
  // a Space would check the focused option and the Enter after it send it. The guard drops them.
  const onKeyDown = (event: KeyboardEvent) => {
    const target = event.target;
    // The "Other" answer's text field: what is typed there is an answer being written.
    if (target instanceof HTMLInputElement && target.type === 'text') return;
    if (MODIFIER_KEYS.has(event.key)) return;
    if (event.repeat || !guard.current.admitKey(event.key, CHOICE_KEYS.has(event.key)))
      event.preventDefault();
  };

  const submit = (event: Event) => {
    event.preventDefault();
    if (!armed) return;
    const answers: QuestionAnswers = {};
    request.questions.forEach((item, index) => {
      const labels = (picked[index] ?? []).map((label) =>
        label === OTHER ? (other[index] ?? '').trim() : label,
      );
      const chosen = labels.filter((label) => label.length > 0);
      if (chosen.length > 0) answers[item.question] = chosen.join(', ');
    });
    onAnswer(answers);
  };

  return (
    <form
      ref={panel}
      class="panel question"
      aria-label="question"
      data-armed={armed ? 'true' : 'false'}
      onSubmit={submit}
      onKeyDown={onKeyDown}
    >
      {/* Which subagent asks (the model's text: shown as text, invisibles as markers). */}
      {asker !== null ? (
        <p class="queue" data-testid="question-asker">
          {revealInvisible(`${asker} asks`)}
        </p>
      ) : null}
      {request.questions.map((item, index) => (
        <QuestionFieldset
          key={index}
          item={item}
          index={index}
          picked={picked[index] ?? []}
          other={other[index] ?? ''}
          onToggle={(label) => toggle(index, label, item.multi_select)}
          onOther={(text) => {
            setOther((now) => ({ ...now, [index]: text }));
            if (!(picked[index] ?? []).includes(OTHER)) toggle(index, OTHER, item.multi_select);
          }}
        />
      ))}
      <div class="choices">
        <button type="submit" disabled={question.rpcId === null}>
          Answer
        </button>
        <button type="button" disabled={question.rpcId === null} onClick={() => armed && onAnswer({})}>
          Dismiss
        </button>
      </div>
    </form>
  );
}

function QuestionFieldset(props: {
  item: QuestionItem;
  index: number;
  picked: string[];
  other: string;
  onToggle: (label: string) => void;
  onOther: (text: string) => void;
}) {
  const { item, index, picked } = props;
  const type = item.multi_select ? 'checkbox' : 'radio';
  const name = `q${index}`;
  return (
    <fieldset>
      <legend>
        {item.header ? <span class="tag">{item.header}</span> : null} {item.question}
      </legend>
      {item.body ? <MarkdownView text={item.body} /> : null}
      {item.options.map((option) => (
        <label key={option.label} class="option">
          <input
            type={type}
            name={name}
            checked={picked.includes(option.label)}
            onChange={() => props.onToggle(option.label)}
          />{' '}
          {option.label}
          {option.description ? <span class="hint"> — {option.description}</span> : null}
        </label>
      ))}
      <label class="option other">
        <input
          type={type}
          name={name}
          checked={picked.includes(OTHER)}
          onChange={() => props.onToggle(OTHER)}
        />{' '}
        {item.other_label || 'Other'}
        <input
          type="text"
          aria-label={`${item.question}: other answer`}
          placeholder={item.other_description || 'Type your answer'}
          value={props.other}
          onInput={(e) => props.onOther((e.target as HTMLInputElement).value)}
        />
      </label>
    </fieldset>
  );
}
