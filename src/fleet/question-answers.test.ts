import { describe, expect, it } from 'vitest';
import {
  type AskedQuestion,
  answersFromChoices,
  checkAnswers,
  InvalidQuestionAnswer,
} from './question-answers.js';

const db: AskedQuestion = {
  question: 'Which database?',
  multi_select: false,
  options: [
    { label: 'Postgres', description: '' },
    { label: 'SQLite', description: 'a file' },
  ],
};
const langs: AskedQuestion = {
  question: 'Which languages?',
  multi_select: true,
  options: [
    { label: 'Go', description: '' },
    { label: 'Rust', description: '' },
    { label: 'C, C++', description: 'one label with a comma' },
  ],
};

describe('answersFromChoices', () => {
  it.each([
    [[db], ['SQLite'], { 'Which database?': 'SQLite' }],
    [[db], ['1'], { 'Which database?': 'Postgres' }],
    [[db, langs], ['2', 'Go, 2'], { 'Which database?': 'SQLite', 'Which languages?': 'Go, Rust' }],
    [[langs], ['C, C++'], { 'Which languages?': 'C, C++' }],
    [[langs], ['Go,Go'], { 'Which languages?': 'Go' }],
  ])('%j answered by %j', (questions, choices, expected) => {
    expect(answersFromChoices(questions, choices)).toEqual(expected);
  });

  it.each([
    [[db], ['Postgress'], /not an option of question 1/],
    [[db], ['3'], /not an option/],
    [[db], ['0'], /not an option/],
    [[db], ['Postgres, SQLite'], /not an option/],
    [[db], [''], /not an option/],
    [[db, langs], ['1'], /2 questions wait/],
    [[db], ['1', '2'], /give one --answer for each/],
    [[langs], ['Go, Python'], /"Python" is not an option/],
  ])('%j refuses %j', (questions, choices, problem) => {
    expect(() => answersFromChoices(questions, choices)).toThrow(InvalidQuestionAnswer);
    expect(() => answersFromChoices(questions, choices)).toThrow(problem);
  });

  it('a single-select question takes one label, even when each is an option', () => {
    expect(() => answersFromChoices([{ ...langs, multi_select: false }], ['Go, Rust'])).toThrow(
      InvalidQuestionAnswer,
    );
  });
});

describe('checkAnswers (a page’s answers)', () => {
  it('takes labels of the questions asked, and nothing as a dismissal', () => {
    expect(checkAnswers([db, langs], { 'Which languages?': 'Rust, Go' })).toEqual({
      'Which languages?': 'Rust, Go',
    });
    expect(checkAnswers([db], {})).toEqual({});
  });

  it('refuses free text and answers to questions nobody asked', () => {
    expect(() => checkAnswers([db], { 'Which database?': 'MySQL; rm -rf /' })).toThrow(InvalidQuestionAnswer);
    expect(() => checkAnswers([db], { 'Approve the push?': 'yes' })).toThrow(/not asked/);
  });
});
