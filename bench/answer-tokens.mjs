// The long answer of the terminal UI benchmarks: Markdown with headings, code blocks, lists and
// tables, cut into 4-character tokens.

/** `count` tokens of the answer, in order. */
export function answerTokens(count) {
  const blocks = [];
  let length = 0;
  for (let i = 0; length < count * 4; i++) {
    const block = [
      `## Step ${i}\n\nWe change **${i}** things in \`src/file${i}.ts\`, and this sentence is long enough to wrap on a terminal.\n\n`,
      `\`\`\`ts\nexport function step${i}(input: string): number {\n  return input.split(',').map(Number).reduce((a, b) => a + b, 0) * ${i};\n}\n\`\`\`\n\n`,
      `- first item ${i}\n- second with *emphasis*\n- third\n\n`,
      `| name | value |\n| --- | --- |\n| a${i} | ${i * 2} |\n\n`,
    ][i % 4];
    blocks.push(block);
    length += block.length;
  }
  const text = blocks.join('');
  const tokens = [];
  for (let i = 0; i < text.length && tokens.length < count; i += 4) tokens.push(text.slice(i, i + 4));
  return tokens;
}
